"""The `sprt` tournament format: the service runs `referee sprt`'s test (arena/sprt.py,
arena/sprt_run.py) on its workers, a pair of matches at a time, and the tournament record shows
the test as it stands.

Entrants are [candidate, baseline]; `opponents` fill the other seats (default: the baseline).
Both matches of a pair share one seed, so the pair is one seed group: neither shows its view
to others until both are over (a twin tells the other's future). Pairs are scored in creation
order, and only once both of a pair's matches are over, so the test is sequential as written;
up to `concurrency` pairs run at once. The tournament finishes when the test decides or
`max_matches` are played.
"""

from __future__ import annotations

from arena.errors import InvalidTournament
from arena.sprt import Hypotheses, Tally, pair_outcome, pair_seats, pair_seed, summary
from referee.core.rng import MAX_SEED

SPRT_DEFAULTS = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05}


def hypotheses_of(tour: dict) -> Hypotheses:
    """The tournament's H0/H1 and error rates."""
    return Hypotheses(**{**SPRT_DEFAULTS, **(tour.get("sprt") or {})})


def validate(spec: dict, entrants: list[str], players: int) -> None:
    """Two entrants, the right number of opponents, sound hypotheses."""
    if len(entrants) != 2:
        raise InvalidTournament("an sprt has two entrants: [candidate, baseline]")
    opponents = spec.get("opponents") or []
    if opponents and len(opponents) != players - 1:
        raise InvalidTournament(f"{players}-player matches need {players - 1} opponents")
    try:
        hypotheses_of(spec)
    except (TypeError, ValueError) as err:
        raise InvalidTournament(f"sprt: {err}") from None


def opponents_of(tour: dict) -> list[str]:
    """Who sits in the seats other than the focus seat."""
    return list(tour.get("opponents") or [tour["entrants"][1]] * (tour["players"] - 1))


def pair_plan(tour: dict, index: int, derive) -> list[dict]:
    """The two matches of pair `index`: candidate, then baseline, in the focus seat."""
    seat = index % tour["players"]
    if tour.get("seed") is not None:
        seed = pair_seed(tour["seed"], index)
    else:   # from the server secret, like every seed of an event with no given seed
        seed = derive("tournament", tour["id"], "sprt-pair", index) % MAX_SEED
    others = opponents_of(tour)
    return [{"entrants": pair_seats(focus, others, seat), "seed": seed, "pair": index,
             "focus": seat} for focus in tour["entrants"]]


def tally(tour: dict, ids: list[str], results: list[dict | None]) -> Tally:
    """The pairs scored so far: in creation order, up to the first pair not yet over."""
    scored = Tally()
    for first in range(0, len(ids) - 1, 2):
        a, b = results[first], results[first + 1]
        if a is None or b is None:
            break
        seat = first // 2 % tour["players"]
        scored = scored.add(pair_outcome(a["ranks"][seat], b["ranks"][seat]))
    return scored


def state(tour: dict, ids: list[str], results: list[dict | None]) -> dict:
    """The test as it stands (arena/sprt.summary): the verdict `result` is None while it runs
    undecided, 'inconclusive' once over undecided."""
    shown = summary(tally(tour, ids, results), hypotheses_of(tour))
    if shown["result"] is None and tour["status"] != "running":
        shown["result"] = "inconclusive"
    return shown
