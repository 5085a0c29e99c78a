"""Intrigue in the Royal Court: two royal families surround the king or the queen with influence.

Modules: archetypes (the ten archetypes as data, validated), actions (notation), state (the
engine), game (options), render (terminal), plugin (what the game offers).

>>> import regalia
>>> game = regalia.load_game("royal-court")
>>> game.name, game.count, game.consorts
('Intrigue in the Royal Court', 10, ('king', 'queen'))
"""
