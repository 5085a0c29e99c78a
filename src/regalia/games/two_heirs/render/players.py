"""The seats and the status of a Two Heirs game for a terminal.

:func:`render_players` is a table (score, units, reach, resources, hand); :func:`player_line` is
the compact form, one line per seat. A ``✓`` marks a tile in hand that the seat to move can
afford now. :func:`status_line` tells the ply, the supply and who is to act.

>>> import regalia, random
>>> state = regalia.load_game("two-heirs").new_state(seed=1)
>>> _ = state.advance(random.Random(1))
>>> print(status_line(state, compact=True).plain)
ply 9 · white to move: take a tile (A) · supply 20 (top s grey)
"""

from __future__ import annotations

from rich import box
from rich.table import Table
from rich.text import Text

from regalia.core.game import CHANCE
from regalia.core.grid import format_pos
from regalia.games.two_heirs.base import CH_DEAL, CH_DRAW, CH_FIRST, CH_SETS, CH_START, CH_TOP, CH_TREASURE
from regalia.games.two_heirs.render.reserve import reach_label
from regalia.games.two_heirs.render.solo import henry_score_text
from regalia.games.two_heirs.render.style import (
    MARKERS,
    SEAT_STYLES,
    affordable,
    colour_chip,
    cost_short,
    is_henry,
    plural,
    resources_short,
    seat_label,
    tile_short,
)
from regalia.games.two_heirs.solo import SoloState
from regalia.games.two_heirs.state import TwoHeirsState
from regalia.games.two_heirs.tiles import COLOURS

#: What chance is doing, per chance step of the state.
CHANCE_WORDS = {
    CH_SETS: "chance picks three sets",
    CH_FIRST: "the royal shield is flipped like a coin: who starts",
    CH_DEAL: "chance deals the royal reserve from the supply",
    CH_START: "chance draws the starting landscape",
    CH_TOP: "the supply's next tile shows the colour of its back",
    CH_DRAW: "chance draws the supply's top tile to refill the royal reserve",
    CH_TREASURE: "a treasure token is flipped onto Henry's new building",
}


def seat_title(state: TwoHeirsState, seat: int, viewer: int | None) -> Text:
    """``▲ white (you) ◀``: marker, name, the viewer's seat and the seat to move."""
    name = Text(f"{MARKERS[seat]} {seat_label(state, seat)}", style=SEAT_STYLES[seat])
    if seat == viewer and "(" not in name.plain:
        name.append(" (you)", style="italic")
    if seat == state.current_player:
        name.append(" ◀", style="bold")
    return name


def hand_text(state: TwoHeirsState, seat: int, compact: bool = False, name_width: int = 8) -> Text:
    """The seat's hand: ``W2 s inn 2s 1g ✓ · D4 ...`` (``✓``: affordable now, seat to move only);
    compact: ``W2 s inn 2s1g✓, D4 ...`` with names of at most ``name_width`` letters (0: none)."""
    hand = Text()
    res = state.resources(seat)
    mover = seat == state.current_player
    for k, t in enumerate(state.hands[seat]):
        tile = state.tiles[t]
        if k:
            hand.append(", " if compact else " · ")
        hand.append_text(tile_short(tile, name_width))
        hand.append(" ")
        hand.append_text(cost_short(tile, sep="" if compact else " "))
        if mover and affordable(state, seat, t, res):
            hand.append("✓", style="bold green")
    if not state.hands[seat]:
        hand.append("—", style="dim")
    return hand


def resources_text(state: TwoHeirsState, seat: int) -> Text:
    """``1w 2s 0g`` and the discounts of free terrain played this turn."""
    text = resources_short(state.resources(seat))
    if seat == state.player and state.discounts:
        text.append(f" +{state.discounts} discount", style="italic")
    return text


