"""A move whose follow-up fails inside the match layer is not left applied in memory unstored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from regalia.match import Match
from regalia.server.service import MatchService
from regalia.server.store import Store


def test_a_failure_after_the_move_leaves_the_stored_match(tmp_path: Path, monkeypatch: Any) -> None:
    service = MatchService(Store(f"sqlite:///{tmp_path / 'half.db'}"))
    made = service.create("royal-court", {}, [{"kind": "human"}, {"kind": "human"}], "online")
    tokens = {seat["seat"]: seat["token"] for seat in made["seats"]}
    before = service.view(made["id"], None)
    seat, move = before["to_act"], before["legal"][0]

    def broken(self: Match, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the engine failed")

    monkeypatch.setattr(Match, "advance", broken)
    with pytest.raises(RuntimeError):
        service.act(made["id"], tokens[seat], move)
    monkeypatch.undo()
    again = service.view(made["id"], None)
    assert again["plies"] == before["plies"] and again["version"] == before["version"]
    service.act(made["id"], tokens[seat], move)  # the same move is accepted once the engine works
    assert service.view(made["id"], None)["plies"] > before["plies"]
    service.pool.shutdown(wait=True)
