"""How often real games of The Two Heirs fit the encoding's window (the figures of docs/encodings.md).

:func:`window_study` plays games (chance from a seeded generator, Henry by his forced steps, the
other seats by the agents named) and, for each window frame and size, counts the games whose whole
board stayed inside the window, the games in which every decision had all its legal actions
inside it, the decision states that fit (:meth:`TwoHeirsEncoding.fits`), and, where one did not,
the share of legal actions that still had an id. A decision state is one where a seat with a
choice is to act (not chance, not Henry's forced steps).

The agents are built from their spec strings (``random``, ``greedy``, ``mcts:iterations=50``) by
:mod:`regalia.ai`, imported only when a study runs: this is a tool beside the encoding, not part of
the engine. From the command line::

    python -m regalia.games.two_heirs.encoding_study --agents random --games 200 --seed 1 -o solo=true

>>> result = window_study({}, agents=("random",), games=2, seed=0, sizes=(5, 11), frames=("board",))
>>> [(f.frame, f.size, f.games) for f in result.fits]
[('board', 5, 2), ('board', 11, 2)]
>>> result.fits[1].games_board_fit
2
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import sys
import time
from collections.abc import Mapping, Sequence
from typing import Any

from regalia.core.game import CHANCE, State
from regalia.core.options import parse_option_pairs
from regalia.core.registry import load_game
from regalia.games.two_heirs.encoding import FRAMES, TwoHeirsEncoding

#: The window sides the study tries by default.
SIZES: tuple[int, ...] = (5, 7, 9, 11, 13)


@dataclasses.dataclass
class WindowFit:
    """The figures of one window (frame and size) over the games of a study."""

    frame: str
    size: int
    games: int = 0
    #: games whose whole board (at the end, hence all along: tiles never leave it) was inside
    games_board_fit: int = 0
    #: games in which every decision state fitted
    games_actions_fit: int = 0
    states: int = 0
    states_fit: int = 0
    #: legal actions of the decision states that did not fit, and how many of them had an id
    lost_actions: int = 0
    lost_actions_with_id: int = 0
    #: the most board tiles outside the window at the end of a game
    max_clipped: int = 0

    @property
    def board_share(self) -> float:
        return self.games_board_fit / self.games if self.games else 1.0

    @property
    def games_share(self) -> float:
        return self.games_actions_fit / self.games if self.games else 1.0

    @property
    def states_share(self) -> float:
        return self.states_fit / self.states if self.states else 1.0

    @property
    def kept_share(self) -> float:
        """Among the legal actions of decision states that did not fit, the share with an id."""
        return self.lost_actions_with_id / self.lost_actions if self.lost_actions else 1.0


@dataclasses.dataclass
class StudyResult:
    """What :func:`window_study` measured."""

    options: dict[str, Any]
    agents: tuple[str, ...]
    games: int
    seed: int
    seconds: float
    fits: list[WindowFit]
    #: per game: the board's bounding box (width, height) at the end, its farthest |x| or |y| from
    #: the starting tile, the number of tiles on the board and of decision states
    extents: list[tuple[int, int, int, int, int]]

    def extent_summary(self) -> str:
        """The final boards' sizes in words (median and largest)."""
        if not self.extents:
            return "no games"
        side = [max(w, h) for w, h, _, _, _ in self.extents]
        far = [r for _, _, r, _, _ in self.extents]
        tiles = [t for _, _, _, t, _ in self.extents]
        states = [s for _, _, _, _, s in self.extents]
        return (
            f"bounding box longer side: median {statistics.median(side):g}, max {max(side)}; "
            f"farthest from the start: median {statistics.median(far):g}, max {max(far)}; "
            f"tiles on the board: median {statistics.median(tiles):g}; "
            f"decision states per game: median {statistics.median(states):g}"
        )

    def table(self) -> str:
        """The figures as a Markdown table."""
        lines = [
            f"{', '.join(self.agents)} | options {self.options or 'default'} | {self.games} games, seed "
            f"{self.seed}, {self.seconds:.0f} s",
            "",
            f"{self.extent_summary()}",
            "",
            "| frame | window | games: board inside | games: every decision fits | decision states that fit "
            "| legal actions kept where one does not | most tiles outside |",
            "|---|---|---:|---:|---:|---:|---:|",
        ]
        for f in self.fits:
            kept = f"{100 * f.kept_share:.1f}%" if f.lost_actions else "-"
            lines.append(
                f"| {f.frame} | {f.size}x{f.size} | {100 * f.board_share:.1f}% "
                f"| {100 * f.games_share:.1f}% | {100 * f.states_share:.2f}% "
                f"({f.states - f.states_fit} of {f.states} out) | {kept} "
                f"| {f.max_clipped} |"
            )
        return "\n".join(lines)


