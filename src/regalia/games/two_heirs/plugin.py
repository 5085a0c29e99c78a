"""The Two Heirs' plugin surface: renderers, score calculator, commands, statistics, encoding.

>>> PLUGIN.calculator.format
'two-heirs-position'
>>> "take W3" in PLUGIN.notation_help
True
"""

from __future__ import annotations

from typing import Any

from regalia.core.data import read_package_text
from regalia.core.plugin import Calculator, Plugin
from regalia.games.two_heirs import calculator, commands, render


def rules_text() -> str:
    """The rulebook of The Two Heirs (two-player and solo rules), as shipped with regalia."""
    return read_package_text("regalia.games.two_heirs", "data/rules.md")


def _render_score(result: Any) -> Any:
    return render.render_position_score(result)


PLUGIN = Plugin(
    render_terminal=render.render_terminal,
    render_result=render.render_result,
    menu=render.legal_groups,
    notation_help=render.NOTATION_HELP,
    rules=rules_text,
    calculator=Calculator(
        format=calculator.FORMAT,
        schema=calculator.schema,
        score=calculator.score_document,
        render=_render_score,
        options_help="tiles=FILE: your own tile catalogue",
    ),
    commands=(commands.register,),
    check_options=(
        {},
        {"roads": False, "sets": "warfare,crafts,guard"},
        {"sets": "random"},
        {"solo": True, "level": 1},
        {"solo": True},
    ),
)
