"""Train a policy-gradient agent (REINFORCE) on Intrigue in the Royal Court with the PettingZoo
environment, and plot its win rate against regalia's ``random`` agent over training.

    pip install 'regalia[rl]' matplotlib
    python examples/royal_court_pg.py --minutes 3 --out royal_court_pg.png

The agent plays one seat (red and blue alternate between games) against ``random`` (uniform over
the legal actions) and is updated with REINFORCE after every batch of games: the return (+1 win,
-1 loss, 0 draw) minus a running baseline, times the gradient of the log-probabilities of the
actions it took, with Adam and a small entropy bonus. Two numpy policies, softmax over the legal
ids of the action mask:

* ``--model conv`` (default): a linear policy shaped by the encoding's layout
  (docs/encodings.md): an id of spatial plane ``p`` at cell ``c`` scores ``K[p] . patch(c) +
  G[p] . globals``, the patch being the 5 x 5 squares of every board plane around ``c`` (a
  one-layer convolutional policy head), the flat ids ``F[j] . globals``: 19,144 weights, 10,450
  of them the kernels ``K`` shared by every cell.
* ``--model mlp``: observation -> 64 tanh units -> one logit per id (690,459 weights).

Every ``--eval-every`` seconds of training it plays ``--eval-games`` games against ``random``
(sampling from the policy, seats alternating, the same seeds each time); the plot shows those win
rates with 95% intervals. docs/research.md reports a run.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import numpy as np

from regalia.ai import RandomAgent
from regalia.core.encoding import EncodingError
from regalia.rl.pettingzoo import env as make_env

Step = tuple[Any, ...]  # what a policy keeps of a decision for its update


class Adam:
    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}

    def ascend(self, grads: dict[str, np.ndarray]) -> None:
        self.t += 1
        for name, value in self.params.items():
            m, v = self.moments[name]
            m += 0.1 * (grads[name] - m)
            v += 0.001 * (grads[name] ** 2 - v)
            value += self.lr * (m / (1 - 0.9**self.t)) / (np.sqrt(v / (1 - 0.999**self.t)) + 1e-8)


def logit_gradient(probs: np.ndarray, k: int, advantage: float, entropy: float) -> np.ndarray:
    """d/d logits of ``advantage * log p[k] + entropy * H(p)``."""
    g = -probs * advantage
    g[k] += advantage
    log_p = np.log(probs + 1e-12)
    return g - entropy * probs * (log_p + (-(probs * log_p).sum()))


def softmax(logits: np.ndarray) -> np.ndarray:
    z = np.exp(logits - logits.max())
    return z / z.sum()


class ConvPolicy:
    """A linear policy over 5 x 5 patches of the board planes around each spatial id's cell."""

    def __init__(self, enc: Any, lr: float, rng: np.random.Generator, radius: int = 2) -> None:
        self.enc, self.r = enc, radius
        planes = len(enc.plane_index)
        h, w, side = enc.height, enc.width, 2 * radius + 1
        self.board_size = planes * h * w
        self.spatial = enc.action_planes * enc.cells  # ids below are plane * cells + cell
        n_global = enc.observation_shape[0] - self.board_size
        # flat indices of each cell's patch in the padded board (planes, h + 2r, w + 2r)
        ph, pw = h + 2 * radius, w + 2 * radius
        rows, cols = np.divmod(np.arange(enc.cells), w)
        k, dy, dx = np.meshgrid(np.arange(planes), np.arange(side), np.arange(side), indexing="ij")
        offsets = (k * ph * pw + dy * pw + dx).ravel()
        self.patch_index = (rows * pw + cols)[:, None] + offsets[None, :]
        self.padded = np.zeros((planes, ph, pw), np.float32)
        self.params = {
            "K": rng.normal(0, 0.01, (enc.action_planes, offsets.size)).astype(np.float32),
            "G": np.zeros((enc.action_planes, n_global), np.float32),
            "b": np.zeros(enc.action_planes, np.float32),
            "F": np.zeros((enc.num_actions - self.spatial, n_global), np.float32),
            "c": np.zeros(enc.num_actions - self.spatial, np.float32),
        }
        self.opt = Adam(self.params, lr)

    def features(self, obs: np.ndarray, ids: np.ndarray) -> tuple[Any, ...]:
        r = self.r
        self.padded[:, r:-r, r:-r] = self.enc.board_planes(obs)
        glob = obs[self.board_size :]
        spatial = ids < self.spatial
        planes, cells = np.divmod(ids[spatial], self.enc.cells)
        patches = self.padded.ravel()[self.patch_index[cells]]
        return spatial, planes, patches, ids[~spatial] - self.spatial, glob

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> tuple[int, Step]:
        ids = np.flatnonzero(mask)
        spatial, planes, patches, flat, glob = f = self.features(obs, ids)
        p = self.params
        logits = np.empty(len(ids), np.float32)
        logits[spatial] = (p["K"][planes] * patches).sum(1) + p["G"][planes] @ glob + p["b"][planes]
        logits[~spatial] = p["F"][flat] @ glob + p["c"][flat]
        probs = softmax(logits)
        k = int(rng.choice(len(ids), p=probs))
        return int(ids[k]), (f, probs, k)

    def update(self, batch: list[tuple[Step, float]], entropy: float) -> None:
        grads = {k: np.zeros_like(v) for k, v in self.params.items()}
        n_planes, n_flat = self.params["b"].size, self.params["c"].size
        for ((spatial, planes, patches, flat, glob), probs, k), advantage in batch:
            g = logit_gradient(probs, k, advantage, entropy) / len(batch)
            by_plane = np.zeros((n_planes, len(planes)), np.float32)  # each id's gradient, in its plane's row
            by_plane[planes, np.arange(len(planes))] = g[spatial]
            grads["K"] += by_plane @ patches
            per_plane = by_plane.sum(1)
            grads["G"] += np.outer(per_plane, glob)
            grads["b"] += per_plane
            per_flat = np.bincount(flat, g[~spatial], minlength=n_flat).astype(np.float32)
            grads["F"] += np.outer(per_flat, glob)
            grads["c"] += per_flat
        self.opt.ascend(grads)


