"""The Two Heirs: two players (and solo against the automaton Henry) build a landscape of tiles.

Modules: tiles (catalogue), actions (notation), board (packed cells), base/rules/effects/views/state
(the engine), tally and scoring (incremental and full scoring), solo and henry (the solo game),
position (state documents), calculator and companion (printed games), render (terminal and SVG),
stats (balance statistics), encoding (tensors for learning), plugin (what the game offers).

>>> import regalia
>>> game = regalia.load_game("two-heirs", solo=True, level=2)
>>> game.name, game.automaton_seats()
('The Two Heirs', (1,))
"""
