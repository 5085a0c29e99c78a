"""The legal actions of The Two Heirs and the checks that name the rule an illegal action breaks.

:class:`Rules` generates every legal action of a position (cached per position) and checks a
single action (``check``), raising :class:`IllegalAction` with the rulebook section. Chance's
outcomes (setup, refills of the royal reserve) are generated here too, with their probabilities.

>>> import regalia
>>> state = regalia.load_game("two-heirs").new_state(seed=2)
>>> [(state.action_text(a), p) for a, p in state.chance_outcomes()]  # the royal shield's coin flip
[('first white', 0.5), ('first blue', 0.5)]
>>> _ = state.advance()
>>> sorted({a.kind for a in state.legal_actions()})
['take']
"""

from __future__ import annotations

import random
from typing import Final

from regalia.core.errors import IllegalAction
from regalia.core.grid import Pos, format_pos, neighbours8, square_id
from regalia.games.two_heirs import actions as act
from regalia.games.two_heirs.actions import (
    BUILD,
    END_ACTION,
    SET_CHOICES,
    SPARE_ACTION,
    TERRAIN,
    Action,
    make,
)
from regalia.games.two_heirs.base import (
    AROUND_BY_ID,
    CH_DEAL,
    CH_DRAW,
    CH_FIRST,
    CH_SETS,
    CH_START,
    CH_TOP,
    SQUARES,
    TILE,
    UNITS_PER_SEAT,
    Base,
)
from regalia.games.two_heirs.tiles import COLOURS, Tile

_new = tuple.__new__

#: The rule each chance step follows (for error messages).
CHANCE_RULES = {
    CH_SETS: "Setup",
    CH_FIRST: "Setup",
    CH_DEAL: "Setup",
    CH_START: "Setup",
    CH_TOP: "Action A",
    CH_DRAW: "Action A",
}

#: ``rollout=policy``: the chance that a rollout's step is a ``build`` when one is legal
#: (:meth:`Rules.policy_action`).
BUILD_BIAS: Final = 0.8