def window_study(
    options: Mapping[str, Any] | None = None,
    agents: Sequence[str] = ("random",),
    games: int = 100,
    seed: int = 0,
    sizes: Sequence[int] = SIZES,
    frames: Sequence[str] = FRAMES,
) -> StudyResult:
    """Play ``games`` games of The Two Heirs with ``options`` and measure how they fit each window.

    ``agents``: one spec per seat with a choice (one spec for all of them); game ``i`` uses seed
    ``seed + i`` for chance and the agents.
    """
    from regalia.ai import agent_from_spec, observe_agent, reset_agent

    game = load_game("two-heirs", **dict(options or {}))
    encodings = [TwoHeirsEncoding(game, size=s, frame=f) for f in frames for s in sizes]
    fits = [WindowFit(e.frame_kind, e.side) for e in encodings]
    extents: list[tuple[int, int, int, int, int]] = []
    start = time.perf_counter()
    for i in range(games):
        state = game.new_state(seed + i)
        rng = random.Random(seed + i)
        automata = set(state.automaton_seats())
        seats = [s for s in range(state.num_players) if s not in automata]
        specs = list(agents) if len(agents) > 1 else [agents[0]] * len(seats)
        if len(specs) != len(seats):
            raise ValueError(f"{len(seats)} seats choose their actions; got {len(specs)} agents")
        players = dict(zip(seats, (agent_from_spec(s) for s in specs), strict=True))
        for agent in players.values():
            reset_agent(agent)
        all_fit = [True] * len(encodings)
        decisions = 0
        while not state.is_terminal():
            seat = state.current_player
            if seat == CHANCE:
                state.apply_unchecked(state.sample_chance(rng))
                continue
            if seat in automata:
                state.apply_unchecked(state.forced_action())
                continue
            decisions += 1
            _measure(state, encodings, fits, all_fit)
            agent = players[seat]
            action = agent.choose(state, rng)
            state.apply(action)
            for other in players.values():
                if other is not agent:
                    observe_agent(other, state)
        for k, enc in enumerate(encodings):
            clipped = max(enc.clipped(state, 0), enc.clipped(state, 1))
            f = fits[k]
            f.games += 1
            f.games_board_fit += clipped == 0
            f.games_actions_fit += all_fit[k]
            f.max_clipped = max(f.max_clipped, clipped)
        extents.append(_extent(state, decisions))
    return StudyResult(
        options=game.options.to_json(),
        agents=tuple(agents),
        games=games,
        seed=seed,
        seconds=time.perf_counter() - start,
        fits=fits,
        extents=extents,
    )


def _measure(
    state: State[Any], encodings: list[TwoHeirsEncoding], fits: list[WindowFit], all_fit: list[bool]
) -> None:
    legal = None
    for k, enc in enumerate(encodings):
        f = fits[k]
        f.states += 1
        if enc.fits(state):
            f.states_fit += 1
            continue
        all_fit[k] = False
        if legal is None:
            legal = state.legal_actions()
        f.lost_actions += len(legal)
        f.lost_actions_with_id += len(enc.legal_ids(state))


def _extent(state: Any, decisions: int) -> tuple[int, int, int, int, int]:
    board = state.board
    xs = [p[0] for p in board]
    ys = [p[1] for p in board]
    far = max(max(abs(v) for v in xs), max(abs(v) for v in ys))
    return (max(xs) - min(xs) + 1, max(ys) - min(ys) + 1, far, len(board), decisions)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m regalia.games.two_heirs.encoding_study``: run a study and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument(
        "--agents", default="random", help="agent specs, comma-separated (one per seat, or one)"
    )
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="window sides, comma-separated")
    parser.add_argument("--frames", default=",".join(FRAMES), help="window frames, comma-separated")
    parser.add_argument("-o", "--option", action="append", default=[], help="a game option NAME=VALUE")
    args = parser.parse_args(argv)
    result = window_study(
        parse_option_pairs(args.option),
        agents=tuple(a.strip() for a in args.agents.split(",")),
        games=args.games,
        seed=args.seed,
        sizes=tuple(int(s) for s in args.sizes.split(",")),
        frames=tuple(f.strip() for f in args.frames.split(",")),
    )
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
