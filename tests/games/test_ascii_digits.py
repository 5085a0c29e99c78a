"""Notation accepts only ASCII digits: a superscript, another script's digit or a fullwidth digit in
a position, a rotation or a square number is a NotationError naming the word (it used to pass
``str.isdigit()`` and then fail in ``int()``, a 500 on the server; or be read as its value)."""

from __future__ import annotations

import pytest

import regalia
from regalia.core.errors import NotationError
from regalia.core.grid import parse_int, parse_pos

#: Digits ``str.isdigit()`` (or ``int()``) takes that the notation refuses.
ODD_DIGITS = ["\u00b2", "\u00b9", "\u0661", "\u0967", "\uff11", "\U0001d7ce", "1_0", "\u200f1", "1\u0000"]

CASES = {
    "carcassonne": ["place D 1,0 {d}", "place D {d},0 90", "place D 1,{d} 90", "place D 1,0 9{d}"],
    "royal-court": ["play Spy {d}", "play Spy {d},1", "place Healer -3,{d}", "move 2,1 {d},2"],
    "two-heirs": ["build W3 1,{d}", "build W3 {d},-2", "move {d},1 3,2"],
}


@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_parse_int_and_parse_pos_take_only_ascii_digits(digit: str) -> None:
    with pytest.raises(ValueError):
        parse_int(digit)
    with pytest.raises(ValueError):
        parse_pos(f"1,{digit}")
    assert parse_pos("1, -2") == (1, -2) and parse_int("+7") == 7


def test_huge_numbers_are_refused_not_computed() -> None:
    with pytest.raises(ValueError):
        parse_int("9" * 5000)


@pytest.mark.parametrize(("game", "template"), [(g, t) for g, ts in CASES.items() for t in ts])
@pytest.mark.parametrize("digit", ODD_DIGITS)
def test_each_game_refuses_odd_digits_with_a_notation_error(game: str, template: str, digit: str) -> None:
    state = regalia.load_game(game).new_state(seed=1)
    with pytest.raises(NotationError):
        state.parse_action(template.format(d=digit))


@pytest.mark.parametrize(
    ("game", "text"),
    [("carcassonne", "place D 1,0 " + "9" * 5000), ("royal-court", "play Spy " + "1" * 5000)],
)
def test_huge_numbers_in_actions_are_notation_errors(game: str, text: str) -> None:
    state = regalia.load_game(game).new_state(seed=1)
    with pytest.raises(NotationError):
        state.parse_action(text)


def test_a_seat_by_number_takes_only_ascii_digits() -> None:
    from regalia.commands._common import seat_index
    from regalia.core.errors import OptionError

    state = regalia.load_game("royal-court").new_state(seed=1)
    assert seat_index(state, "2") == 1
    with pytest.raises(OptionError):
        seat_index(state, "\u00b2")
