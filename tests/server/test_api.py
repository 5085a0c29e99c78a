"""The game server's HTTP and WebSocket API (docs/server.md): every endpoint, its error cases and
the seat-token rules. The server runs in-process (FastAPI's TestClient) on a SQLite file; computer
seats think in a thread pool."""

from __future__ import annotations

import concurrent.futures
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import regalia
from regalia.core.record import Record
from regalia.server.app import create_app

HUMANS = [{"kind": "human"}, {"kind": "human"}]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    app = create_app(f"sqlite:///{tmp_path / 'api.db'}", pool=pool)
    with TestClient(app) as c:
        yield c
    pool.shutdown(wait=True, cancel_futures=True)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(client: TestClient, game: str, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    response = client.post("/api/matches", json={"game": game, "seats": seats, **body})
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def tokens(made: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in made["seats"] if "token" in s}


def view(client: TestClient, match_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}", headers=bearer(token) if token else {})
    assert response.status_code == 200, response.text
    doc: dict[str, Any] = response.json()
    return doc


def act(client: TestClient, match_id: str, token: str | None, action: str, **extra: Any) -> Any:
    headers = bearer(token) if token else {}
    return client.post(f"/api/matches/{match_id}/actions", json={"action": action, **extra}, headers=headers)


def play_random(client: TestClient, made: dict[str, Any], moves: int, seed: int = 0) -> dict[str, Any]:
    """Play up to ``moves`` random legal moves for the human seats; the last view."""
    rng = random.Random(seed)
    seat_tokens = tokens(made)
    current = view(client, made["id"])
    for _ in range(moves):
        if current["status"] == "finished":
            break
        seat = current["to_act"]
        if seat not in seat_tokens:
            break
        answer = act(client, made["id"], seat_tokens[seat], rng.choice(current["legal"]))
        assert answer.status_code == 200, answer.text
        current = view(client, made["id"])
    return current


def wait_for(client: TestClient, match_id: str, test: Any, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        current = view(client, match_id)
        if test(current):
            return current
        assert time.monotonic() < deadline, f"timed out waiting; last view at ply {current['plies']}"
        time.sleep(0.02)


# -- games ---------------------------------------------------------------------------------------
def test_games_lists_every_registered_game_with_its_options_schema_and_agents(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    assert set(games) == set(regalia.game_ids())
    carcassonne = games["carcassonne"]
    assert (carcassonne["min_players"], carcassonne["max_players"]) == (2, 5)
    options = {o["name"]: o for o in carcassonne["options"]}
    assert options["players"]["minimum"] == 2 and options["tiles"]["file"] is True
    assert {"name": "mcts", "levels": ["easy", "medium", "hard"]} in carcassonne["agents"]


def test_seats_follow_the_options_and_name_the_automaton(client: TestClient) -> None:
    solo = client.post("/api/games/two-heirs/seats", json={"options": {"solo": True}})
    assert solo.status_code == 200
    assert [s["automaton"] for s in solo.json()] == [False, True]
    five = client.post("/api/games/carcassonne/seats", json={"options": {"players": 5}})
    assert len(five.json()) == 5


def test_seats_refuse_a_bad_option_naming_it(client: TestClient) -> None:
    bad = client.post("/api/games/carcassonne/seats", json={"options": {"players": 9}})
    assert bad.status_code == 422 and "players" in bad.json()["detail"]
    unknown = client.post("/api/games/carcassonne/seats", json={"options": {"colour": "red"}})
    assert unknown.status_code == 422 and "colour" in unknown.json()["detail"]
    assert client.post("/api/games/chess/seats", json={"options": {}}).status_code == 404


def test_an_option_naming_a_file_on_the_server_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/matches",
        json={"game": "royal-court", "options": {"archetypes": "/etc/passwd"}, "seats": HUMANS},
    )
    assert answer.status_code == 422
    assert "archetypes" in answer.json()["detail"] and "file" in answer.json()["detail"]
    assert client.get("/api/matches").json() == []


def test_rules_are_the_shipped_rulebook(client: TestClient) -> None:
    answer = client.get("/api/games/royal-court/rules")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/markdown")
    assert answer.text.startswith("#")
    assert client.get("/api/games/nope/rules").status_code == 404


# -- creating ------------------------------------------------------------------------------------
def test_create_gives_each_human_seat_a_private_link_and_an_unguessable_token(client: TestClient) -> None:
    made = create(
        client, "carcassonne", [{"kind": "human", "name": "Ann"}, {"kind": "computer", "agent": "random"}]
    )
    ann, computer = made["seats"]
    assert ann["name"] == "Ann" and ann["link"] == f"/match/{made['id']}#token={ann['token']}"
    assert len(ann["token"]) >= 32  # 24 random bytes: 192 bits
    assert "token" not in computer and computer["kind"] == "computer"
    assert made["spectator"] == f"/match/{made['id']}"


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"game": "royal-court", "seats": [{"kind": "human"}]}, "expected 2 seats"),
        ({"game": "royal-court", "seats": [{"kind": "computer", "agent": "random"}] * 2}, "human"),
        (
            {"game": "royal-court", "seats": [{"kind": "human"}, {"kind": "computer", "agent": "oracle"}]},
            "oracle",
        ),
        (
            {"game": "royal-court", "seats": [{"kind": "human"}, {"kind": "computer", "level": "godlike"}]},
            "godlike",
        ),
        ({"game": "two-heirs", "options": {"solo": True}, "seats": HUMANS}, "automaton"),
        ({"game": "royal-court", "seats": HUMANS, "screen": "wall"}, "screen"),
        ({"game": "royal-court", "seats": HUMANS, "colour": "red"}, "colour"),
        ({"game": "royal-court", "seats": [{"kind": "human", "name": "x" * 41}, {"kind": "human"}]}, "name"),
        ({"seats": HUMANS}, "game"),
    ],
)
def test_create_refuses_bad_seats_and_fields_with_a_422_naming_them(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/matches", json=body)
    assert answer.status_code == 422, answer.text
    assert words in answer.json()["detail"]
    assert client.get("/api/matches").json() == []


def test_create_an_unknown_game_is_404(client: TestClient) -> None:
    assert client.post("/api/matches", json={"game": "chess", "seats": HUMANS}).status_code == 404


def test_solo_two_heirs_plays_henry_as_an_automaton(client: TestClient) -> None:
    made = create(client, "two-heirs", [{"kind": "human"}, {"kind": "automaton"}], options={"solo": True})
    current = play_random(client, made, 12, seed=3)
    seats = {e["seat"] for e in current["log"]}
    assert 1 in seats  # Henry acted, applied by the server
    assert current["seats"][1]["kind"] == "automaton"


# -- listing ---------------------------------------------------------------------------------------
def test_list_filters_by_status_newest_first(client: TestClient) -> None:
    first = create(client, "royal-court", HUMANS, public=True)
    second = create(client, "two-heirs", HUMANS, public=True)
    listed = client.get("/api/matches").json()
    assert [m["id"] for m in listed] == [second["id"], first["id"]]
    assert client.get("/api/matches?status=finished").json() == []
    assert {m["id"] for m in client.get("/api/matches?status=active").json()} == {first["id"], second["id"]}
    assert client.get("/api/matches?status=lost").status_code == 422
    assert client.get("/api/matches?limit=0").status_code == 422


# -- views and tokens --------------------------------------------------------------------------------
def test_a_spectator_sees_the_position_but_nothing_to_click(client: TestClient) -> None:
    made = create(client, "carcassonne", HUMANS)
    spectator = view(client, made["id"])
    assert spectator["viewer"] is None and spectator["to_act"] is not None
    assert "data-action" not in spectator["board"] and "data-select" not in spectator["board"]
    assert spectator["legal"]  # the seat to act's actions are public in the view
    seat = view(client, made["id"], tokens(made)[spectator["to_act"]])
    assert seat["viewer"] == spectator["to_act"] and "data-action" in seat["board"]
    assert [s["you"] for s in seat["seats"]] == [s["seat"] == seat["viewer"] for s in seat["seats"]]


def test_a_spectator_cannot_act(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    current = view(client, made["id"])
    answer = act(client, made["id"], None, current["legal"][0])
    assert answer.status_code == 401 and "token" in answer.json()["detail"]
    assert view(client, made["id"])["version"] == current["version"]


def test_a_token_acts_only_for_its_own_seat_and_match(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    other = create(client, "royal-court", HUMANS)
    current = view(client, made["id"])
    to_act = current["to_act"]
    waiting = tokens(made)[1 - to_act]
    answer = act(client, made["id"], waiting, current["legal"][0])
    assert answer.status_code == 409 and "not your turn" in answer.json()["detail"]
    foreign = act(client, made["id"], tokens(other)[to_act], current["legal"][0])
    assert foreign.status_code == 403
    forged = act(client, made["id"], "A" * 32, current["legal"][0])
    assert forged.status_code == 403
    assert client.get(f"/api/matches/{made['id']}", headers=bearer("A" * 32)).status_code == 403
    malformed = client.get(f"/api/matches/{made['id']}", headers={"Authorization": "Basic abc"})
    assert malformed.status_code == 401
    assert view(client, made["id"])["version"] == current["version"]


def test_unknown_match_is_404(client: TestClient) -> None:
    assert client.get("/api/matches/nope").status_code == 404
    assert act(client, "nope", "x" * 32, "pass").status_code in (403, 404)
    assert client.get(f"/api/matches/{'x' * 40}").status_code == 404


def test_views_never_carry_the_seed(client: TestClient) -> None:
    made = create(client, "carcassonne", HUMANS)
    current = play_random(client, made, 6)
    texts = [
        json.dumps(current),
        client.get("/api/matches").text,
        client.get(f"/api/matches/{made['id']}/record").text,
    ]
    assert all('"seed"' not in text for text in texts)


# -- acting ----------------------------------------------------------------------------------------
def test_a_legal_action_is_applied_and_chance_drawn_by_the_server(client: TestClient) -> None:
    made = create(client, "carcassonne", HUMANS)
    before = view(client, made["id"])
    assert before["log"][0]["seat"] == -1 and before["log"][0]["text"].startswith("draw ")
    seat = before["to_act"]
    placed = act(client, made["id"], tokens(made)[seat], before["legal"][0], version=before["version"])
    assert placed.status_code == 200
    assert placed.json()["version"] == before["version"] + 1
    after = view(client, made["id"], tokens(made)[seat])
    assert after["log"][-1]["text"].startswith("follower") or after["log"][-1]["text"] == before["legal"][0]
    assert after["plies"] == before["plies"] + 1


def test_an_illegal_action_is_refused_naming_the_rule_and_changes_nothing(client: TestClient) -> None:
    made = create(client, "carcassonne", HUMANS)
    before = view(client, made["id"])
    token = tokens(made)[before["to_act"]]
    answer = act(client, made["id"], token, "place D 40,40 0")
    assert answer.status_code == 422
    assert answer.json()["rule"] and answer.json()["detail"]
    garbled = act(client, made["id"], token, "jump over the moon")
    assert garbled.status_code == 422 and "jump" in garbled.json()["detail"]
    assert view(client, made["id"])["version"] == before["version"]


def test_a_stale_version_is_refused(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    before = view(client, made["id"])
    answer = act(
        client, made["id"], tokens(made)[before["to_act"]], before["legal"][0], version=before["version"] - 1
    )
    assert answer.status_code == 409 and "version" in answer.json()["detail"]
    assert view(client, made["id"])["version"] == before["version"]


@pytest.mark.parametrize(
    ("content", "status"),
    [
        (b"{not json", 400),
        (b'{"version": 1}', 422),
        (b'{"action": 5}', 422),
        (b'{"action": "pass", "x": 1}', 422),
    ],
)
def test_malformed_bodies_are_4xx_and_change_nothing(client: TestClient, content: bytes, status: int) -> None:
    made = create(client, "royal-court", HUMANS)
    before = view(client, made["id"])
    headers = {**bearer(tokens(made)[before["to_act"]]), "content-type": "application/json"}
    answer = client.post(f"/api/matches/{made['id']}/actions", content=content, headers=headers)
    assert answer.status_code == status and isinstance(answer.json()["detail"], str)
    assert view(client, made["id"])["version"] == before["version"]


def test_a_request_over_64_kib_is_413(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    huge = json.dumps({"action": "x" * 70_000}).encode()
    answer = client.post(
        f"/api/matches/{made['id']}/actions", content=huge, headers={"content-type": "application/json"}
    )
    assert answer.status_code == 413
    too_long = act(client, made["id"], tokens(made)[0], "x" * 500)
    assert too_long.status_code == 422


def test_a_finished_match_refuses_actions_and_gives_its_result_and_full_record(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS, options={"turn_cap": 10}, public=True)
    final = play_random(client, made, 400, seed=5)
    assert final["status"] == "finished" and final["result"]["text"].strip()
    assert final["to_act"] is None and final["legal"] == []
    refused = act(client, made["id"], tokens(made)[0], "pass")
    assert refused.status_code == 409 and "over" in refused.json()["detail"]
    record = client.get(f"/api/matches/{made['id']}/record")
    assert record.status_code == 200 and "attachment" in record.headers["content-disposition"]
    replayed = regalia.replay(Record.from_json(record.json()))
    assert replayed.is_terminal() and replayed.scores() == final["result"]["scores"]
    listed = client.get("/api/matches?status=finished").json()
    assert [m["id"] for m in listed] == [made["id"]] and listed[0]["result"]["scores"] == final["scores"]


def test_replay_pictures_only_of_a_finished_match(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS, options={"turn_cap": 10}, public=True)
    assert client.get(f"/api/matches/{made['id']}/svg?ply=0").status_code == 409
    final = play_random(client, made, 400, seed=2)
    first = client.get(f"/api/matches/{made['id']}/svg?ply=1")
    assert first.status_code == 200 and first.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in first.text and "data-action" not in first.text
    last = client.get(f"/api/matches/{made['id']}/svg?ply={final['plies']}")
    assert last.status_code == 200 and last.text != first.text
    assert client.get(f"/api/matches/{made['id']}/svg?ply={final['plies'] + 1}").status_code == 422
    assert client.get(f"/api/matches/{made['id']}/svg?ply=-1").status_code == 422


def test_replay_table_gives_the_board_and_panels_of_a_ply(client: TestClient) -> None:
    """docs/table.md "What the server sends": ``/table?ply=N`` answers the replay's board (nothing
    clickable) and panels, once the match is over, for 0 <= N <= plies."""
    made = create(client, "carcassonne", HUMANS, public=True)
    assert client.get(f"/api/matches/{made['id']}/table?ply=0").status_code == 409
    final = play_random(client, made, 400, seed=3)
    first = client.get(f"/api/matches/{made['id']}/table?ply=2").json()
    assert first["ply"] == 2 and "<svg" in first["board"] and "data-action" not in first["board"]
    assert [s["seat"] for s in first["panels"]["seats"]] == [0, 1]
    last = client.get(f"/api/matches/{made['id']}/table?ply={final['plies']}").json()
    assert [s["score"] for s in last["panels"]["seats"]] == final["scores"] and last["board"] != first[
        "board"
    ]
    assert client.get(f"/api/matches/{made['id']}/table?ply={final['plies'] + 1}").status_code == 422


def test_view_carries_the_table_fields(client: TestClient) -> None:
    """docs/table.md: the view holds ``board``, ``stage``, ``panels``, ``labels`` aligned with
    ``legal``, ``default`` (one of ``legal`` or null) and each log item's ``places``."""
    made = create(client, "carcassonne", HUMANS)
    seat = view(client, made["id"], tokens(made)[0])
    assert "<svg" in seat["board"] and (seat["stage"] is None or "<svg" in seat["stage"])
    assert len(seat["labels"]) == len(seat["legal"]) > 0
    assert seat["default"] is None or seat["default"] in seat["legal"]
    assert len(seat["panels"]["seats"]) == 2 and all(isinstance(e["places"], list) for e in seat["log"])
    other = view(client, made["id"], tokens(made)[1])
    assert other["legal"] == [] and other["labels"] == [] and other["default"] is None


def test_the_record_of_a_match_in_progress_is_the_viewers(client: TestClient) -> None:
    made = create(client, "carcassonne", HUMANS)
    play_random(client, made, 4)
    doc = client.get(f"/api/matches/{made['id']}/record", headers=bearer(tokens(made)[0])).json()
    assert doc["view"] == 0 and doc["result"] is None
    assert client.get(f"/api/matches/{made['id']}/record").json()["view"] == "spectator"


# -- computer seats ---------------------------------------------------------------------------------
def test_a_computer_seat_moves_on_the_server(client: TestClient) -> None:
    made = create(client, "royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    human = tokens(made)[0]
    current = wait_for(client, made["id"], lambda v: v["to_act"] == 0)
    while True:  # the human plays its turn to the end (the answer says who is to act next)
        answer = act(client, made["id"], human, current["legal"][-1])
        assert answer.status_code == 200
        if answer.json()["to_act"] != 0:
            break
        current = view(client, made["id"])
    assert answer.json()["to_act"] == 1
    played = answer.json()["plies"]
    moved = wait_for(client, made["id"], lambda v: any(e["seat"] == 1 for e in v["log"][played:]))
    assert moved["log"][played]["seat"] == 1


# -- undo ------------------------------------------------------------------------------------------------
def test_undo_against_the_computer_takes_back_the_placement_before_the_follower(client: TestClient) -> None:
    made = create(client, "carcassonne", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    token = tokens(made)[0]
    before = wait_for(client, made["id"], lambda v: v["to_act"] == 0)
    assert view(client, made["id"], token)["undo"]["allowed"] is False
    assert client.post(f"/api/matches/{made['id']}/undo", headers=bearer(token)).status_code == 409
    placement = next(a for a in before["legal"] if a.startswith("place"))
    assert act(client, made["id"], token, placement).status_code == 200
    assert view(client, made["id"], token)["undo"]["allowed"] is True
    undone = client.post(f"/api/matches/{made['id']}/undo", headers=bearer(token))
    assert undone.status_code == 200
    after = view(client, made["id"], token)
    assert after["plies"] == before["plies"] and after["legal"] == before["legal"]
    assert after["version"] > before["version"]


def test_undo_against_the_computer_takes_back_the_persons_move_with_the_computers_reply(
    client: TestClient,
) -> None:
    """The one takeback policy (Match.takeback; docs/server.md, "Undo"): back to the person's last
    decision, with whatever the computer (and chance) played after it. Before the match layer the
    server took back only an action of the seat's current turn, so this was refused (409)."""
    made = create(client, "royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    token = tokens(made)[0]
    current = wait_for(client, made["id"], lambda v: v["to_act"] == 0)
    while True:  # the person's whole turn; the answer says when the computer is to act
        before = current
        answer = act(client, made["id"], token, current["legal"][-1])
        assert answer.status_code == 200
        if answer.json()["to_act"] != 0:
            break
        current = view(client, made["id"])
    replied = wait_for(client, made["id"], lambda v: v["to_act"] == 0 and not v["thinking"])
    assert any(e["seat"] == 1 for e in replied["log"][answer.json()["plies"] :])
    assert view(client, made["id"], token)["undo"]["allowed"] is True
    undone = client.post(f"/api/matches/{made['id']}/undo", headers=bearer(token))
    assert undone.status_code == 200
    after = view(client, made["id"], token)
    assert after["plies"] == before["plies"] and after["legal"] == before["legal"]
    assert after["log"] == replied["log"][: before["plies"]]


def test_undo_online_after_the_turn_passed_needs_consent_and_none_once_the_other_moved(
    client: TestClient,
) -> None:
    """Online, a person may ask to take back their last decision after the turn passed, as long as
    the other person has not acted since (Match.takeback); once they have, it is refused (409)."""
    made = create(client, "royal-court", HUMANS)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    seat = start["to_act"]
    me, them = seat_tokens[seat], seat_tokens[1 - seat]
    current = start
    while current["to_act"] == seat:
        assert act(client, made["id"], me, current["legal"][-1]).status_code == 200
        current = view(client, made["id"], me)
    assert current["undo"]["allowed"] is True
    assert client.post(f"/api/matches/{made['id']}/undo", headers=bearer(me)).status_code == 200
    assert client.post(f"/api/matches/{made['id']}/undo/accept", headers=bearer(them)).status_code == 200
    back = view(client, made["id"], me)
    assert back["to_act"] == seat and back["plies"] == current["plies"] - 1
    while back["to_act"] == seat:
        assert act(client, made["id"], me, back["legal"][-1]).status_code == 200
        back = view(client, made["id"], me)
    theirs = view(client, made["id"], them)
    assert theirs["to_act"] == 1 - seat
    assert act(client, made["id"], them, theirs["legal"][0]).status_code == 200
    refused = client.post(f"/api/matches/{made['id']}/undo", headers=bearer(me))
    assert refused.status_code == 409 and "another player has moved" in refused.json()["detail"]
    assert view(client, made["id"], me)["undo"]["allowed"] is False


def test_undo_online_needs_the_opponents_consent(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    me, them = seat_tokens[start["to_act"]], seat_tokens[1 - start["to_act"]]
    play = next(a for a in start["legal"] if a.startswith("play"))
    assert act(client, made["id"], me, play).status_code == 200
    played = view(client, made["id"], me)
    assert played["to_act"] == start["to_act"]  # the same seat goes on to its move (Gameplay 3)
    assert view(client, made["id"], me)["undo"]["allowed"] is True
    assert view(client, made["id"], them)["undo"]["allowed"] is False  # only the seat that acted
    asked = client.post(f"/api/matches/{made['id']}/undo", headers=bearer(me))
    assert asked.status_code == 200
    assert view(client, made["id"], them)["undo"]["pending"] == start["to_act"]
    assert view(client, made["id"], me)["plies"] == played["plies"]  # not yet taken back
    assert client.post(f"/api/matches/{made['id']}/undo/accept", headers=bearer(me)).status_code == 403
    assert client.post(f"/api/matches/{made['id']}/undo/accept", headers=bearer(them)).status_code == 200
    after = view(client, made["id"], me)
    assert after["plies"] == start["plies"] and after["undo"]["pending"] is None


def test_a_declined_undo_changes_nothing_but_the_request(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    me, them = seat_tokens[start["to_act"]], seat_tokens[1 - start["to_act"]]
    assert (
        act(client, made["id"], me, next(a for a in start["legal"] if a.startswith("play"))).status_code
        == 200
    )
    played = view(client, made["id"], me)
    assert played["to_act"] == start["to_act"]  # the same seat goes on to its move (Gameplay 3)
    assert client.post(f"/api/matches/{made['id']}/undo/decline", headers=bearer(them)).status_code == 409
    assert client.post(f"/api/matches/{made['id']}/undo", headers=bearer(me)).status_code == 200
    assert client.post(f"/api/matches/{made['id']}/undo", headers=bearer(me)).status_code == 409
    assert client.post(f"/api/matches/{made['id']}/undo/decline", headers=bearer(them)).status_code == 200
    after = view(client, made["id"], me)
    assert after["plies"] == played["plies"] and after["undo"]["pending"] is None


# -- resigning ----------------------------------------------------------------------------------------
def test_resign_ends_the_match_with_the_seat_last_and_the_record_says_so(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS, public=True)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    waiting = 1 - start["to_act"]  # any seat may resign, not only the one to act
    with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
        ws.send_json({"token": seat_tokens[start["to_act"]]})
        ws.receive_json()
        answer = client.post(f"/api/matches/{made['id']}/resign", headers=bearer(seat_tokens[waiting]))
        assert answer.status_code == 200
        assert answer.json()["status"] == "finished" and answer.json()["to_act"] is None
        pushed = ws.receive_json()
        assert pushed["type"] == "delta" and pushed["view"]["status"] == "finished"
    final = view(client, made["id"], seat_tokens[waiting])
    result = final["result"]
    assert result["ending"] == {"reason": "resign", "seat": waiting} and "resigned" in result["text"]
    assert result["winner"] == 1 - waiting and result["returns"][waiting] == -1.0
    assert final["legal"] == [] and final["undo"]["allowed"] is False and final["plies"] == start["plies"]
    record = client.get(f"/api/matches/{made['id']}/record").json()
    assert record["ending"] == {"reason": "resign", "seat": waiting}
    assert record["result"]["winner"] == 1 - waiting
    listed = client.get("/api/matches?status=finished").json()
    assert listed[0]["id"] == made["id"] and listed[0]["result"]["ending"]["seat"] == waiting
    again = client.post(f"/api/matches/{made['id']}/resign", headers=bearer(seat_tokens[1 - waiting]))
    assert again.status_code == 409 and "over" in again.json()["detail"]
    assert act(client, made["id"], seat_tokens[1 - waiting], "pass").status_code == 409


def test_resign_needs_the_seats_token(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    other = create(client, "royal-court", HUMANS)
    assert client.post(f"/api/matches/{made['id']}/resign").status_code == 401
    foreign = client.post(f"/api/matches/{made['id']}/resign", headers=bearer(tokens(other)[0]))
    assert foreign.status_code == 403
    assert client.post("/api/matches/nope/resign", headers=bearer(tokens(made)[0])).status_code in (403, 404)
    assert view(client, made["id"])["status"] == "active"


# -- hints ---------------------------------------------------------------------------------------------
def test_a_hint_is_a_legal_action_against_the_computer_only(client: TestClient) -> None:
    made = create(client, "royal-court", [{"kind": "human"}, {"kind": "computer", "agent": "random"}])
    token = tokens(made)[0]
    current = wait_for(client, made["id"], lambda v: v["to_act"] == 0)
    hint = client.post(f"/api/matches/{made['id']}/hint", headers=bearer(token))
    assert hint.status_code == 200 and hint.json()["action"] in current["legal"]
    people = create(client, "royal-court", HUMANS)
    refused = client.post(f"/api/matches/{people['id']}/hint", headers=bearer(tokens(people)[0]))
    assert refused.status_code == 403


# -- shared screen ----------------------------------------------------------------------------------------
def test_on_a_shared_screen_any_human_token_acts_for_the_seat_to_move(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS, screen="shared")
    one = tokens(made)[0]
    rng = random.Random(1)
    seats_seen = set()
    for _ in range(12):
        current = view(client, made["id"], one)
        assert current["viewer"] == current["to_act"]
        seats_seen.add(current["to_act"])
        assert act(client, made["id"], one, rng.choice(current["legal"])).status_code == 200
    assert seats_seen == {0, 1}


# -- pushes and documentation -------------------------------------------------------------------------------
def test_the_websocket_pushes_each_seat_its_own_view(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    mover = start["to_act"]
    with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
        ws.send_json({"token": seat_tokens[1 - mover]})
        first = ws.receive_json()
        assert first["type"] == "view" and first["view"]["viewer"] == 1 - mover
        assert act(client, made["id"], seat_tokens[mover], start["legal"][0]).status_code == 200
        pushed = ws.receive_json()
        assert pushed["type"] == "delta" and pushed["view"]["version"] == start["version"] + 1
        assert pushed["view"]["viewer"] == 1 - mover


def test_a_push_sends_the_new_plies_and_the_views_other_fields_not_the_whole_log(client: TestClient) -> None:
    """docs/server.md, "WebSocket": after the first view, a push is a delta of the log the connection
    holds: ``keep`` items stay, ``log`` follows them, ``view`` is the rest of the new view."""
    made = create(client, "royal-court", HUMANS)
    seat_tokens = tokens(made)
    start = view(client, made["id"])
    mover = start["to_act"]
    with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
        ws.send_json({"token": seat_tokens[mover]})
        held = ws.receive_json()["view"]["log"]
        play = next(a for a in start["legal"] if a.startswith("play"))
        assert act(client, made["id"], seat_tokens[mover], play).status_code == 200
        pushed = ws.receive_json()
        assert pushed["keep"] == len(held) == start["plies"] and "log" not in pushed["view"]
        assert [e["text"] for e in pushed["log"]] == [play] and pushed["log"][0]["ply"] == start["plies"]
        held = held[: pushed["keep"]] + pushed["log"]
        now = view(client, made["id"], seat_tokens[mover])
        assert held == now["log"] and {**pushed["view"], "log": held} == now
        # An undo (online: asked, then accepted) removes plies: keep says how many stay.
        assert (
            client.post(f"/api/matches/{made['id']}/undo", headers=bearer(seat_tokens[mover])).status_code
            == 200
        )
        asked = ws.receive_json()
        assert asked["keep"] == len(held) and asked["log"] == [] and asked["view"]["undo"]["pending"] == mover
        accept = client.post(f"/api/matches/{made['id']}/undo/accept", headers=bearer(seat_tokens[1 - mover]))
        assert accept.status_code == 200
        undone = ws.receive_json()
        assert undone["type"] == "delta" and undone["keep"] == start["plies"] and undone["log"] == []
        assert held[: undone["keep"]] == view(client, made["id"], seat_tokens[mover])["log"]


def test_the_websocket_refuses_a_forged_token(client: TestClient) -> None:
    made = create(client, "royal-court", HUMANS)
    with client.websocket_connect(f"/api/matches/{made['id']}/ws") as ws:
        ws.send_json({"token": "B" * 32})
        answer = ws.receive_json()
        assert answer["type"] == "error" and "token" in answer["detail"]


def test_the_openapi_schema_documents_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/games",
        "/api/games/{game}/seats",
        "/api/matches",
        "/api/matches/{match_id}",
        "/api/matches/{match_id}/actions",
        "/api/matches/{match_id}/undo",
        "/api/matches/{match_id}/resign",
        "/api/matches/{match_id}/hint",
        "/api/matches/{match_id}/record",
        "/api/matches/{match_id}/svg",
        "/api/matches/{match_id}/table",
    ):
        assert path in paths