def render_players(state: TwoHeirsState, viewer: int | None = None) -> Table:
    """Scores, units, reach, resources and hands of both seats; the seat to move marked."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False)
    table.add_column("seat", no_wrap=True)
    table.add_column("score", justify="right")
    table.add_column("units out/in", justify="center", no_wrap=True)
    table.add_column("reach", justify="center")
    table.add_column("resources now", no_wrap=True)
    table.add_column("hand: id name colour cost (✓ affordable now)")
    scores = state.scores()
    for p in (0, 1):
        if is_henry(state, p) and isinstance(state, SoloState):
            off = bin(state.henry_off).count("1")
            units = f"{3 - off}/{off} off"
            res = Text("—", style="dim")
        else:
            units = f"{len(state.unit_positions(p))}/{state.units_in_reserve(p)}"
            res = resources_text(state, p)
        table.add_row(
            seat_title(state, p, viewer),
            Text(str(scores[p]), style="bold"),
            units,
            reach_label(state, p),
            res,
            hand_text(state, p),
        )
    return table


def player_line(state: TwoHeirsState, seat: int, viewer: int | None = None, width: int | None = None) -> Text:
    """One seat on one line: score, reach, resources and hand. Building names are shortened, then
    left out, to fit ``width``; what still does not fit is cut with ``…``."""
    for name_width in (8, 5, 0):
        line = seat_title(state, seat, viewer)
        if is_henry(state, seat) and isinstance(state, SoloState):
            line.append(" ")
            line.append_text(henry_score_text(state, short=True, name=False))
        else:
            line.append(f" {plural(state.scores()[seat], 'pt')} · reach {reach_label(state, seat)} · ")
            line.append_text(resources_text(state, seat))
            line.append(" · hand ")
            line.append_text(hand_text(state, seat, compact=True, name_width=name_width))
        if width is None or len(line) <= width:
            break
    line.no_wrap = True
    line.overflow = "ellipsis"
    return line


def player_block(state: TwoHeirsState, seat: int, viewer: int | None = None) -> Text:
    """One seat in a few lines, for a side panel: score, reach, resources, units, one line per tile."""
    text = seat_title(state, seat, viewer)
    if is_henry(state, seat) and isinstance(state, SoloState):
        text.append(" · ")
        text.append_text(henry_score_text(state, short=True, name=False))
        off = bin(state.henry_off).count("1")
        text.append(f"\n  units: {3 - off} on the board, {off} off it; reach: all")
        return text
    text.append(f" · {plural(state.scores()[seat], 'point')}", style="bold")
    text.append(f"\n  reach {reach_label(state, seat)} · has ")
    text.append_text(resources_text(state, seat))
    out = len(state.unit_positions(seat))
    text.append(f" · units {out} out, {state.units_in_reserve(seat)} in")
    text.append("\n  hand ")
    hand = state.hands[seat]
    if not hand:
        text.append("—", style="dim")
    res = state.resources(seat)
    for k, t in enumerate(hand):
        tile = state.tiles[t]
        if k:
            text.append("\n       ")
        text.append_text(tile_short(tile))
        text.append(" ")
        text.append_text(cost_short(tile))
        if seat == state.current_player and affordable(state, seat, t, res):
            text.append(" ✓", style="bold green")
    return text


def _to_act(state: TwoHeirsState, viewer: int | None) -> Text:
    text = Text()
    player = state.current_player
    if state.is_terminal():
        text.append("The game is over.", style="bold")
        return text
    if player == CHANCE:
        text.append("chance: " + CHANCE_WORDS.get(state.chance, "a draw"), style="bold")
        return text
    p = state.player
    who = seat_label(state, p) + (" (you)" if p == viewer and "(" not in seat_label(state, p) else "")
    if is_henry(state, p):
        text.append(f"{who}: Henry's turn, played by the solo rules", style=SEAT_STYLES[p])
        return text
    text.append(f"{who} to move", style=SEAT_STYLES[p])
    if state.pending:
        text.append(
            ": siege: destroy " + " or ".join(format_pos(q) for q in state.pending) + ", or spare",
            style="bold red",
        )
    elif state.discarding:
        text.append(": hand limit: discard down to 3", style="bold red")
    elif not state.took:
        text.append(": take a tile (A)" if any(t >= 0 for t in state.reserve) else ": no tile left to take")
    else:
        text.append(": tile taken")
    return text


def _supply(state: TwoHeirsState) -> Text:
    text = Text(f"supply {len(state.supply)}")
    if state.supply and state.top >= 0:
        text.append(" (top ")
        text.append_text(colour_chip(state.top))
        text.append(f" {COLOURS[state.top]})")
    return text


def status_line(state: TwoHeirsState, viewer: int | None = None, compact: bool = False) -> Text:
    """Ply, supply and who is to act (compact: one line; full: sets and roads too, two lines)."""
    text = Text()
    text.append(f"ply {state.ply}", style="bold")
    if compact:
        text.append(" · ")
        text.append_text(_to_act(state, viewer))
        text.append(" · ")
        text.append_text(_supply(state))
        if not state.game.options.roads:
            text.append(" · roads off")
    else:
        if state.sets:
            text.append(f" · sets {', '.join(state.sets)}")
        text.append(f" · roads {'on' if state.game.options.roads else 'off'} · ")
        text.append_text(_supply(state))
    if state.final:
        text.append(f" · FINAL TURNS ({state.finals_left} left)", style="bold red")
    elif state.trigger:
        text.append(" · the supply is empty: final turns follow", style="bold red")
    if not compact:
        text.append("\n")
        text.append_text(_to_act(state, viewer))
    return text


__all__ = [
    "CHANCE_WORDS",
    "hand_text",
    "player_block",
    "player_line",
    "render_players",
    "resources_text",
    "seat_title",
    "status_line",
]
