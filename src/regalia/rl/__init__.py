"""Research interfaces: every registered game as a PettingZoo environment and an OpenSpiel game.

* :mod:`regalia.rl.pettingzoo`: ``env(game_id, **options)``, an AEC environment (PettingZoo's
  classic-environment conventions: a ``{"observation", "action_mask"}`` dict, rewards at the end).
* :mod:`regalia.rl.openspiel`: ``register_all()`` registers ``python_regalia_<game>`` with
  ``pyspiel`` so that ``pyspiel.load_game`` and OpenSpiel's algorithms reach every game.
* :mod:`regalia.rl.bench`: ``env_benchmark``, environment steps per second beside the raw engine.

Both adapters use only the core contract (:mod:`regalia.core.game`) and the game's
:class:`~regalia.core.encoding.Encoding` (declared in its plugin), so a fourth game needs no adapter
code. They need the extra ``regalia[rl]`` (numpy, pettingzoo, gymnasium, and open_spiel where its
wheels exist: x86_64). docs/research.md walks through them.

Importing this package imports none of those libraries; each module imports its own.

>>> from regalia.rl.common import agent_names
>>> from regalia.core.registry import load_game
>>> agent_names(load_game("carcassonne", players=3))
['red_0', 'blue_1', 'green_2']
"""

from __future__ import annotations

__all__: list[str] = []
