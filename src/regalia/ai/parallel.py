"""Root parallelism: helper processes that search the same position as an agent, each with a tree
and a seed of its own, whose root statistics the agent adds to its own before it chooses
(Chaslot, Winands and van den Herik 2008, "Parallel Monte-Carlo tree search": *root
parallelization*, which they found the best of the three schemes they measured).

Python runs one thread of search at a time, so the helpers are processes: each a new interpreter
(:func:`main`, run by ``python -c``) that talks to the agent over a pair of pipes. Neither a fork
(unsafe under a threaded server) nor :mod:`multiprocessing`'s ``spawn`` (which runs the main
script again, so a script without a ``__main__`` guard would start helpers without end) is
used. Each helper holds an :class:`~regalia.ai.mcts.MCTSAgent` built with the agent's
own parameters, keeps its tree between the agent's decisions as the agent does (told the action
the agent chose), and answers each position with the visits and total value of every root action.
Every task carries the agent's own stop and cut times (``time.monotonic()`` is one clock for
every process), so a helper stops when the agent does. A helper that does not answer in time is
left out of that decision (and of the next ones until it answers: a helper is never sent a
second task while it has one), and one that fails or dies is left out for good: the agent then
searches with fewer (at worst, alone). Helpers stop when the agent closes them, when they are
garbage collected, or when the agent's process ends (each one exits when its pipe closes, or
within half a second of its parent's death).

>>> helpers = RootHelpers(1, {"iterations": 20})
>>> helpers.size
1
>>> helpers.close()
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Hashable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import regalia
from regalia.core.game import State

log = logging.getLogger(__name__)

#: One root action's statistics from a helper: ``(action, visits, total value)``.
Row = tuple[Hashable, int, float]
#: A helper's answer to a position: the root rows and the iterations it made.
Answer = tuple[list[Row], int]

#: How long the first decision waits for a helper beyond the agent's own search: a new helper
#: process imports the engine before it can search.
STARTUP_SECONDS = 20.0
#: How long a later decision waits for a helper beyond the agent's own search.
GRACE_SECONDS = 0.5
#: The least an iteration budget waits for a helper beyond the agent's own search (then ten times
#: that search's time): a helper that has not answered by then is stuck, and left out.
STUCK_SECONDS = 60.0
#: A helper stops searching this long before the agent's cut, to have its answer there in time.
SEND_SECONDS = 0.02
#: What a helper process runs: its pipes' descriptors and its parent's pid in ``sys.argv[1:]``.
_HELPER_COMMAND = f"from {__name__} import main; main()"


def serve(tasks: Connection, answers: Connection) -> None:  # pragma: no cover - a child process
    """A helper's loop: search each position sent, answer its root's statistics, until the pipe
    closes or ``None`` arrives. The first message is the agent's parameters; a task is
    ``(seq, state, seed, chosen, fresh, stop_at, cut_at)``: ``chosen`` the action the agent took
    at the previous task's position (``None``: unknown), ``fresh`` whether the helper's tree must
    be new (a new game, or a decision it missed), ``stop_at`` and ``cut_at`` the agent's own
    budget's end and deadline on the ``time.monotonic()`` clock (``None``: none)."""
    from regalia.ai.mcts import MCTSAgent

    try:
        agent = MCTSAgent(**tasks.recv())
    except (EOFError, OSError):
        return
    last: tuple[State[Any], int, Any] | None = None  # the previous position, seat and root
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        except Exception as exc:  # a position this interpreter cannot read (its game's module)
            with contextlib.suppress(EOFError, OSError):
                answers.send((-1, None, f"could not read the position: {type(exc).__name__}: {exc}"))
            return
        if task is None:
            return
        seq, state, seed, chosen, fresh, stop_at, cut_at = task
        try:
            if last is not None and chosen is not None and not fresh:
                agent._remember(last[0], last[1], last[2], chosen)
            else:
                agent.reset()
            now = time.monotonic()
            if stop_at is not None:
                agent.seconds = max(1e-3, stop_at - now)
            if cut_at is not None:
                agent.deadline_seconds = max(1e-3, cut_at - SEND_SECONDS - now)
            seat = state.current_player
            root = agent._reused_root(state, seat)
            agent.search(state, random.Random(seed), root)
            last = (state, seat, root)
            rows = [(a, child.visits, child.total) for a, child in root.children.items()]
        except Exception as exc:  # a fault of the helper's is reported: the agent leaves it out
            with contextlib.suppress(EOFError, OSError):
                answers.send((seq, None, f"{type(exc).__name__}: {exc}"))
            return
        try:
            answers.send((seq, (rows, agent.last_iterations), ""))
        except (EOFError, OSError):
            return


