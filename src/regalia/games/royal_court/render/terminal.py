"""The whole position for a terminal: :func:`render_terminal`, and the final result.

The view is a status line, the board (a window around the pieces, north up, with x and y
coordinates), one line per seat (its consort, its current score, its zone) and a legend of the
archetypes (abbreviation, name, influence, ability in a word). With ``height`` the board is cut to
leave room for the play command's lines and menu below it.

>>> import regalia
>>> from rich.console import Console
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> for text in ("first red", "play Assassin 1,1", "move 1,1 2,1"):
...     _ = state.apply_text(text)
>>> console = Console(width=80, no_color=True, record=True)
>>> console.print(render_terminal(state, 1, width=80, height=24))  # doctest: +ELLIPSIS
turn 2 of 60 · blue (you) to play a tile from the zone (step 1)
...
>>> lines = console.export_text().splitlines()
>>> max(len(line) for line in lines) <= 80, len(lines) <= 24 - ROOM
(True, True)
>>> [any(cell in line for line in lines) for cell in ("K:R+", "RAs+", "Q:B+")]
[True, True, True]
"""

from __future__ import annotations

import contextlib

from rich.console import Group, RenderableType
from rich.text import Text

from regalia.core.game import CHANCE, TERMINAL
from regalia.core.grid import Pos, neighbours4
from regalia.core.text import plural
from regalia.games.royal_court.actions import SEAT_NAMES
from regalia.games.royal_court.state import (
    KING,
    P_MOVE,
    P_PLACE,
    P_PLAY,
    P_TARGET,
    RoyalCourtState,
)

#: Lines left below the view for the play command (the plies of the turn, the prompt, a short menu).
ROOM = 8
CELL = 5  # 4 characters and a space
SEAT_STYLES = ("bold red", "bold blue")


def cell_text(state: RoyalCourtState, piece: int) -> str:
    """The four characters of a piece: owner letter, archetype abbreviation and side (``RAs+``,
    ``BSp-``); the king and queen as ``K:R+`` (whose consort, side)."""
    game = state.game
    side = "+" if state.is_active(piece) else "-"
    if piece < 2:
        seat = game.consort_piece.index(piece)
        return f"{'K' if piece == KING else 'Q'}:{SEAT_NAMES[seat][0].upper()}{side}"
    abbr = game.archetypes.archetypes[game.arch[piece]].abbr.ljust(2)
    return f"{SEAT_NAMES[game.owner[piece]][0].upper()}{abbr}{side}"


def _piece_style(state: RoyalCourtState, piece: int) -> str:
    if piece < 2:
        return "bold yellow" if state.is_active(piece) else "yellow"
    style = SEAT_STYLES[state.game.owner[piece]]
    return style if state.is_active(piece) else style.replace("bold ", "") + " dim"


def _bounds(state: RoyalCourtState) -> tuple[int, int, int, int]:
    xs = [p[0] for p in state.board]
    ys = [p[1] for p in state.board]
    return min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1


