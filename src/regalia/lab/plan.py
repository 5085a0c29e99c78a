"""Planning a run of games: the game and its seats, the agents, and one :class:`GameJob` per game.

Every run of the lab (arena, ladder, balance, fit) plans its games here: agents play the seats the
rules do not play themselves (a solo automaton plays its own), seats rotate between games, and the
seeds of chance and of the agents derive from ``(seed, game index)``, so a run's results depend on
its seed alone, not on the workers or the backend.

>>> plan = plan_rotation("two-heirs", "greedy,random", games=3, seed=1)
>>> [job.agents for job in plan.jobs], plan.playable, plan.num_players
([(0, 1), (1, 0), (0, 1)], (0, 1), 2)
>>> plan_rotation("two-heirs", "greedy", games=1, seed=1, one_for_all=True).specs
['greedy', 'greedy']
>>> paired = plan_rotation("two-heirs", "greedy,random", games=3, seed=1, pairs=True).jobs
>>> [job.agents for job in paired], paired[0].seed == paired[1].seed != paired[2].seed
([(0, 1), (1, 0), (0, 1), (1, 0)], True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from regalia.ai import agent_from_spec
from regalia.core.game import JSON, Game
from regalia.lab.backends import check_backend
from regalia.lab.play import GameJob, LabError, resolve_game
from regalia.lab.stats import derive_seed


def split_specs(agent_specs: Sequence[str] | str) -> list[str]:
    """Agent specs from a list or a comma-separated string."""
    if isinstance(agent_specs, str):
        agent_specs = agent_specs.split(",")
    specs = [s.strip() for s in agent_specs if s.strip()]
    if not specs:
        raise LabError("no agents given")
    return specs


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Display names of agents: their specs, repeated ones numbered (``mcts``, ``mcts#2``)."""
    labels: list[str] = []
    for spec in specs:
        label, k = spec, 1
        while label in labels:
            k += 1
            label = f"{spec}#{k}"
        labels.append(label)
    return labels


def check_agents(specs: Sequence[str]) -> None:
    """Build each agent once so that bad specs fail before any game starts."""
    for spec in specs:
        agent_from_spec(spec)


def check_run(games: int, workers: int, backend: str) -> None:
    """Refuse a run of no games, no workers or an unknown backend."""
    check_backend(backend)
    if games < 1:
        raise LabError(f"games must be at least 1, got {games}")
    if workers < 1:
        raise LabError(f"workers must be at least 1, got {workers}")


def prepare_game(game: str | Game[Any], options: JSON | None) -> tuple[str | Game[Any], JSON, int]:
    """Check a game and its options; returns (game for the jobs, full options, number of seats).

    ``game`` is a registered id or a :class:`Game` (then ``options``, if any, rebuild it).
    """
    if isinstance(game, str):
        built = resolve_game(game, dict(options or {}))
        ref: str | Game[Any] = game
    else:
        built = type(game)(**options) if options else game
        ref = built
    return ref, built.options.to_json(), built.num_players


def built_game(game: str | Game[Any], options: JSON) -> Game[Any]:
    """The :class:`Game` of a planned run."""
    return resolve_game(game, options) if isinstance(game, str) else game


def agent_seats(game: str | Game[Any], options: JSON) -> tuple[int, ...]:
    """The seats agents play: every seat but those the rules play themselves (a solo automaton)."""
    built = built_game(game, options)
    auto = set(built.automaton_seats())
    return tuple(s for s in range(built.num_players) if s not in auto)


def seat_names(game: str | Game[Any], options: JSON) -> list[str]:
    """The display names of a game's seats."""
    return built_game(game, options).seat_names()


