"""Score sheets for a terminal: per-building and road tables, totals, the verdict ("Scoring").

:func:`score_tables` draws a :class:`~regalia.games.two_heirs.scoring.ScoreSheet` (the end of a
game and the score calculator); :func:`render_result` the final scoring of a finished game;
:func:`render_position_score` the calculator's result.

>>> import regalia, random
>>> from rich.console import Console
>>> state = regalia.load_game("two-heirs").new_state(seed=5)
>>> rng = random.Random(5)
>>> from regalia.core.loop import playout
>>> state = playout(state, rng, checked=True)  # random play to the end
>>> console = Console(width=120, no_color=True)
>>> with console.capture() as cap:
...     console.print(render_result(state))
>>> "Totals" in cap.get() and "white" in cap.get()
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.core.grid import format_pos
from regalia.games.two_heirs.calculator import PositionScore
from regalia.games.two_heirs.render.style import SEAT_NAMES, SEAT_STYLES, is_solo, seat_label, seat_name
from regalia.games.two_heirs.scoring import ScoreSheet
from regalia.games.two_heirs.state import TwoHeirsState


def score_tables(
    sheet: ScoreSheet,
    units_in_reserve: Sequence[int] | None = None,
    extra: Sequence[tuple[int, str, int]] = (),
    names: Sequence[str] = SEAT_NAMES,
) -> Group:
    """Per-building table, road table and totals of a score sheet.

    ``extra``: more lines of points (seat, label, points), e.g. Henry's treasures.
    """
    buildings = Table(title="Buildings", box=box.SIMPLE_HEAVY, title_style="bold", title_justify="left")
    for col in ("pos", "tile", "building", "owner", "base", "doubled", "points", "detail"):
        justify = "right" if col in ("pos", "base", "points") else "center" if col == "doubled" else "left"
        buildings.add_column(col, justify=justify)  # type: ignore[arg-type]
    for b in sorted(sheet.buildings, key=lambda b: (b.owner, b.pos[1], b.pos[0])):
        buildings.add_row(
            format_pos(b.pos),
            b.tile,
            b.building,
            Text(names[b.owner], style=SEAT_STYLES[b.owner % 2]),
            str(b.base),
            "×2" if b.doubled else "",
            Text(str(b.points), style="bold"),
            Text(b.detail, style="dim"),
        )
    if not sheet.buildings:
        buildings.add_row("", "", Text("no buildings", style="dim"), "", "", "", "", "")
    parts: list[RenderableType] = [buildings]
    roads = Table(title="Roads", box=box.SIMPLE_HEAVY, title_style="bold", title_justify="left")
    roads.add_column("#", justify="right")
    roads.add_column("tiles")
    for n in names:
        roads.add_column(f"{n} buildings", justify="right")
    roads.add_column("scores")
    roads.add_column("points", justify="right")
    for i, r in enumerate(sheet.roads, start=1):
        roads.add_row(
            str(i),
            " ".join(format_pos(p) for p in r.tiles),
            *(str(n) for n in r.buildings),
            "nobody (tie)" if r.winner is None else names[r.winner],
            str(r.points),
        )
    if not sheet.roads:
        roads.add_row(
            "", Text("no road joins 2 tiles (or roads are not scored)", style="dim"), "", "", "", ""
        )
    parts.append(roads)
    totals = Table(title="Totals", box=box.SIMPLE_HEAVY, title_style="bold", title_justify="left")
    totals.add_column("seat")
    totals.add_column("buildings", justify="right")
    totals.add_column("roads", justify="right")
    if extra:
        totals.add_column("other", justify="right")
    totals.add_column("total", justify="right")
    if units_in_reserve is not None:
        totals.add_column("units in reserve (tie-break)", justify="right")
    for p, name in enumerate(names):
        row: list[RenderableType] = [
            Text(name, style=SEAT_STYLES[p % 2]),
            str(sheet.building_points(p)),
            str(sheet.road_points(p)),
        ]
        if extra:
            row.append(str(sum(points for who, _, points in extra if who == p)))
        row.append(Text(str(sheet.totals[p]), style="bold"))
        if units_in_reserve is not None:
            row.append(str(units_in_reserve[p]))
        totals.add_row(*row)
    parts.append(totals)
    for who, label, points in extra:
        parts.append(Text(f"  {names[who]}: {label}: {points:+d}", style="dim"))
    return Group(*parts)


def verdict(state: TwoHeirsState) -> Text:
    """The winner with both seats' names and points."""
    names = [seat_label(state, s) for s in (0, 1)]
    scores = state.scores()
    points = f"{names[0]} {scores[0]}, {names[1]} {scores[1]}"
    winner = state.winner()
    if not state.is_terminal():
        return Text(f"The game is not over: {points}.", style="bold")
    if winner is None:
        return Text(f"Draw: equal points and equal units in the royal reserve ({points}).", style="bold")
    text = Text(f"{names[winner]} wins", style=SEAT_STYLES[winner] + " reverse")
    if is_solo(state):
        text.append(" (you need more points than Henry; a tie is his)" if winner == 1 else "")
    elif scores[0] == scores[1]:
        text.append(" (tie on points, more units in the royal reserve)")
    text.append(f": {points}", style="bold")
    return text


def render_result(state: TwoHeirsState) -> RenderableType:
    """The final scoring of a finished game and its winner."""
    sheet = state.score_sheet()
    reserve = [state.units_in_reserve(0), state.units_in_reserve(1)]
    names = [seat_label(state, s) for s in (0, 1)]
    return Group(score_tables(sheet, reserve, sheet.extra, names), verdict(state))


def render_position_score(result: PositionScore) -> RenderableType:
    """The score calculator's output: tables and the winner of a scored position."""
    text = Text()
    points = f"white {result.totals[0]}, blue {result.totals[1]}"
    if result.winner is None:
        text.append(f"Draw: equal points and equal units in the royal reserve ({points}).", style="bold")
    else:
        text.append(f"{seat_name(result.winner)} wins", style=SEAT_STYLES[result.winner] + " reverse")
        text.append(f" (decided by {result.decided_by}): {points}")
    sheet = result.sheet
    if result.extra:
        sheet = dataclasses.replace(sheet, totals=result.totals)
    return Group(score_tables(sheet, result.position.reserve, result.extra), text)


__all__ = ["render_position_score", "render_result", "score_tables", "verdict"]
