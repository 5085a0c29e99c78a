"""Agents by name and strength level, and agent spec strings.

A spec string names an agent, optionally a level, and optional parameters, separated by colons:
``random``, ``greedy``, ``mcts:hard``, ``mcts:iterations=500``, ``mcts:medium:rollout=greedy``.
A registered name may itself hold a colon (``openspiel:mcts``): the longest registered name that
starts the spec is the agent, so ``openspiel:mcts:seconds=0.5`` is ``openspiel:mcts`` with a
parameter.

Agents of the layers above ``regalia.ai`` (OpenSpiel's bots in :mod:`regalia.rl.agents`) register
through the ``regalia.agents`` entry-point group: ``name = "module:factory"``. They are loaded on
the first look-up of a name (the registry never imports those layers itself); a factory may carry a
``levels`` mapping (level -> parameters) for :data:`LEVELS`.

>>> agent = make_agent("mcts", "easy")
>>> agent.name, agent.iterations
('mcts:easy', 60)
>>> agent_from_spec("mcts:iterations=500:c=0.7").iterations
500
>>> make_agent("mcts", "superb")
Traceback (most recent call last):
...
regalia.core.errors.OptionError: unknown level 'superb' for agent 'mcts'; valid levels: easy, medium, hard
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import Callable, Mapping
from importlib.metadata import entry_points
from typing import Any

from regalia.ai.base import Agent
from regalia.ai.expectimax import ExpectimaxAgent
from regalia.ai.mcts import MCTSAgent
from regalia.ai.simple import GreedyAgent, RandomAgent
from regalia.core.errors import OptionError

#: agent name -> the class (or factory) that builds it from keyword parameters.
AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "mcts": MCTSAgent,
    "expectimax": ExpectimaxAgent,
}

#: The entry-point group of agents registered by other packages or layers.
ENTRY_POINT_GROUP = "regalia.agents"
log = logging.getLogger(__name__)
_plugins_loaded = False

#: agent name -> level -> the parameters of that level (weakest first). MCTS on The Two Heirs runs
#: some 300-600 iterations a second on one core, so ``hard`` thinks about a second a move (and
#: never fewer iterations than ``medium``); ``easy`` and ``medium`` are reproducible from the seed.
LEVELS: dict[str, dict[str, dict[str, Any]]] = {
    "mcts": {
        "easy": {"iterations": 60},
        "medium": {"iterations": 300},
        "hard": {"seconds": 1.0, "min_iterations": 500},
    },
    "expectimax": {
        "easy": {"depth": 1},
        "medium": {"depth": 2},
        "hard": {"seconds": 1.0},
    },
}


def load_agent_plugins() -> None:
    """Add the agents of the ``regalia.agents`` entry points to :data:`AGENTS` (and their
    ``levels`` to :data:`LEVELS`), once; a name already registered is kept. An entry point that
    fails to load is logged and skipped (an optional dependency missing fails when the agent is
    built, not here)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in AGENTS:
            continue
        try:
            factory = ep.load()
        except Exception as exc:
            log.warning("agent %r (%s) not loaded: %s", ep.name, ep.value, exc)
            continue
        AGENTS[ep.name] = factory
        levels = getattr(factory, "levels", None)
        if isinstance(levels, Mapping) and levels:
            LEVELS.setdefault(ep.name, {k: dict(v) for k, v in levels.items()})


def agent_names() -> list[str]:
    """The names of every registered agent."""
    load_agent_plugins()
    return list(AGENTS)


def agent_levels(name: str) -> list[str]:
    """The strength levels of agent ``name`` (weakest first; empty if it has none)."""
    _check_name(name)
    return list(LEVELS.get(name, {}))


def agent_parameters(name: str) -> list[str]:
    """The keyword parameters agent ``name`` accepts."""
    _check_name(name)
    params = inspect.signature(AGENTS[name]).parameters
    return [p for p in params if p != "name"]


