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
A helper that does not answer in time is left out of that decision, and one that fails or dies is
left out for good: the agent then searches with fewer (at worst, alone). Helpers stop when the
agent closes them, when they are garbage collected, or when the agent's process ends (each one
exits when its pipe closes).

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
#: What a helper process runs, its pipes' descriptors in ``sys.argv[1:]``.
_HELPER_COMMAND = f"from {__name__} import main; main()"


def serve(tasks: Connection, answers: Connection) -> None:  # pragma: no cover - a child process
    """A helper's loop: search each position sent, answer its root's statistics, until the pipe
    closes or ``None`` arrives. The first message is the agent's parameters; a task is
    ``(seq, state, seed, chosen, fresh)``: ``chosen`` the action the agent took at the previous
    task's position (``None``: unknown), ``fresh`` whether the agent's own tree is new (then the
    helper's is too). Only the newest of the waiting tasks is searched (the agent gave up on the
    others)."""
    from regalia.ai.mcts import MCTSAgent

    try:
        agent = MCTSAgent(**tasks.recv())
    except (EOFError, OSError):
        return
    last: tuple[State[Any], int, Any] | None = None  # the previous position, seat and root
    while True:
        try:
            task = tasks.recv()
            skipped = False
            while task is not None and tasks.poll():
                task = tasks.recv()
                skipped = True
        except (EOFError, OSError):
            return
        except Exception as exc:  # a position this interpreter cannot read (its game's module)
            with contextlib.suppress(EOFError, OSError):
                answers.send((-1, None, f"could not read the position: {type(exc).__name__}: {exc}"))
            return
        if task is None:
            return
        seq, state, seed, chosen, fresh = task
        try:
            if last is not None and chosen is not None and not skipped and not fresh:
                agent._remember(last[0], last[1], last[2], chosen)
            else:
                agent.reset()
            seat = state.current_player
            root = agent._reused_root(state, seat)
            agent.search(state, random.Random(seed), root)
            last = (state, seat, root)
            rows = [(a, child.visits, child.total) for a, child in root.children.items()]
            reply: tuple[int, Answer | None, str] = (seq, (rows, agent.last_iterations), "")
        except Exception as exc:  # a fault of the helper's is reported, and the helper goes on
            last = None
            reply = (seq, None, f"{type(exc).__name__}: {exc}")
        try:
            answers.send(reply)
        except (EOFError, OSError):
            return


class _Helper:
    """One helper process and its two pipes."""

    __slots__ = ("answers", "proc", "tasks")

    def __init__(self, proc: subprocess.Popen[bytes], tasks: Connection, answers: Connection) -> None:
        self.proc = proc
        self.tasks = tasks
        self.answers = answers

    def close(self) -> None:
        for conn in (self.tasks, self.answers):
            with contextlib.suppress(OSError):
                conn.close()


def _stop(helpers: list[_Helper]) -> None:
    """Ask every helper to stop, then end those that do not."""
    for helper in helpers:
        with contextlib.suppress(OSError, ValueError):
            helper.tasks.send(None)
        helper.close()
    for helper in helpers:
        try:
            helper.proc.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            helper.proc.kill()
            helper.proc.wait()
    helpers.clear()


class RootHelpers:
    """``count`` helper processes searching with the MCTS parameters ``params`` (started at the
    first :meth:`send`)."""

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
        env = dict(os.environ)
        # the helper imports what this process would: this very package, and the module of any
        # game whose states it is sent (one defined in a script's __main__ cannot be: the helper
        # fails to read its first position and is left out)
        root = str(Path(regalia.__file__).resolve().parent.parent)
        paths = [root, *(os.path.abspath(p) for p in sys.path if p and os.path.exists(p))]
        env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
        for _ in range(self.size):
            task_read, task_write = os.pipe()
            answer_read, answer_write = os.pipe()
            command = [sys.executable, "-c", _HELPER_COMMAND, str(task_read), str(answer_write)]
            try:
                proc = subprocess.Popen(
                    command,
                    pass_fds=(task_read, answer_write),
                    env=env,
                    stdin=subprocess.DEVNULL,
                    start_new_session=True,  # a Ctrl-C at the terminal is the agent's to handle
                )
            except OSError as exc:
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

    def _send(self, helper: _Helper, message: Any) -> None:
        try:
            helper.tasks.send(message)
        except (OSError, ValueError) as exc:
            self._drop(helper, f"could not be sent a message ({exc})")

    def send(self, state: State[Any], seeds: list[int], fresh: bool) -> None:
        """Start the helpers searching ``state``, helper ``i`` with ``seeds[i]``; ``fresh``: the
        agent's tree is new (a new game, or a position its kept subtree is not of)."""
        if not self._started:
            self._start()
        self._seq += 1
        chosen, self._chosen = self._chosen, None
        for helper, seed in zip(list(self._helpers), seeds, strict=False):
            self._send(helper, (self._seq, state, seed, chosen, fresh))

    def chose(self, action: Any) -> None:
        """The action the agent took at the position last sent (told with the next one)."""
        self._chosen = action

    def collect(self, until: float | None) -> list[Answer]:
        """The answers to the position last sent that arrive by ``until`` (``time.monotonic()``;
        ``None``: wait for every helper)."""
        self.waited = True
        answers: list[Answer] = []
        for helper in list(self._helpers):
            while True:
                timeout = None if until is None else max(0.0, until - time.monotonic())
                try:
                    if not helper.answers.poll(timeout):
                        break  # late: left out of this decision
                    seq, answer, error = helper.answers.recv()
                except (EOFError, OSError) as exc:
                    self._drop(helper, f"stopped ({type(exc).__name__})")
                    break
                if answer is None:
                    self._drop(helper, f"failed: {error}")
                    break
                if seq == self._seq:
                    answers.append(answer)
                    break
                # else a late answer to an earlier position: wait on for this one's
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


def main() -> None:  # pragma: no cover - a helper process
    """A helper process: :func:`serve` on the pipes whose descriptors ``sys.argv`` names."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(Connection(int(sys.argv[1]), writable=False), Connection(int(sys.argv[2]), readable=False))
