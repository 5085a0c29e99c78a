"""Drawing The Two Heirs in a terminal with rich.

:func:`render_terminal` draws a whole position (board, royal reserve, players); :func:`score_tables`
draws a :class:`~regalia.games.two_heirs.scoring.ScoreSheet` (used at the end of a game and by the
score calculator); :func:`legal_groups` groups legal actions for a numbered menu.

On the board, north (``+y``) is up: white sits at the bottom, blue at the top. Each cell shows

* the owner's marker (``▲`` a building facing white, ``▼`` one facing blue) and the tile id,
* the building's short name on the tile's colour (green wood, grey stone, yellow grain);
  face-down tiles (free terrain, the starting landscape) are shaded ``░``,
* units as ``W`` / ``B`` tokens, the elite with a star (``W★``), a unit that moved this turn in lower case,
* roads as marks on the edges they reach (``┃`` north and south, ``━`` east and west),
* free positions where the player to move may play a tile as ``+ x,y``.

>>> import regalia
>>> from rich.console import Console
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> console = Console(width=120, record=True)
>>> with console.capture() as cap:
...     console.print(render_terminal(state, seat=0))
>>> "Royal reserve" in cap.get()
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs.board import owner_of, tile_of, to_global
from regalia.games.two_heirs.scoring import ScoreSheet
from regalia.games.two_heirs.state import START
from regalia.games.two_heirs.tiles import COLOURS, RESOURCES, Tile

SEAT_NAMES = ("white", "blue")
SEAT_LETTERS = ("W", "B")
#: The owner's marker: a building faces its owner (white sits south, blue north).
MARKERS = ("▲", "▼")
MARKER_STYLES = ("bold black on white", "bold white on #1f4fbf")
SEAT_STYLES = ("bold white", "bold #5f8fff")
UNIT_STYLES = ("bold black on white", "bold white on #1f4fbf")

#: Short names that fit a board cell.
SHORT_NAMES: dict[str, str] = {
    "inn": "inn",
    "marketplace": "market",
    "pilgrimage-site": "pilgrims",
    "bandit-stronghold": "bandits",
    "mill": "mill",
    "stonemason": "mason",
    "stable": "stable",
    "bakery": "bakery",
    "camp": "camp",
    "smithy": "smithy",
    "gamekeepers-lodge": "lodge",
    "farm": "farm",
    "sawmill": "sawmill",
    "quarry": "quarry",
    "trading-post": "trading",
    "cathedral": "cathedrl",
    "siege-tower": "siege",
    "fortress": "fortress",
    "basket-makers-workshop": "basket",
    "potters-workshop": "potter",
    "coopers-workshop": "cooper",
    "guild-house": "guild",
    "lookout": "lookout",
    "guardhouse": "guardhse",
}

#: Face-up backgrounds per colour (green, grey, yellow) and the shading of face-down tiles.
FACE_UP = ("black on #8cc97c", "black on #b8b8b8", "black on #ebd25e")
FACE_DOWN = ("#77b36a on #2c5427", "#8a8a8a on #4a4a4a", "#c9b04a on #655719")
FACE_DOWN_TEXT = ("bold #e8f5e4 on #2c5427", "bold #f0f0f0 on #4a4a4a", "bold #fff6cc on #655719")
CHIP = ("#5fb34f", "#a0a0a0", "#e0c030")

NOTATION_HELP = """\
The Two Heirs notation (tiles by id, positions as x,y; north is +y):
  take W3            A: take W3 from the royal reserve into your hand
  build W3 1,-2      B.1: construct W3 at 1,-2 (touching a tile with your unit)
  terrain W3 1,-2    B.2: play W3 face down as free terrain (a discount of 1 resource)
  step 0,0 1,1       C: move your unit from 0,0 to 1,1
  call 1,1           C: call a unit from the royal reserve to 1,1
  withdraw 1,1       C: withdraw your unit at 1,1 into the royal reserve
  camp D7            use your camp D7 to take another tile
  destroy 1,0        siege towers: destroy the building at 1,0 (or: spare)
  discard W3         hand limit: return W3 to the box
  end                end your turn"""

CELL_W = 11
MID = CELL_W // 2


def short_name(building: str) -> str:
    """The name of a building shortened to fit a board cell."""
    return SHORT_NAMES.get(building, building[: CELL_W - 3])


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat] if 0 <= seat < 2 else "nobody"


def seat_label(state: Any, seat: int) -> str:
    """The seat's colour, with the state's own name when it differs (solo: ``blue (henry)``)."""
    colour = seat_name(seat)
    names = state.seat_names()
    if 0 <= seat < len(names) and names[seat] != colour:
        return f"{colour} ({names[seat]})"
    return colour


def colour_chip(colour: int) -> Text:
    """A small square of a tile colour."""
    return Text("■", style=CHIP[colour])


def cost_short(tile: Tile) -> Text:
    """A compact cost with coloured letters: ``2s 1g`` (wood w, stone s, grain g)."""
    text = Text()
    for r, n in enumerate(tile.cost):
        if n:
            if text:
                text.append(" ")
            text.append(f"{n}{RESOURCES[r][0]}", style=CHIP[r])
    return text if text else Text("free")


def tile_label(tile: Tile, cost: bool = True) -> Text:
    """``■ W5 marketplace (2 grain + 1 wood)``."""
    text = colour_chip(tile.colour)
    text.append(f" {tile.id} ", style="bold")
    text.append(tile.building)
    extra = []
    if tile.axis:
        extra.append(tile.axis)
    if tile.depicts:
        extra.append("depicts " + "/".join(tile.depicts))
    if extra:
        text.append(f" [{', '.join(extra)}]", style="dim")
    if cost:
        text.append(f"  {tile.cost_text()}", style="dim")
    return text


# -- the board --------------------------------------------------------------------------------------


def _units_by_pos(state: Any) -> dict[Pos, list[tuple[int, bool, bool]]]:
    """pos -> [(seat, elite, moved)] for every unit on the board."""
    out: dict[Pos, list[tuple[int, bool, bool]]] = {}
    per_seat = len(state.units) // 2
    for i, pos in enumerate(state.units):
        if pos is None:
            continue
        out.setdefault(pos, []).append((i // per_seat, i % per_seat == 0, bool(state.moved >> i & 1)))
    return out


def _line(chars: list[tuple[str, str]]) -> Text:
    text = Text()
    for ch, style in chars:
        text.append(ch, style=style)
    return text


def _cell(
    pos: Pos,
    code: int,
    tiles: Sequence[Tile],
    units: list[tuple[int, bool, bool]],
    is_start: bool,
) -> Text:
    tile = tiles[tile_of(code)]
    owner = owner_of(code)
    face_up = owner >= 0
    base = FACE_UP[tile.colour] if face_up else FACE_DOWN[tile.colour]
    fill = " " if face_up else "░"
    text_style = FACE_UP[tile.colour] if face_up else FACE_DOWN_TEXT[tile.colour]
    rows = [[(fill, base) for _ in range(CELL_W)] for _ in range(4)]

    def put(row: int, col: int, s: str, style: str) -> None:
        for k, ch in enumerate(s):
            if 0 <= col + k < CELL_W:
                rows[row][col + k] = (ch, style)

    # line 0: owner marker and tile id (left), road north (centre)
    if face_up:
        put(0, 0, MARKERS[owner], MARKER_STYLES[owner])
        put(0, 1, tile.id[:4], "bold " + text_style)
    else:
        put(0, 0, f"({tile.id[:3]})", text_style)
    # line 1: road west, building name, road east
    label = short_name(tile.building) if face_up else ("start" if is_start else "terrain")
    label = label[: CELL_W - 2]
    put(1, 1 + (CELL_W - 2 - len(label)) // 2, label, ("bold " if face_up else "") + text_style)
    if face_up and tile.roads:
        road_style = "bold #5a3a1a on " + base.split(" on ")[1]
        sides = {to_global(d, owner) for sec in tile.roads for d in sec}
        if "N" in sides:
            put(0, MID, "┃", road_style)
        if "S" in sides:
            put(3, MID, "┃", road_style)
        if "W" in sides:
            put(1, 0, "━", road_style)
        if "E" in sides:
            put(1, CELL_W - 1, "━", road_style)
    # line 2: units
    if units:
        tokens: list[tuple[str, str]] = []
        for seat, elite, moved in sorted(units):
            letter = SEAT_LETTERS[seat].lower() if moved else SEAT_LETTERS[seat]
            tokens.append((letter + ("★" if elite else ""), UNIT_STYLES[seat]))
        width = sum(len(t) for t, _ in tokens) + len(tokens) - 1
        col = (CELL_W - width) // 2
        for t, style in tokens:
            put(2, col, t, style)
            col += len(t) + 1
    return Text("\n").join(_line(r) for r in rows)


def _empty_cell(pos: Pos, playable: bool) -> Text:
    if not playable:
        return Text("\n".join(" " * CELL_W for _ in range(4)))
    label = "+ " + format_pos(pos)
    lines = [" " * CELL_W, label.center(CELL_W), " " * CELL_W, " " * CELL_W]
    return Text("\n".join(lines), style="bold #c0c0ff")


BOARD_TITLE = "Play area: north up (blue sits north, white south)"
BOARD_LEGEND = (
    "▲ faces white  ▼ faces blue  ░ face down  ┃━ roads  + x,y playable  "
    "W B units (★ elite; lower case: moved this turn)"
)


def render_board(state: Any, playable: Sequence[Pos] | None = None) -> RenderableType:
    """The play area as a grid of tiles, north up, with x across and y down the side.

    ``playable``: free positions to mark as places where the player to move may play a tile
    (default: the placements of the player to move).
    """
    board: dict[Pos, int] = state.board
    if playable is None:
        playable = state.placements(state.player) if not state.is_terminal() else []
    marks = set(playable)
    points = list(board) + list(marks)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    units = _units_by_pos(state)
    table = Table(box=box.SQUARE, show_lines=True, padding=0)
    table.add_column("y\\x", justify="right", style="bold", vertical="middle", no_wrap=True)
    for x in range(x0, x1 + 1):
        table.add_column(str(x), width=CELL_W, justify="left", no_wrap=True, header_style="bold")
    start = START
    for y in range(y1, y0 - 1, -1):
        row: list[RenderableType] = [Text(str(y))]
        for x in range(x0, x1 + 1):
            pos = (x, y)
            code = board.get(pos)
            if code is None:
                row.append(_empty_cell(pos, pos in marks))
            else:
                row.append(_cell(pos, code, state.tiles, units.get(pos, []), pos == start))
        table.add_row(*row)
    return Group(Text(BOARD_TITLE, style="bold"), table, Text(BOARD_LEGEND, style="dim"))


# -- the royal reserve ------------------------------------------------------------------------------


def _is_henry(state: Any, seat: int) -> bool:
    """True for the solo automaton's seat (Henry plays seat 1 in the solo game)."""
    return bool(getattr(state.game.options, "solo", False)) and seat == 1


