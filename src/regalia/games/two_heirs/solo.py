"""The Two Heirs solo game against Henry: :class:`SoloState` ("Solo rules").

``load_game("two-heirs", solo=True, level=1|2|3)`` makes states of this class. The player is seat 0
(white) and always starts; Henry is seat 1 (blue), an automaton seat: when he is to act, his legal
actions hold exactly the step the solo rules dictate, chosen by the pure functions of
:mod:`regalia.games.two_heirs.henry`. His turn is ``take TILE`` (rule a or b), chance's refill of
the reserve, ``build TILE X,Y`` (rules A to C; ``discard TILE`` for rule D), chance's treasure token,
then his unit moves and the treasures whose condition holds leave the board; ``end`` when the
reserve holds no tile. Each step is also kept as an event (:meth:`SoloState.events`) that tells
which rule decided it.

The two-player engine is untouched: the solo hooks are overrides in this subclass, so the
two-player hot path pays nothing for them. All solo data is immutable (ints and tuples), so
:meth:`clone` only copies references.

>>> import regalia
>>> state = regalia.load_game("two-heirs", solo=True, level=1).new_state(seed=4)
>>> _ = state.advance()
>>> state.current_player, state.pile_left
(0, 6)
>>> state.apply(state.legal_actions()[0])  # the player takes a tile ...
>>> _ = state.advance()                     # ... chance refills the reserve
>>> _ = state.apply_text("end")             # ... and ends the turn: Henry is to act
>>> state.current_player, state.automaton_seats(), state.action_text(state.forced_action())
(1, (1,), 'take D4')
>>> [state.action_text(a) for a in state.advance()]  # Henry's turn, with chance's draws
['take D4', 'draw T2', 'top grey', 'build D4 0,1', 'treasure H10']
>>> [e["step"] for e in state.last_henry_turn()]
['take', 'place', 'treasure', 'unit']
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Final, Self

from regalia.core.errors import IllegalAction, PositionError
from regalia.core.game import JSON
from regalia.core.grid import Pos, format_pos
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs import henry
from regalia.games.two_heirs.actions import Action, make
from regalia.games.two_heirs.base import CH_DEAL, CH_TREASURE
from regalia.games.two_heirs.henry import HENRY, HenryTurn, TreasureSet
from regalia.games.two_heirs.position import parse_pos_field
from regalia.games.two_heirs.scoring import ScoreSheet, score_board
from regalia.games.two_heirs.state import START, UNITS_PER_SEAT, TwoHeirsState
from regalia.games.two_heirs.tally import totals
from regalia.games.two_heirs.tiles import COLOURS, PRODUCERS

if TYPE_CHECKING:
    from regalia.games.two_heirs.game import TwoHeirs

#: Henry's unit ``k`` (0 = elite) is unit index ``HENRY_BASE + k`` of the state.
HENRY_BASE: Final = HENRY * UNITS_PER_SEAT
ALL_OFF: Final = (1 << UNITS_PER_SEAT) - 1
#: In :meth:`SoloState.evaluate_treasures`, the share of a treasure's points a fully met condition would
#: take back: half its condition met, a quarter of its 5 points.
TREASURE_HOPE: Final = 0.5

# Henry's step (the ``henry_step`` field); 0: not Henry's turn.
H_TAKE: Final = 1  # 1. taking a building tile (or ``end`` when the reserve is empty)
H_PLACE: Final = 2  # 2. placing it (``build``; ``discard`` for rule D)
H_TOKEN: Final = 3  # 3. waiting for chance's treasure token

Event = tuple[tuple[str, Any], ...]


def _treasures(game: TwoHeirs) -> TreasureSet:
    """The treasure tokens of a solo game (a solo state's game always has them)."""
    if game.treasure_set is None:
        raise PositionError("a solo state needs a solo game (option solo=true)")
    return game.treasure_set


class SoloState(TwoHeirsState):
    """A position of the solo game: the two-player state plus Henry's treasures, units and log.

    ``pile_left``: treasure tokens left in the face-down pile (which ones is chance's, decided
    when one is flipped); ``treasures``: (position, token) pairs on Henry's buildings;
    ``taken``: tokens removed because their condition was met; ``henry_off``: bit ``k`` set while
    Henry's unit ``k`` is still off the board (on the edge of the play area, never in the royal
    reserve); ``henry_step``, ``henry_tile``: Henry's turn in progress and the tile he is placing;
    ``henry_built``: where he built this turn, while the token to go on it is still to be flipped
    (read from the log when a state document is loaded); ``log``: the events; ``henry_turns``:
    turns begun; ``_plan``: Henry's step as :meth:`henry_action` worked it out in this position
    (his tile or placement, with the rule that chose it), which applying the step then reads
    instead of working it out again (``None`` after every action).
    """

    __slots__ = (
        "_plan",
        "henry_built",
        "henry_off",
        "henry_step",
        "henry_tile",
        "henry_turns",
        "log",
        "pile_left",
        "taken",
        "treasures",
        "tset",
    )

    tset: TreasureSet
    pile_left: int
    treasures: tuple[tuple[Pos, int], ...]
    taken: tuple[int, ...]
    henry_off: int
    henry_turns: int
    henry_step: int
    henry_tile: int
    henry_built: Pos | None
    log: tuple[Event, ...]
    _plan: henry.Take | henry.Placement | None

    # ------------------------------------------------------------------ setup
    def _new_fields(self, game: TwoHeirs) -> None:
        """Solo setup: the player starts, Henry's units wait off the board, the treasure pile."""
        self.tset = _treasures(game)
        self.pile_left = len(self.tset.tokens) - henry.REMOVED_AT_LEVEL[game.options.henry_level]
        self.treasures = ()
        self.taken = ()
        self.henry_off = ALL_OFF
        self.henry_turns = 0
        self.henry_step = 0
        self.henry_tile = -1
        self.henry_built = None
        self.log = ()
        self._plan = None

    def _after_sets(self) -> None:
        """ "You always start the game": no coin flip; the reserve is dealt next."""
        self.first = self.player = 0
        self.chance = CH_DEAL
        self.refill = 1

    def _place_start_units(self) -> None:
        """Only the player's elite starts on the starting landscape (Solo setup)."""
        self.units[0] = START

    def _clone_extra(self, s: Self) -> None:
        s.tset = self.tset
        s.pile_left = self.pile_left
        s.treasures = self.treasures
        s.taken = self.taken
        s.henry_off = self.henry_off
        s.henry_turns = self.henry_turns
        s.henry_step = self.henry_step
        s.henry_tile = self.henry_tile
        s.henry_built = self.henry_built
        s.log = self.log
        s._plan = self._plan

    # ------------------------------------------------------------------ queries
    def units_in_reserve(self, seat: int) -> int:
        """Henry's units are never in the royal reserve ("Solo setup"); he has unlimited reach."""
        if seat == HENRY:
            return 0
        return TwoHeirsState.units_in_reserve(self, seat)

    def last_building(self) -> Pos:
        """The building the player placed last, or the starting tile before the first one."""
        return self.last_built[0] or START

    def henry_units(self) -> list[Pos | None]:
        """Positions of Henry's units, elite first (``None``: still off the board)."""
        return self.units[HENRY_BASE : HENRY_BASE + UNITS_PER_SEAT]

    def _top_colour(self) -> int | None:
        return self.top if self.top >= 0 and self.supply else None

    def plan_henry(self, with_removals: bool = True) -> HenryTurn:
        """Henry's next turn as it would be played now (pure: the state is not changed); the token
        he would place is unknown (-1) until chance flips it."""
        return henry.plan_turn(
            board=self.board,
            tiles=self.tiles,
            reserve=self.reserve,
            shield=self.shield,
            top_colour=self._top_colour(),
            last=self.last_building(),
            treasures=self.treasures,
            pile_size=self.pile_left,
            next_token=-1,
            tset=self.tset,
            unit_positions=self.henry_units(),
            with_removals=with_removals,
        )

    def unseen_tokens(self) -> list[int]:
        """Tokens nobody has seen: those in the pile and those removed unseen at setup."""
        seen = set(self.taken) | {t for _, t in self.treasures}
        return [t for t in range(len(self.tset.tokens)) if t not in seen]

    # ------------------------------------------------------------------ Henry's steps
    def henry_action(self) -> Action:
        """The step the solo rules make Henry take now (only while he is to act)."""
        if self.henry_step == H_TAKE:
            take = henry.choose_tile(self.reserve, self.shield, self.tiles, self._top_colour())
            self._plan = take
            return act.END_ACTION if take is None else make(act.TAKE, take.tile)
        tile = self.henry_tile
        placement = henry.choose_placement(self.board, self.tiles, tile, self.last_building())
        self._plan = placement
        if placement.pos is None:
            return make(act.DISCARD, tile)
        return make(act.BUILD, tile, None, placement.pos)

    def _henry_to_act(self) -> bool:
        return self.henry_step in (H_TAKE, H_PLACE) and not self.chance and not self.terminal

    def _generate(self) -> tuple[Action, ...]:
        if self._henry_to_act():
            return (self.henry_action(),)
        return super()._generate()

    def uniform_action(self, u: float) -> Action:
        if self._henry_to_act():
            return self.henry_action()  # _generate's only action
        return super().uniform_action(u)

    def check(self, action: object) -> None:
        if self._henry_to_act() and isinstance(action, Action) and action.kind in act.SIGNATURES:
            forced = self.henry_action()
            if action != forced:
                raise IllegalAction(
                    f"it is Henry's turn: the solo rules make his step '{self.notation(forced)}'",
                    "Solo course of the game",
                )
            return
        super().check(action)

    def _more_chance_outcomes(self, step: int) -> list[tuple[Action, float]]:
        unseen = self.unseen_tokens()
        p = 1.0 / len(unseen)
        return [(make(act.TREASURE, t), p) for t in unseen]

    def _apply(self, action: Action) -> None:
        plan, self._plan = self._plan, None
        if self._henry_to_act():
            self._legal = None
            self._henry_step(action, plan)
            return
        super()._apply(action)
        if self.treasures and (action.kind == act.BUILD or action.kind == act.TERRAIN):
            self._remove_met("player", action.dst)

    def _end_turn(self) -> None:
        super()._end_turn()
        if self.player == HENRY and not self.terminal:
            self.henry_turns += 1
            self.henry_step = H_TAKE

    def _henry_step(self, action: Action, plan: henry.Take | henry.Placement | None) -> None:
        """Henry's forced step ``action``; ``plan`` is what :meth:`henry_action` worked out for it
        in this position, if it did."""
        kind = action.kind
        if kind == act.END:
            self._event("no-tile")
            self._end_henry_turn()
        elif kind == act.TAKE:
            take = plan if isinstance(plan, henry.Take) else None
            if take is None:
                take = henry.choose_tile(self.reserve, self.shield, self.tiles, self._top_colour())
            assert take is not None
            top = COLOURS[self.top] if self._top_colour() is not None else None
            self._take(take.tile)  # the shield moves and flips, the reserve is refilled as usual
            self.hands[HENRY].remove(take.tile)
            self.henry_tile = take.tile
            self.henry_step = H_PLACE
            self._event(
                "take",
                tile=self.tiles[take.tile].id,
                reserve_pos=take.reserve_pos,
                rank=take.rank,
                rule=take.rule,
                supply_top=top,
            )
        elif kind == act.DISCARD:
            self.box.append(action.tile)
            self.henry_tile = -1
            self._event(
                "discard", tile=self.tiles[action.tile].id, rule="D", next_to=format_pos(self.last_building())
            )
            self._end_henry_turn()
        else:
            placement = plan if isinstance(plan, henry.Placement) else None
            self._henry_build(action.tile, action.dst, placement)  # type: ignore[arg-type]

    def _henry_build(self, tile: int, pos: Pos, placement: henry.Placement | None) -> None:
        last = self.last_building()
        if placement is None:
            placement = henry.choose_placement(self.board, self.tiles, tile, last)
        self.board[pos] = tile * 4 + HENRY + 1
        self._laid(pos)
        building = self.tiles[tile].building
        if building in PRODUCERS:
            self.prod[HENRY][PRODUCERS[building]] += 1
        elif building == "camp":
            self.camps_up[HENRY] += 1
        self.henry_tile = -1
        last_code = self.board[last]
        self._event(
            "place",
            tile=self.tiles[tile].id,
            pos=format_pos(pos),
            rule=placement.rule,
            slot=f"C{placement.slot}",
            direction=placement.direction,
            next_to=format_pos(last),
            next_to_tile=self.tiles[last_code >> 2].id,
            next_to_building=(last_code & 3) != 0,
        )
        if self.pile_left:
            self.henry_built = pos
            self.henry_step = H_TOKEN
            self.refill = -1
            self.chance = CH_TREASURE
        else:
            self._finish_henry(pos)

    def _more_chance_effects(self, action: Action) -> None:
        """3. Placing a treasure token: the flipped token goes on Henry's new building."""
        pos = self.henry_built
        assert pos is not None, "Henry has placed no building"
        self.henry_built = None
        self.chance = 0
        self._score_cache = None
        self.pile_left -= 1
        self.treasures = (*self.treasures, (pos, action.tile))
        self._event("treasure", token=self.tset.tokens[action.tile].id, pos=format_pos(pos))
        self._finish_henry(pos)

    def _henry_building(self) -> Pos:
        """The position of the building Henry placed this turn, from the log (a state document's:
        Henry's turn was cut when his token was to be flipped)."""
        for i, e in enumerate(reversed(self.log)):
            d = dict(e)
            if d.get("step") == "place":
                field = f"solo.events[{len(self.log) - 1 - i}].pos"
                pos = parse_pos_field(d.get("pos"), field)
                if self.board.get(pos, 0) & 3 != HENRY + 1:
                    raise PositionError(f"field {field!r}: no building of Henry's at {format_pos(pos)}")
                return pos
        raise PositionError(
            "field 'solo.events': Henry is to receive a treasure token but has placed no building"
        )

    def _finish_henry(self, pos: Pos) -> None:
        """4. Moving Henry's unit onto the new building; treasures whose condition holds leave."""
        k = self.tset.unit_for(self.tiles[self.board[pos] >> 2].colour)
        src = self.units[HENRY_BASE + k]
        self._move_unit(HENRY_BASE + k, pos)
        self.henry_off &= ~(1 << k)
        self._event(
            "unit",
            unit=henry.UNIT_NAMES[k],
            cross=COLOURS[self.tset.crosses[k]],
            src=None if src is None else format_pos(src),
            dst=format_pos(pos),
        )
        if self.treasures:
            self._remove_met("henry", pos)
        self._end_henry_turn()

    def _end_henry_turn(self) -> None:
        self.henry_step = 0
        self._end_turn()

    def _remove_met(self, by: str, placed: Pos | None) -> None:
        """Remove every treasure whose condition the tile placed at ``placed`` makes true
        ("Treasures and how to get rid of them"; ruling R-henry-treasure-timing)."""
        met = henry.treasures_met(self.treasures, self.board, self.tiles, self.tset, placed)
        if not met:
            return
        self._score_cache = None
        self.treasures = tuple(t for t in self.treasures if t not in met)
        for pos, token in met:
            self.taken = (*self.taken, token)
            tok = self.tset.tokens[token]
            self._event(
                "treasure-removed", token=tok.id, pos=format_pos(pos), condition=tok.describe(), by=by
            )

    def _event(self, step: str, **data: Any) -> None:
        actor = "player" if data.get("by") == "player" else "henry"
        head: Event = (
            ("ply", self._ply),
            ("turn", self.henry_turns),
            ("actor", actor),
            ("step", step),
        )
        self.log = (*self.log, head + tuple(data.items()))

    def events(self) -> list[JSON]:
        """Henry's steps (and treasures removed by the player's tiles), oldest first.

        Each event has ``ply`` (the ply whose action caused it, counted from 1), ``turn`` (Henry's
        turn number), ``actor``, ``step`` (take, place, discard, no-tile, treasure, unit,
        treasure-removed) and the step's details.
        """
        return [dict(e) for e in self.log]

    def event_text(self, event: JSON) -> str:
        """One event as a sentence in the player's frame (used by ``regalia play``)."""
        from regalia.games.two_heirs.companion import event_text

        return event_text(event, self.game.catalogue)

    def last_henry_turn(self) -> list[JSON]:
        """The events of Henry's most recent turn (what the observation shows)."""
        n = self.henry_turns
        return [dict(e) for e in self.log if e[1][1] == n and e[2][1] == "henry"]

    # ------------------------------------------------------------------ scoring
    def score_sheet(self) -> ScoreSheet:
        """Solo scoring: Henry's three best buildings doubled, his units never double, 5 points
        per treasure left on the board or in the pile ("Solo scoring")."""
        if self._score_cache is None:
            sheet = score_board(
                self.board,
                self.tiles,
                [self.unit_positions(0), self.unit_positions(1)],
                roads=self.game.options.roads,
                automaton=HENRY,
            )
            n = len(self.treasures) + self.pile_left
            if n:
                bonus = henry.TREASURE_POINTS * n
                sheet = dataclasses.replace(
                    sheet,
                    extra=(
                        *sheet.extra,
                        (HENRY, f"{n} treasure{'' if n == 1 else 's'} x {henry.TREASURE_POINTS}", bonus),
                    ),
                    totals=(sheet.totals[0], sheet.totals[1] + bonus),
                )
            self._score_cache = sheet
        result: ScoreSheet = self._score_cache
        return result

    def scores(self) -> list[int]:
        """Solo scoring from the incremental tally (the totals of :meth:`score_sheet`)."""
        out = totals(self.tally(), self.board, self.tiles, [self.unit_positions(0), []], automaton=HENRY)
        out[HENRY] += henry.TREASURE_POINTS * (len(self.treasures) + self.pile_left)
        return out

    def evaluate_treasures(self, seat: int) -> float:
        """The search heuristic ``treasures`` (``mcts:...:heuristic=treasures``; not the default,
        which is the score lead): the score lead, where a treasure on the board counts for Henry
        ``5 * (1 - TREASURE_HOPE * progress)`` instead of 5, ``progress`` the share of its
        condition the board meets (:func:`~regalia.games.two_heirs.henry.condition_progress`): a
        treasure one tile away from leaving is worth less to him than one no tile has begun to
        meet. A guess for search, not a rule (docs/ai.md, "Against Henry")."""
        player, henry_points = self.scores()
        lead = float(player - henry_points)
        if self.treasures and not self.terminal:
            tokens, board, tiles = self.tset.tokens, self.board, self.tiles
            met = sum(henry.condition_progress(tokens[i], pos, board, tiles) for pos, i in self.treasures)
            lead += henry.TREASURE_POINTS * TREASURE_HOPE * met
        return lead if seat == 0 else -lead

    def evaluate_treasures_ahead(self, seat: int) -> float:
        """The search heuristic ``ahead`` (``mcts:...:heuristic=ahead``; not the default):
        :meth:`evaluate_treasures`, and Henry's next treasure valued where his next building
        would go now (:meth:`plan_henry`'s position, next to the player's last building): instead
        of 5 points, ``5 * (1 - hope)`` where ``hope`` is the mean over the unseen tokens of 1 for
        a condition the board meets there already (the token leaves at once) and
        ``TREASURE_HOPE * progress`` otherwise. Where the player builds decides where Henry's next
        treasure lands; this lets a rollout cut before his turn see it. A guess for search, not a
        rule (docs/ai.md, "Against Henry")."""
        lead = self.evaluate_treasures(0)
        if self.pile_left and not self.terminal and self.henry_step in (0, H_TAKE):
            placement = self.plan_henry(with_removals=False).placement
            if placement is not None and placement.pos is not None:
                tokens = [self.tset.tokens[t] for t in self.unseen_tokens()]
                hope = henry.treasure_hope(tokens, placement.pos, self.board, self.tiles, TREASURE_HOPE)
                lead += henry.TREASURE_POINTS * hope
        return lead if seat == 0 else -lead

    def returns(self) -> list[float]:
        """The player wins only with strictly more points than Henry ("Solo scoring")."""
        if not self.terminal:
            return [0.0, 0.0]
        a, b = self.scores()
        return [1.0, -1.0] if a > b else [-1.0, 1.0]

    # ------------------------------------------------------------------ views
    def _public(self) -> JSON:
        doc = super()._public()
        for i, u in enumerate(doc["units"]):
            if u["seat"] == HENRY:
                u["off_board"] = bool(self.henry_off >> (i - HENRY_BASE) & 1)
        tokens = self.tset.tokens
        doc["solo"] = {
            "level": self.game.options.henry_level,
            "henry_units": [
                {
                    "unit": henry.UNIT_NAMES[k],
                    "cross": COLOURS[self.tset.crosses[k]],
                    "pos": None if p is None else format_pos(p),
                    "off_board": bool(self.henry_off >> k & 1),
                }
                for k, p in enumerate(self.henry_units())
            ],
            "treasures": [
                {"pos": format_pos(pos), "token": tokens[t].id, "condition": tokens[t].describe()}
                for pos, t in self.treasures
            ],
            "pile_size": self.pile_left,
            "removed": [tokens[t].id for t in self.taken],
            "removed_unseen": henry.REMOVED_AT_LEVEL[self.game.options.henry_level],
            "henry_turns": self.henry_turns,
            "henry_step": self.henry_step,
            "henry_tile": None if self.henry_tile < 0 else self.tiles[self.henry_tile].id,
            "last_building": format_pos(self.last_building()),
            "last_henry_turn": self.last_henry_turn(),
        }
        return doc

    def to_json(self) -> JSON:
        doc = super().to_json()
        doc["solo"].update({"henry_off_board": self.henry_off, "events": self.events()})
        return doc

    def _init_extra_from_json(self, doc: JSON) -> None:
        """Read the ``solo`` section of a state document (called by ``position.state_from_doc``)."""
        self.tset = _treasures(self.game)
        solo = doc.get("solo")
        if not isinstance(solo, dict):
            raise PositionError("field 'solo' is missing: a solo state needs it")
        by_id = {t.id: t.index for t in self.tset.tokens}

        def token(value: Any, field: str) -> int:
            if value not in by_id:
                raise PositionError(f"field {field!r}: {value!r} is not a treasure token")
            return by_id[value]

        def lst(name: str) -> list[Any]:
            value = solo.get(name)
            if not isinstance(value, list):
                raise PositionError(f"field 'solo.{name}' must be a list")
            return value

        def integer(name: str, lo: int, hi: int) -> int:
            value = solo.get(name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise PositionError(f"field 'solo.{name}': an integer {lo}..{hi} is required")
            return value

        self.taken = tuple(token(t, f"solo.removed[{i}]") for i, t in enumerate(lst("removed")))
        treasures = []
        for i, t in enumerate(lst("treasures")):
            if not isinstance(t, dict):
                raise PositionError(f"field 'solo.treasures[{i}]': expected an object")
            pos = parse_pos_field(t.get("pos"), f"solo.treasures[{i}].pos")
            if pos not in self.board:
                raise PositionError(f"field 'solo.treasures[{i}].pos': no tile at {format_pos(pos)}")
            treasures.append((pos, token(t.get("token"), f"solo.treasures[{i}].token")))
        self.treasures = tuple(treasures)
        self.pile_left = integer("pile_size", 0, len(self.tset.tokens))
        seen = [*self.taken, *(t for _, t in self.treasures)]
        if len(set(seen)) != len(seen) or len(seen) + self.pile_left > len(self.tset.tokens):
            raise PositionError(
                "field 'solo': a treasure token is at most once in removed or treasures, and the pile "
                "holds no more than the tokens nobody has seen"
            )
        self.henry_off = integer("henry_off_board", 0, ALL_OFF)
        self.henry_turns = integer("henry_turns", 0, 10_000)
        self.henry_step = integer("henry_step", 0, H_TOKEN)
        tile = solo.get("henry_tile")
        self.henry_tile = -1
        if tile is not None:
            if not isinstance(tile, str) or tile not in self.game.catalogue.by_id:
                raise PositionError(f"field 'solo.henry_tile': {tile!r} is not a tile of the catalogue")
            self.henry_tile = self.game.catalogue.by_id[tile].index
        events = []
        for i, e in enumerate(lst("events")):
            if not isinstance(e, dict):
                raise PositionError(f"field 'solo.events[{i}]': expected an object")
            events.append(tuple(e.items()))
        self.log = tuple(events)
        self.henry_built = self._henry_building() if self.henry_step == H_TOKEN else None
        self._plan = None


__all__ = ["HENRY_BASE", "SoloState"]
