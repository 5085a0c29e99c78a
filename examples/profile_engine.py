"""A fixed workload to profile the engine with (docs/performance.md): random playouts of a game, or
MCTS iterations from its first decision, for a number of seconds, on one core.

    py-spy record --native -r 500 -f raw -o two-heirs-random.txt -- \\
        python examples/profile_engine.py two-heirs random --seconds 20
    REGALIA_PURE_PYTHON=1 py-spy record ... (the same, on the pure modules)
    python examples/profile_engine.py two-heirs mcts --seconds 20 --top raw.txt  # a raw profile's top

``random`` plays the games of ``regalia bench`` (:func:`regalia.core.loop.playout`, seeds 0, 1...);
``mcts`` searches the first seat decision of a seed-0 game with ``MCTSAgent`` (the game's default
depth and widening), a fresh tree each second, as ``regalia bench --mcts``. It prints the work done.
With ``--top FILE`` it reads a py-spy raw (collapsed) profile instead and prints the functions with
the most self time (the innermost frame of each sample) and the most total time.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import time


def run(game_id: str, workload: str, seconds: float) -> str:
    import regalia
    from regalia._native import compiled
    from regalia.ai.mcts import MCTSAgent
    from regalia.core.loop import playout

    game = regalia.load_game(game_id)
    end = time.perf_counter() + seconds
    done = 0
    if workload == "random":
        rng = random.Random(0)
        while time.perf_counter() < end:
            playout(game.new_state(seed=done), rng)
            done += 1
        unit = "games"
    else:
        state = game.new_state(seed=0)
        state.advance(random.Random(0))
        rng = random.Random(0)
        agent = MCTSAgent(seconds=1.0)
        while time.perf_counter() < end:
            agent.search(state, rng)
            done += agent.last_iterations
        unit = "iterations"
    return f"{game_id} {workload}: {done} {unit} in {seconds:g} s (compiled: {compiled()})"


#: A frame of a py-spy raw profile: ``function (file:line)``, or a native symbol alone.
FRAME = re.compile(r"^(?P<name>.*?) \((?P<file>[^()]*?)(?::\d+)?\)$")


def frame_name(frame: str) -> str:
    """``function (file)`` of a raw frame, without the line (so a function's lines add up).

    >>> frame_name("legal_actions (regalia/core/game.py:612)")
    'legal_actions (regalia/core/game.py)'
    >>> frame_name("PyDict_GetItem")
    'PyDict_GetItem'
    """
    match = FRAME.match(frame.strip())
    if match is None:
        return frame.strip()
    path = match["file"]
    if "regalia/" in path:
        path = "regalia/" + path.rsplit("regalia/", 1)[1]
    return f"{match['name']} ({path})"


def is_engine(name: str) -> bool:
    """Whether a frame is a function of regalia's: a Python one, or a compiled one (``CPyDef_...``)."""
    return "(regalia/" in name or name.startswith("CPyDef_")


def top(path: str, count: int = 15) -> str:
    """The functions of a py-spy raw profile with the most self and total time, in percent: by the
    innermost frame of each sample (a compiled build's C helpers, ``Py_DECREF``, ``PyDict_GetItem``,
    appear as themselves), and by the innermost regalia frame (the helpers charged to the regalia
    function that ran them, compiled or not)."""
    leaf: collections.Counter[str] = collections.Counter()
    engine: collections.Counter[str] = collections.Counter()
    total: collections.Counter[str] = collections.Counter()
    samples = 0
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            stack, _, n = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            weight = int(n)
            frames = [frame_name(f) for f in stack.split(";")]
            samples += weight
            leaf[frames[-1]] += weight
            mine = [f for f in frames if is_engine(f)]
            engine[mine[-1] if mine else "(outside regalia: start-up, imports, gc)"] += weight
            for name in set(frames):
                total[name] += weight
    rows = [f"{samples} samples", "", "by innermost frame:", "self%  total%  function"]
    for name, n in leaf.most_common(count):
        rows.append(f"{100 * n / samples:5.1f}  {100 * total[name] / samples:6.1f}  {name}")
    rows += [
        "",
        "by innermost regalia function (C helpers charged to their caller):",
        "self%  total%  function",
    ]
    for name, n in engine.most_common(count):
        rows.append(f"{100 * n / samples:5.1f}  {100 * total[name] / samples:6.1f}  {name}")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="two-heirs")
    parser.add_argument("workload", nargs="?", choices=("random", "mcts"), default="random")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--top", metavar="FILE", help="print the top functions of a py-spy raw profile")
    parser.add_argument("--count", type=int, default=15)
    args = parser.parse_args()
    if args.top:
        print(top(args.top, args.count))
    else:
        print(run(args.game, args.workload, args.seconds))


if __name__ == "__main__":
    main()
