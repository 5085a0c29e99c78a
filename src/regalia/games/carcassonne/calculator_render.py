"""The Carcassonne score calculator's result for a terminal (``regalia score``): a table of the
features that score at the end, a table of each player's points, and the winner.

>>> from rich.console import Console
>>> from regalia.games.carcassonne.calculator import score_document
>>> doc = {"format": "carcassonne-position", "version": 1,
...        "board": [{"pos": "0,0", "tile": "D"}, {"pos": "1,0", "tile": "U"}],
...        "followers": [{"pos": "1,0", "seat": "blue", "feature": "road", "name": "E"}]}
>>> console = Console(width=100, no_color=True)
>>> with console.capture() as cap:
...     console.print(render_position_score(score_document(doc)))
>>> print(cap.get().splitlines()[-1])
blue wins: red 0, blue 2
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.core.grid import format_pos
from regalia.games.carcassonne.calculator import POINT_KINDS, FeatureScore, PositionScore

#: Rich styles of the seats' colours (black is shown bold: a black text may not show on a terminal).
SEAT_STYLES: dict[str, str] = {
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "yellow": "bold yellow",
    "black": "bold",
}
#: Tiles listed in a feature's row before the rest is left out.
MAX_TILES_SHOWN = 4


def _seat(name: str) -> Text:
    return Text(name, style=SEAT_STYLES.get(name, "bold"))


def _tiles(feature: FeatureScore) -> str:
    shown = " ".join(format_pos(p) for p in feature.tiles[:MAX_TILES_SHOWN])
    more = len(feature.tiles) - MAX_TILES_SHOWN
    return shown + (f" (+{more})" if more > 0 else "")


def feature_table(result: PositionScore) -> Table:
    """One row per feature holding followers: where it is, the followers of each seat, who scores
    and how much."""
    seats = result.seats
    table = Table(
        title="Final scoring: features with followers",
        box=box.SIMPLE_HEAVY,
        title_style="bold",
        title_justify="left",
        pad_edge=False,
    )
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("feature", no_wrap=True)
    table.add_column("tiles", justify="right", no_wrap=True)
    table.add_column("where")
    for name in seats:
        table.add_column(name, justify="right", header_style=SEAT_STYLES.get(name, "bold"), no_wrap=True)
    table.add_column("scores")
    table.add_column("points", justify="right", no_wrap=True)
    table.add_column("counted")
    for i, f in enumerate(result.features, start=1):
        scorers = Text()
        for k, s in enumerate(f.scorers):
            if k:
                scorers.append(", ")
            scorers.append_text(_seat(seats[s]))
        if len(f.scorers) > 1:
            scorers.append(" (tie)")
        table.add_row(
            str(i),
            f.kind,
            str(len(f.tiles)),
            Text(_tiles(f), style="dim"),
            *(str(n) if n else "" for n in f.followers),
            scorers,
            Text(str(f.points), style="bold"),
            Text(f.detail, style="dim"),
        )
    return table


def totals_table(result: PositionScore) -> Table:
    """Per seat: the points so far, the final scoring per kind of feature, the total."""
    table = Table(title="Totals", box=box.SIMPLE_HEAVY, title_style="bold", title_justify="left")
    table.add_column("seat")
    table.add_column("so far", justify="right")
    for kind in POINT_KINDS:
        table.add_column(kind, justify="right")
    table.add_column("total", justify="right")
    for s, name in enumerate(result.seats):
        kinds = result.by_kind(s)
        table.add_row(
            _seat(name),
            str(result.so_far[s]),
            *(f"+{kinds[k]}" if kinds[k] else "" for k in POINT_KINDS),
            Text(str(result.totals[s]), style="bold"),
        )
    return table


def verdict(result: PositionScore) -> Text:
    """Who wins (a tie shares the victory), with every seat's total."""
    seats = result.seats
    points = ", ".join(f"{name} {result.totals[s]}" for s, name in enumerate(seats))
    winners = result.winners
    text = Text()
    for k, s in enumerate(winners):
        if k:
            text.append(" and " if k == len(winners) - 1 else ", ")
        text.append_text(_seat(seats[s]))
    text.append(" share the victory" if len(winners) > 1 else " wins")
    text.append(f": {points}")
    return text


def render_position_score(result: PositionScore) -> RenderableType:
    """The calculator's output: the features table, the totals and the verdict."""
    features: RenderableType = feature_table(result)
    if not result.features:
        features = Text("No follower on the board: the final scoring adds nothing.\n", style="dim")
    return Group(features, totals_table(result), verdict(result))


__all__ = ["SEAT_STYLES", "feature_table", "render_position_score", "totals_table", "verdict"]
