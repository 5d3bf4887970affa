"""Who sits where in a tournament (pure, no I/O): entrants' seat kinds and names, the table size
the game takes, and a round robin's plan of every table, seed and seating (arena/tournaments.py
runs them)."""

from __future__ import annotations

import itertools

from arena.errors import InvalidTournament
from referee.core.errors import RefereeError


def entrant_seat(entrant: str) -> str:
    """The seat kind of an entrant: a bot id, or a builtin policy (`builtin:random#2`, the
    second seat of builtin:random, is `builtin:random`)."""
    if ":" in entrant:  # builtin:<name>, or another driver's kind (py:<function>)
        return entrant.split("#", 1)[0]
    return f"bot:{entrant}"


# -- who may enter, and at how many seats (issue 15 item 3) -------------------------------
# The game's own player-count rule decides, with the tournament's options (Dschunke takes 2
# only with two_player_variant). A bot is entered once; a builtin may be entered several
# times to fill seats: its entries become `builtin:random`, `builtin:random#2`, … so the
# tournament's standings keep them apart. A match that seats one builtin twice cannot be
# rated on the game's leaderboard (one entrant in two seats): it is played unrated, and the
# tournament record says how many such matches there are (`unrated_matches`, `note`).

def name_entrants(entrants: list[str]) -> list[str]:
    """Repeated builtins numbered (`builtin:random`, `builtin:random#2`); bots as given."""
    seen: dict[str, int] = {}
    named = []
    for entrant in entrants:
        seen[entrant] = seen.get(entrant, 0) + 1
        repeat = entrant.startswith("builtin:") and seen[entrant] > 1
        named.append(f"{entrant}#{seen[entrant]}" if repeat else entrant)
    return named


def seats_repeat(entrants: list[str]) -> bool:
    """True when some seat kind sits twice among these entrants (so the match is unrated)."""
    kinds = [entrant_seat(e) for e in entrants]
    return len(set(kinds)) != len(kinds)


def _fits(game, players: int, options: dict) -> bool:
    try:
        game.check_setup(players, options)
    except RefereeError:
        return False
    return True


def table_size(game, asked: int | None, seats: int, options: dict) -> int:
    """The players at each table: `asked`, if the game takes it with these options (else the
    game's own error); by default the most the entrants fill among the counts it takes."""
    if asked is not None:
        game.check_setup(asked, options)
        return asked
    counts = [n for n in game.spec.player_counts() if _fits(game, n, options)]
    if not counts:
        raise InvalidTournament(f"{game.spec.title} takes no player count with these options")
    fitting = [n for n in counts if n <= seats]
    return max(fitting) if fitting else min(counts)


SEATINGS = ("rotations", "permutations")


def seatings_of(group: tuple, how: str) -> list[tuple]:
    """Each seating of a table: its cyclic rotations, or every order of its entrants (which
    also varies who sits after whom, at players! matches instead of players)."""
    if how == "permutations":
        return list(itertools.permutations(group))
    return [group[r:] + group[:r] for r in range(len(group))]


def round_robin_plan(entrants: list[str], players: int, seeds: list[int],
                     how: str = "rotations") -> list[dict]:
    """Every (table, seed, seating): the seats of each match, in a fixed order."""
    plan = []
    for table, group in enumerate(itertools.combinations(entrants, players)):
        for seed_index, seed in enumerate(seeds):
            for rotation, seats in enumerate(seatings_of(group, how)):
                plan.append({"table": table, "seed_index": seed_index, "seed": seed,
                             "rotation": rotation, "entrants": list(seats)})
    return plan


def unrated_note(count: int) -> str:
    """Why `count` matches of a rated round robin are played unrated."""
    return (f"{count} matches seat one builtin in several seats: the tournament's standings "
            f"count each of its seats as its own entrant (#2, #3, …), but these matches are "
            f"not rated on the game's leaderboard (one entrant in two seats)")


def seed_group(tid: str, seed_index: int) -> str:
    """The seed group of a round robin's matches on one seed."""
    return f"tournament:{tid}:seed:{seed_index}"
