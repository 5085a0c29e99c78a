"""Every registered game as a PettingZoo AEC environment (the classic environments' conventions).

>>> from regalia.rl.pettingzoo import env
>>> e = env("royal-court")
>>> e.reset(seed=1)
>>> e.possible_agents
['red_0', 'blue_1']
>>> observation, reward, termination, truncation, info = e.last()
>>> sorted(observation), observation["observation"].dtype.name, observation["action_mask"].dtype.name
(['action_mask', 'observation'], 'float32', 'int8')
>>> e.step(int(observation["action_mask"].nonzero()[0][0]))

* **Agents** are the seats agents play, named from the seat names (``white_0``, ``blue_1``; see
  :func:`regalia.rl.common.agent_names`). Automaton seats (the solo game's Henry) are not agents:
  the rules play them.
* **Only decision points reach the agents.** Chance (draws, coin flips) and automaton steps are
  applied inside the environment, chance drawn with its probabilities from the environment's
  generator, seeded by ``reset(seed=...)`` (a reset without a seed continues the generator). A
  seat may act several times in a row (a turn of several actions); ``agent_selection`` says who.
* **Observations** are ``{"observation": float32 tensor, "action_mask": int8 mask}``: the game's
  :class:`~regalia.core.encoding.Encoding` seen from the agent's seat (only what that seat may
  see), and the mask of the legal action ids (zeros for an agent not to act, and at the end).
* **Actions** are the encoding's ids, ``Discrete(num_actions)``, meaningful in the state they are
  chosen in; ``env.action(action_id)`` decodes one, ``env.action_id(action)`` encodes an engine
  action. An id outside the mask raises ``ValueError``.
* **Rewards** are the game's ``returns()`` when it ends (in [-1, 1]; 0 before).
* **When no legal action has an id** (a position too wide for the encoding's window, rare: see
  docs/encodings.md): the episode is *truncated* for every agent, with rewards 0, and each info
  holds ``{"truncated": NO_ID}``. A position where only some legal actions have ids goes on: the
  mask holds those, and the agent chooses among them.
* ``render_mode="ansi"``: :meth:`render` returns the position as text (the game's terminal
  renderer); ``"rgb_array"``: an RGB array of the game's SVG (needs cairosvg and libcairo).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

from regalia.core.game import SPECTATOR, State, fresh_seed
from regalia.core.registry import load_game
from regalia.rl.common import NO_ID, agent_names, decision_actions, decision_seats, make_encoding
from regalia.rl.render import render_rgb, render_text

RENDER_MODES = ("ansi", "rgb_array")


def env(
    game_id: str,
    render_mode: str | None = None,
    encoding: Mapping[str, Any] | None = None,
    **options: Any,
) -> RegaliaEnv:
    """An AEC environment of the game ``game_id`` with ``options`` (the game's own options, as
    ``regalia play -o NAME=VALUE`` takes them). ``encoding`` holds the encoding's own settings
    (a window size...; docs/encodings.md), the defaults when not given."""
    return RegaliaEnv(game_id, render_mode=render_mode, encoding=encoding, **options)


class RegaliaEnv(AECEnv):  # type: ignore[misc]
    """A regalia game as a PettingZoo :class:`AECEnv` (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        encoding: Mapping[str, Any] | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}"
            )
        self.game = load_game(game_id, **options)
        self.encoding = make_encoding(self.game, encoding)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"regalia_{game_id.replace('-', '_')}_v0"}  # type: ignore[misc]
        self.seats = decision_seats(self.game)
        self.possible_agents = agent_names(self.game)
        self.agent_seat = dict(zip(self.possible_agents, self.seats, strict=True))
        self.seat_agent = dict(zip(self.seats, self.possible_agents, strict=True))
        n = self.encoding.num_actions
        obs_shape = tuple(self.encoding.observation_shape)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(-np.inf, np.inf, obs_shape, np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: gymnasium.spaces.Discrete(n) for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self.state: State[Any] | None = None
        #: The legal actions of the agent to act, by id (the mask's ones).
        self._moves: dict[int, Any] = {}
        self._mask = np.zeros(n, dtype=np.int8)
        self.agents: list[str] = []

    # -- spaces -------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # -- the engine's state ---------------------------------------------------------------------
    @property
    def core(self) -> State[Any]:
        """The engine's state (the game as the core contract describes it); after :meth:`reset`."""
        if self.state is None:
            raise RuntimeError("call reset() first")
        return self.state

    def action(self, action_id: int) -> Any:
        """The engine action that ``action_id`` names in the current state."""
        return self.encoding.action_from_id(self.core, int(action_id))

    def action_id(self, action: Any) -> int:
        """The id of an engine action in the current state."""
        return self.encoding.action_id(self.core, action)

    # -- the AEC API ----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game. ``seed`` seeds the generator chance draws from; without one the
        environment's generator goes on (a fresh one the first time). ``options`` are ignored:
        the game's options are fixed when the environment is made."""
        if seed is not None:
            self._rng = random.Random(seed)
        elif self._rng is None:
            self._rng = random.Random(fresh_seed())
        self.state = self.game.new_state(seed=self._rng.getrandbits(31))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._skip_agent_selection = None
        self._settle()
        self._accumulate_rewards()  # a game the setup alone ended (none of the shipped games)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: None is only for agents whose episode is over")
        action_id = int(action)
        if not 0 <= action_id < len(self._mask) or not self._mask[action_id]:
            raise ValueError(f"action id {action_id} is not legal for {agent} (see the action mask)")
        state = self.core
        move = self._moves[action_id]  # the legal action the id names (the mask is made of them)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        state.apply_unchecked(move)
        self._settle()
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Apply chance and automaton steps until an agent has a choice or the game is over."""
        state = self.core
        assert self._rng is not None
        state.advance(self._rng)
        self._mask[:] = 0
        if state.is_terminal():
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self.agent_seat[agent]])
                self.terminations[agent] = True
            return
        agent = self.seat_agent[state.current_player]
        self.agent_selection = agent
        self._moves = decision_actions(self.encoding, state)
        if not self._moves:
            for a in self.agents:
                self.truncations[a] = True
                self.infos[a] = {"truncated": NO_ID}
            return
        self._mask[np.fromiter(self._moves, dtype=np.intp, count=len(self._moves))] = 1

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.core
        seat = self.agent_seat[agent]
        acting = agent == self.agent_selection and state.current_player == seat
        mask = self._mask.copy() if acting else np.zeros_like(self._mask)
        return {"observation": self.encoding.observation_tensor(state, seat), "action_mask": mask}

    def render(self) -> Any:
        """The position as text (``ansi``) or an RGB array (``rgb_array``), as a spectator sees it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode (use 'ansi' or 'rgb_array')")
            return None
        if self.render_mode == "ansi":
            return render_text(self.core, SPECTATOR)
        return render_rgb(self.core, SPECTATOR)

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["RENDER_MODES", "RegaliaEnv", "env"]
