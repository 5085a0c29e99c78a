"""Reading the games' action notation: a verb, then words whose meaning the verb's signature names.

The Two Heirs and Intrigue in the Royal Court write every action as a verb followed by typed words
(``build W3 1,-2``, ``move 2,1 3,2``); each game declares its verbs' signatures (argument names in
order) and how each argument is shown in a usage line, and reads the words itself. The errors for
an empty text, an unknown verb, a wrong number of words and a bad square are the same everywhere.

>>> split_action("move 2,1 3,2", {"move": ("src", "dst"), "pass": ()}, {"src": "X,Y", "dst": "X,Y"}, "'pass'")
('move', [('src', '2,1'), ('dst', '3,2')])
>>> split_action("move 2,1", {"move": ("src", "dst")}, {"src": "X,Y", "dst": "X,Y"}, "'move 1,1 2,1'")
Traceback (most recent call last):
...
regalia.core.errors.NotationError: cannot read 'move 2,1': expected 'move X,Y X,Y'
>>> read_pos("1,x", "move 1,x 2,2", "square")
Traceback (most recent call last):
...
regalia.core.errors.NotationError: cannot read 'move 1,x 2,2': '1,x' is not a square x,y
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from regalia.core.errors import NotationError
from regalia.core.grid import Pos, parse_pos


def split_action(
    text: str, signatures: Mapping[str, Sequence[str]], usage: Mapping[str, str], examples: str
) -> tuple[str, list[tuple[str, str]]]:
    """The verb of ``text`` (lower case) and its words paired with the argument names of the
    verb's signature; :class:`NotationError` for an empty text (showing ``examples``), an unknown
    verb (listing the valid ones) or a wrong number of words (showing the usage line)."""
    words = text.split()
    if not words:
        raise NotationError(f"empty action; expected e.g. {examples}")
    kind = words[0].lower()
    if kind not in signatures:
        raise NotationError(f"unknown action {words[0]!r}; valid: {', '.join(signatures)}")
    sig = signatures[kind]
    if len(words) - 1 != len(sig):
        line = " ".join([kind, *(usage[a] for a in sig)])
        raise NotationError(f"cannot read {text!r}: expected '{line}'")
    return kind, list(zip(sig, words[1:], strict=True))


def read_pos(word: str, text: str, what: str = "position") -> Pos:
    """The square ``word`` names (``x,y``); :class:`NotationError` citing ``text`` otherwise."""
    try:
        return parse_pos(word)
    except ValueError:
        raise NotationError(f"cannot read {text!r}: {word!r} is not a {what} x,y") from None


__all__ = ["read_pos", "split_action"]
