"""Head-to-head statistics as engine testers compute them: Elo with a 95% interval, the likelihood
of superiority (LOS), and the sequential probability ratio test (SPRT) of fishtest and OpenBench.

Results are counted from the tested agent's side, either per game (the trinomial model: loss,
draw, win scoring 0, 1/2, 1) or per pair of games with seats swapped (the pentanomial model: the
pair's mean score 0, 1/4, 1/2, 3/4, 1 for LL, LD, DD or WL, WD, WW). Elo is the logistic scale:
a score ``s`` is ``-400 log10(1/s - 1)`` Elo.

>>> round(score_to_elo(0.5), 6), round(elo_to_score(0.0), 6)
(0.0, 0.5)
>>> round(score_to_elo(0.75), 1)  # 3:1 odds
190.8
>>> round(los_of_games(10, 5), 4)  # Phi(5 / sqrt(15))
0.9016
>>> est = estimate(TRINOMIAL, [5, 10, 5])
>>> est.elo, est.los
(0.0, 0.5)

The SPRT is Wald's test generalised to an unknown draw rate (the GSPRT): the log-likelihood ratio
of the results under "the score is that of ``elo1``" against "the score is that of ``elo0``", each
with the outcome frequencies that maximise the likelihood under its constraint (Van den Bergh,
"A practical introduction to the GSPRT" and "Support of the MLE of a multinomial with a given
mean", the notes behind fishtest's ``LLRcalc``), zero counts regularised to 1e-3 as fishtest does.
For many results it equals the normal approximation ``(s1 - s0)(2s - s0 - s1) / (2 var / n)``
that OpenBench and cutechess use (:func:`llr_normal`):

>>> counts = [120, 200, 160]  # losses, draws, wins
>>> round(llr(TRINOMIAL, counts, 0, 10), 2), round(llr_normal(TRINOMIAL, counts, 0, 10), 2)
(1.63, 1.65)
>>> lower, upper = sprt_bounds(0.05, 0.05)
>>> round(lower, 4), round(upper, 4)
(-2.9444, 2.9444)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

from regalia.lab.stats import Z95

#: The score of each outcome of one game: loss, draw, win.
TRINOMIAL = (0.0, 0.5, 1.0)
#: The mean score of each outcome of a pair: LL, LD, DD or WL, WD, WW.
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
#: The names of the pair outcomes, in the order of :data:`PENTANOMIAL`.
PAIR_OUTCOMES = ("LL", "LD", "DD/WL", "WD", "WW")


def elo_to_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference of an expected score (``-inf`` at 0, ``+inf`` at 1).

    >>> score_to_elo(1.0), score_to_elo(0.0)
    (inf, -inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # no -0.0


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def los_of_games(wins: int, losses: int) -> float:
    """The likelihood of superiority from wins and losses (draws carry no information):
    ``Phi((W - L) / sqrt(W + L))``; 0.5 when no game was decided."""
    if wins + losses == 0:
        return 0.5
    return phi((wins - losses) / math.sqrt(wins + losses))


def moments(values: Sequence[float], counts: Sequence[float]) -> tuple[float, float, float]:
    """``(n, mean, variance)`` of results ``values[i]`` seen ``counts[i]`` times (per result)."""
    n = float(sum(counts))
    if n <= 0:
        return 0.0, 0.5, 0.0
    mean = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    var = sum(c * (v - mean) ** 2 for v, c in zip(values, counts, strict=True)) / n
    return n, mean, var


@dataclasses.dataclass(frozen=True)
class Estimate:
    """The score of a sample of results with its standard error, on the Elo scale."""

    units: int  # games (trinomial) or pairs (pentanomial)
    score: float
    stderr: float
    elo: float
    elo_low: float
    elo_high: float
    los: float


def estimate(values: Sequence[float], counts: Sequence[int], z: float = Z95) -> Estimate:
    """Elo with a ``z`` interval (95% by default) from the score and its standard error
    ``sqrt(var / n)``, and the LOS ``Phi((score - 1/2) / stderr)`` (for games, that is
    :func:`los_of_games`).

    >>> est = estimate(PENTANOMIAL, [0, 2, 10, 6, 2])  # 20 pairs
    >>> round(est.score, 4), round(est.elo, 1), round(est.elo_low, 1), round(est.elo_high, 1)
    (0.6, 70.4, 8.6, 137.1)
    >>> round(est.los, 4)
    0.9873
    """
    n, score, var = moments(values, counts)
    se = math.sqrt(var / n) if n > 0 else 0.0
    los = phi((score - 0.5) / se) if se > 0 else _sign_los(score)
    if n <= 0:
        return Estimate(0, 0.5, 0.0, 0.0, -math.inf, math.inf, 0.5)
    return Estimate(
        units=int(n),
        score=score,
        stderr=se,
        elo=score_to_elo(score),
        elo_low=score_to_elo(score - z * se),
        elo_high=score_to_elo(score + z * se),
        los=los,
    )


def _sign_los(score: float) -> float:
    """The LOS of results without spread: certain either way, or even."""
    return 0.5 if score == 0.5 else 1.0 if score > 0.5 else 0.0


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds on the LLR: accept H0 below ``log(beta / (1 - alpha))``, H1 above
    ``log((1 - beta) / alpha)``."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _regularised(counts: Sequence[float]) -> list[float]:
    return [c if c > 0 else 1e-3 for c in counts]


def _mle(values: Sequence[float], freqs: Sequence[float], target: float) -> list[float]:
    """The outcome frequencies closest (in likelihood) to ``freqs`` whose mean is ``target``:
    ``p_i = f_i / (1 + theta (x_i - target))``, ``theta`` the root of ``sum p_i (x_i - target)``."""
    d = [v - target for v in values]
    hi_d, lo_d = max(d), min(d)
    if hi_d <= 0 or lo_d >= 0:  # target outside the outcomes' range: no such distribution
        raise ValueError(f"a mean score of {target} is outside the outcomes' range")
    # 1 + theta * d_i > 0 for every i: theta in (-1 / max d, -1 / min d)
    low, high = -1.0 / hi_d, -1.0 / lo_d
    for _ in range(200):
        theta = (low + high) / 2
        g = sum(f * di / (1 + theta * di) for f, di in zip(freqs, d, strict=True))
        if g > 0:  # g decreases in theta
            low = theta
        else:
            high = theta
    theta = (low + high) / 2
    p = [f / (1 + theta * di) for f, di in zip(freqs, d, strict=True)]
    total = sum(p)
    return [x / total for x in p]


def llr(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (Elo ``elo1``) against H0 (Elo ``elo0``).

    >>> round(llr(TRINOMIAL, [0, 0, 23], 0, 50), 2)  # 23 straight wins: just over 2.94
    3.07
    >>> llr(TRINOMIAL, [0, 0, 0], 0, 10)
    0.0
    """
    if sum(counts) <= 0:
        return 0.0
    reg = _regularised(counts)
    n = sum(reg)
    freqs = [c / n for c in reg]
    p0 = _mle(values, freqs, elo_to_score(elo0))
    p1 = _mle(values, freqs, elo_to_score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(reg, p1, p0, strict=True))