def _reach_label(state: Any, seat: int) -> str:
    """A seat's reach for display: Henry's is unlimited ("Solo course of the game")."""
    return "∞" if _is_henry(state, seat) else str(state.reach(seat))


def render_reserve(state: Any) -> Table:
    """The royal reserve's 7 positions clockwise from the shield, with each seat's reach marked."""
    size = len(state.reserve)
    order = [(state.shield + k) % size for k in range(size)]
    reach = [set(state.reach_positions(0)), set(state.reach_positions(1))]
    if _is_henry(state, 1):
        reach[1] = set()  # Henry's reach is unlimited: nothing to mark
    player = state.player
    crown = player if state.shield_mine else 1 - player
    table = Table(
        box=box.ROUNDED,
        show_lines=False,
        padding=(0, 1),
        title=f"Royal reserve: a circle read clockwise ⟳ from the shield "
        f"(reach: white {_reach_label(state, 0)}, blue {_reach_label(state, 1)})",
        title_style="bold",
        caption="cost: w wood, s stone, g grain",
        caption_style="dim",
    )
    table.add_column("", style="dim", no_wrap=True)
    for k in range(size):
        table.add_column("shield" if k == 0 else f"+{k}", justify="center", min_width=11, no_wrap=True)
    tiles_row: list[RenderableType] = [Text("tile")]
    cost_row: list[RenderableType] = [Text("cost")]
    reach_row: list[RenderableType] = [Text("reach")]
    for k, pos in enumerate(order):
        t = state.reserve[pos]
        if k == 0:
            tiles_row.append(Text("♛ shield", style="bold"))
            cost_row.append(Text(f"crown {seat_name(crown)}", style=SEAT_STYLES[crown]))
        elif t < 0:
            tiles_row.append(Text("empty", style="dim"))
            cost_row.append(Text(""))
        else:
            tile = state.tiles[t]
            tiles_row.append(Text(f"{tile.id} {short_name(tile.building)}", style=FACE_UP[tile.colour]))
            cost_row.append(cost_short(tile))
        marks = Text()
        for seat in (0, 1):
            if pos in reach[seat]:
                style = SEAT_STYLES[seat] + (" reverse" if seat == player else "")
                marks.append(f" {SEAT_LETTERS[seat]} ", style=style)
        reach_row.append(marks)
    for row in (tiles_row, cost_row, reach_row):
        table.add_row(*row)
    return table


