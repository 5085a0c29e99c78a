"""The fit study (regalia.lab.fit, ``regalia fit``): counts checked against the games replayed from
their records, the optional ``clipped`` figures, reproducibility, The Two Heirs' encoding variants,
and the command with its errors."""

from __future__ import annotations

import dataclasses
import json
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from ai.toygame import ToyGame, ToyState
from regalia.core.encoding import Encoding, EncodingError
from regalia.core.game import CHANCE, Game, State
from regalia.core.plugin import Plugin
from regalia.core.registry import GAMES, game_plugin, load_game
from regalia.lab import FitResult, LabError, run_fit
from regalia.lab.cli import app
from regalia.lab.fit import fit_game, parse_variant, run_extents, variant_label
from regalia.lab.play import GameJob, play_game
from regalia.lab.stats import derive_seed

np = pytest.importorskip("numpy")

runner = CliRunner()


# -- a toy encoding: only the first ``takes`` market cards have ids ------------------------------------


class ToyEncoding(Encoding):
    """Ids: ``take I`` for I < ``takes``, then ``end``; chance's ``draw V`` is V - 1.

    With ``clip=True`` it has the optional ``clipped``: the market cards beyond ``takes``.
    """

    def __init__(self, game: Game[Any], takes: int = 3, clip: bool = False, extent: bool = False) -> None:
        super().__init__(game, takes=takes, clip=clip, extent=extent)
        if takes < 0:
            raise EncodingError(f"takes must be at least 0, got {takes}")
        self.takes = takes
        self.num_actions = takes + 1
        self.num_chance_outcomes = 9
        self.observation_shape = (1,)
        if clip:
            self.clipped = self._clipped
        if extent:
            self.extent = self._extent

    def _clipped(self, state: ToyState) -> int:
        return max(0, len(state.market) - self.takes)

    def _extent(self, state: ToyState) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        """The market's cards lie at (I, seat), I counted from 0; the cards that may be taken are
        the targets."""
        pieces = [(i, state.player) for i in range(len(state.market))]
        return pieces, pieces if state.takes < 2 else []

    def action_id(self, state: State[Any], action: Any) -> int:
        word, _, number = action.partition(" ")
        if word == "draw":
            return int(number) - 1
        if word == "end":
            return self.takes
        if int(number) < self.takes:
            return int(number)
        raise EncodingError(f"{action} has no id")

    def action_from_id(self, state: State[Any], action_id: int) -> Any:
        if state.current_player == CHANCE:
            return f"draw {action_id + 1}"
        return "end" if action_id == self.takes else f"take {action_id}"

    def observation_tensor(self, state: State[Any], seat: int) -> Any:
        return np.zeros(1, dtype=np.float32)

    def layout(self) -> list[tuple[str, tuple[int, ...], str]]:
        return [("nothing", (1,), "nothing")]


class ToyPlugin(Plugin[ToyState]):
    """The toy market's plugin: :class:`ToyEncoding` with the variant's settings (and ``extent``
    when the class says so)."""

    extent: ClassVar[bool] = False

    def encoding(self, game: Game[Any], **variant: Any) -> Encoding:
        return ToyEncoding(game, **({"extent": True} if self.extent else {}), **variant)


class ExtentPlugin(ToyPlugin):
    extent: ClassVar[bool] = True


class OddPlugin(Plugin[ToyState]):
    def encoding(self, game: Game[Any], **variant: Any) -> Any:
        return "not an encoding"


class FitToy(ToyGame):
    """The toy market with :class:`ToyEncoding` as its plugin's encoding."""

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        return ToyPlugin()


class ExtentToy(ToyGame):
    """The toy market with :class:`ToyEncoding`'s ``extent``."""

    @classmethod
    def plugin(cls) -> Plugin[Any]:
        return ExtentPlugin()


class OddToy(ToyGame):
    @classmethod
    def plugin(cls) -> Plugin[Any]:
        return OddPlugin()


