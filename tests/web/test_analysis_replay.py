"""The analysis in the browser's replay (docs/analysis.md, "In the browser"): a finished short Royal
Court match, Analyse pressed, the evaluation curve with one line per seat, the marks in the log, and
the Best line and ``data-best`` following the replay's steps (Chromium through Playwright)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regalia.server.process import ServerProcess

from .conftest import Server


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`regalia serve` analysing with a tiny budget (10 iterations a position)."""
    folder = tmp_path_factory.mktemp("analysis-server")
    process = ServerProcess(
        f"sqlite:///{folder / 'web.db'}",
        folder / "serve.log",
        extra=["--max-creates-per-minute", "0", "--analysis-iterations", "10"],
    )
    try:
        yield Server(process.start().url)
    finally:
        process.stop()


def finished_match(server: Server) -> dict[str, Any]:
    made = server.create("royal-court", [{"kind": "human"}, {"kind": "human"}], options={"turn_cap": 10})
    tokens = [seat["token"] for seat in made["seats"]]
    while True:
        status, view = server.call("GET", f"/api/matches/{made['id']}")
        assert status == 200
        if view["status"] == "finished":
            return made
        body = {"action": view["legal"][0], "version": view["version"]}
        status, ack = server.call("POST", f"/api/matches/{made['id']}/actions", body, tokens[view["to_act"]])
        assert status == 200, ack


def test_analyse_the_replay(quick: Server, context: Any, artifacts: Path) -> None:
    made = finished_match(quick)
    page = context.new_page()
    page.goto(quick.url(made["spectator"]))
    button = page.get_by_test_id("analyse")
    button.wait_for(state="visible")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44
    button.click()
    page.wait_for_selector("[data-testid=curve] polyline.curve-line", timeout=60_000)
    assert page.locator("[data-testid=curve] polyline.curve-line").count() == 2
    assert page.get_by_test_id("analysis-status").get_attribute("data-status") == "done"
    status, answer = quick.call("GET", f"/api/matches/{made['id']}/analysis")
    assert status == 200 and answer["status"] == "done"
    marked = [p for p in answer["analysis"]["plies"] if p["mark"]]
    marks = page.locator("#log [data-mark]")
    assert marks.count() == len(marked)
    if marked:
        first = marks.first
        assert first.inner_text() in ("?!", "?", "??")
        title = first.get_attribute("title") or ""
        assert "lost" in title and "best" in title
        assert page.locator("[data-testid=curve] .mark-dot").count() == len(marked)
    # step through the replay: the Best line and the outline follow
    decisions = {p["ply"]: p for p in answer["analysis"]["plies"] if p["kind"] == "decision"}
    best = {b["ply"]: b for b in answer["best"]}
    page.get_by_test_id("replay-first").click()
    text = page.get_by_test_id("analysis-best-text")
    shown_best = False
    seen = []
    for ply in range(1, max(decisions) + 1):
        page.get_by_test_id("replay-forward").click()
        page.wait_for_function(
            f"document.querySelector('#analysis-chart .cursor').getAttribute('data-ply') === '{ply}'"
        )
        if ply not in decisions:
            continue
        row = decisions[ply]
        page.wait_for_function(
            "([ply, best]) => document.querySelector('[data-testid=analysis-best-text]').textContent"
            ".includes(`Ply ${ply},`) && document.querySelector('[data-testid=analysis-best-text]')"
            ".textContent.includes(best)",
            arg=[ply, row["best"]],
        )
        assert "Best:" in text.inner_text()
        show = page.get_by_test_id("analysis-show-best")
        if not shown_best and show.is_visible():
            show.click()
            assert show.get_attribute("aria-pressed") == "true"
            shown_best = True
        if shown_best:
            page.wait_for_function(
                "(best) => [...document.querySelectorAll('#board [data-best]')]"
                ".some((el) => el.getAttribute('data-best') === best)",
                arg=row["best"],
            )
            positions = page.eval_on_selector_all(
                "#board [data-best]", "(els) => els.map((el) => el.getAttribute('data-pos'))"
            )
            assert set(positions) <= set(best[ply]["places"]) and positions
            seen.append(ply)
        if len(seen) >= 3:
            break
    assert shown_best and len(seen) >= 2, seen
    # clicking the curve jumps the replay there
    chart = page.locator("[data-testid=curve]")
    chart.click(position={"x": 5, "y": 20})
    page.wait_for_function(
        "document.querySelector('#analysis-chart .cursor').getAttribute('data-ply') === '0'"
    )
    page.screenshot(path=str(artifacts / "analysis-replay.png"), full_page=True)
    # reloaded, the analysis is there at once (cached with the match)
    page.reload()
    page.wait_for_selector("[data-testid=curve] polyline.curve-line")
    assert page.get_by_test_id("analyse").is_hidden()
