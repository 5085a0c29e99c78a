"""The parts of the Carcassonne view beside the board: the status line, the seats, the drawn tile
in each of its rotations, the bag's counts by tile letter, the legend.

Each part comes in a form for the side panel (:data:`PANEL_W` columns) and a shorter one for a
narrow terminal. A seat reads ``▶ red (you)  12 pts  RRRRR··``: the marker of the seat to move,
the points, then its followers, one letter each for those in its supply and ``·`` for those on the
board.

>>> import regalia
>>> state = regalia.load_game("carcassonne", players=3).new_state(seed=3)
>>> _ = state.apply_text("draw E")
>>> print(status_line(state, 0).plain)
ply 1 · red (you) to lay tile E (70 left in the bag)
>>> print(players_block(state, 0).plain)
▶ red (you) 0 pts RRRRRRR
  blue      0 pts BBBBBBB
  green     0 pts GGGGGGG
>>> print(bag_line(state, 40).plain)
bag 70: A2 B4 C1 D3 E4 F2 G1 H3 I2 J3 K3
L3 M2 N3 O2 P3 Q1 R3 S2 T1 U8 V9 W4 X1
"""

from __future__ import annotations

from rich.text import Text

from regalia.games.carcassonne.base import FOLLOWERS, PH_DRAW, PH_FOLLOWER, PH_PLACE
from regalia.games.carcassonne.render.board import fit_positions, tile_cell
from regalia.games.carcassonne.render.cells import CELL_W
from regalia.games.carcassonne.render.style import (
    LEGEND_GLYPHS,
    name_style,
    plural,
    rotation_label,
    seat_letter,
    seat_name,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import TileType
from regalia.render.text import pack

#: The side panel's width: four rotations of a tile side by side, 6 columns each.
PANEL_W = 30


def seat_label(state: CarcassonneState, seat: int, viewer: int | None) -> str:
    """``red``, ``red (you)``."""
    return seat_name(state, seat) + (" (you)" if seat == viewer else "")


def status_line(state: CarcassonneState, viewer: int | None) -> Text:
    """Whose turn and what to do, with the tiles left in the bag."""
    text = Text()
    text.append(f"ply {state.ply} · ", style="dim")
    left = f"{state.bag_left} left in the bag"
    if state.terminal:
        text.append("game over", style="bold")
        text.append(" · " + ", ".join(f"{seat_name(state, s)} {p}" for s, p in enumerate(state.scores())))
        return text
    who = seat_label(state, state.player, viewer)
    text.append(who, style=name_style(state.player))
    if state.phase == PH_DRAW:
        text.append(f" to draw a tile ({left})")
    elif state.phase == PH_PLACE:
        tile = state.cat.types[state.drawn].id
        text.append(f" to lay tile {tile} ({left})")
    elif state.phase == PH_FOLLOWER and state.placed is not None:
        x, y = state.placed
        text.append(f" to deploy a follower on the tile at {x},{y} or pass")
    return text


def followers_text(state: CarcassonneState, seat: int) -> Text:
    """One letter per follower in the seat's supply, ``·`` per follower on the board."""
    left = state.followers[seat]
    out = Text()
    out.append(seat_letter(seat) * left, style=name_style(seat))
    out.append("·" * max(0, FOLLOWERS - left), style="dim")
    return out


def players_block(state: CarcassonneState, viewer: int | None) -> Text:
    """One line per seat: the marker of the seat to move, name, points, followers."""
    names = [seat_label(state, s, viewer) for s in range(state.num_players)]
    width = max(len(n) for n in names)
    scores = state.scores()
    digits = max(len(str(p)) for p in scores)
    lines = []
    to_move = state.current_player
    for seat, name in enumerate(names):
        line = Text()
        line.append("▶ " if seat == to_move else "  ", style="bold")
        line.append(name.ljust(width), style=name_style(seat))
        line.append(f" {scores[seat]:>{digits}} pts ")
        line.append_text(followers_text(state, seat))
        lines.append(line)
    return Text("\n").join(lines)


def players_line(state: CarcassonneState, viewer: int | None) -> Text:
    """Every seat on one line (a narrow terminal): ``▶red 12 RRRRR·· · blue 8 BBBBBBB``."""
    out = Text()
    for seat in range(state.num_players):
        if seat:
            out.append(" · ", style="dim")
        out.append("▶" if seat == state.current_player else "", style="bold")
        out.append(seat_label(state, seat, viewer), style=name_style(seat))
        out.append(f" {state.scores()[seat]} ")
        out.append_text(followers_text(state, seat))
    return out


def _drawn(state: CarcassonneState) -> tuple[TileType, set[int]] | None:
    """The tile to be laid and its rotations that fit somewhere (``None``: no tile to lay)."""
    if state.terminal or state.phase != PH_PLACE or state.drawn < 0:
        return None
    fits = {r for rotations in fit_positions(state).values() for r in rotations}
    return state.cat.types[state.drawn], fits


def tile_block(state: CarcassonneState) -> Text | None:
    """The drawn tile in each of its rotations (labels ``↑0° →90° ↓180° ←270°``: where its printed
    top points); rotations that fit nowhere are dim. ``None`` when no tile is to be laid."""
    if (drawn := _drawn(state)) is None:
        return None
    tile, fits = drawn
    head = Text()
    head.append(f"tile {tile.id}", style="bold")
    count = len(fit_positions(state))
    head.append(f" fits {plural(count, 'place')}:", style="")
    labels = Text()
    cells = [tile_cell(state.cat.turned(tile.index, r)) for r in tile.rotations]
    for r in tile.rotations:
        label = rotation_label(r).ljust(CELL_W + 1)
        labels.append(label, style="bold" if r in fits else "dim")
    lines = [head, labels]
    for k in range(3):
        line = Text()
        for cell in cells:
            line.append_text(cell[k])
            line.append(" ")
        lines.append(line)
    return Text("\n").join(lines)


def tile_line(state: CarcassonneState) -> Text | None:
    """The drawn tile's rotations on one line (``tile N: ↑0° →90° ↓180° ←270°``), those that fit
    nowhere dim; ``None`` when no tile is to be laid."""
    if (drawn := _drawn(state)) is None:
        return None
    tile, fits = drawn
    out = Text()
    out.append(f"tile {tile.id}:", style="bold")
    for r in tile.rotations:
        out.append(" ")
        out.append(rotation_label(r), style="bold" if r in fits else "dim")
    return out


def bag_entries(state: CarcassonneState) -> list[Text]:
    """``A2``, ``B4``...: the tiles left in the bag by letter."""
    return [Text(f"{state.cat.types[t].id}{n}") for t, n in enumerate(state.bag) if n]


def bag_line(state: CarcassonneState, width: int | None, short: bool = False) -> Text:
    """``bag 64: A2 B4 ...`` packed to ``width`` (``short``: only the count)."""
    head = Text()
    if not state.bag_left:
        head.append("bag: empty", style="bold")
        return head
    head.append(f"bag {state.bag_left}" + ("" if short else ":"), style="bold")
    if short:
        head.append(" tiles left", style="")
        return head
    return pack([head, *bag_entries(state)], width)


def legend(state: CarcassonneState, width: int | None) -> Text:
    """The glyphs, the followers' letters, and the numbers on the board."""
    letters = " ".join(seat_letter(s) for s in range(state.num_players))
    parts = [Text(w) for w in LEGEND_GLYPHS.replace("  ", "\0").split("\0")]
    parts.append(Text(f"followers {letters}", style="dim"))
    parts.append(Text(f"(farmers {letters.lower()})", style="dim"))
    if state.phase == PH_PLACE and not state.terminal:
        parts.append(
            Text("3→ move 3, the tile's printed top pointing → (↑ 0°, → 90°, ↓ 180°, ← 270°)", style="dim")
        )
    elif state.phase == PH_FOLLOWER and not state.terminal:
        parts.append(Text("numbers on the new tile: follower moves", style="dim"))
    elif state.terminal:
        parts.append(Text("followers where they stood at the final scoring", style="dim"))
    return pack(parts, width)


__all__ = [
    "PANEL_W",
    "bag_entries",
    "bag_line",
    "followers_text",
    "legend",
    "pack",
    "players_block",
    "players_line",
    "seat_label",
    "status_line",
    "tile_block",
    "tile_line",
]