def _watch_parent(parent: int) -> None:  # pragma: no cover - a child process
    """End this helper within half a second of its parent's death (a parent killed outright
    closes the pipes too, but a helper notices that only between two searches)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def main() -> None:  # pragma: no cover - a helper process
    """A helper process: :func:`serve` on the pipes whose descriptors ``sys.argv`` names."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(int(sys.argv[3]),), daemon=True).start()
    serve(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))


class _Helper:
    """One helper process, its two pipes, and the task it was last sent (its ``seq``; whether it
    still has to answer it)."""

    __slots__ = ("answers", "busy", "proc", "sent", "tasks")

    def __init__(self, proc: subprocess.Popen[bytes], tasks: Connection, answers: Connection) -> None:
        self.proc = proc
        self.tasks = tasks
        self.answers = answers
        self.sent = 0
        self.busy = False

    def close(self) -> None:
        for conn in (self.tasks, self.answers):
            with contextlib.suppress(OSError):
                conn.close()


def _stop(helpers: list[_Helper]) -> None:
    """Close every helper's pipes (a helper stops at the end of its pipe), then end those that
    have not stopped within half a second."""
    for helper in helpers:
        helper.close()
    deadline = time.monotonic() + 0.5
    for helper in helpers:
        try:
            helper.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            helper.proc.kill()
            helper.proc.wait()
    helpers.clear()


