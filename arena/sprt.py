"""The sequential probability ratio test that answers "is the candidate better than the
baseline?", for games of any number of players.

What is scored (multiplayer, duplicate): the candidate and the baseline each play the same
seat of the same deal against the same opponents, in two matches (a *pair*). The pair is a win
when the candidate finished at a better rank in that seat than the baseline did, a draw at the
same rank, a loss at a worse one. The score is the mean over pairs (win 1, draw 1/2, loss 0):
the chance that the candidate, put where the baseline was, does better. The deal's luck and the
seat's advantage cancel within a pair.

The test: the generalised SPRT with a normal approximation (M. Van den Bergh's GSPRT, as used
by fishtest and fastchess) between H0 "the score is L(elo0)" and H1 "the score is L(elo1)",
where L(e) = 1 / (1 + 10^(-e / 400)) is the logistic Elo curve. After N pairs with mean x and
per-pair variance v, LLR = N (s1 - s0) (2x - s0 - s1) / (2 v). H1 is accepted once LLR reaches
ln((1 - beta) / alpha), H0 once it falls to ln(beta / (1 - alpha)). A half win and a half loss
are added to the counts as a prior, so that one lucky pair cannot decide (with no variance yet,
the LLR would be infinite) and identical play (draws only) leaves the LLR where the midpoint of
the two hypotheses puts it.

Pure arithmetic: no I/O, no state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from referee.core.rng import MAX_SEED, Rng

Z95 = 1.959964   # the two-sided 95 % normal quantile
PRIOR = 0.5      # a half win and a half loss, added to the counts (see above)


def logistic(elo: float) -> float:
    """The expected score of a player `elo` points stronger (the logistic Elo curve)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_of(score: float) -> float:
    """The Elo difference a score stands for (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True)
class Hypotheses:
    """H0: the candidate is `elo0` better; H1: `elo1` better; error rates alpha, beta."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        for name in ("alpha", "beta"):
            if not 0.0 < getattr(self, name) < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5")

    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below lower, H1 at or above upper."""
        return (math.log(self.beta / (1.0 - self.alpha)),
                math.log((1.0 - self.beta) / self.alpha))


@dataclass(frozen=True)
class Tally:
    """Pairs won, drawn and lost by the candidate against the baseline."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def pairs(self) -> int:
        """How many pairs were scored."""
        return self.wins + self.draws + self.losses

    def add(self, outcome: float) -> "Tally":
        """This tally with one more pair (1 a win, 0.5 a draw, 0 a loss)."""
        if outcome == 1.0:
            return Tally(self.wins + 1, self.draws, self.losses)
        if outcome == 0.5:
            return Tally(self.wins, self.draws + 1, self.losses)
        if outcome == 0.0:
            return Tally(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"a pair's outcome is 1, 0.5 or 0, not {outcome!r}")

    def moments(self) -> tuple[float, float, float]:
        """(n, mean, per-pair variance), with the prior's half win and half loss counted."""
        wins, draws, losses = self.wins + PRIOR, self.draws, self.losses + PRIOR
        n = wins + draws + losses
        mean = (wins + draws / 2) / n
        return n, mean, (wins + draws / 4) / n - mean * mean


def llr(tally: Tally, hypotheses: Hypotheses) -> float:
    """The log-likelihood ratio of H1 against H0 after these pairs (0 before any)."""
    if tally.pairs == 0:
        return 0.0
    n, mean, variance = tally.moments()
    s0, s1 = logistic(hypotheses.elo0), logistic(hypotheses.elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def decide(tally: Tally, hypotheses: Hypotheses) -> str | None:
    """'accepted' (H1: the candidate is better), 'rejected' (H0), or None: play on."""
    lower, upper = hypotheses.bounds()
    ratio = llr(tally, hypotheses)
    if ratio >= upper:
        return "accepted"
    if ratio <= lower:
        return "rejected"
    return None


def estimate(tally: Tally) -> dict:
    """The score (mean per pair) with its 95 % interval, and the same in Elo."""
    if tally.pairs == 0:
        return {"score": None, "interval": None, "elo": None, "elo_interval": None}
    _, mean, variance = tally.moments()
    half = Z95 * math.sqrt(variance / tally.pairs)
    low, high = max(0.0, mean - half), min(1.0, mean + half)
    return {"score": round(mean, 4), "interval": [round(low, 4), round(high, 4)],
            "elo": _rounded(elo_of(mean)), "elo_interval": [_rounded(elo_of(low)),
                                                            _rounded(elo_of(high))]}


def summary(tally: Tally, hypotheses: Hypotheses) -> dict:
    """The test as it stands: `result` ('accepted', 'rejected', or None while undecided), the
    tally, the LLR and its bounds, the hypotheses, the score and Elo with their intervals."""
    lower, upper = hypotheses.bounds()
    return {"result": decide(tally, hypotheses), "pairs": tally.pairs, "wins": tally.wins,
            "draws": tally.draws, "losses": tally.losses,
            "llr": round(llr(tally, hypotheses), 3),
            "bounds": [round(lower, 3), round(upper, 3)],
            "elo0": hypotheses.elo0, "elo1": hypotheses.elo1, "alpha": hypotheses.alpha,
            "beta": hypotheses.beta, **estimate(tally)}


def _rounded(value: float) -> float | None:
    return None if math.isinf(value) else round(value, 1)


def pair_outcome(candidate_rank: int, baseline_rank: int) -> float:
    """A pair's outcome from the two ranks in one seat (rank 1 is best)."""
    if candidate_rank < baseline_rank:
        return 1.0
    return 0.5 if candidate_rank == baseline_rank else 0.0


def pair_seats(focus: str, opponents: list[str], seat: int) -> list[str]:
    """The seats of one match of a pair: `focus` at `seat`, the opponents rotated around it."""
    turned = opponents[seat % len(opponents):] + opponents[:seat % len(opponents)]
    return turned[:seat] + [focus] + turned[seat:]


def pair_seed(seed: int, index: int) -> int:
    """The deal of pair `index` of a run seeded `seed`."""
    return Rng(seed, "sprt-seeds", index).below(MAX_SEED)