def _window(lo: int, hi: int, size: int, centre: int) -> tuple[int, int]:
    """At most ``size`` values of ``lo..hi``, around ``centre``."""
    if hi - lo + 1 <= size:
        return lo, hi
    start = max(lo, min(centre - size // 2, hi - size + 1))
    return start, start + size - 1


#: After a tile the last turn played, moved or turned (with colour, the tile is underlined too).
LAST_MARK = "◂"


def last_squares(state: RoyalCourtState) -> set[Pos]:
    """The squares the latest turn touched (the plies of the last seat to act, chance's passed over)."""
    from regalia.games.royal_court.render.labels import places

    plies = [p for p in state.plies() if p.player >= 0]
    out: set[Pos] = set()
    for ply in reversed(plies):
        if ply.player != plies[-1].player:
            break
        for place in places(state, ply):
            x, _, y = place.partition(",")
            with contextlib.suppress(ValueError):
                out.add((int(x), int(y)))
    return out


def render_board(state: RoyalCourtState, max_cols: int | None = None, max_rows: int | None = None) -> Text:
    """The board, north up: a header of x coordinates, then one line per row with its y; while
    a tile is to be played, the empty squares it may go onto carry their number in the menu; the
    tiles the last turn touched are followed by :data:`LAST_MARK`."""
    x0, x1, y0, y1 = _bounds(state)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if max_cols is not None:
        x0, x1 = _window(x0, x1, max(1, max_cols), cx)
    if max_rows is not None:
        y0, y1 = _window(y0, y1, max(1, max_rows), cy)
    playing = state.phase in (P_PLAY, P_PLACE) and state.current_player >= 0
    numbers = {q: n for n, q in enumerate(state.play_squares(), 1)} if playing else {}
    last = last_squares(state)
    out = Text()
    out.append("    ")
    for x in range(x0, x1 + 1):
        out.append(f"{x:^4} ", style="dim")
    for y in range(y1, y0 - 1, -1):
        out.append("\n")
        out.append(f"{y:>3} ", style="dim")
        for x in range(x0, x1 + 1):
            pos: Pos = (x, y)
            piece = state.board.get(pos)
            if piece is None:
                number = numbers.get(pos)
                if number is None:
                    out.append("     ")
                else:  # the square's number in the menu (Sp 3 plays the Spy there)
                    out.append(f"[{number}]".ljust(4) + " ", style="cyan")
            elif pos in last:
                out.append(cell_text(state, piece), style=_piece_style(state, piece) + " underline")
                out.append(LAST_MARK, style="bold yellow")
            else:
                out.append(cell_text(state, piece), style=_piece_style(state, piece))
                out.append(" ")
    full = _bounds(state)
    if (x0, x1, y0, y1) != full:
        out.append(f"\n    (board cut: x {x0}..{x1}, y {y0}..{y1}; 'board' shows it all)", style="dim")
    return out


def status_line(state: RoyalCourtState, viewer: int | None) -> Text:
    """Whose turn and which step, or the result."""
    player = state.current_player
    if player == TERMINAL:
        return Text(f"after {plural(state.turn, 'turn')} · ").append_text(result_line(state))
    text = Text(f"turn {state.turn + 1} of {state.game.options.turn_cap} · ")
    if player == CHANCE:
        return text.append("chance chooses the first player")
    name = SEAT_NAMES[player] + (" (you)" if viewer == player else "")
    text.append(name, style=SEAT_STYLES[player])
    game = state.game
    if state.phase == P_PLAY:
        text.append(" to play a tile from the zone (step 1)")
    elif state.phase == P_PLACE:
        arch = game.archetypes.archetypes[game.arch[state.source]]
        text.append(f" to play a second tile, the {arch.name}'s ability (step 2)")
    elif state.phase == P_TARGET:
        arch = game.archetypes.archetypes[game.arch[state.source]]
        effect = state.queue[0]
        text.append(f" to choose the {arch.name}'s target: {effect_words(effect.do, effect.target)} (step 2)")
    elif state.phase == P_MOVE:
        extra = " (an extra move, or pass)" if state.moves_done else ""
        text.append(f" to move a tile one square (step 3){extra}")
    return text


#: The effects and targets of the archetype files, in words.
EFFECT_WORDS = {
    "remove": "remove",
    "return": "send back to its owner's zone",
    "swap": "swap with",
    "flip": "turn over",
    "move-consort": "move",
    "force-next": "oblige the opponent to play next",
    "extra-move": "make an extra move",
    "extra-play": "play another tile",
    "block-next": "block the next ability",
}
TARGET_WORDS = {
    "opponent-active-in-play": "an active tile of the opponent's on the board",
    "own-active-in-play": "an active tile of yours on the board",
    "opponent-active-in-zone": "an active tile in the opponent's zone",
    "opponent-in-zone": "a tile in the opponent's zone",
    "active-consort": "the active consort",
}


def effect_words(do: str, target: str = "") -> str:
    """An effect and its target in words: ``send back to its owner's zone an active tile of yours
    on the board`` for ``return own-active-in-play``."""
    words = EFFECT_WORDS.get(do, do)
    if target:
        words += " " + TARGET_WORDS.get(target, target)
    return words


def result_line(state: RoyalCourtState) -> Text:
    """One line: how the game ended."""
    a, b = state.scores()
    if state.ending == "surround":
        seat = state.winner_seat
        return Text(
            f"{SEAT_NAMES[seat]} wins outright: their consort is surrounded (End game 1)",
            style="bold",
        )
    why = (
        "every tile is played" if state.ending == "scored" else "the turn cap is reached (ruling RC-turn-cap)"
    )
    dash = "-" if min(a, b) >= 0 else " to "  # "-6 to -11", not "-6--11"
    if a == b:
        return Text(f"a draw {a}{dash}{b}: {why} (End game 2)", style="bold")
    seat = 0 if a > b else 1
    return Text(f"{SEAT_NAMES[seat]} wins {max(a, b)}{dash}{min(a, b)}: {why} (End game 2)", style="bold")


def seat_line(state: RoyalCourtState, seat: int) -> Text:
    """A seat: its consort and current score, its zone (tiles with their side), notes."""
    game = state.game
    text = Text(f"{SEAT_NAMES[seat]:<4}", style=SEAT_STYLES[seat])
    text.append(f" {game.consorts[seat]:<5} score {state.consort_score(seat):>3} · zone:")
    tiles = state.zone_tiles(seat)
    for k in tiles:
        piece = game.piece(seat, k)
        text.append(" ")
        text.append(cell_text(state, piece)[1:], style=_piece_style(state, piece))
    if not tiles:
        text.append(" empty", style="dim")
    removed = [k for k in range(game.count) if state.removed >> game.piece(seat, k) & 1]
    if removed:
        text.append(" · removed:")
        for k in removed:
            text.append(" " + game.archetypes.archetypes[game.arch[game.piece(seat, k)]].abbr, style="strike")
    if state.forced[seat] >= 0:
        text.append(f" · must play {game.archetypes.archetypes[state.forced[seat]].abbr}", style="italic")
    if state.blocked >> seat & 1:
        text.append(" · next ability blocked", style="italic")
    return text


def legend(state: RoyalCourtState, width: int) -> Text:
    """``As Assassin 1 kill`` for every archetype, packed into lines of ``width``."""
    out = Text()
    column = 0
    for arch in state.game.archetypes.archetypes:
        item = f"{arch.abbr} {arch.name} {arch.influence} {arch.word}"
        if column and column + 3 + len(item) > width:
            out.append("\n")
            column = 0
        elif column:
            out.append(" · ", style="dim")
            column += 3
        out.append(arch.abbr, style="bold")
        out.append(item[len(arch.abbr) :])
        column += len(item)
    return out


def render_terminal(
    state: RoyalCourtState, viewer: int | None = None, width: int | None = None, height: int | None = None
) -> RenderableType:
    """The position fitted to ``width`` x ``height`` (``None``: no limit), leaving :data:`ROOM`
    lines below it."""
    w = 200 if width is None else width
    legend_text = legend(state, w)
    panel = [status_line(state, viewer), seat_line(state, 0), seat_line(state, 1)]
    used = len(panel) + legend_text.plain.count("\n") + 1
    if state.is_terminal():
        used += 3  # the scoring (render_result)
    max_rows = None
    if height is not None:
        max_rows = max(3, height - ROOM - used - 2)  # header and a possible note
    max_cols = (w - 4) // CELL
    board = render_board(state, max_cols, max_rows)
    parts: list[RenderableType] = [panel[0], board, *panel[1:], legend_text]
    if height is None or height > 30:
        parts.append(key_line(w))
    if state.is_terminal():
        parts.extend(render_result(state).renderables)
    return Group(*parts)


#: What the board's marks mean.
KEY = (
    "RSp+ red's Spy, + active (its ability works) or - inactive",
    "K:R+ the king, red's consort (Q:B the queen, blue's)",
    f"{LAST_MARK} the last turn's tiles",
    "[3] move 3 plays the tile there",
)


def key_line(width: int) -> Text:
    """The key to the board's marks, packed into lines of ``width``."""
    from regalia.render.text import pack

    return pack([Text(k, style="dim") for k in KEY], width, sep=" · ")


def score_parts(state: RoyalCourtState, seat: int) -> list[str]:
    """What counts beside ``seat``'s consort (End game 2), one term per tile: ``+2`` (own tile),
    ``+2+1`` (own inactive tile, its token), ``-3`` (the opponent's).

    >>> import regalia
    >>> state = regalia.load_game("royal-court").new_state(seed=1)
    >>> score_parts(state, 0)
    []
    """
    game = state.game
    owner = game.owner
    parts = []
    for q in neighbours4(state.consort_at(seat)):
        piece = state.board.get(q)
        if piece is None or piece < 2:
            continue
        value = game.influence[piece]
        if owner[piece] == seat:
            token = 0 if state.is_active(piece) else 1
            parts.append(f"+{value}" + (f"+{token}" if token else ""))
        else:
            parts.append(f"-{value}")
    return parts


def score_line(state: RoyalCourtState, seat: int) -> str:
    """``red (king): +2+1 -3 = 0``: a consort's score and what makes it."""
    parts = score_parts(state, seat)
    detail = " ".join(parts) if parts else "nothing beside it"
    return f"{SEAT_NAMES[seat]} ({state.game.consorts[seat]}): {detail} = {state.consort_score(seat)}"


def render_result(state: RoyalCourtState) -> Group:
    """The end of the game: how it ended and each consort's scoring (End game 2)."""
    return Group(result_line(state), *(Text(score_line(state, seat)) for seat in (0, 1)))
