"""The final scoring of Carcassonne for a terminal: :func:`render_result`.

Each seat's points are broken down by kind of feature (roads, cities, cloisters, shrines, fields)
from the game's scoring events (:meth:`~regalia.games.carcassonne.base.Base.events`), and split
between what was scored during play (completed features) and at the final scoring; challenges of
Heretics and Shrines are counted apart (they score nothing for the loser).

>>> import random, regalia
>>> from rich.console import Console
>>> state = regalia.load_game("carcassonne").new_state(seed=5)
>>> rng = random.Random(5)
>>> from regalia.core.loop import playout
>>> state = playout(state, rng, checked=True)  # random play to the end
>>> table = breakdown(state)
>>> [sum(points.values()) for points in table] == state.scores()
True
>>> console = Console(width=100, no_color=True)
>>> with console.capture() as cap:
...     console.print(render_result(state))
>>> "Final scoring" in cap.get() and "fields" in cap.get()
True
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from regalia.games.carcassonne.render.style import (
    KIND_ORDER,
    KIND_PLURALS,
    name_style,
    seat_name,
    seats_words,
)
from regalia.games.carcassonne.state import CarcassonneState
from regalia.games.carcassonne.tiles import SHRINE


def breakdown(state: CarcassonneState) -> list[dict[str, int]]:
    """Per seat: points by kind of feature, from the scoring events (during play and final)."""
    out: list[dict[str, int]] = [dict.fromkeys(KIND_ORDER, 0) for _ in range(state.num_players)]
    for event in state.events():
        if len(event) < 5 or event[1] not in ("score", "final"):
            continue
        kind, points = event[2], event[3]
        for seat, value in enumerate(points):
            if 0 <= seat < len(out):
                out[seat][kind] = out[seat].get(kind, 0) + value
    return out


def split(state: CarcassonneState) -> tuple[list[int], list[int]]:
    """Per seat: points scored during play, and at the final scoring."""
    during = [0] * state.num_players
    final = [0] * state.num_players
    for event in state.events():
        if len(event) < 5 or event[1] not in ("score", "final"):
            continue
        target = final if event[1] == "final" else during
        for seat, value in enumerate(event[3]):
            if 0 <= seat < len(target):
                target[seat] += value
    return during, final


def challenges_lost(state: CarcassonneState) -> list[int]:
    """Per seat: followers sent home by a challenge (Heretics and Shrines)."""
    out = [0] * state.num_players
    for event in state.events():
        if len(event) >= 5 and event[1] == "challenge":
            for seat in event[3]:
                if 0 <= seat < len(out):
                    out[seat] += 1
    return out


def verdict(state: CarcassonneState) -> Text:
    """Who wins (or shares the first place) and with how many points."""
    scores = state.scores()
    best = max(scores)
    winners = [s for s, p in enumerate(scores) if p == best]
    if not state.is_terminal():
        return Text(
            "The game is not over: " + ", ".join(f"{seat_name(state, s)} {p}" for s, p in enumerate(scores))
        )
    if len(winners) == 1:
        text = Text()
        text.append(f"{seat_name(state, winners[0])} wins", style=name_style(winners[0]) + " reverse")
    else:
        text = Text()
        text.append(f"{seats_words(state, winners)} share the victory", style="bold reverse")
    text.append(f" with {best} points", style="bold")
    return text


def render_result(state: CarcassonneState) -> RenderableType:
    """The final scoring: per seat, points by kind of feature, during play and at the end, and the
    winner."""
    kinds = [k for k in KIND_ORDER if k != SHRINE or state.game.options.shrines != "off"]
    table = Table(title="Final scoring", box=box.SIMPLE_HEAVY, title_style="bold", title_justify="left")
    table.add_column("seat")
    for kind in kinds:
        table.add_column(KIND_PLURALS[kind], justify="right")
    table.add_column("in play", justify="right")
    table.add_column("at the end", justify="right")
    table.add_column("total", justify="right")
    lost = challenges_lost(state)
    if any(lost):
        table.add_column("challenges lost", justify="right")
    points = breakdown(state)
    during, final = split(state)
    scores = state.scores()
    for seat in range(state.num_players):
        row: list[RenderableType] = [Text(seat_name(state, seat), style=name_style(seat))]
        row.extend(str(points[seat].get(kind, 0)) for kind in kinds)
        row.extend([str(during[seat]), str(final[seat]), Text(str(scores[seat]), style="bold")])
        if any(lost):
            row.append(str(lost[seat]))
        table.add_row(*row)
    return Group(table, verdict(state))


__all__ = ["breakdown", "challenges_lost", "render_result", "split", "verdict"]