def replayed_counts(game: ToyGame, job: GameJob, takes: int) -> tuple[int, int, int, int, int]:
    """Play ``job`` with the arena's own :func:`play_game`, replay its record action by action and
    count by hand: (decision states, those that fit, their legal actions where one did not, those
    with an id, the most market cards beyond ``takes`` at a decision state or at the end)."""
    result = play_game(dataclasses.replace(job, record=True))
    assert result.record is not None
    state = game.new_state(job.seed)
    decisions = fit = lost = kept = most = 0
    for text in result.record["actions"]:
        if state.current_player >= 0:
            decisions += 1
            most = max(most, len(state.market) - takes)
            takes_open = state.takes < 2
            if takes_open and len(state.market) > takes:
                lost += len(state.legal_actions())
                kept += takes + (1 if state.takes else 0)
            else:
                fit += 1
        state.apply(state.parse_action(text))
    assert state.is_terminal()
    return decisions, fit, lost, kept, max(most, 0)


def test_counts_equal_the_games_replayed_from_their_records() -> None:
    game = FitToy(cards=14)
    result = run_fit(game, "greedy,random", games=6, seed=3, encodings=[{}, {"takes": 1}, {"takes": 0}])
    assert isinstance(result, FitResult)
    assert [v.label for v in result.variants] == ["default", "takes=1", "takes=0"]
    for k, takes in enumerate((3, 1, 0)):
        v = result.variants[k]
        expected = [replayed_counts(game, _job_of(result, i, game), takes) for i in range(6)]
        assert v.games == 6 and v.states == sum(e[0] for e in expected) == result.decision_states
        assert v.states_fit == sum(e[1] for e in expected)
        assert (v.lost_actions, v.kept_actions) == (sum(e[2] for e in expected), sum(e[3] for e in expected))
        assert v.games_fit == sum(1 for e in expected if e[0] == e[1])
        assert v.games_whole is None and v.most_clipped is None  # no clipped() without clip=True
    default, one, none = result.variants
    assert default.states_fit == default.states and default.kept_share is None  # three cards at most
    assert 0 < one.states_fit < one.states and 0 < one.kept_share < 1  # type: ignore[operator]
    assert none.states_fit < one.states_fit


def _job_of(result: FitResult, index: int, game: ToyGame) -> GameJob:
    """The job of game ``index`` of a run, rebuilt from what the run reports of it."""
    r = result.results[index]
    specs = tuple(result.specs[a] for a in r.agents)
    seeds = tuple(derive_seed(result.seed, "agent", index, s) for s in range(len(r.agents)))
    return GameJob(index, game, game.options.to_json(), specs, r.agents, r.seed, seeds)


def test_the_games_are_the_arenas_games() -> None:
    """Same job, same game: fit_game plays as play_game does (plies and scores)."""
    game = FitToy()
    encoding = ToyEncoding(game, takes=1)
    for seed in range(4):
        job = GameJob(
            seed, game, game.options.to_json(), ("random", "greedy"), (0, 1), seed, (seed, seed + 1)
        )
        fitted = fit_game(job, [encoding])
        played = play_game(job)
        assert (fitted.plies, list(fitted.scores)) == (played.plies, played.scores)
        assert fitted.decisions == sum(played.moves)


def test_clipped_is_reported_only_when_the_encoding_has_it() -> None:
    game = FitToy(cards=14)
    result = run_fit(game, "random", games=5, seed=1, encodings=[{"takes": 1, "clip": True}, {"takes": 3}])
    clipped, plain = result.variants
    expected = [replayed_counts(game, _job_of(result, i, game), 1) for i in range(5)]
    assert clipped.most_clipped == max(e[4] for e in expected) == 2
    assert clipped.games_whole == sum(1 for e in expected if e[4] == 0)
    assert plain.games_whole is None and plain.most_clipped is None
    headers, rows = result.rows()
    assert headers[-2:] == ["games: whole", "most clipped"] and rows[1][-2:] == ["-", "-"]
    assert rows[0][1] != "100.00%" and rows[1][1] == "100.00%"  # shares are rounded down
    headers, _ = run_fit(game, "random", games=1, encodings=[{}]).rows()
    assert "most clipped" not in headers


def test_same_seed_same_figures_whatever_the_workers() -> None:
    game = FitToy(cards=12)
    variants = [{"takes": 1, "clip": True}, {"takes": 2}]
    one = run_fit(game, "greedy,random", games=7, seed=4, workers=1, encodings=variants)
    two = run_fit(game, "greedy,random", games=7, seed=4, workers=2, encodings=variants)
    assert one.to_json()["variants"] == two.to_json()["variants"]
    assert one.results == two.results
    other = run_fit(game, "greedy,random", games=7, seed=5, workers=1, encodings=variants)
    assert [r.seed for r in other.results] != [r.seed for r in one.results]