class RootHelpers:
    """``count`` helper processes searching with the MCTS parameters ``params`` (started at the
    first :meth:`send`; started again after a fault that leaves their pipes unusable)."""

    def __init__(self, count: int, params: dict[str, Any]) -> None:
        self.size = count
        self._params = dict(params, workers=1)
        self._helpers: list[_Helper] = []
        self._seq = 0
        self._chosen: Any = None
        self._started = False
        #: Whether a decision has waited for the helpers yet.
        self.waited = False
        self._finalizer = weakref.finalize(self, _stop, self._helpers)

    @property
    def alive(self) -> int:
        """How many helpers are in use (all of them before they start)."""
        return len(self._helpers) if self._started else self.size

    def _start(self) -> None:
        self._started = True
        self.waited = False
        env = dict(os.environ)
        # the helper imports what this process would: this very package, and the module of any
        # game whose states it is sent (one defined in a script's __main__ cannot be: the helper
        # fails to read its first position and is left out); -P keeps its working directory out
        root = str(Path(regalia.__file__).resolve().parent.parent)
        paths = [root, *(os.path.abspath(p or os.curdir) for p in sys.path)]
        env["PYTHONPATH"] = os.pathsep.join(p for p in dict.fromkeys(paths) if os.path.exists(p))
        env.setdefault("PYTHONHASHSEED", "0")  # the helpers iterate their sets alike
        for _ in range(self.size):
            task_read, task_write = os.pipe()
            answer_read, answer_write = os.pipe()
            fds = [str(task_read), str(answer_write)]
            command = [sys.executable, "-P", "-c", _HELPER_COMMAND, *fds, str(os.getpid())]
            try:
                proc = subprocess.Popen(
                    command,
                    pass_fds=(task_read, answer_write),
                    env=env,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,  # a Ctrl-C at the terminal is the agent's to handle
                )
            except Exception as exc:  # no process: no fork, no interpreter, no pass_fds
                log.warning("an MCTS helper process did not start (%s); searching without it", exc)
                os.close(task_write)
                os.close(answer_read)
                continue
            finally:
                os.close(task_read)
                os.close(answer_write)
            tasks = Connection(task_write, readable=False)
            helper = _Helper(proc, tasks, Connection(answer_read, writable=False))
            self._helpers.append(helper)
            self._send(helper, self._params)

    def _send(self, helper: _Helper, message: Any) -> bool:
        try:
            helper.tasks.send(message)
        except (OSError, ValueError) as exc:
            self._drop(helper, f"could not be sent a message ({exc})")
            return False
        return True

    def _interrupted(self) -> None:
        """A message may be half written or half read (Ctrl-C in the middle): stop every helper;
        the next decision starts new ones."""
        _stop(self._helpers)
        self._started = False
        self._chosen = None

    def send(
        self, state: State[Any], seeds: list[int], fresh: bool, stop_at: float | None, cut_at: float | None
    ) -> None:
        """Start the idle helpers searching ``state``, helper ``i`` with ``seeds[i]``, until the
        agent's ``stop_at`` and at most its ``cut_at`` (``time.monotonic()``; ``None``: the
        budget's iterations); ``fresh``: the agent's tree is new (a new game, or a position its
        kept subtree is not of). A helper still searching an earlier position is left out."""
        try:
            if not self._started:
                self._start()
            previous = self._seq
            self._seq += 1
            chosen, self._chosen = self._chosen, None
            for helper, seed in zip(list(self._helpers), seeds, strict=False):
                self._read_late(helper)
                if helper.busy:
                    continue
                synced = helper.sent == previous and not fresh  # it searched the last position
                task = (self._seq, state, seed, chosen if synced else None, not synced, stop_at, cut_at)
                if self._send(helper, task):
                    helper.sent = self._seq
                    helper.busy = True
        except BaseException:
            self._interrupted()
            raise

    def _read_late(self, helper: _Helper) -> None:
        """Read a late answer of ``helper``'s that has arrived (it is idle again)."""
        while helper.busy and helper in self._helpers:
            try:
                if not helper.answers.poll(0):
                    return
                _, answer, error = helper.answers.recv()
            except (EOFError, OSError) as exc:
                self._drop(helper, f"stopped ({type(exc).__name__})")
                return
            helper.busy = False
            if answer is None:
                self._drop(helper, f"failed: {error}")

    def chose(self, action: Any) -> None:
        """The action the agent took at the position last sent (told with the next one)."""
        self._chosen = action

    def collect(self, until: float) -> list[Answer]:
        """The answers to the position last sent that arrive by ``until`` (``time.monotonic()``)."""
        self.waited = True
        answers: list[Answer] = []
        try:
            for helper in list(self._helpers):
                while helper.busy and helper.sent == self._seq:
                    try:
                        if not helper.answers.poll(max(0.0, until - time.monotonic())):
                            break  # late: left out of this decision, and busy
                        seq, answer, error = helper.answers.recv()
                    except (EOFError, OSError) as exc:
                        self._drop(helper, f"stopped ({type(exc).__name__})")
                        break
                    if answer is None:
                        self._drop(helper, f"failed: {error}")
                        break
                    if seq == self._seq:
                        helper.busy = False
                        answers.append(answer)
        except BaseException:
            self._interrupted()
            raise
        return answers

    def _drop(self, helper: _Helper, why: str) -> None:
        log.warning("an MCTS helper process %s; searching without it", why)
        self._helpers.remove(helper)
        helper.close()
        helper.proc.kill()
        helper.proc.wait()

    def close(self) -> None:
        """Stop every helper (idempotent)."""
        self._finalizer()
