"""The match's sources of chance (regalia.match.chance)."""

from __future__ import annotations

import regalia
from regalia.core.game import CHANCE
from regalia.match import Match, Seat, StateChance


def test_state_chance_draws_what_the_state_of_the_same_seed_draws() -> None:
    """With :class:`StateChance` a match's draws are ``new_state(seed).advance()``'s, also after an undo."""
    for game_id in ("two-heirs", "carcassonne", "royal-court"):
        game = regalia.load_game(game_id)
        state = game.new_state(5)
        state.advance()
        drawn = [ply.text for ply in state.plies()]
        match = Match(game, [Seat.human(), Seat.human()], seed=5, chance=StateChance())
        assert [e.text for e in match.advance()] == drawn, game_id
        assert match.state.to_json() == state.to_json()


def test_state_chance_draws_the_same_again_after_an_undo() -> None:
    game = regalia.load_game("two-heirs")
    match = Match(game, [Seat.human(), Seat.human()], seed=2, chance=StateChance())
    match.advance()
    seat = match.to_act
    while match.to_act == seat:  # the whole turn, then chance refills
        state = match.state
        match.play(seat, state.notation(state.legal_actions()[-1]))
    after = [e.text for e in match.advance()]
    assert any(e.seat == CHANCE for e in match.log())
    match.undo(seat)
    while match.to_act == seat:
        state = match.state
        match.play(seat, state.notation(state.legal_actions()[-1]))
    assert [e.text for e in match.advance()] == after
