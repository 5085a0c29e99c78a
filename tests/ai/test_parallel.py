"""Root parallelism (docs/ai.md, "Root parallelism (`workers`)"): helper processes search the
agent's position with their own trees and seeds, and the agent chooses by the summed root visits."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from regalia.ai import MCTSAgent, agent_from_spec
from regalia.ai.parallel import RootHelpers
from regalia.core.errors import OptionError
from regalia.core.registry import load_game
from regalia.lab.play import GameJob, play_game


def _opening(game: str = "two-heirs", seed: int = 5) -> Any:
    state = load_game(game).new_state(seed=seed)
    state.advance(random.Random(seed))
    return state


def _game(spec: str, game: str, seed: int, decisions: int) -> list[Any]:
    """The actions of the first ``decisions`` decisions of a game of ``spec`` against itself."""
    agent = agent_from_spec(spec)
    state = load_game(game).new_state(seed=seed)
    rng = random.Random(seed)
    played = []
    try:
        while len(played) < decisions:
            state.advance(rng)
            if state.is_terminal():
                break
            action = agent.choose(state, rng)
            state.apply(action)
            played.append(action)
    finally:
        agent.close()
    return played


def test_the_helpers_iterations_are_added_and_the_choice_is_reproducible() -> None:
    """With an iteration budget every helper is waited for and seeded from the agent's rng: the
    same seed plays the same moves (tree reuse in the helpers included), and each decision counts
    every process's iterations."""
    first = _game("mcts:iterations=40:workers=3", "royal-court", 3, 12)
    again = _game("mcts:iterations=40:workers=3", "royal-court", 3, 12)
    assert first == again
    agent = MCTSAgent(iterations=40, workers=3)
    try:
        agent.choose(_opening(), random.Random(1))
        assert agent.last_iterations == 120
    finally:
        agent.close()


class _Outvoting(RootHelpers):
    """Helpers that answer at once with many visits to one action."""

    def __init__(self, action: Any, visits: int) -> None:
        super().__init__(1, {})
        self.row = (action, visits, 0.5 * visits)

    def send(self, *args: Any) -> None:
        pass

    def collect(self, until: float) -> list[tuple[list[Any], int]]:
        return [([self.row], self.row[1])]


def test_the_helpers_root_visits_are_added_to_the_agents() -> None:
    """The choice is the most visited action over every root: helpers that put many visits on an
    action the agent alone would not choose decide it."""
    state = _opening()
    alone = MCTSAgent(iterations=60).choose(state, random.Random(4))
    rng = random.Random(4)
    rng.getrandbits(63)  # the helper's seed, drawn first
    own = MCTSAgent(iterations=60).choose(state, rng)  # what the agent's own search finds
    other = next(a for a in state.legal_actions() if a not in (alone, own))
    agent = MCTSAgent(iterations=60, workers=2)
    agent._helpers = _Outvoting(other, 1000)
    assert agent.choose(state, random.Random(4)) == other
    assert agent.last_iterations == 60 + 1000


def test_the_parameters_build_the_same_agent() -> None:
    agent = MCTSAgent(seconds=0.5, c=0.7, depth=3, margin=0.2, centre=True, widen=1.0, workers=3)
    assert MCTSAgent(**agent.parameters()).parameters() == agent.parameters()
    assert agent.parameters()["workers"] == 3 and agent.parameters()["depth"] == 3


def test_a_helper_answers_with_its_root_statistics() -> None:
    state = _opening()
    helpers = RootHelpers(2, MCTSAgent(iterations=25).parameters())
    try:
        helpers.send(state, [1, 2], True, None, None)
        answers = helpers.collect(time.monotonic() + 60)
        assert [iterations for _, iterations in answers] == [25, 25]
        legal = set(state.legal_actions())
        for rows, _ in answers:
            assert sum(visits for _, visits, _ in rows) == 25
            assert {action for action, _, _ in rows} <= legal
            assert all(-visits <= total <= visits for _, visits, total in rows)
    finally:
        helpers.close()


def test_a_late_helper_is_sent_nothing_more_until_it_answers() -> None:
    """A helper still searching an earlier position is left out of a decision (never sent a
    second task), and is sent the next position once its late answer is in, with a new tree."""
    state = _opening()
    helpers = RootHelpers(1, MCTSAgent(iterations=10**9).parameters())
    try:
        helpers.send(state, [1], True, None, time.monotonic() + 1.0)  # cut after a second
        assert helpers.collect(time.monotonic()) == []  # not waited for: late
        helper = helpers._helpers[0]
        assert (helper.sent, helper.busy) == (1, True)
        helpers.send(state, [2], False, None, time.monotonic() + 1.0)
        assert (helper.sent, helper.busy) == (1, True)  # busy: left out of the second
        assert helper.answers.poll(60)  # the first answer comes in, cut by its deadline
        helpers.send(state, [3], False, None, time.monotonic() + 1.0)
        assert (helper.sent, helper.busy) == (3, True)
        answers = helpers.collect(time.monotonic() + 60)
        assert len(answers) == 1 and answers[0][1] > 0
        assert helpers.alive == 1
    finally:
        helpers.close()


