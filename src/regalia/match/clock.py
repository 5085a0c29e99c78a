"""Time controls and the clock of a match.

A :class:`TimeControl` is ``none``, ``move:S`` (S seconds for each turn, e.g. ``move:30``; also
``days:N`` for play over days), or ``fischer:M+I`` (M seconds in all plus I seconds after each
turn, as in chess; ``M+I`` alone means the same). A turn is a seat's plies until another seat is
to act (The Two Heirs' take, build... end; chance's refill after the take does not end it). The
:class:`Clock` counts what each seat has left.

>>> tc = TimeControl.parse("fischer:300+5")
>>> tc, tc.text
(TimeControl(kind='fischer', seconds=300.0, increment=5.0, flag='loss'), 'fischer:300+5')
>>> clock = Clock(tc, seats=2)
>>> clock.start(0, now=100.0)
>>> clock.stop(now=112.5, turn_over=True)  # seat 0 used 12.5 s, then gets 5 back
12.5
>>> clock.remaining(0, now=200.0)
292.5
>>> TimeControl.parse("move:0")
Traceback (most recent call last):
...
regalia.match.clock.ClockError: time control 'move:0': the seconds must be more than 0
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Final

from regalia.core.errors import OptionError

KINDS: Final = ("none", "move", "fischer")
FLAGS: Final = ("loss", "continue")


class ClockError(OptionError):
    """A time control written wrongly."""


@dataclasses.dataclass(frozen=True)
class TimeControl:
    """How much time the seats have: ``kind`` ``none``, ``move`` (``seconds`` per turn) or
    ``fischer`` (``seconds`` in all, ``increment`` added after each turn). ``flag``: what a
    fallen flag does, ``loss`` (the game ends, lost by that seat) or ``continue`` (it is only
    shown)."""

    kind: str = "none"
    seconds: float = 0.0
    increment: float = 0.0
    flag: str = "loss"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ClockError(f"time control kind: expected one of {', '.join(KINDS)}, not {self.kind!r}")
        if self.flag not in FLAGS:
            raise ClockError(f"time control flag: expected loss or continue, not {self.flag!r}")
        for name in ("seconds", "increment"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                raise ClockError(f"time control {name}: expected a number of seconds")
            if value < 0:
                raise ClockError(f"time control {name}: cannot be negative")
        if self.kind != "none" and self.seconds <= 0:
            raise ClockError(f"time control {self.text!r}: the seconds must be more than 0")

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    @property
    def text(self) -> str:
        """The notation :meth:`parse` reads back."""
        if self.kind == "none":
            return "none"
        if self.kind == "move":
            return f"move:{_num(self.seconds)}"
        return f"fischer:{_num(self.seconds)}+{_num(self.increment)}"

    @classmethod
    def parse(cls, text: str, flag: str = "loss") -> TimeControl:
        """``none``, ``move:30``, ``days:3``, ``fischer:300+5`` or ``300+5``."""
        raw = text.strip().lower()
        kind, _, rest = raw.partition(":")
        if raw == "none":
            return cls(flag=flag)
        if not rest and "+" in raw:
            kind, rest = "fischer", raw
        try:
            if kind == "move":
                return cls("move", float(rest), flag=flag)
            if kind == "days":
                return cls("move", float(rest) * 86400.0, flag=flag)
            if kind == "fischer":
                main, _, inc = rest.partition("+")
                return cls("fischer", float(main), float(inc or 0), flag=flag)
        except ValueError:
            pass
        raise ClockError(
            f"time control {text!r}: expected none, move:SECONDS, days:N or fischer:SECONDS+INCREMENT"
        )

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, doc: Any) -> TimeControl:
        if not isinstance(doc, dict) or not set(doc) <= {"kind", "seconds", "increment", "flag"}:
            raise ClockError("time control: expected an object with kind, seconds, increment and flag")
        return cls(**doc)


def _num(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)


class Clock:
    """The seats' time under a :class:`TimeControl`: :meth:`start` when a seat is to act,
    :meth:`stop` when it has acted (the seconds used are returned and recorded by the match)."""

    def __init__(self, control: TimeControl, seats: int) -> None:
        self.control = control
        per_game = control.seconds if control.kind == "fischer" else 0.0
        self.left = [per_game] * seats  # fischer: seconds left; move: unused
        self.turn_used = [0.0] * seats  # this turn's seconds so far
        self.running: int | None = None
        self.since = 0.0

    def start(self, seat: int, now: float) -> None:
        """``seat`` is to act from ``now`` on (a no-op if its clock already runs)."""
        if self.running == seat:
            return
        self.running = seat
        self.since = now

    def stop(self, now: float, turn_over: bool) -> float:
        """The running seat has acted at ``now``: returns the seconds it used since its clock
        started; ``turn_over``: its turn ends (the increment is added, the turn's count reset)."""
        seat = self.running
        if seat is None:
            return 0.0
        used = self.take(seat, now)
        if turn_over:
            self.end_turn(seat)
            self.running = None
        return used

    def take(self, seat: int, now: float) -> float:
        """``seat`` has made a ply at ``now``: the seconds it used since its clock started (0 if
        its clock does not run) are charged, and its clock goes on from ``now``."""
        used = max(0.0, now - self.since) if self.running == seat else 0.0
        self.since = now
        self.charge(seat, used)
        return used

    def charge(self, seat: int, used: float) -> None:
        """Count ``used`` seconds against ``seat``'s time (and its turn's)."""
        if self.control.kind == "fischer":
            self.left[seat] -= used
        self.turn_used[seat] += used

    def end_turn(self, seat: int) -> None:
        """``seat``'s turn is over: the increment is added and the turn's count reset."""
        if self.control.kind == "fischer":
            self.left[seat] += self.control.increment
        self.turn_used[seat] = 0.0

    def pause(self) -> None:
        """No seat's time runs (chance or the computer of a match whose clocks only time people)."""
        self.running = None

    def remaining(self, seat: int, now: float) -> float:
        """The seconds ``seat`` has left now (infinite without a time control)."""
        kind = self.control.kind
        if kind == "none":
            return math.inf
        running = now - self.since if self.running == seat else 0.0
        if kind == "move":
            return self.control.seconds - self.turn_used[seat] - running
        return self.left[seat] - running

    def fallen(self, now: float) -> int | None:
        """The seat whose flag has fallen (its time ran out while to act), if any."""
        seat = self.running
        if seat is not None and self.control.timed and self.remaining(seat, now) < 0:
            return seat
        return None

    def to_json(self) -> dict[str, Any]:
        return {"left": list(self.left), "turn_used": list(self.turn_used)}

    def restore(self, doc: Any) -> None:
        """Read back :meth:`to_json`'s counts."""
        if not isinstance(doc, dict):
            raise ClockError("clock: expected an object with left and turn_used")
        for key in ("left", "turn_used"):
            values = doc.get(key)
            if not isinstance(values, list) or len(values) != len(self.left):
                raise ClockError(f"clock {key}: expected one number per seat")
            setattr(self, key, [float(v) for v in values])
