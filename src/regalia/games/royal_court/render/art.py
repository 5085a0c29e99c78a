"""The pictures of Intrigue in the Royal Court's pieces, shared by the whole picture (:mod:`.svg`),
the table's board and panels (:mod:`.table`) and the reference (:mod:`.reference`): the seats'
colours, a tile (:func:`tile_art`) on its active or inactive side, the king and the queen
(:func:`royal_art`) and their tooltips.

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> tile_title(state, 2, "in the zone")[:40]
'red Assassin (2, kill: remove one oppone'
>>> seat_of(state, 0), seat_of(state, 12)
(0, 1)
"""

from __future__ import annotations

from regalia.games.royal_court.actions import SEAT_NAMES
from regalia.games.royal_court.state import KING, RoyalCourtState
from regalia.render.svg import el, txt

#: Per seat: the solid fill of an active tile, the pale fill of an inactive one, the ink.
SEAT_FILL = ("#c92a2a", "#1c5fb8")
SEAT_PALE = ("#f8dede", "#dde8f7")
SEAT_INK = ("#8a1c1c", "#123f7a")
GOLD = "#f2c230"
GOLD_PALE = "#f3ead0"
BANNER = "#f2c230"
BOARD_BG = "#efe7d2"
CHOICE = "#2b8a3e"
CHOICE_FILL = "#d3f9d8"


def seat_of(state: RoyalCourtState, piece: int) -> int:
    """The seat owning a tile, or the seat whose consort a king or queen is."""
    if piece < 2:
        return state.game.consort_piece.index(piece)
    return state.game.owner[piece]


def tile_art(state: RoyalCourtState, piece: int, x: float, y: float, size: float) -> list[str]:
    """The picture of a tile in a ``size`` square at ``x, y``: active (solid, banner) or inactive
    (pale, token); the abbreviation, the name (when there is room) and the influence."""
    game = state.game
    seat = game.owner[piece]
    arch = game.archetypes.archetypes[game.arch[piece]]
    active = state.is_active(piece)
    pad = size * 0.06
    box = {"x": x + pad, "y": y + pad, "width": size - 2 * pad, "height": size - 2 * pad, "rx": size * 0.1}
    out: list[str] = []
    ink = "#ffffff" if active else SEAT_INK[seat]
    if active:
        out.append(el("rect", {**box, "fill": SEAT_FILL[seat], "stroke": SEAT_INK[seat], "stroke-width": 2}))
        # the banner: a swallow-tailed pennant hanging from the top left
        bx, by, bw, bh = x + size * 0.14, y + pad, size * 0.16, size * 0.3
        points = f"{bx:.1f},{by:.1f} {bx + bw:.1f},{by:.1f} {bx + bw:.1f},{by + bh:.1f} "
        points += f"{bx + bw / 2:.1f},{by + bh * 0.75:.1f} {bx:.1f},{by + bh:.1f}"
        out.append(el("polygon", {"class": "banner", "points": points, "fill": BANNER, "stroke": "#7a5c00"}))
    else:
        out.append(
            el(
                "rect",
                {
                    **box,
                    "fill": SEAT_PALE[seat],
                    "stroke": SEAT_FILL[seat],
                    "stroke-width": 2,
                    "stroke-dasharray": "4 3",
                },
            )
        )
        # the token: a round counter at the top left
        r = size * 0.11
        out.append(
            el(
                "circle",
                {
                    "class": "token",
                    "cx": x + size * 0.22,
                    "cy": y + size * 0.22,
                    "r": r,
                    "fill": "#b08d57",
                    "stroke": "#5c4320",
                },
            )
        )
    # the influence, top right
    out.append(
        txt(
            x + size - pad - size * 0.08,
            y + pad + size * 0.2,
            str(arch.influence),
            max(9, int(size * 0.2)),
            anchor="end",
            font_weight="bold",
            fill=ink,
        )
    )
    out.append(
        txt(
            x + size / 2,
            y + size * 0.62,
            arch.abbr,
            max(10, int(size * 0.3)),
            anchor="middle",
            font_weight="bold",
            fill=ink,
        )
    )
    if size >= 60:
        out.append(txt(x + size / 2, y + size * 0.84, arch.name, 10, anchor="middle", fill=ink))
    return out


def tile_title(state: RoyalCourtState, piece: int, where: str) -> str:
    game = state.game
    arch = game.archetypes.archetypes[game.arch[piece]]
    side = "active" if state.is_active(piece) else "inactive"
    return f"{state.piece_name(piece)} ({arch.influence}, {arch.word}: {arch.ability}) · {side} · {where}"


def royal_art(state: RoyalCourtState, piece: int, x: float, y: float, size: float) -> list[str]:
    """The king or the queen: a gold disc (pale when inactive) with a crown, its letter, ringed in
    the colour of the seat whose consort it is, and that seat's name."""
    seat = seat_of(state, piece)
    active = state.is_active(piece)
    cx, cy = x + size / 2, y + size * 0.44
    r = size * 0.34
    out = [
        el(
            "circle",
            {
                "cx": cx,
                "cy": cy,
                "r": r,
                "fill": GOLD if active else GOLD_PALE,
                "stroke": SEAT_FILL[seat],
                "stroke-width": 5,
                "stroke-dasharray": None if active else "5 3",
            },
        )
    ]
    # the crown: five points on a band
    w, h = size * 0.38, size * 0.18
    left, base = cx - w / 2, cy - size * 0.05
    pts = [
        (left, base),
        (left, base - h),
        (left + w * 0.25, base - h * 0.45),
        (cx, base - h * 1.15),
        (left + w * 0.75, base - h * 0.45),
        (left + w, base - h),
        (left + w, base),
    ]
    crown_fill = "#ffffff" if active else "#d9cfae"
    out.append(
        el(
            "polygon",
            {
                "class": "crown",
                "points": " ".join(f"{px:.1f},{py:.1f}" for px, py in pts),
                "fill": crown_fill,
                "stroke": "#7a5c00",
            },
        )
    )
    letter = "K" if piece == KING else "Q"
    out.append(txt(cx, cy + size * 0.19, letter, int(size * 0.22), anchor="middle", font_weight="bold"))
    out.append(
        txt(
            cx,
            y + size - 1,
            f"{SEAT_NAMES[seat]}'s",
            10,
            anchor="middle",
            fill=SEAT_INK[seat],
            font_weight="bold",
        )
    )
    return out


def piece_svg(state: RoyalCourtState, piece: int, size: float, where: str) -> str:
    """A tile alone as a small ``<svg>`` element (no XML declaration) of ``size`` units, with its
    tooltip (``where``: ``in the zone``...): the pictures of the table's panels."""
    attrs = {"xmlns": "http://www.w3.org/2000/svg", "viewBox": f"0 0 {size:g} {size:g}", "width": size}
    name = state.piece_name(piece)
    return el(
        "svg",
        {**attrs, "height": size, "role": "img", "aria-label": name},
        el("title", {}, text=tile_title(state, piece, where)),
        *tile_art(state, piece, 0, 0, size),
    )


__all__ = [
    "BANNER",
    "BOARD_BG",
    "CHOICE",
    "CHOICE_FILL",
    "GOLD",
    "GOLD_PALE",
    "SEAT_FILL",
    "SEAT_INK",
    "SEAT_PALE",
    "piece_svg",
    "royal_art",
    "seat_of",
    "tile_art",
    "tile_title",
]