def test_parse_variant() -> None:
    assert parse_variant("default") == parse_variant("") == {}
    assert parse_variant("size=9, frame=tiles") == {"size": 9, "frame": "tiles"}
    assert parse_variant("a=true,b=False,c=none,d=0.5,e=x1") == {
        "a": True,
        "b": False,
        "c": None,
        "d": 0.5,
        "e": "x1",
    }
    assert variant_label({"size": 9, "frame": "tiles"}) == "size=9,frame=tiles"
    assert variant_label({"clip": True}) == "clip=true" and variant_label({}) == "default"
    with pytest.raises(LabError, match="NAME=VALUE"):
        parse_variant("size")
    with pytest.raises(LabError, match="twice"):
        parse_variant("size=9,size=11")


def test_bad_requests_are_refused_before_any_game() -> None:
    with pytest.raises(LabError, match="declares no encoding"):
        run_fit(ToyGame(), "random", games=1)
    with pytest.raises(LabError, match="not an Encoding"):
        run_fit(OddToy(), "random", games=1)
    with pytest.raises(LabError, match="takes=-1: takes must be"):
        run_fit(FitToy(), "random", games=1, encodings=[{"takes": -1}])
    with pytest.raises(LabError, match="unexpected keyword"):
        run_fit(FitToy(), "random", games=1, encodings=[{"size": 9}])
    with pytest.raises(LabError, match="no encoding variants"):
        run_fit(FitToy(), "random", games=1, encodings=[])
    with pytest.raises(LabError, match="2 seat"):
        run_fit(FitToy(), "random,random,random", games=1)


# -- The Two Heirs --------------------------------------------------------------------------------


def test_the_two_heirs_plugin_passes_the_variant_to_its_encoding() -> None:
    game = load_game("two-heirs")
    encoding: Any = game_plugin("two-heirs").encoding(game, size=9, frame="tiles")
    assert (encoding.side, encoding.frame_kind) == (9, "tiles")


def test_two_heirs_two_players() -> None:
    result = run_fit(
        "two-heirs",
        "random,greedy",
        games=3,
        seed=2,
        encodings=[{}, {"size": 3}, {"size": 5, "frame": "tiles"}],
    )
    default, tiny, small = result.variants
    assert result.specs == ["random", "greedy"] and result.decision_states > 0
    assert default.states == tiny.states == small.states == result.decision_states
    assert default.states_fit == default.states and default.games_fit == 3
    assert default.games_whole == 3 and default.most_clipped == 0
    assert tiny.states_fit < tiny.states and tiny.games_fit == 0 and tiny.games_whole == 0
    assert tiny.kept_share is not None and 0 < tiny.kept_share < 1
    assert small.label == "size=5,frame=tiles" and tiny.states_fit <= small.states_fit


def test_two_heirs_solo_agents_only_on_the_players_seat() -> None:
    result = run_fit("two-heirs", "random", games=2, seed=1, options={"solo": True}, encodings=[{}])
    assert result.specs == ["random"] and all(len(r.agents) == 2 for r in result.results)
    assert all(r.agents.count(-1) == 1 for r in result.results)  # Henry's seat: no agent
    assert result.variants[0].states_fit == result.variants[0].states
    with pytest.raises(LabError, match="1 seat"):
        run_fit("two-heirs", "random,random", games=1, options={"solo": True})


# -- the command ------------------------------------------------------------------------------------