# -- players ---------------------------------------------------------------------------------------


def _resources_text(res: Sequence[int], discounts: int = 0) -> Text:
    text = Text()
    for r, n in enumerate(res):
        if r:
            text.append("  ")
        text.append(f"{n} {RESOURCES[r]}", style=CHIP[r])
    if discounts:
        text.append(f" +{discounts} discount", style="italic")
    return text


def render_players(state: Any, seat: int | None = None) -> Table:
    """Scores, units, reach, resources and hands of both seats; the player to move marked.

    A ``✓`` marks a tile in hand that the player to move can afford now.
    """
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("seat", no_wrap=True)
    table.add_column("score", justify="right")
    table.add_column("units out/in", justify="center", no_wrap=True)
    table.add_column("reach", justify="center")
    table.add_column("resources now", no_wrap=True)
    table.add_column("hand (cost)")
    scores = state.scores()
    for p in (0, 1):
        name = Text(f"{MARKERS[p]} {seat_label(state, p)}", style=SEAT_STYLES[p])
        if p == seat and "(" not in name.plain:
            name.append(" (you)", style="italic")
        if p == state.current_player:
            name.append(" ◀", style="bold")
        hand = Text()
        res = state.resources(p)
        discounts = state.discounts if p == state.player else 0
        for k, t in enumerate(state.hands[p]):
            tile = state.tiles[t]
            if k:
                hand.append(" · ")
            hand.append_text(colour_chip(tile.colour))
            hand.append(f"{tile.id} {short_name(tile.building)} ")
            hand.append_text(cost_short(tile))
            if p == state.current_player:
                deficit = sum(max(0, c - have) for c, have in zip(tile.cost, res, strict=True))
                if deficit <= discounts:
                    hand.append("✓", style="bold green")
        if not state.hands[p]:
            hand.append("—", style="dim")
        table.add_row(
            name,
            Text(str(scores[p]), style="bold"),
            f"{len(state.unit_positions(p))}/{state.units_in_reserve(p)}",
            _reach_label(state, p),
            _resources_text(res, discounts),
            hand,
        )
    return table


