"""Leaderboard confidence (pure, no I/O): intervals, the minimum-games threshold, and a batch
Plackett-Luce fit over every match, shown next to the live OpenSkill rating (issue 43).

- interval: mu - 2 sigma .. mu + 2 sigma of the live OpenSkill rating (about 95% if the
  rating were normal); the ordinal mu - 3 sigma, the table's sort key, sits below it.
- MIN_GAMES: an entrant with fewer rated matches is `provisional`; it keeps its row but is
  listed apart (the page's second table), and `ranked_place` counts only the others.
- batch: the maximum-likelihood Plackett-Luce strengths over all matches at once (order does
  not matter, unlike the live rating), by Hunter's MM algorithm (Ann. Statist. 2004):
  gamma_i <- wins_i / sum over the stages i was still in of |chosen| / sum of gamma over the
  stage. A match ranked a > b > c is the stages {a} from {a,b,c}, then {b} from {b,c}; a tie
  is one stage choosing the tied group (Breslow's approximation). Each entrant also plays
  `prior` virtual won and lost stages against a fixed entrant of strength 1, so a bot that
  never won (or never lost) keeps a finite strength and the scale is anchored. Strengths
  are shown on the Elo scale, 400 log10(gamma), centred on the entrants' mean.
"""

from __future__ import annotations

import math

MIN_GAMES = 10
"""Rated matches an entrant needs to be ranked rather than listed as provisional."""


def stages(result: dict) -> list[tuple[list[str], list[str]]]:
    """A result's Plackett-Luce stages: (chosen entrants, entrants still in), best first."""
    order = sorted(zip(result["ranks"], result["entrants"]))
    groups: list[list[str]] = []
    for index, (rank, entrant) in enumerate(order):
        if index and rank == order[index - 1][0]:
            groups[-1].append(entrant)
        else:
            groups.append([entrant])
    left = [e for _, e in order]
    found = []
    for group in groups:
        if len(left) > 1 or len(group) > 1:   # the lone last entrant is not a choice
            found.append((group, list(left)))
        left = [e for e in left if e not in group]
    return found


def plackett_luce(results: list[dict], prior: float = 1.0, iterations: int = 2000,
                  tolerance: float = 1e-7) -> dict[str, float]:
    """Entrant -> Plackett-Luce strength gamma (the virtual entrant is 1), by MM until no
    centred log strength moves by more than `tolerance` in one step (the common scale
    against the virtual entrant converges slowly, but the shown Elo is centred: 2,000
    3-player results, 20 entrants: within 0.0003 Elo of 1,000 steps after 50; 0.09 s)."""
    every = [s for result in results for s in stages(result)]
    names = sorted({e for _, left in every for e in left})
    index = {e: i for i, e in enumerate(names)}
    plan = [(len(chosen), [index[e] for e in left]) for chosen, left in every]
    wins = [prior] * len(names)
    for chosen, _ in every:
        for entrant in chosen:
            wins[index[entrant]] += 1
    gamma = [1.0] * len(names)
    for _ in range(iterations):
        spent = [2 * prior / (g + 1.0) for g in gamma]   # the virtual stages
        for size, left in plan:
            share = size / sum(gamma[i] for i in left)
            for i in left:
                spent[i] += share
        new = [w / d for w, d in zip(wins, spent)]
        if prior == 0:   # unanchored: fix the scale at a geometric mean of 1
            mean = math.exp(sum(math.log(v) for v in new) / len(new))
            new = [v / mean for v in new]
        change = _centred_change(new, gamma)
        gamma = new
        if change < tolerance:
            break
    return dict(zip(names, gamma))


def _centred_change(new: list[float], old: list[float]) -> float:
    """The largest step of a log strength, the common shift of all of them taken out."""
    steps = [math.log(n / o) for n, o in zip(new, old)]
    mean = sum(steps) / len(steps) if steps else 0.0
    return max((abs(step - mean) for step in steps), default=0.0)


def batch_elo(results: list[dict], prior: float = 1.0) -> dict[str, float]:
    """Entrant -> batch strength on the Elo scale, 400 log10(gamma), centred on the mean."""
    gamma = plackett_luce(results, prior)
    if not gamma:
        return {}
    elo = {e: 400 * math.log10(g) for e, g in gamma.items()}
    mean = sum(elo.values()) / len(elo)
    return {e: round(v - mean, 1) for e, v in elo.items()}


def annotate(rows: list[dict], batch: dict[str, float], min_games: int = MIN_GAMES) -> None:
    """Add interval, provisional, ranked_place, batch_elo and batch_place to standings rows
    (in place; their order is kept)."""
    ordered = sorted(batch, key=lambda e: (-batch[e], e))
    batch_place = {e: place for place, e in enumerate(ordered, 1)}
    place = 0
    for row in rows:
        row["interval"] = [round(row["mu"] - 2 * row["sigma"], 3),
                           round(row["mu"] + 2 * row["sigma"], 3)]
        row["provisional"] = row["matches"] < min_games
        place += not row["provisional"]
        row["ranked_place"] = None if row["provisional"] else place
        row["batch_elo"] = batch.get(row["entrant"])
        row["batch_place"] = batch_place.get(row["entrant"])