def test_a_dead_helper_is_left_out_and_the_agent_searches_on() -> None:
    state = _opening()
    agent = MCTSAgent(iterations=30, workers=2)
    try:
        agent.choose(state, random.Random(1))
        assert agent.last_iterations == 60
        helpers = agent._helpers
        assert helpers is not None and helpers.alive == 1
        helpers._helpers[0].proc.kill()
        action = agent.choose(state, random.Random(2))
        assert action in state.legal_actions()
        assert (agent.last_iterations, helpers.alive) == (30, 0)
    finally:
        agent.close()


def test_close_stops_the_helper_processes() -> None:
    agent = MCTSAgent(iterations=10, workers=3)
    agent.choose(_opening(), random.Random(1))
    helpers = agent._helpers
    assert helpers is not None
    procs = [h.proc for h in helpers._helpers]
    assert len(procs) == 2 and all(p.poll() is None for p in procs)
    agent.close()
    assert all(p.poll() is not None for p in procs)
    assert agent._helpers is None


@pytest.mark.parametrize("workers", [0, -1, 65, True, 1.5, "2"])
def test_a_bad_workers_count_is_refused(workers: Any) -> None:
    with pytest.raises(OptionError, match="workers must be an integer from 1 to 64"):
        MCTSAgent(iterations=10, workers=workers)


def test_one_worker_starts_no_helper() -> None:
    agent = MCTSAgent(iterations=10)
    agent.choose(_opening(), random.Random(1))
    assert agent._helpers is None and agent.last_iterations == 10


def _helper_processes() -> list[int]:
    """The pids of this process's children that are MCTS helpers (Linux's /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == os.getpid() and b"regalia.ai.parallel" in command:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads Linux's /proc")
def test_no_helper_outlives_a_lab_game() -> None:
    """docs/lab.md: the lab builds each game's agents and closes them when the game ends, so a
    tournament of ``workers=2`` agents leaves no helper process behind a game."""
    specs = ("mcts:iterations=8:workers=2", "greedy")
    job = GameJob(0, "royal-court", {}, specs, (0, 1), seed=4, agent_seeds=(5, 6), record=True)
    agent = MCTSAgent(iterations=8, workers=2)
    agent.choose(_opening(), random.Random(1))
    assert len(_helper_processes()) == 1  # what a game's agent starts is seen
    agent.close()
    first = play_game(job)
    assert _helper_processes() == []
    again = play_game(job)
    assert again.record == first.record and first.record is not None


def test_a_ctrl_c_in_a_decision_starts_new_helpers_at_the_next() -> None:
    """A message may be half read when Ctrl-C arrives: the helpers are stopped, and the next
    decision starts new ones (their pipes are never read again out of step)."""
    state = _opening()
    agent = MCTSAgent(iterations=20, workers=2)
    try:
        agent.choose(state, random.Random(1))
        helpers = agent._helpers
        assert helpers is not None
        old = helpers._helpers[0]

        def interrupted(timeout: float | None = None) -> bool:
            raise KeyboardInterrupt

        old.answers.poll = interrupted  # type: ignore[method-assign]
        with pytest.raises(KeyboardInterrupt):
            agent.choose(state, random.Random(2))
        assert old.proc.poll() is not None and helpers._helpers == []
        agent.choose(state, random.Random(3))
        assert agent.last_iterations == 40 and helpers._helpers[0] is not old
    finally:
        agent.close()


def test_a_deadline_bounds_the_helpers_searches_too() -> None:
    """docs/ai.md: under ``deadline_seconds`` the agent never waits past the deadline, and a
    helper stops at the agent's own cut (its task carries it), so it answers in time."""
    state = _opening()
    agent = MCTSAgent(iterations=10**9, deadline_seconds=1.0, workers=2)
    try:
        answered = []
        for k in range(3):
            assert agent.choose(state, random.Random(k)) in state.legal_actions()
            assert agent.last_cut and agent.last_seconds < 1.5
            helpers = agent._helpers
            assert helpers is not None and helpers.alive == 1
            answered.append(not helpers._helpers[0].busy)
        assert answered[-1]  # once started, the helper's answer is counted
    finally:
        agent.close()