def llr_normal(values: Sequence[float], counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The normal approximation of the GSPRT LLR: ``(s1 - s0)(2s - s0 - s1) / (2 var / n)``."""
    n, score, var = moments(values, _regularised(counts))
    if n <= 0 or var <= 0:
        return 0.0
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return (s1 - s0) * (2 * score - s0 - s1) / (2 * var / n)


@dataclasses.dataclass(frozen=True)
class SprtSpec:
    """An SPRT request: H0 Elo ``elo0`` against H1 Elo ``elo1``, error rates ``alpha``, ``beta``."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("elo0", "elo1", "alpha", "beta"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"{name} must be a finite number")
        if self.elo1 <= self.elo0:
            raise ValueError(f"elo1 must be greater than elo0, got elo0={self.elo0:g}, elo1={self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise ValueError(f"{name} must be between 0 and 1 (exclusive), got {value:g}")
        if self.alpha + self.beta >= 1:
            raise ValueError("alpha + beta must be less than 1")

    @property
    def bounds(self) -> tuple[float, float]:
        return sprt_bounds(self.alpha, self.beta)

    def decide(self, llr_value: float) -> str:
        """``"H1"``, ``"H0"`` or ``""`` (go on) for an LLR."""
        lower, upper = self.bounds
        if llr_value >= upper:
            return "H1"
        if llr_value <= lower:
            return "H0"
        return ""

    def text(self) -> str:
        return f"elo0={self.elo0:g},elo1={self.elo1:g},alpha={self.alpha:g},beta={self.beta:g}"


def parse_sprt(text: str) -> SprtSpec:
    """``elo0=0,elo1=10[,alpha=0.05,beta=0.05]`` as an :class:`SprtSpec` (``ValueError`` if bad).

    >>> parse_sprt("elo0=0,elo1=10")
    SprtSpec(elo0=0.0, elo1=10.0, alpha=0.05, beta=0.05)
    >>> parse_sprt("elo0=x,elo1=10")
    Traceback (most recent call last):
    ...
    ValueError: elo0='x' is not a number
    """
    known = ("elo0", "elo1", "alpha", "beta")
    values: dict[str, float] = {}
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep:
            raise ValueError(f"{part!r}: give NAME=VALUE ({', '.join(known)})")
        if name not in known:
            raise ValueError(f"unknown SPRT parameter {name!r}; valid: {', '.join(known)}")
        if name in values:
            raise ValueError(f"{name} given twice")
        try:
            values[name] = float(value)
        except ValueError:
            raise ValueError(f"{name}={value.strip()!r} is not a number") from None
    for name in ("elo0", "elo1"):
        if name not in values:
            raise ValueError(f"give {name} (e.g. elo0=0,elo1=10)")
    return SprtSpec(**values)


@dataclasses.dataclass(frozen=True)
class SprtResult:
    """Where a sequential test stopped: the decision (``"H1"``, ``"H0"`` or ``""`` at the cap)."""

    spec: SprtSpec
    decision: str
    llr: float
    units: int  # games or pairs looked at


def run_sprt(
    spec: SprtSpec, values: Sequence[float], stream: Sequence[int], cap: int | None = None
) -> SprtResult:
    """Test ``stream`` (outcome indices into ``values``, in order) after each result, stopping at
    the first decision or after ``cap`` results.

    >>> spec = SprtSpec(0, 50)
    >>> run_sprt(spec, TRINOMIAL, [2] * 100).decision, run_sprt(spec, TRINOMIAL, [0] * 100).decision
    ('H1', 'H0')
    >>> run_sprt(spec, TRINOMIAL, [0, 2] * 5).decision
    ''
    """
    counts = [0] * len(values)
    value = 0.0
    seen = 0
    for outcome in stream[:cap] if cap is not None else stream:
        counts[outcome] += 1
        seen += 1
        value = llr(values, counts, spec.elo0, spec.elo1)
        decision = spec.decide(value)
        if decision:
            return SprtResult(spec, decision, value, seen)
    return SprtResult(spec, "", value, seen)


__all__ = [
    "PAIR_OUTCOMES",
    "PENTANOMIAL",
    "TRINOMIAL",
    "Estimate",
    "SprtResult",
    "SprtSpec",
    "elo_to_score",
    "estimate",
    "llr",
    "llr_normal",
    "los_of_games",
    "parse_sprt",
    "run_sprt",
    "score_to_elo",
    "sprt_bounds",
]