class Rules(Base):
    """Legal actions, chance outcomes and checks."""

    __slots__ = ()

    # ------------------------------------------------------------------ legal actions
    def _generate(self) -> tuple[Action, ...]:
        if self.terminal:
            return ()
        if self.chance:
            return tuple(a for a, _ in self._chance_outcomes())
        p = self.player
        if self.pending:
            return (*(act.destroy(q) for q in self.pending), SPARE_ACTION)
        if self.discarding:
            return tuple(act.discard(t) for t in sorted(set(self.hands[p])))
        out, blocks, places, tail = self._turn_actions()
        for kind, t in blocks:
            act.add_placed(out, kind, t, places)
        out += tail
        return tuple(out)

    def _turn_actions(self) -> tuple[list[Action], list[tuple[str, int]], list[Pos], list[Action]]:
        """A turn's legal actions in four parts, in :meth:`_generate`'s order: the ``take``
        actions (Action A, behind the royal shield); the placements' blocks, one ``(kind, tile)``
        per block of actions that lay ``tile`` on each of the ``places`` (Action B: ``build`` if
        affordable, then ``terrain``, tile by tile); and the rest (Action C's steps, withdrawals
        and calls, camps, ``end``)."""
        p = self.player
        hand = self.hands[p]
        out: list[Action] = []
        reserve = self.reserve
        reach = None
        if self.shield_mine:
            reach = self.reach_positions(p)
            out += [act.take(reserve[pos]) for pos in reach]
        board = self.board
        blocks: list[tuple[str, int]] = []
        places: list[Pos] = []
        if hand:
            places = self.placements(p)
            if places:
                res = self.resources(p, reach)
                discounts = self.discounts
                for t in sorted(set(hand)):
                    if self._deficit(t, res) <= discounts:
                        blocks.append((BUILD, t))
                    blocks.append((TERRAIN, t))
        tail: list[Action] = []
        # Action C
        base = p * UNITS_PER_SEAT
        units = self.units
        moved = self.moved
        cells = SQUARES.covering(self.cells)
        # a unit may be called when one that has not moved this turn is in the royal reserve, to a
        # tile beside any of the seat's units with no unit on it: the squares its steps may reach
        targets: set[Pos] | None = None
        for k in range(1, UNITS_PER_SEAT):
            if units[base + k] is None and not moved >> (base + k) & 1:
                targets = set()
                break
        for k in range(UNITS_PER_SEAT):
            i = base + k
            u = units[i]
            if u is None:
                continue
            # a unit steps onto a tile with no unit on it: a cell of TILE alone
            if moved >> i & 1:
                if targets is not None:
                    targets.update([q for j, q, _ in AROUND_BY_ID[square_id(u)] if cells[j] == TILE])
                continue
            for j, q, a in AROUND_BY_ID[square_id(u)]:
                if cells[j] == TILE:
                    tail.append(a)
                    if targets is not None:
                        targets.add(q)
            if k:
                tail.append(act.withdraw(u))
        if targets:
            tail += [act.call(q) for q in sorted(targets)]
        took = self.took
        if took and not self.shield_mine and self.camps_up[p]:
            camps = self.game.camp_codes[p]
            tail += [act.camp(t) for t in sorted(c >> 2 for c in board.values() if c in camps)]
        if took or reserve.count(-1) == len(reserve):  # end: a tile taken, or the reserve empty
            tail.append(END_ACTION)
        return out, blocks, places, tail

    def uniform_action(self, u: float) -> Action:
        """``legal_actions()[int(u * n)]``; in a turn the action picked is found from
        :meth:`_turn_actions`' parts, without listing the placements (what random playouts and
        rollouts play)."""
        if self._legal is None and not (self.terminal or self.chance or self.pending or self.discarding):
            head, blocks, places, tail = self._turn_actions()
            width = len(places)
            laid = len(blocks) * width
            i = int(u * float(len(head) + laid + len(tail)))
            if i < len(head):
                return head[i]
            i -= len(head)
            if i < laid:
                kind, t = blocks[i // width]
                return act.placed_at(kind, t, places[i % width])
            return tail[i - laid]
        return super().uniform_action(u)

    def policy_action(self, rng: random.Random) -> Action:
        """A rollout's informed step (``mcts:...:rollout=policy``): with probability
        :data:`BUILD_BIAS` a random ``build`` when one is legal, else a uniformly random legal
        action. A random rollout builds in about two steps of five where it can; the rest are
        mostly free terrain, which spends a tile for a discount, and unit moves. A guess for
        search, not a rule (docs/ai.md, "Rollout policies")."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if rng.random() < BUILD_BIAS:
            builds = [a for a in legal if a.kind == BUILD]
            if builds:
                return builds[int(rng.random() * len(builds))]
        return legal[int(rng.random() * len(legal))]

    def _any_reachable(self) -> bool:
        reserve = self.reserve
        return reserve.count(-1) < len(reserve)

    # ------------------------------------------------------------------ chance
    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """Chance's outcomes with their probabilities (empty when chance is not to act)."""
        if not self.chance or self.terminal:
            return []
        return self._chance_outcomes()

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        step = self.chance
        if step == CH_TOP:
            counts = self.supply_counts()
            n = len(self.supply)
            return [(act.top(c), k / n) for c, k in enumerate(counts) if k]
        if step in (CH_DEAL, CH_START, CH_DRAW):
            tiles = self.tiles
            top = self.top
            drawable = sorted(t for t in self.supply if top < 0 or tiles[t].colour == top)
            p = 1.0 / len(drawable)
            return [(act.draw(t), p) for t in drawable]
        if step == CH_FIRST:
            return [(make(act.FIRST, 0), 0.5), (make(act.FIRST, 1), 0.5)]
        if step == CH_SETS:
            choices = self.game.set_choices
            p = 1.0 / len(choices)
            return [(make(act.SETS_DRAWN, SET_CHOICES.index(c)), p) for c in choices]
        return self._more_chance_outcomes(step)

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """Chance's outcome, drawn with its probability (faster than listing them: a random tile of
        the supply, of the top colour for a refill; the colour of a random supply tile for ``top``)."""
        step = self.chance
        if step in (CH_DEAL, CH_START, CH_DRAW, CH_TOP) and not self.terminal:
            if rng is None:
                rng = self._chance_rng()
            supply = self.supply
            colours = self.game.colours
            if step == CH_TOP:
                return act.top(colours[supply[int(rng.random() * float(len(supply)))]])
            top = self.top
            pool = supply if top < 0 else [t for t in supply if colours[t] == top]
            return act.draw(pool[int(rng.random() * float(len(pool)))])
        return super().sample_chance(rng)

    def _more_chance_outcomes(self, step: int) -> list[tuple[Action, float]]:
        """Chance steps of variants (the solo game's treasures)."""
        raise AssertionError(f"unknown chance step {step}")

    # ------------------------------------------------------------------ checking
    def check(self, action: object) -> None:
        """Raise :class:`IllegalAction` naming the rule when ``action`` is illegal (``action`` may be
        anything: the compiled build would refuse a non-action at the call if typed ``Action``)."""
        if not isinstance(action, Action) or action.kind not in act.SIGNATURES:
            raise IllegalAction(f"{action!r} is not a Two Heirs action", "Course of the game")
        if self.terminal:
            raise IllegalAction("the game is over", "Final turn and end of the game")
        legal = self._legal
        if legal is not None and type(action) is Action and action in legal:
            return
        kind = action.kind
        if self.chance:
            self._check_chance(action)
            return
        if kind in act.CHANCE_KINDS:
            raise IllegalAction(
                f"'{kind}' is an outcome of chance, not a player's action", "Course of the game"
            )
        p = self.player
        if self.pending and kind not in (act.DESTROY, act.SPARE):
            raise IllegalAction(
                "decide first whether to destroy the buildings your siege towers besiege "
                "('destroy X,Y' or 'spare')",
                "Warfare: Siege tower",
            )
        if self.discarding and kind != act.DISCARD:
            raise IllegalAction(
                f"your turn has ended with {len(self.hands[p])} tiles in hand: discard down to 3",
                "Hand limit",
            )
        getattr(self, "_check_" + kind)(action, p)

    def _check_chance(self, action: Action) -> None:
        rule = CHANCE_RULES.get(self.chance, "Solo course of the game")
        if action.kind not in act.CHANCE_KINDS:
            waiting = self._chance_outcomes()[0][0].kind
            raise IllegalAction(f"chance is to act first (a '{waiting}' outcome), not a player", rule)
        if action not in [a for a, _ in self._chance_outcomes()]:
            raise IllegalAction(f"{self._outcome_words(action)} cannot happen here", rule)

    def _outcome_words(self, action: Action) -> str:
        if action.kind == act.DRAW:
            if not 0 <= action.tile < len(self.tiles):
                return "that tile"
            tile = self.tiles[action.tile]
            if action.tile not in self.supply:
                return f"{tile.id} is not in the supply, so it"
            if self.top >= 0 and tile.colour != self.top:
                return f"the supply's top tile is {COLOURS[self.top]}, so {tile.id} ({tile.colour_name})"
        if action.kind == act.TOP and 0 <= action.tile < 3:
            return f"no {COLOURS[action.tile]} tile is left in the supply, so 'top {COLOURS[action.tile]}'"
        return f"'{action.kind}'"

    def _tile_arg(self, action: Action) -> Tile:
        if not 0 <= action.tile < len(self.tiles):
            raise IllegalAction(f"no tile with index {action.tile}", "Components")
        return self.tiles[action.tile]

    def _check_take(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if not self.shield_mine:
            raise IllegalAction("you have already taken a tile this turn", "Action A")
        if a.tile not in self.reserve:
            raise IllegalAction(f"{tile.id} is not in the royal reserve", "Action A")
        reach = self.reach_positions(p)
        if self.reserve.index(a.tile) not in reach:
            raise IllegalAction(
                f"{tile.id} is beyond your reach of {self.reach(p)} tiles clockwise from the shield",
                "Royal protocol",
            )

    def _check_place(self, a: Action, p: int, rule: str) -> Tile:
        tile = self._tile_arg(a)
        if a.tile not in self.hands[p]:
            raise IllegalAction(f"{tile.id} is not in your hand", rule)
        if a.dst is None:
            raise IllegalAction("a position is needed", rule)
        if a.dst in self.board:
            raise IllegalAction(f"position {format_pos(a.dst)} is not free", rule)
        if a.dst not in self.placements(p):
            raise IllegalAction(
                f"position {format_pos(a.dst)} does not touch, by side or corner, "
                "a tile occupied by your unit",
                rule,
            )
        return tile

    def _check_build(self, a: Action, p: int) -> None:
        tile = self._check_place(a, p, "Action B.1")
        res = self.resources(p)
        deficit = self._deficit(a.tile, res)
        if deficit > self.discounts:
            have = ", ".join(f"{n} {r}" for n, r in zip(res, ("wood", "stone", "grain"), strict=True))
            extra = f" and {self.discounts} free-terrain discount(s)" if self.discounts else ""
            raise IllegalAction(
                f"{tile.id} ({tile.building}) costs {tile.cost_text()} but you have {have}{extra}",
                "Resources",
            )

    def _check_terrain(self, a: Action, p: int) -> None:
        self._check_place(a, p, "Action B.2")

    def _own_unit(self, pos: Pos | None, p: int, rule: str) -> int:
        if pos is None:
            raise IllegalAction("a position is needed", rule)
        base = p * UNITS_PER_SEAT
        for k in range(UNITS_PER_SEAT):
            if self.units[base + k] == pos:
                i = base + k
                if self.moved >> i & 1:
                    # another unmoved unit of yours there? (only the shared start tile)
                    continue
                return i
        if any(self.units[base + k] == pos for k in range(UNITS_PER_SEAT)):
            raise IllegalAction(f"your unit at {format_pos(pos)} has already moved this turn", rule)
        raise IllegalAction(f"you have no unit at {format_pos(pos)}", rule)

    def _check_step(self, a: Action, p: int) -> None:
        self._own_unit(a.src, p, "Action C")
        assert a.src is not None
        if a.dst is None or a.dst not in self.board:
            raise IllegalAction("a unit can only move onto a tile of the play area", "Action C")
        if a.dst not in set(neighbours8(a.src)):
            raise IllegalAction(
                f"{format_pos(a.dst)} does not touch {format_pos(a.src)} by side or corner",
                "Action C",
            )
        if a.dst in self.unit_at:
            raise IllegalAction(f"{format_pos(a.dst)} is already occupied by a unit", "Action C")

    def _check_call(self, a: Action, p: int) -> None:
        base = p * UNITS_PER_SEAT
        if not any(
            self.units[base + k] is None and not self.moved >> (base + k) & 1
            for k in range(1, UNITS_PER_SEAT)
        ):
            raise IllegalAction("you have no unmoved unit in the royal reserve to call", "Action C")
        q = a.dst
        if q is None or q not in self.board:
            raise IllegalAction("a unit can only be called onto a tile of the play area", "Action C")
        if q in self.unit_at:
            raise IllegalAction(f"{format_pos(q)} is already occupied by a unit", "Action C")
        own = set(self.unit_positions(p))
        if not any(n in own for n in neighbours8(q)):
            raise IllegalAction(
                f"{format_pos(q)} does not touch, by side or corner, a tile occupied by your unit",
                "Action C",
            )

    def _check_withdraw(self, a: Action, p: int) -> None:
        i = self._own_unit(a.src, p, "Action C")
        if i % UNITS_PER_SEAT == 0:
            raise IllegalAction("your elite unit may not leave the play area", "Action C")

    def _check_camp(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if tile.building != "camp":
            raise IllegalAction(f"{tile.id} is not a camp", "Dominion: Camp")
        if not any(c == a.tile * 4 + p + 1 for c in self.board.values()):
            raise IllegalAction(f"{tile.id} is not one of your unused camps on the board", "Dominion: Camp")
        if self.shield_mine or not self.took:
            raise IllegalAction(
                "a camp can be used only after you have taken a tile this turn", "Dominion: Camp"
            )

    def _check_destroy(self, a: Action, p: int) -> None:
        if a.dst not in self.pending:
            where = format_pos(a.dst) if a.dst else "?"
            raise IllegalAction(
                f"no opponent's building at {where} is touched by the sides of two of your siege towers "
                "placed just now",
                "Warfare: Siege tower",
            )

    def _check_spare(self, a: Action, p: int) -> None:
        if not self.pending:
            raise IllegalAction("there is nothing to spare", "Warfare: Siege tower")

    def _check_end(self, a: Action, p: int) -> None:
        if not self.took and self._any_reachable():
            raise IllegalAction("you must first take a tile from the royal reserve", "Action A")

    def _check_discard(self, a: Action, p: int) -> None:
        tile = self._tile_arg(a)
        if not self.discarding:
            raise IllegalAction(
                "tiles are discarded only at the end of your turn, above 3 in hand", "Hand limit"
            )
        if a.tile not in self.hands[p]:
            raise IllegalAction(f"{tile.id} is not in your hand", "Hand limit")
