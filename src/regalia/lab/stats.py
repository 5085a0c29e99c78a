"""Small statistics helpers: Wilson score intervals and seed derivation.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 4), round(hi, 4)
(0.4902, 0.9433)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be between 0 and n, got {successes} of {n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def derive_seed(*parts: object) -> int:
    """A seed in [0, 2**31) fixed by ``parts`` (stable across processes, machines and versions)."""
    text = "regalia-lab:" + ":".join(repr(p) for p in parts)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean (0 for no values)."""
    return sum(values) / len(values) if values else 0.0


def stdev(values: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))
