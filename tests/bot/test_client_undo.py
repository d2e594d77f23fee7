"""``CanfieldClient.undo``: against the real API (pytest-django's live server) and a fake.

The client had no undo although the API has one (``POST /games/{id}/undo`` with
``expected_move_number``).  The live-server tests play real games through the real
views, services and database over HTTP; the fake-API tests pin what the client sends
and how it treats its own resend of an undo whose answer was lost.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import httpx
import pytest
from django.utils import timezone

from canfield_bot.client import ApiError, CanfieldClient
from games.models import Game, Race
from games.services.races import race_create
from tests.bot.conftest import FakeClock
from tests.bot.fake_api import FakeApi, ok, problem, run

PASSWORD = "a long pass phrase for undo"
VIEW: dict[str, Any] = {"id": "g1", "status": "playing", "move_number": 3, "legal_moves": ["draw"]}


def _race(*, allow_undo: bool) -> Race:
    """A race running now, joinable until its end."""
    now = timezone.now()
    return race_create(
        name="undo",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
        late_join_s=None,
        allow_undo=allow_undo,
    )


async def _practice(client: CanfieldClient, seed: str) -> dict[str, Any]:
    response = await client.request("POST", "games", json={"variant": "classic", "seed": seed})
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.mark.django_db(transaction=True)
def test_undo_takes_back_one_move_of_a_practice_game(live_server: Any) -> None:
    async def go() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with CanfieldClient(live_server.url) as client:
            await client.register_or_login("undoer", PASSWORD)
            game = await _practice(client, "7")
            played = await client.play(game["id"], "draw", 0)
            assert played.accepted
            assert played.view is not None
            undone = await client.undo(game["id"], expected_move_number=1)
            return game, played.view, undone

    dealt, after_draw, undone = run(go())
    assert after_draw["move_number"] == 1
    assert undone["id"] == dealt["id"]
    assert undone["move_number"] == 0
    assert after_draw["waste"]["count"] == 3
    assert undone["waste"] == dealt["waste"] == {"cards": [], "count": 0}
    # The dealt position again, as the player sees it; the undone move still counts
    # towards the server's move limit (its row stays).
    assert undone == {**dealt, "moves_left": dealt["moves_left"] - 1}
    game = Game.objects.get(id=dealt["id"])
    assert game.move_number == 0
    assert [m.undone_at is not None for m in game.moves.all()] == [True]  # kept, marked undone


@pytest.mark.django_db(transaction=True)
def test_undo_refusals_raise_api_error_with_the_problem(live_server: Any) -> None:
    async def go() -> dict[str, ApiError]:
        caught: dict[str, ApiError] = {}
        async with CanfieldClient(live_server.url) as client:
            await client.register_or_login("undoer", PASSWORD)
            game = await _practice(client, "7")
            try:
                await client.undo(game["id"], expected_move_number=0)
            except ApiError as exc:
                caught["nothing"] = exc
            await client.play(game["id"], "draw", 0)
            try:
                await client.undo(game["id"], expected_move_number=5)
            except ApiError as exc:
                caught["stale"] = exc
            assert (await client.game(game["id"]))["move_number"] == 1  # nothing undone
            try:
                await client.undo("00000000-0000-0000-0000-000000000000")
            except ApiError as exc:
                caught["missing"] = exc
        return caught

    caught = run(go())
    assert (caught["nothing"].status, caught["nothing"].code) == (409, "nothing_to_undo")
    stale = caught["stale"]
    assert (stale.status, stale.code) == (409, "stale_move_number")
    assert stale.body["current_move_number"] == 1
    assert (caught["missing"].status, caught["missing"].code) == (404, "not_found")


@pytest.mark.django_db(transaction=True)
def test_race_games_undo_only_where_the_race_allows_it(live_server: Any) -> None:
    strict, lenient = _race(allow_undo=False), _race(allow_undo=True)

    async def go() -> tuple[ApiError | None, dict[str, Any]]:
        refused = None
        async with CanfieldClient(live_server.url) as client:
            await client.register_or_login("racer", PASSWORD)
            games = {}
            for race in (strict, lenient):
                game_id = (await client.join(str(race.id)))["game_id"]
                assert (await client.play(game_id, "draw", 0)).accepted
                games[race.id] = game_id
            try:
                await client.undo(games[strict.id], expected_move_number=1)
            except ApiError as exc:
                refused = exc
            undone = await client.undo(games[lenient.id], expected_move_number=1)
        return refused, undone

    refused, undone = run(go())
    assert refused is not None
    assert (refused.status, refused.code) == (403, "undo_not_allowed")
    assert undone["move_number"] == 0
    strict_game = Game.objects.get(race_entry__race=strict)
    assert strict_game.move_number == 1  # refused: the move stands


def test_undo_sends_the_expected_move_number_or_nothing(api: FakeApi) -> None:
    seen: list[tuple[str, int, float]] = []
    api.reply("POST", "games/g1/undo", ok({**VIEW, "move_number": 2}), ok(VIEW))

    async def go() -> list[dict[str, Any]]:
        client = api.client(token="ab" * 32, on_response=lambda *r: seen.append(r))
        async with client:
            return [await client.undo("g1", expected_move_number=3), await client.undo("g1")]

    assert run(go()) == [{**VIEW, "move_number": 2}, VIEW]
    assert api.calls == [
        ("POST", "games/g1/undo", {"expected_move_number": 3}),
        ("POST", "games/g1/undo", {}),
    ]
    assert [route for route, _status, _s in seen] == ["undo", "undo"]


def test_a_resent_undo_never_takes_back_two_moves(api: FakeApi, clock: FakeClock) -> None:
    """The first answer is lost (503); the resend carries the same number, and the server,
    which had undone the move, answers ``409 stale_move_number``: raised, not retried."""
    api.reply(
        "POST",
        "games/g1/undo",
        problem(503, "unavailable"),
        problem(409, "stale_move_number", current_move_number=2),
    )

    async def go() -> None:
        async with api.client(token="ab" * 32) as client:
            await client.undo("g1", expected_move_number=3)

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (409, "stale_move_number")
    assert caught.value.body["current_move_number"] == 2
    assert api.calls == [("POST", "games/g1/undo", {"expected_move_number": 3})] * 2
    assert len(clock.sleeps) == 1  # one backoff before the resend


def test_a_transport_failure_that_outlasts_the_retries_raises(api: FakeApi) -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    api.route("POST", "games/g1/undo", down)

    async def go() -> None:
        async with api.client(token="ab" * 32, max_retries=1, retry_seconds=0) as client:
            await client.undo("g1", expected_move_number=3)

    with pytest.raises(ApiError) as caught:
        run(go())
    assert (caught.value.status, caught.value.code) == (0, "transport_error")