def status_line(state: Any) -> Text:
    """One line: ply, sets, supply, whose turn and what is left to do."""
    text = Text()
    ply = len(state.history)
    text.append(f"ply {ply}", style="bold")
    text.append(f" · seed {state.seed} · sets {', '.join(state.sets)}")
    text.append(f" · roads {'on' if state.game.options.roads else 'off'}")
    text.append(f" · supply {len(state.supply)}")
    if state.supply:
        top = state.tiles[state.supply[-1]].colour
        text.append(" (top ")
        text.append_text(colour_chip(top))
        text.append(f" {COLOURS[top]})")
    if state.final:
        text.append(f" · FINAL TURNS ({state.finals_left} left)", style="bold red")
    elif state.trigger:
        text.append(" · the supply is empty: final turns follow", style="bold red")
    text.append("\n")
    if state.is_terminal():
        text.append("The game is over.", style="bold")
        return text
    p = state.player
    text.append(f"{seat_label(state, p)} to move", style=SEAT_STYLES[p])
    text.append(" · tile taken: ")
    text.append("yes" if state.took else "no (take one: action A)", style="bold")
    if state.pending:
        text.append(
            " · siege: destroy " + " or ".join(format_pos(q) for q in state.pending) + " or spare",
            style="bold red",
        )
    if state.discarding:
        text.append(" · hand limit: discard down to 3", style="bold red")
    return text