def test_command_json() -> None:
    args = ["fit", "two-heirs", "-a", "random,greedy", "-n", "2", "-s", "1", "-w", "1"]
    result = runner.invoke(app, [*args, "-e", "default", "-e", "size=3", "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["games"] == 2 and doc["specs"] == ["random", "greedy"]
    assert [v["encoding"] for v in doc["variants"]] == [{}, {"size": 3}]
    default, tiny = doc["variants"]
    assert default["states_fit"] == default["decision_states"] == doc["decision_states"]
    assert tiny["states_fit"] < tiny["decision_states"] and tiny["most_clipped"] > 0


def test_command_table_and_markdown() -> None:
    args = ["fit", "two-heirs", "-n", "1", "-w", "1", "-e", "size=9,frame=tiles", "--no-progress"]
    table = runner.invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "size=9,frame=tiles" in table.stdout and "states fit" in table.stdout
    md = runner.invoke(app, [*args, "--markdown"])
    assert md.exit_code == 0 and "| size=9,frame=tiles |" in md.stdout


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["fit", "nope"], ["unknown game", "two-heirs"]),
        (["fit", "two-heirs", "-a", "random,robot"], ["unknown agent"]),
        (["fit", "two-heirs", "-a", "greedy,greedy,greedy"], ["2 seat(s) for agents"]),
        (["fit", "two-heirs", "-o", "solo=true", "-a", "greedy,greedy"], ["1 seat(s) for agents"]),
        (["fit", "two-heirs", "--backend", "mpi"], ["unknown backend", "local, ray"]),
        (["fit", "two-heirs", "-o", "nonsense"], ["NAME=VALUE"]),
        (["fit", "two-heirs", "-o", "colour=red"], ["colour"]),
        (["fit", "two-heirs", "-e", "size"], ["encoding option", "NAME=VALUE"]),
        (["fit", "two-heirs", "-e", "size=10"], ["encoding size=10", "odd"]),
        (["fit", "two-heirs", "-e", "frame=elsewhere"], ["frame=elsewhere", "board, tiles, origin"]),
        (["fit", "two-heirs", "-e", "sise=9"], ["encoding sise=9", "sise"]),
        (["fit", "toy-market"], ["declares no encoding"]),
    ],
)
def test_command_errors_exit_2(args: list[str], words: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "toy-market", "ai.toygame:ToyGame")
    result = runner.invoke(app, [*args, "-n", "1", "-w", "1", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    for word in words:
        assert word in result.stderr


@pytest.mark.ray
def test_ray_backend_gives_the_same_figures() -> None:
    pytest.importorskip("ray")
    variants = [{}, {"size": 5}]
    on_ray = run_fit("two-heirs", "random", games=4, seed=3, backend="ray", encodings=variants)
    local = run_fit("two-heirs", "random", games=4, seed=3, encodings=variants)
    assert on_ray.results == local.results and on_ray.backend == "ray"
    assert on_ray.to_json()["variants"] == local.to_json()["variants"]


# -- board extents (regalia fit --extents) ---------------------------------------------------------


def test_extents_equal_the_games_replayed_from_their_records() -> None:
    """Spans, reaches and final boxes of the toy's market (cards at (I, seat)), counted by hand from
    each game's record, and the same games as ``run_fit``'s."""
    game = ExtentToy(cards=14)
    study = run_extents(game, "greedy,random", games=5, seed=3)
    fitted = run_fit(game, "greedy,random", games=5, seed=3)
    assert study.decisions == fitted.decision_states and study.games == 5
    for i, extent in enumerate(study.results):
        result = play_game(dataclasses.replace(_job_of(fitted, i, game), record=True))
        assert result.record is not None
        state = game.new_state(fitted.results[i].seed)
        spans: dict[int, int] = {}
        reaches: dict[int, int] = {}
        for text in result.record["actions"]:
            if state.current_player >= 0 and state.takes < 2:
                side = max(len(state.market), 1)
                spans[side] = spans.get(side, 0) + 1
                reach = max(len(state.market) - 1, state.player)
                reaches[reach] = reaches.get(reach, 0) + 1
            state.apply(state.parse_action(text))
        assert (extent.spans, extent.reaches) == (spans, reaches)
        assert (extent.width, extent.height, extent.reach) == (0, 0, 0)  # the market ends empty
    assert study.others == study.decisions - study.placements > 0  # the 'end' after two takes
    fit = study.board_fit(3)
    assert fit.placements == study.placements and fit.games == 5 and fit.boards == 5
    assert study.board_fit(1).placements < study.placements
    doc = study.to_json()
    assert doc["placement_decisions"] == study.placements and doc["game"] == game.id
    assert "| window |" in study.markdown()


def test_extents_need_the_encodings_extent() -> None:
    with pytest.raises(LabError, match="no extent"):
        run_extents(FitToy(), "random", games=1)


def test_command_extents(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "extent-toy", f"{__name__}:ExtentToy")
    result = runner.invoke(
        app, ["fit", "extent-toy", "--extents", "-n", "2", "--json", "-w", "1", "--no-progress"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["games"] == 2
    result = runner.invoke(
        app, ["fit", "extent-toy", "--extents", "-e", "takes=1", "-w", "1", "--no-progress"]
    )
    assert result.exit_code == 2 and "give no --encoding" in result.output
