"""The simulation lab: arenas, round-robin ladders, balance and encoding fit runs, locally or on Ray.

>>> from regalia.lab import run_arena
>>> result = run_arena("two-heirs", "random,random", games=2, progress=False)
>>> result.games
2
"""

from regalia.lab.arena import AgentSummary, ArenaResult, run_arena
from regalia.lab.backends import BACKENDS
from regalia.lab.balance import BalanceResult, SeatGroup, StatisticSummary, SubjectSummary, run_balance
from regalia.lab.fit import FitResult, VariantFit, run_fit
from regalia.lab.play import GameJob, GameResult, LabError
from regalia.lab.ratings import LadderResult, bootstrap_intervals, bradley_terry, run_ladder
from regalia.lab.stats import derive_seed, wilson_interval

__all__ = [
    "BACKENDS",
    "AgentSummary",
    "ArenaResult",
    "BalanceResult",
    "FitResult",
    "GameJob",
    "GameResult",
    "LabError",
    "LadderResult",
    "SeatGroup",
    "StatisticSummary",
    "SubjectSummary",
    "VariantFit",
    "bootstrap_intervals",
    "bradley_terry",
    "derive_seed",
    "run_arena",
    "run_balance",
    "run_fit",
    "run_ladder",
    "wilson_interval",
]