def _check_name(name: str) -> None:
    load_agent_plugins()
    if name not in AGENTS:
        raise OptionError(f"unknown agent {name!r}; valid agents: {', '.join(AGENTS)}")


def make_agent(name: str, /, level: str | None = None, **params: Any) -> Agent:
    """Build agent ``name`` at strength ``level`` (``None``: its defaults), ``params`` overriding.

    Unknown agents, levels and parameters raise :class:`OptionError` listing the valid ones.
    """
    _check_name(name)
    settings: dict[str, Any] = {}
    label = name
    if level is not None:
        levels = LEVELS.get(name, {})
        if not levels:
            raise OptionError(f"agent {name!r} has no levels; agents with levels: {_leveled()}")
        if level not in levels:
            raise OptionError(
                f"unknown level {level!r} for agent {name!r}; valid levels: {', '.join(levels)}"
            )
        settings.update(levels[level])
        label = f"{name}:{level}"
    valid = agent_parameters(name)
    unknown = sorted(set(params) - set(valid) - {"name"})
    if unknown:
        raise OptionError(
            f"unknown parameter(s) {', '.join(unknown)} for agent {name!r}; "
            f"valid parameters: {', '.join(valid)}"
        )
    if level is not None and ({"iterations", "seconds", "min_iterations"} & set(params)):
        # an explicit budget replaces the level's budget rather than combining with it
        for key in ("iterations", "seconds", "min_iterations"):
            settings.pop(key, None)
    settings.update(params)
    settings.setdefault("name", label + "".join(f":{k}={v}" for k, v in params.items()))
    try:
        return AGENTS[name](**settings)
    except (TypeError, ValueError) as exc:
        raise OptionError(f"agent {name!r}: {exc}") from None


def _leveled() -> str:
    return ", ".join(n for n in AGENTS if LEVELS.get(n))


def _value(text: str) -> Any:
    """An int, float, bool, ``None`` or the string itself."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if lowered == "none":
        return None
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def parse_agent_spec(spec: str) -> tuple[str, str | None, dict[str, Any]]:
    """Split a spec string into (agent name, level or ``None``, parameters).

    The name is the longest registered name made of the spec's first colon-separated parts (a
    name such as ``openspiel:mcts`` holds a colon), else the first part.

    >>> parse_agent_spec("mcts:hard:rollout=greedy")
    ('mcts', 'hard', {'rollout': 'greedy'})
    >>> parse_agent_spec("expectimax:depth=3")
    ('expectimax', None, {'depth': 3})
    """
    parts = [p.strip() for p in spec.strip().split(":")]
    load_agent_plugins()
    split = 1
    for n in range(len(parts), 1, -1):
        if ":".join(parts[:n]) in AGENTS:
            split = n
            break
    name, rest = ":".join(parts[:split]), parts[split:]
    if not name:
        raise OptionError(f"empty agent name in {spec!r}; valid agents: {', '.join(AGENTS)}")
    _check_name(name)
    level: str | None = None
    params: dict[str, Any] = {}
    for part in rest:
        if "=" in part:
            key, _, text = part.partition("=")
            params[key.strip()] = _value(text.strip())
        elif not part:
            raise OptionError(f"empty part in agent spec {spec!r}")
        elif level is None:
            level = part
        else:
            raise OptionError(f"agent spec {spec!r} names two levels ({level}, {part})")
    return name, level, params


def agent_from_spec(spec: str, **overrides: Any) -> Agent:
    """Build the agent a spec string describes (its name is the spec)."""
    name, level, params = parse_agent_spec(spec)
    params.update(overrides)
    params.setdefault("name", spec.strip())
    return make_agent(name, level, **params)


def describe_agents() -> Mapping[str, list[str]]:
    """agent name -> its levels (for help texts)."""
    load_agent_plugins()
    return {name: list(LEVELS.get(name, {})) for name in AGENTS}
