"""Regression tests for defects found by attacking the API (input, fairness, races)."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import make_rules, new_game
from games.models import Game, Move, Race, RaceEntry
from games.services.games import deal_create
from games.services.races import race_cancel, race_create
from games.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def iso(dt: Any) -> str:
    return str(dt.isoformat())


def new_race(**kw: Any) -> Race:
    now = timezone.now()
    params: dict[str, Any] = {
        "name": "r",
        "opens_at": now - timedelta(minutes=2),
        "starts_at": now - timedelta(minutes=1),
        "ends_at": now + timedelta(minutes=10),
        "late_join_s": None,  # running already: joining stays open until the end
        **kw,
    }
    return race_create(**params)


def start(client: APIClient, **body: Any) -> dict[str, Any]:
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


# ------------------------------------------------------------------ request bodies


@pytest.mark.parametrize("charset", ["bz2", "zlib", "rot13", "latin-1", "utf-16"])
def test_only_utf8_bodies_are_read(player: APIClient, charset: str) -> None:
    resp = player.post(
        "/api/v1/games",
        b'{"seed": "1"}',
        content_type=f"application/json; charset={charset}",
    )
    assert resp.status_code == 415
    assert resp.json()["code"] == "unsupported_media_type"
    assert Game.objects.count() == 0


def test_utf8_charset_is_accepted(player: APIClient) -> None:
    resp = player.post(
        "/api/v1/games", b'{"seed": "1"}', content_type="application/json; charset=UTF-8"
    )
    assert resp.status_code == 201
    # The body was read: one game, on the seed it sent (not a random one).
    game = Game.objects.get()
    assert (str(game.id), game.deal.seed, game.move_number) == (resp.json()["id"], "1", 0)


def test_deeply_nested_json_is_400(anon: APIClient) -> None:
    body = "[" * 5000 + "]" * 5000
    resp = anon.post("/api/v1/auth/token", body, content_type="application/json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "malformed_request"


@pytest.mark.parametrize(
    ("move", "code"),
    [("", "malformed_move"), ("QH>t1 " * 4, "malformed_move"), ("x" * 300, "validation_error")],
)
def test_move_text_errors(player: APIClient, move: str, code: str) -> None:
    game = start(player, seed="0")
    resp = player.post(f"/api/v1/games/{game['id']}/moves", {"move": move}, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == code


@pytest.mark.parametrize("body", ["[]", "false", "0", "null", '"x"'])
def test_undo_with_a_body_that_is_not_an_object_changes_nothing(
    player: APIClient, body: str
) -> None:
    game = start(player, seed="0")
    player.post(f"/api/v1/games/{game['id']}/moves", {"move": "draw"}, format="json")
    resp = player.post(f"/api/v1/games/{game['id']}/undo", body, content_type="application/json")
    assert resp.status_code == 400
    assert Move.objects.filter(undone_at__isnull=True).count() == 1


@pytest.mark.parametrize("path", ["/api/v1/races", "/api/v1/games", "/api/v1/tournaments"])
def test_a_forged_cursor_is_400(player: APIClient, path: str) -> None:
    forged = base64.b64encode(b"o=0&r=0&p=garbage").decode()
    resp = player.get(f"{path}?cursor={forged}")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_cursor"
    assert player.get(f"{path}?cursor=garbage").json()["code"] == "invalid_cursor"


@pytest.mark.parametrize("path", ["/api/v1/games/not-a-uuid", "/api/v1/races/xyz", "/api/v1/nope"])
def test_unknown_paths_are_problem_json(player: APIClient, path: str) -> None:
    resp = player.get(path)
    assert resp.status_code == 404
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "not_found"


# ------------------------------------------------------------------ accounts


def test_look_alike_usernames_are_taken(anon: APIClient) -> None:
    body = {"username": "alice", "password": "a long pass phrase 1"}
    assert anon.post("/api/v1/auth/register", body, format="json").status_code == 201
    for other in ("Alice", "\uff41\uff4c\uff49\uff43\uff45"):  # full-width letters
        resp = anon.post("/api/v1/auth/register", {**body, "username": other}, format="json")
        assert resp.status_code == 409, other
        assert resp.json()["code"] == "username_taken"
    cyrillic = anon.post("/api/v1/auth/register", {**body, "username": "\u0430lice"}, format="json")
    assert cyrillic.status_code == 400
    assert "username" in cyrillic.json()["errors"]


def test_login_ignores_case_like_registration(anon: APIClient) -> None:
    body = {"username": "Ada", "password": "a long pass phrase 1"}
    anon.post("/api/v1/auth/register", body, format="json")
    resp = anon.post("/api/v1/auth/token", {**body, "username": "ADA"}, format="json")
    assert resp.status_code == 200
    assert resp.json()["username"] == "Ada"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {resp.json()['token']}")
    assert client.get("/api/v1/games").status_code == 200


# ------------------------------------------------------------------ games


def test_undo_is_refused_once_the_game_is_over(player: APIClient) -> None:
    game = start(player, seed="0")
    player.post(f"/api/v1/games/{game['id']}/moves", {"move": "draw"}, format="json")
    player.post(f"/api/v1/games/{game['id']}/resign")
    resp = player.post(f"/api/v1/games/{game['id']}/undo")
    assert resp.status_code == 409
    assert resp.json()["code"] == "game_over"
    assert Move.objects.get().undone_at is None


def test_practice_game_on_a_running_race_deck_is_refused(player: APIClient) -> None:
    race = new_race()
    resp = player.post("/api/v1/games", {"deck": race.deal.deck}, format="json")
    assert resp.status_code == 409
    assert resp.json()["code"] == "deal_in_race"
    assert not Game.objects.filter(player=player.user).exists()  # type: ignore[attr-defined]


# ------------------------------------------------------------------ races


def test_resign_before_the_start_shows_nothing(make_client: Callable[..., APIClient]) -> None:
    now = timezone.now()
    race = new_race(
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=10),
    )
    ann = make_client("ann")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    resp = ann.post(f"/api/v1/games/{game_id}/resign")
    assert resp.status_code == 409
    assert resp.json()["code"] == "race_not_started"
    assert "tableau" not in resp.json()
    assert Game.objects.get(id=game_id).status == "playing"


def test_resign_after_the_deadline_is_refused(make_client: Callable[..., APIClient]) -> None:
    race = new_race()
    ann = make_client("ann")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    Game.objects.filter(id=game_id).update(deadline=timezone.now() - timedelta(seconds=1))
    resp = ann.post(f"/api/v1/games/{game_id}/resign")
    assert resp.json()["code"] == "race_closed"
    assert Game.objects.get(id=game_id).status == "playing"


def test_no_clock_starts_in_a_cancelled_race(make_client: Callable[..., APIClient]) -> None:
    race = new_race(mode="window", time_limit_s=60)
    ann = make_client("ann")
    assert ann.post(f"/api/v1/races/{race.id}/join").status_code == 201
    race_cancel(race_id=race.id)
    resp = ann.post(f"/api/v1/races/{race.id}/start")
    assert resp.status_code == 409
    assert resp.json()["code"] == "race_not_open"
    assert RaceEntry.objects.get(race=race).game is None


def test_draft_tournament_races_are_hidden_from_players(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    draft = tournament_create(name="Secret Invitational", status="draft")
    race = new_race(name="Secret Invitational race 1")
    Race.objects.filter(id=race.id).update(tournament=draft)
    listing = anon.get("/api/v1/races").json()["results"]
    assert "Secret" not in json.dumps(listing)
    assert anon.get(f"/api/v1/races/{race.id}").status_code == 404
    staff = make_client("org", staff=True)
    assert staff.get(f"/api/v1/races/{race.id}").status_code == 200


@pytest.mark.parametrize(
    ("times", "needle"),
    [
        ({"starts_at": -120, "ends_at": -60}, "past"),
        ({"starts_at": 0, "ends_at": 400 * 86400}, "366 days"),
    ],
)
def test_race_times_are_bounded(
    make_client: Callable[..., APIClient], times: dict[str, int], needle: str
) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    body = {"name": "r", **{k: iso(now + timedelta(seconds=v)) for k, v in times.items()}}
    body["opens_at"] = body["starts_at"]
    resp = staff.post("/api/v1/races", body, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_race"
    assert needle in resp.json()["detail"]


def test_naive_race_times_are_refused(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    body = {"name": "r", "starts_at": "2030-01-01T10:00:00", "ends_at": "2030-01-01T11:00:00"}
    resp = staff.post("/api/v1/races", body, format="json")
    assert resp.status_code == 400
    assert "time zone" in json.dumps(resp.json()["errors"])


def test_phase_filters_match_the_phase_field(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    now = timezone.now()
    joinable = new_race(
        name="joinable",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=10),
    )
    new_race(
        name="later",
        opens_at=now + timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=10),
    )
    opened = anon.get("/api/v1/races?phase=open").json()["results"]
    assert [(r["name"], r["phase"]) for r in opened] == [("joinable", "open")]
    upcoming = anon.get("/api/v1/races?phase=upcoming").json()["results"]
    assert [(r["name"], r["phase"]) for r in upcoming] == [("later", "upcoming")]
    not_started = anon.get("/api/v1/races?phase=upcoming,open").json()["results"]
    assert {r["name"] for r in not_started} == {"joinable", "later"}
    assert joinable.phase() == "open"


def draws_to_first_home(seed: str) -> list[str] | None:
    """The draws after which a card can go home on ``seed`` (classic), then that move."""
    state = new_game("classic", seed=seed)
    played: list[str] = []
    for _ in range(30):
        home = [m for m in state.legal_moves() if m.endswith(">f")]
        if home:
            return [*played, home[0]] if played else None
        state.play("draw")
        played.append("draw")
    return None


def test_race_undo_keeps_the_time_the_count_was_first_reached(
    make_client: Callable[..., APIClient],
) -> None:
    # A deal on which the first card home needs draws first (found deterministically).
    seed, line = next(
        (s, line) for s in map(str, range(200)) if (line := draws_to_first_home(s)) is not None
    )
    race = new_race(allow_undo=True)
    Race.objects.filter(id=race.id).update(deal=deal_create(rules=make_rules("classic"), seed=seed))
    ann = make_client("ann")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    for move in line:
        resp = ann.post(f"/api/v1/games/{game_id}/moves", {"move": move}, format="json")
        assert resp.status_code == 201
    assert Game.objects.get(id=game_id).cards_home == 2
    assert ann.post(f"/api/v1/games/{game_id}/undo").status_code == 200
    game = Game.objects.get(id=game_id)
    # Back to one card home, which the player had from the start: no time was spent on it.
    assert game.cards_home == 1
    assert game.cards_home_ms == 0
    assert game.cards_home_at == game.started_at


# ------------------------------------------------------------------ bodies of bodiless actions


@pytest.mark.parametrize(
    ("body", "content_type", "status", "code"),
    [
        ('{"confirm": false', "application/json", 400, "malformed_request"),
        (
            '{"confirm": false, "expected_move_number": 99}',
            "application/json",
            400,
            "unknown_field",
        ),
        ("[]", "application/json", 400, "malformed_request"),
        ("garbage", "text/plain", 415, "unsupported_media_type"),
    ],
)
def test_bad_bodies_on_resign_join_and_start_change_nothing(
    make_client: Callable[..., APIClient], body: str, content_type: str, status: int, code: str
) -> None:
    """An attack resigned a game with a malformed JSON body, with unknown fields and with a
    text/plain body, and joined a race with malformed JSON: the bodies were never read."""
    ann = make_client("ann")
    game = start(ann, seed="0")
    race = new_race(name="bodies")
    for path in (
        f"/api/v1/games/{game['id']}/resign",
        f"/api/v1/races/{race.id}/join",
        f"/api/v1/races/{race.id}/start",
    ):
        resp = ann.post(path, body, content_type=content_type)
        assert (resp.status_code, resp.json()["code"]) == (status, code), path
    assert Game.objects.get(id=game["id"]).status == "playing"
    assert not RaceEntry.objects.filter(race=race).exists()
    # No body, or an empty object, is what these take.
    assert ann.post(f"/api/v1/races/{race.id}/join").status_code == 201
    resigned = ann.post(f"/api/v1/games/{game['id']}/resign", {}, format="json")
    assert (resigned.status_code, resigned.json()["status"]) == (200, "resigned")


@pytest.mark.parametrize(
    "body",
    [
        b'{"move": "draw", "move": "redeal", "expected_move_number": 0}',
        b'{"move": "draw", "expected_move_number": 0, "expected_move_number": 0}',
        b'{"move": "draw", "expected_move_number": 0, "x": {"a": 1, "a": 2}}',
    ],
)
def test_a_json_key_named_twice_is_malformed_and_plays_nothing(
    player: APIClient, body: bytes
) -> None:
    """Python's parser kept the last of two values silently: the move played was not the
    one a reader of the body taking the first (a log, a proxy) would see."""
    game = start(player, seed="1")
    resp = player.post(f"/api/v1/games/{game['id']}/moves", body, content_type="application/json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "malformed_request"
    assert "duplicate key" in resp.json()["detail"]
    assert Game.objects.get(id=game["id"]).move_number == 0