def rotation_job(
    index: int,
    game: str | Game[Any],
    options: JSON,
    specs: Sequence[str],
    members: Sequence[int],
    playable: Sequence[int],
    num_players: int,
    seed: int,
    group: int = 0,
    agent_key: tuple[Any, ...] = (),
    rotation: int | None = None,
    chance_index: int | None = None,
    **flags: Any,
) -> GameJob:
    """Game ``index`` of a run: the ``k``-th seat agents play goes to agent
    ``members[(k + rotation) % len(members)]`` (``rotation`` defaults to ``index``); chance's seed
    derives from ``(seed, chance_index)`` (default ``index``) and each seat's agent seed from
    ``(seed, *agent_key, index, seat)``."""
    n = len(members)
    turn = index if rotation is None else rotation
    by_seat = {seat: members[(k + turn) % n] for k, seat in enumerate(playable)}
    seats = tuple(by_seat.get(s, -1) for s in range(num_players))
    return GameJob(
        index=index,
        game=game,
        options=options,
        specs=tuple(specs[a] if a >= 0 else "" for a in seats),
        agents=seats,
        seed=derive_seed(seed, "game", index if chance_index is None else chance_index),
        agent_seeds=tuple(derive_seed(seed, "agent", *agent_key, index, s) for s in range(num_players)),
        group=group,
        **flags,
    )


@dataclasses.dataclass(frozen=True)
class Plan:
    """A planned run: the game for the jobs, its options and seats, the agents and the jobs."""

    game: str | Game[Any]
    built: Game[Any]
    options: JSON
    num_players: int
    playable: tuple[int, ...]
    specs: list[str]
    jobs: list[GameJob]
    #: A solo game with ``pairs`` and several agents: each agent plays each deal (seed).
    deals: bool = False

    @property
    def name(self) -> str:
        return self.built.id


def plan_rotation(
    game: str | Game[Any],
    agent_specs: Sequence[str] | str,
    games: int,
    seed: int,
    options: JSON | None = None,
    workers: int = 1,
    backend: str = "local",
    one_for_all: bool = False,
    pairs: bool = False,
    **flags: Any,
) -> Plan:
    """``games`` games with the agents rotating over the seats they play (arena, balance, fit).

    With ``pairs``, each seed is played once per rotation of the agents over the seats (two
    seats: twice, seats swapped): game ``i`` is rotation ``i % n`` of seed ``i // n`` (chance's seed
    derives from ``(seed, i // n)``), so ``games`` is rounded up to whole sets of ``n`` games. In a
    game with one seat for agents (a solo game) ``pairs`` takes several agents: each plays each
    deal (seed) against the automaton.

    Give one agent spec per seat agents play, or (``one_for_all``) one spec for all of them. Bad
    requests (no agents, an unknown agent, game or option, the wrong number of agents) fail here,
    before any game starts. ``flags`` go to every :class:`GameJob` (``curves``, ``record``...).
    """
    specs = split_specs(agent_specs)
    check_run(games, workers, backend)
    check_agents(specs)
    ref, opts, num_players = prepare_game(game, options)
    built = built_game(ref, opts)
    playable = agent_seats(ref, opts)
    if one_for_all and len(specs) == 1:
        specs = specs * len(playable)
    deals = pairs and len(playable) == 1 and len(specs) > 1  # solo: each agent plays each deal
    if len(specs) != len(playable) and not deals:
        n = len(playable)
        if one_for_all:
            how = f"give one agent for all of them or one per seat ({n})"
        else:
            how = f"give {n} agent(s), one per seat (e.g. {','.join([specs[0]] * n)})"
            if n == 1:
                how += ", or several with --pairs, each to play every deal"
        raise LabError(f"{built.id} has {n} seat(s) for agents with these options: {how}, got {len(specs)}")
    members = list(range(len(specs)))
    if pairs:
        n = len(members)
        games = -(-games // n) * n
        jobs = [
            rotation_job(
                i,
                ref,
                opts,
                specs,
                members,
                playable,
                num_players,
                seed,
                rotation=i % n,
                chance_index=i // n,
                **flags,
            )
            for i in range(games)
        ]
    else:
        jobs = [
            rotation_job(i, ref, opts, specs, members, playable, num_players, seed, **flags)
            for i in range(games)
        ]
    return Plan(ref, built, opts, num_players, playable, specs, jobs, deals)


__all__ = [
    "Plan",
    "agent_labels",
    "agent_seats",
    "built_game",
    "check_agents",
    "check_run",
    "plan_rotation",
    "prepare_game",
    "rotation_job",
    "seat_names",
    "split_specs",
]