class MlpPolicy:
    """observation -> 64 tanh units -> one logit per id (columns gathered for the legal ids)."""

    def __init__(self, enc: Any, lr: float, rng: np.random.Generator, hidden: int = 64) -> None:
        n_obs, n_act = enc.observation_shape[0], enc.num_actions
        self.params = {
            "W1": rng.normal(0, 1 / 8, (n_obs, hidden)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "W2": rng.normal(0, 0.01, (hidden, n_act)).astype(np.float32),
            "b2": np.zeros(n_act, np.float32),
        }
        self.opt = Adam(self.params, lr)

    def act(self, obs: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> tuple[int, Step]:
        p, ids = self.params, np.flatnonzero(mask)
        nz = np.flatnonzero(obs)  # observations are sparse: board planes of 0/1
        h = np.tanh(obs[nz] @ p["W1"][nz] + p["b1"])
        probs = softmax(h @ p["W2"][:, ids] + p["b2"][ids])
        k = int(rng.choice(len(ids), p=probs))
        return int(ids[k]), (obs[nz], nz, ids, h, probs, k)

    def update(self, batch: list[tuple[Step, float]], entropy: float) -> None:
        p = self.params
        grads = {k: np.zeros_like(v) for k, v in p.items()}
        for (x, nz, ids, h, probs, k), advantage in batch:
            g = logit_gradient(probs, k, advantage, entropy) / len(batch)
            grads["W2"][:, ids] += np.outer(h, g)
            grads["b2"][ids] += g
            dh = (p["W2"][:, ids] @ g) * (1 - h * h)
            grads["W1"][nz] += np.outer(x, dh)
            grads["b1"] += dh
        self.opt.ascend(grads)


def play(e: Any, policy: Any, learner: str, seed: int, rng: np.random.Generator) -> tuple[float, list[Step]]:
    """One game: the policy plays ``learner``, regalia's ``random`` agent the other seat. Returns
    the learner's reward and its decisions."""
    opponent, opponent_rng = RandomAgent(), random.Random(seed)
    e.reset(seed=seed)
    steps: list[Step] = []
    reward = 0.0
    for agent in e.agent_iter():
        obs, r, termination, truncation, _ = e.last()
        if termination or truncation:
            reward = r if agent == learner else reward
            e.step(None)
            continue
        if agent == learner:
            action, step = policy.act(obs["observation"], obs["action_mask"], rng)
            steps.append(step)
        else:
            try:
                action = e.action_id(opponent.choose(e.core, opponent_rng))
            except EncodingError:  # the action lies outside the window (rare): a random id instead
                action = int(opponent_rng.choice(list(np.flatnonzero(obs["action_mask"]))))
        e.step(action)
    return float(reward), steps


def evaluate(e: Any, policy: Any, games: int, rng: np.random.Generator) -> dict[str, float]:
    results = [play(e, policy, e.possible_agents[g % 2], 10**6 + g, rng)[0] for g in range(games)]
    return {
        "win_rate": sum(r > 0 for r in results) / games,
        "draw_rate": sum(r == 0 for r in results) / games,
    }


def wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time (default 3)")
    parser.add_argument("--model", choices=("conv", "mlp"), default="conv")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=None, help="Adam's step (conv 0.01, mlp 0.001)")
    parser.add_argument("--batch", type=int, default=16, help="games per update")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--eval-every", type=float, default=20.0, help="training seconds between evaluations")
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--out", default="royal_court_pg.png", help="the plot (PNG)")
    args = parser.parse_args()

    e = make_env("royal-court")
    rng = np.random.default_rng(args.seed)
    if args.model == "conv":
        policy: Any = ConvPolicy(e.encoding, args.lr or 0.01, rng)
    else:
        policy = MlpPolicy(e.encoding, args.lr or 0.001, rng)
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    training = 0.0  # seconds of training (evaluations excluded)
    games, baseline, recent = 0, 0.0, []
    batch: list[tuple[Step, float]] = []

    def checkpoint() -> None:
        result = {"games": games, "minutes": training / 60, **evaluate(e, policy, args.eval_games, rng)}
        curve.append(result)
        print(json.dumps({k: round(v, 3) for k, v in result.items()}), flush=True)

    checkpoint()
    next_eval = args.eval_every
    while training < args.minutes * 60:
        t0 = time.perf_counter()
        reward, steps = play(e, policy, e.possible_agents[games % 2], args.seed * 10**7 + games, rng)
        batch.extend((step, reward - baseline) for step in steps)
        baseline += 0.01 * (reward - baseline)
        recent.append(reward > 0)
        games += 1
        if games % args.batch == 0:
            policy.update(batch, args.entropy)
            batch = []
        training += time.perf_counter() - t0
        if training >= next_eval:
            checkpoint()
            next_eval += args.eval_every
    if curve[-1]["games"] != games:
        checkpoint()
    summary = {
        "model": args.model,
        "games": games,
        "training_minutes": round(training / 60, 2),
        "wall_minutes": round((time.perf_counter() - start) / 60, 2),
        "first_win_rate": curve[0]["win_rate"],
        "last_win_rate": curve[-1]["win_rate"],
        "best_win_rate": max(c["win_rate"] for c in curve),
        "training_win_rate_last_500": round(float(np.mean(recent[-500:])), 3),
    }
    print(json.dumps(summary))

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [c["games"] for c in curve]
    ys = [c["win_rate"] for c in curve]
    lows, highs = zip(*(wilson(y, args.eval_games) for y in ys), strict=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.fill_between(xs, lows, highs, alpha=0.25, label="95% interval")
    ax.plot(xs, ys, marker="o", label=f"REINFORCE ({args.model}) vs random, {args.eval_games} games each")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("training games")
    ax.set_ylabel("win rate against random")
    ax.set_ylim(0, 1)
    ax.set_title(f"Intrigue in the Royal Court: {summary['training_minutes']} min of training")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