def render_terminal(state: Any, seat: int | None = None) -> RenderableType:
    """The whole position for ``seat`` (``None``: a spectator): status, board, reserve, players."""
    parts: list[RenderableType] = [render_board(state), render_reserve(state), render_players(state, seat)]
    henry_turn = getattr(state, "last_henry_turn", None)
    if callable(henry_turn) and hasattr(state, "event_text"):
        events = henry_turn()
        if events:
            text = Text("Henry's last turn: ", style="bold")
            text.append(" ".join(state.event_text(e) for e in events))
            parts.append(text)
    parts.append(status_line(state))
    if state.is_terminal():
        parts.append(render_result(state))
    return Group(*parts)


# -- legal actions menu -----------------------------------------------------------------------------


def legal_groups(state: Any, actions: Sequence[Any]) -> list[tuple[Text, list[tuple[Any, str]]]]:
    """Legal actions grouped for a menu: [(group label, [(action, short text)])].

    Builds and free terrains are grouped per tile (the short text is the position), the other
    actions per kind.
    """
    groups: dict[tuple[str, int], tuple[Text, list[tuple[Any, str]]]] = {}
    kind_order = (
        *("take", "build", "terrain", "step", "call", "withdraw"),
        *("camp", "destroy", "spare", "discard", "end"),
    )
    titles = {
        "take": "take a tile (A)",
        "step": "move a unit (C)",
        "call": "call a unit from the reserve (C)",
        "withdraw": "withdraw a unit to the reserve (C)",
        "camp": "use a camp",
        "destroy": "siege: destroy",
        "spare": "siege",
        "discard": "discard (hand limit)",
        "end": "end the turn",
    }
    for a in actions:
        text = state.action_text(a)
        kind, _, rest = text.partition(" ")
        if kind in ("build", "terrain"):
            where = rest.partition(" ")[2]
            key = (kind, a.tile)
            if key not in groups:
                tile = state.tiles[a.tile]
                label = Text(f"{kind} ", style="bold")
                label.append_text(tile_label(tile, cost=kind == "build"))
                if kind == "terrain":
                    label.append(" face down", style="dim")
                groups[key] = (label, [])
            groups[key][1].append((a, where))
        else:
            key = (kind, -1)
            if key not in groups:
                groups[key] = (Text(titles.get(kind, kind), style="bold"), [])
            short = text
            if kind == "take":
                tile = state.tiles[a.tile]
                short = f"{text} ({tile.building})"
            groups[key][1].append((a, short))
    order = {k: i for i, k in enumerate(kind_order)}
    keys = sorted(groups, key=lambda k: (order.get(k[0], len(order)), list(groups).index(k)))
    return [groups[k] for k in keys]


# -- scoring --------------------------------------------------------------------------------------


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
    for col, justify in (
        ("pos", "right"),
        ("tile", "left"),
        ("building", "left"),
        ("owner", "left"),
        ("base", "right"),
        ("doubled", "center"),
        ("points", "right"),
        ("detail", "left"),
    ):
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


def render_result(state: Any) -> RenderableType:
    """The final scoring of a finished game and its winner."""
    sheet = state.score_sheet()
    reserve = [state.units_in_reserve(0), state.units_in_reserve(1)]
    winner = state.winner()
    scores = state.scores()
    if winner is None:
        verdict = Text("Draw: equal points and equal units in the royal reserve.", style="bold")
    else:
        verdict = Text(f"{seat_label(state, winner)} wins", style=SEAT_STYLES[winner] + " reverse")
        if scores[0] == scores[1]:
            verdict.append(" (tie on points, more units in the royal reserve)")
    verdict.append(f"  {scores[0]} : {scores[1]}")
    extra = list(getattr(sheet, "extra", ()))
    return Group(score_tables(sheet, reserve, extra), verdict)


def render_position_score(result: Any) -> RenderableType:
    """The score calculator's output: tables and the winner of a scored position."""
    verdict = Text()
    if result.winner is None:
        verdict.append("Draw: equal points and equal units in the royal reserve.", style="bold")
    else:
        verdict.append(f"{seat_name(result.winner)} wins", style=SEAT_STYLES[result.winner] + " reverse")
        verdict.append(f" (decided by {result.decided_by})")
    verdict.append(f"  white {result.totals[0]} : blue {result.totals[1]}")
    sheet = result.sheet
    if result.extra:
        sheet = dataclasses.replace(sheet, totals=result.totals)
    return Group(score_tables(sheet, result.position.reserve, result.extra), verdict)
