"""Games through the public API: start, view, moves, errors, undo, resign, history, export."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import new_game
from games.models import Game, Move

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "deals.json"

pytestmark = pytest.mark.django_db


def vector(seed: str) -> dict[str, Any]:
    """The classic layout of ``seed`` from ../shared/vectors/deals.json."""
    deals = json.loads(VECTORS.read_text())["deals"]
    return dict(next(d for d in deals if d["seed"] == seed and "classic" in d))


def start(client: APIClient, **body: object) -> dict[str, Any]:
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


def play(client: APIClient, game: dict[str, Any], move: str, **extra: object) -> Any:
    return client.post(f"/api/v1/games/{game['id']}/moves", {"move": move, **extra}, format="json")


def test_variants_lists_presets_and_options(anon: APIClient) -> None:
    resp = anon.get("/api/v1/variants")
    assert resp.status_code == 200
    body = resp.json()
    names = [p["name"] for p in body["presets"]]
    assert names == ["classic", "draw-one", "superior", "rainbow", "storehouse", "one-pass"]
    storehouse = next(p for p in body["presets"] if p["name"] == "storehouse")
    assert storehouse["options"]["base"] == "2"
    assert storehouse["options"]["redeals"] == 2
    options = {o["name"]: o for o in body["options"]}
    assert set(options) == {
        "draw",
        "redeals",
        "build",
        "tableau_moves",
        "autofill",
        "empty_pile",
        "reserve_face_up",
        "base",
        "tableau_wrap",
    }
    assert options["draw"]["values"] == [1, 3]
    assert options["draw"]["classic"] == 3


def test_start_from_seed_shows_the_vector_layout(player: APIClient) -> None:
    v = vector("0")["classic"]
    game = start(player, variant="classic", seed="0")
    assert game["status"] == "playing"
    assert game["move_number"] == 0
    assert game["base_rank"] == v["base_rank"] == "5"
    assert game["tableau"] == v["tableau"]
    assert game["reserve"] == {"count": 13, "face_down": 12, "cards": [v["reserve"][-1]]}
    assert game["stock"] == {"count": 34}
    assert game["waste"] == {"count": 0, "cards": []}
    assert game["foundations"] == {"C": [], "D": [], "H": [], "S": ["5S"]}
    assert game["cards_home"] == 1
    assert game["casino_score"] == -47
    assert game["redeals_left"] is None
    assert game["legal_moves"] == new_game("classic", seed="0").legal_moves()
    # The seed is secret while the game runs, even a chosen one.
    assert game["deal"]["seed"] is None
    assert game["deal"]["commitment"] == vector("0")["commitment"]


def test_start_from_explicit_deck_and_options(player: APIClient) -> None:
    deck = vector("42")["deck"].split()
    game = start(player, variant="classic", deck=deck, options={"draw": 1, "redeals": 2})
    assert game["deal"]["options"]["draw"] == 1
    assert game["redeals_left"] == 2
    assert game["deal"]["variant"] == "custom"
    assert game["tableau"] == vector("42")["classic"]["tableau"]


def test_start_random_deal_differs(player: APIClient) -> None:
    a, b = start(player), start(player)
    assert a["deal"]["commitment"] != b["deal"]["commitment"]


@pytest.mark.parametrize(
    ("body", "code", "needle"),
    [
        ({"variant": "klondike"}, "invalid_options", "klondike"),
        ({"options": {"variant": "classic"}}, "invalid_options", "variant"),
        ({"winnable": "no", "seed": "5"}, "validation_error", "winnable"),
        ({"options": {"draw": 2}}, "invalid_options", "draw"),
        ({"options": {"jokers": True}}, "invalid_options", "jokers"),
        ({"options": {"redeals": 2**31}}, "invalid_options", "0..1000"),
        ({"seed": "bad seed!"}, "invalid_deal", "seed"),
        ({"deck": ["AC"] * 52}, "invalid_deal", "repeated: AC"),
        ({"seed": "1", "deck": ["AC"]}, "invalid_deal", "not both"),
        ({"seed": 12345}, "validation_error", "seed"),
        ({"colour": "red"}, "unknown_field", "colour"),
    ],
)
def test_start_refuses_bad_input(
    player: APIClient, body: dict[str, Any], code: str, needle: str
) -> None:
    resp = player.post("/api/v1/games", body, format="json")
    assert resp.status_code == 400
    assert resp["Content-Type"] == "application/problem+json"
    problem = resp.json()
    assert problem["code"] == code
    assert needle in json.dumps(problem)
    assert Game.objects.count() == 0


def test_legal_move_is_stored_and_view_updates(player: APIClient) -> None:
    game = start(player, seed="0")
    resp = play(player, game, "draw", expected_move_number=0)
    assert resp.status_code == 201
    body = resp.json()
    assert body == {**body, "move": "draw", "number": 1, "replayed": False}
    assert body["game"]["move_number"] == 1
    assert body["game"]["stock"] == {"count": 31}
    assert body["game"]["waste"]["cards"] == vector("0")["classic"]["stock"][:3]
    assert list(Move.objects.values_list("number", "notation")) == [(1, "draw")]


def test_illegal_move_is_422_with_reason_and_changes_nothing(player: APIClient) -> None:
    game = start(player, seed="0")
    # t1 holds 3C; 4S on t2 is black: 3C cannot go on 4S.
    resp = play(player, game, "3C>t2", expected_move_number=0)
    assert resp.status_code == 422
    problem = resp.json()
    assert problem["code"] == "illegal_move"
    assert problem["detail"] == "3C cannot go on 4S: needs a red 4."
    after = player.get(f"/api/v1/games/{game['id']}").json()
    assert after == game | {"cards_home_at": after["cards_home_at"]}
    assert Move.objects.count() == 0


@pytest.mark.parametrize("move", ["", "QX>t1", "QH>t5", "QH", "pass", "x" * 40])
def test_malformed_move_is_400(player: APIClient, move: str) -> None:
    game = start(player, seed="0")
    resp = play(player, game, move)
    assert resp.status_code == 400
    assert resp.json()["code"] in {"malformed_move", "validation_error"}
    assert Move.objects.count() == 0


def test_move_notation_is_case_insensitive_and_canonicalised(player: APIClient) -> None:
    game = start(player, seed="0")
    resp = play(player, game, "DRAW")
    assert resp.status_code == 201
    assert resp.json()["move"] == "draw"


def test_stale_move_number_is_409_with_current_number(player: APIClient) -> None:
    game = start(player, seed="0")
    assert play(player, game, "draw", expected_move_number=0).status_code == 201
    resp = play(player, game, "draw", expected_move_number=5)
    assert resp.status_code == 409
    assert resp.json()["code"] == "stale_move_number"
    assert resp.json()["current_move_number"] == 1


def test_retried_move_returns_same_result_not_a_second_move(player: APIClient) -> None:
    game = start(player, seed="0")
    first = play(player, game, "draw", expected_move_number=0)
    again = play(player, game, "draw", expected_move_number=0)
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.json()["replayed"] is True
    assert again.json()["number"] == 1
    assert again.json()["game"] == first.json()["game"]
    assert Move.objects.count() == 1
    # A different move at the stale number is a conflict, not a replay.
    other = play(player, game, "3C>t2", expected_move_number=0)
    assert other.status_code == 409


def test_wrong_types_and_unknown_fields_are_refused(player: APIClient) -> None:
    game = start(player, seed="0")
    for body, code in [
        ({"move": "draw", "expected_move_number": "0"}, "validation_error"),
        ({"move": "draw", "expected_move_number": True}, "validation_error"),
        ({"move": 7}, "validation_error"),
        ({"move": "draw", "extra": 1}, "unknown_field"),
        (["draw"], "malformed_request"),
        ("draw", "malformed_request"),
        (None, "malformed_request"),  # was validation_error "No data provided"
    ]:
        resp = player.post(
            f"/api/v1/games/{game['id']}/moves", json.dumps(body), content_type="application/json"
        )
        assert resp.status_code == 400, body
        assert resp.json()["code"] == code
    bad_json = player.post(
        f"/api/v1/games/{game['id']}/moves", "{not json", content_type="application/json"
    )
    assert bad_json.status_code == 400
    assert bad_json.json()["code"] == "malformed_request"
    assert Move.objects.count() == 0


def test_oversized_body_is_413(player: APIClient) -> None:
    game = start(player, seed="0")
    body = json.dumps({"move": "draw", "pad": "x" * 2_000_000})
    resp = player.post(f"/api/v1/games/{game['id']}/moves", body, content_type="application/json")
    assert resp.status_code == 413
    assert resp.json()["code"] == "payload_too_large"
    assert Move.objects.count() == 0


def test_other_players_game_is_404_and_unauthenticated_is_401(
    player: APIClient, make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    game = start(player, seed="0")
    mallory = make_client("mallory")
    for resp in [
        mallory.get(f"/api/v1/games/{game['id']}"),
        play(mallory, game, "draw"),
        mallory.get(f"/api/v1/games/{game['id']}/moves"),
        mallory.post(f"/api/v1/games/{game['id']}/resign"),
        mallory.get("/api/v1/games/not-a-uuid"),
    ]:
        assert resp.status_code == 404
        assert resp.json()["code"] == "not_found"
    resp = anon.get(f"/api/v1/games/{game['id']}")
    assert resp.status_code == 401
    assert resp.json()["code"] == "not_authenticated"
    assert play(anon, game, "draw").status_code == 401
    assert Move.objects.count() == 0


def test_undo_restores_previous_view_and_keeps_the_row(player: APIClient) -> None:
    game = start(player, seed="0")
    before = player.get(f"/api/v1/games/{game['id']}").json()
    assert play(player, game, "draw", expected_move_number=0).status_code == 201
    resp = player.post(
        f"/api/v1/games/{game['id']}/undo", {"expected_move_number": 1}, format="json"
    )
    assert resp.status_code == 200
    after = resp.json()
    for key in ("move_number", "reserve", "tableau", "stock", "waste", "legal_moves"):
        assert after[key] == before[key]
    assert Move.objects.get().undone_at is not None
    assert player.get(f"/api/v1/games/{game['id']}/moves").json()["results"] == []
    nothing = player.post(f"/api/v1/games/{game['id']}/undo")
    assert nothing.status_code == 409
    assert nothing.json()["code"] == "nothing_to_undo"
    # The number is free again after an undo.
    assert play(player, game, "draw", expected_move_number=0).status_code == 201


def test_a_retried_undo_with_its_move_number_takes_back_one_move(player: APIClient) -> None:
    """The client did not get the first answer and sends the same undo again: the second
    is 409 stale_move_number (with the current number) and undoes nothing."""
    game = start(player, seed="0")
    for n in range(3):
        assert play(player, game, "draw", expected_move_number=n).status_code == 201
    url = f"/api/v1/games/{game['id']}/undo"
    first = player.post(url, {"expected_move_number": 3}, format="json")
    assert (first.status_code, first.json()["move_number"]) == (200, 2)
    retry = player.post(url, {"expected_move_number": 3}, format="json")
    assert retry.status_code == 409
    assert (retry.json()["code"], retry.json()["current_move_number"]) == ("stale_move_number", 2)
    assert player.get(f"/api/v1/games/{game['id']}").json()["move_number"] == 2
    assert Move.objects.filter(undone_at__isnull=True).count() == 2


def test_resign_ends_the_game_and_reveals_the_deal(player: APIClient) -> None:
    game = start(player, seed="12345")
    assert player.get(f"/api/v1/games/{game['id']}/export").status_code == 409
    resp = player.post(f"/api/v1/games/{game['id']}/resign")
    assert resp.status_code == 200
    body = resp.json()
    assert body["status"] == "resigned"
    assert body["legal_moves"] == []
    assert body["deal"]["seed"] == "12345"
    again = play(player, game, "draw")
    assert again.status_code == 409
    assert again.json()["code"] == "game_over"
    assert player.post(f"/api/v1/games/{game['id']}/resign").json()["status"] == "resigned"


def test_history_is_cursor_paginated_and_export_replays(player: APIClient) -> None:
    game = start(player, seed="7")
    state = new_game("classic", seed="7")
    played = []
    for n in range(25):
        move = state.legal_moves()[0]
        state.play(move)
        played.append(move)
        assert play(player, game, move, expected_move_number=n).status_code == 201
    page = player.get(f"/api/v1/games/{game['id']}/moves?page_size=10").json()
    seen = [m["notation"] for m in page["results"]]
    while page["next"]:
        page = player.get(page["next"]).json()
        seen += [m["notation"] for m in page["results"]]
    assert seen == played
    player.post(f"/api/v1/games/{game['id']}/resign")
    record = player.get(f"/api/v1/games/{game['id']}/export").json()
    assert record["format"] == "canfield-record"
    assert record["seed"] == "7"
    assert record["moves"] == played
    assert record["ended"] == "resigned"
    from games.engine.record import GameRecord

    replayed = GameRecord.from_dict(record).replay()
    state.end("resigned")
    assert replayed == state  # same position, resigned as the game was
    assert replayed.status() == "resigned"


def test_game_list_shows_only_own_games(
    player: APIClient, make_client: Callable[..., APIClient]
) -> None:
    mine = start(player, seed="1")
    start(make_client("bob"), seed="2")
    listing = player.get("/api/v1/games").json()
    assert [g["id"] for g in listing["results"]] == [mine["id"]]


def test_won_game_through_the_api(player: APIClient) -> None:
    """A deal laid out so every card goes home in order: the API reports the win."""
    # Base rank A: deal order puts AC on the foundation, then the cards in suit order.
    order = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    # Reserve (13, D[12] on top) = KS..2S reversed so 2S.. come off in order? Keep simple:
    # reserve holds the spades K..A-free run reversed, stock the rest in foundation order.
    reserve = [f"{r}S" for r in "KQJT98765432"] + ["AS"]
    rest = [c for c in order if c not in reserve]
    deck = reserve + rest  # D[13] = AC starts clubs; tableau 2C 3C 4C 5C; stock 6C..
    game = start(player, deck=deck, options={"draw": 1})
    moves = 0
    while True:
        view = player.get(f"/api/v1/games/{game['id']}").json()
        if view["status"] != "playing":
            break
        home = [m for m in view["legal_moves"] if m.endswith(">f")]
        move = home[0] if home else "draw"
        resp = play(player, game, move, expected_move_number=view["move_number"])
        assert resp.status_code == 201, resp.json()
        moves += 1
        assert moves < 200
    assert view["status"] == "won"
    assert view["cards_home"] == 52
    assert view["casino_score"] == 208
    assert Game.objects.get().finished_at is not None


def test_throttle_is_429_with_retry_after(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rest_framework.throttling import ScopedRateThrottle

    game = start(player, seed="0")
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"moves": "3/min", "games": "3/min"})
    codes = [play(player, game, "draw").status_code for _ in range(4)]
    assert codes == [201, 201, 201, 429]
    resp = play(player, game, "draw")
    assert resp.status_code == 429
    assert resp.json()["code"] == "throttled"
    assert 0 < int(resp["Retry-After"]) <= 60
    assert resp.json()["retry_after"] == int(resp["Retry-After"])
    assert Move.objects.count() == 3
