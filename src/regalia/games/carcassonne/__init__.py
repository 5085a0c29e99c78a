"""Carcassonne (base game, complete) with the Heretics and Shrines expansion as an option.

The rules engine is :class:`~regalia.games.carcassonne.state.CarcassonneState`, the tiles are data
(:mod:`.tiles`, ``data/tiles.json``) and the notation is in :mod:`.actions`; see docs/carcassonne.md.

>>> import regalia
>>> state = regalia.load_game("carcassonne", shrines="6").new_state(seed=1)
>>> state.observation()["bag_left"], state.num_players
(77, 2)
"""
