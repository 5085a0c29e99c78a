"""Intrigue in the Royal Court's actions in words for the browser table (docs/table.md): the
label of each legal action (:func:`action_label`), the default among them
(:func:`default_action`) and where a ply happened on the board (:func:`places`).

Labels say what the action does in the rules' words ("Play the Spy at 1,1 - swap: swap places
with one opponent's active tile in play"), never the data file's internal names (an effect's
target ``opponent-active-in-play`` is said "one of the opponent's tiles in play").

>>> import regalia
>>> state = regalia.load_game("royal-court").new_state(seed=1)
>>> _ = state.apply_text("first red")
>>> action_label(state, state.parse_action("play Spy 1,1"))
'Play the Spy at 1,1 - your first tile: its ability does not activate'
>>> _ = state.apply_text("play Spy 1,1")
>>> action_label(state, state.parse_action("move 1,1 1,0")), places(state, state.last_ply())
('Move your Spy from 1,1 to 1,0', ('1,1',))
>>> default_action(state, state.legal_actions()) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from regalia.core.game import Ply
from regalia.core.grid import Pos, format_pos
from regalia.games.royal_court import actions as act
from regalia.games.royal_court.actions import SEAT_NAMES, Action
from regalia.games.royal_court.state import KING, P_TARGET, RoyalCourtState


def piece_words(state: RoyalCourtState, piece: int | None, me: int) -> str:
    """A piece as a sentence names it: ``the king``, ``your Spy``, ``blue's Joker``."""
    if piece is None:
        return "the tile"
    if piece < 2:
        return "the king" if piece == KING else "the queen"
    game = state.game
    name = game.archetypes.archetypes[game.arch[piece]].name
    owner = game.owner[piece]
    return f"your {name}" if owner == me else f"{SEAT_NAMES[owner]}'s {name}"


def play_label(state: RoyalCourtState, arch: int, kind: str, where: str | None = None) -> str:
    """Playing the archetype ``arch`` (onto ``where``, or ``None``: the square is chosen next) and
    whether its ability will activate (Gameplay 1)."""
    game = state.game
    me = state.current_player
    archetype = game.archetypes.archetypes[arch]
    at = f" at {where}" if where else ""
    if kind == act.PLACE:
        return f"Play the {archetype.name}{at} as this turn's second tile - its ability does not activate"
    piece = game.piece(me, arch)
    if not state.started >> me & 1:
        why = "your first tile: its ability does not activate"
    elif state.inactive >> piece & 1:
        why = "it enters inactive: its ability does not activate"
    elif state.blocked >> me & 1:
        why = "blocked by the opponent: its ability does not activate"
    else:
        why = f"{archetype.word}: {archetype.ability}"
    forced = " (the opponent chose it for you)" if state.forced[me] == arch else ""
    return f"Play the {archetype.name}{at}{forced} - {why}"


def _source(state: RoyalCourtState) -> str:
    """``the Assassin's kill``: the ability whose target is being chosen."""
    if state.source < 0:
        return "the ability"
    arch = state.game.archetypes.archetypes[state.game.arch[state.source]]
    return f"the {arch.name}'s {arch.word}"


def action_label(state: RoyalCourtState, action: Action) -> str:
    """``action`` (legal in ``state``) in words."""
    kind = action.kind
    me = state.current_player
    names = state.game.archetypes.archetypes
    if kind == act.FIRST:
        return f"{SEAT_NAMES[action.arg].capitalize()} plays first"
    if kind in (act.PLAY, act.PLACE):
        assert action.dst is not None
        return play_label(state, action.arg, kind, format_pos(action.dst))
    if kind == act.PASS:
        return "Decline the extra move and end the turn"
    dst = format_pos(action.dst) if action.dst is not None else ""
    src = format_pos(action.src) if action.src is not None else ""
    if kind == act.MOVE:
        extra = " (the extra move)" if state.moves_done else ""
        return f"Move {piece_words(state, state.board.get(action.src), me)} from {src} to {dst}{extra}"  # type: ignore[arg-type]
    why = _source(state)
    opp = SEAT_NAMES[1 - me]
    if kind in (act.FLIP, act.FORCE) and action.dst is None:
        name = names[action.arg].name
        if kind == act.FORCE:
            return f"Make {opp} play their {name} next turn ({why})"
        return f"Flip the {name} in {opp}'s zone to its inactive side ({why})"
    if kind == act.CONSORT:
        royal = piece_words(state, state.board.get(action.src), me)  # type: ignore[arg-type]
        return f"Move {royal} from {src} to {dst}; it turns inactive ({why})"
    piece = state.board.get(action.dst)  # type: ignore[arg-type]
    target = f"{piece_words(state, piece, me)} at {dst}"
    if kind == act.REMOVE:
        return f"Remove {target} from the game ({why})"
    if kind == act.SWAP:
        return f"Swap squares with {target}; it turns inactive ({why})"
    if kind == act.FLIP:
        return f"Flip {target} to its inactive side ({why})"
    if kind == act.RETURN:
        side = "inactive"
        if state.phase == P_TARGET and state.queue:
            side = state.queue[0].side
        owner = piece is not None and piece >= 2 and state.game.owner[piece] == me
        zone = "your zone" if owner else f"{opp}'s zone"
        return f"Return {target} to {zone}, {side} side up ({why})"
    return state.notation(action)


def default_action(state: RoyalCourtState, actions: Sequence[Action]) -> Action | None:
    """``pass`` (declining the Joker's extra move: it is optional) when it is offered; else none."""
    return act.PASS_ACTION if act.PASS_ACTION in actions else None


def places(state: RoyalCourtState, ply: Ply) -> tuple[str, ...]:
    """The squares ``ply`` touched (``state`` right after it): where a tile was played, where a
    move or the Wizard's step started and ended, the square of a tile removed, returned or
    flipped, both squares of a Spy's swap; nothing for chance, ``pass`` or a tile of a zone."""
    action = ply.action
    if not isinstance(action, Action):
        return ()
    squares: list[Pos] = []
    if action.kind in (act.MOVE, act.CONSORT) and action.src is not None:
        squares.append(action.src)
    if action.dst is not None and action.kind != act.FIRST:
        squares.append(action.dst)
    if action.kind == act.SWAP:
        spy = _played_before(state, ply)
        if spy is not None:
            squares.append(spy)
    return tuple(dict.fromkeys(format_pos(q) for q in squares))


def _played_before(state: RoyalCourtState, ply: Ply) -> Pos | None:
    """Where the tile whose ability ``ply`` is was played: the last play before ``ply``."""
    recent = state.plies(max(0, state.ply - 16))
    index = max((i for i, p in enumerate(recent) if p == ply), default=-1)
    for earlier in reversed(recent[:index] if index >= 0 else recent):
        if earlier.action.kind in (act.PLAY, act.PLACE):
            dst: Pos | None = earlier.action.dst
            return dst
    return None


__all__ = ["action_label", "default_action", "piece_words", "places", "play_label"]
