"""An open race or tournament stream ends once its viewer may no longer see what it follows.

An attacker's report: an organiser moved a public race that had not started (and had no
entrants) into a draft tournament (the race's change form in the admin, ``race_move``);
``GET /api/v1/races/{id}`` then answered players 404, but an anonymous stream opened
before the move went on receiving the countdown, the phases with ``results_url`` and the
standings naming the organiser who rehearsed the race.  Now the stream of a viewer who
may not see drafts gets a ``gone`` event (id ending ``.end``) and ends: on the move's
message, with the next event when no message told of it, and at the next heartbeat
when nothing happens at all; an organiser's stream goes on.

These run the real endpoints in this process (Django's ``AsyncClient``, the embedded
default's in-process broker, no Redis), reading the streamed frames with a bound on
each wait; tests/live/test_streams_server.py shows the same on a real server.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable, Coroutine
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.db import connections
from django.test import AsyncClient, Client, override_settings
from django.urls import reverse
from django.utils import timezone

from games.live.publish import publish_now, race_topic
from games.models import Race, Tournament
from games.services.race_admin import race_move
from games.services.races import race_create
from games.services.tokens import token_issue
from games.services.tournament_admin import tournament_delete
from tests.factories import create_user
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds one read waits at most: far more than a heartbeat here, far less than a hang.
WAIT_S = 5.0


class Frames:
    """The frames of one streamed response, read one at a time with a bounded wait."""

    def __init__(self, response: Any) -> None:
        assert response.status_code == 200, response.content
        self.response = response
        self.it: AsyncIterator[bytes] = response.streaming_content.__aiter__()

    async def next(self) -> dict[str, Any] | None:
        """The next event (``{"event", "id", "data"}``), ``{"heartbeat": True}`` for a
        heartbeat comment, ``None`` once the stream has ended."""
        try:
            chunk = await asyncio.wait_for(self.it.__anext__(), WAIT_S)
        except StopAsyncIteration:
            return None
        text = bytes(chunk).decode()
        if text.startswith(":"):
            return {"heartbeat": True}
        fields = dict(
            line.split(": ", 1) for line in text.splitlines() if ": " in line and line[0] != ":"
        )
        return {"event": fields["event"], "id": fields["id"], "data": json.loads(fields["data"])}

    async def until(self, wanted: Callable[[dict[str, Any] | None], bool]) -> list[Any]:
        """Frames up to and including the first ``wanted`` one (bounded: 20 frames)."""
        seen: list[Any] = []
        for _ in range(20):
            frame = await self.next()
            seen.append(frame)
            if wanted(frame):
                return seen
        raise AssertionError(f"never came: {seen}")

    async def close(self) -> None:
        await self.response.streaming_content.aclose()


def _events(frames: list[Any]) -> list[str]:
    return [f["event"] for f in frames if f and "event" in f]


def _tournament(status: str) -> Tournament:
    t = TournamentFactory(status=status)  # type: ignore[no-untyped-call]
    assert isinstance(t, Tournament)
    return t


def _upcoming_race(name: str = "Public") -> Race:
    """A public race an hour away: joining not open yet, no entrant (it may move)."""
    now = timezone.now()
    return race_create(
        name=name,
        opens_at=now + timedelta(minutes=30),
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=1, minutes=10),
    )


async def _open(path: str, token: str | None = None) -> Frames:
    headers = {"Authorization": f"Token {token}"} if token else {}
    frames = Frames(await AsyncClient().get(path, headers=headers))
    first = await frames.next()
    assert first is not None
    assert first["event"] == "snapshot", first
    return frames


async def _elsewhere(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a worker thread, as another request would, closing its connections."""

    def call() -> Any:
        try:
            return fn()
        finally:
            connections.close_all()

    return await sync_to_async(call, thread_sensitive=False)()


def _run(main: Callable[[], Coroutine[Any, Any, None]], heartbeat_s: float) -> None:
    with override_settings(LIVE_HEARTBEAT_SECONDS=heartbeat_s, LIVE_REDIS_URL=""):
        asyncio.run(main())


def _organiser(name: str = "orga") -> User:
    """An organiser: a superuser (a transactional test flushes the ``organisers`` group
    that migration 0003 made)."""
    user = create_user(name)
    user.is_superuser = user.is_staff = True
    user.save(update_fields=["is_superuser", "is_staff"])
    return user


def _organiser_token() -> str:
    text, _ = token_issue(user=_organiser())
    return text


def _admin_move(race: Race, tournament: Tournament) -> Any:
    """Move ``race`` into ``tournament`` through the race's change form in the admin."""
    client = Client()
    client.force_login(_organiser("admin"))
    return client.post(
        reverse("admin:games_race_change", args=[race.pk]),
        {
            "name": race.name,
            "tournament": tournament.pk,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
    )


def test_a_move_into_a_draft_tournament_ends_the_public_stream_not_the_organisers() -> None:
    race = _upcoming_race()
    draft = _tournament(Tournament.Status.DRAFT)
    token = _organiser_token()
    path = f"/api/v1/races/{race.id}/events"

    async def main() -> None:
        anonymous = await _open(path)
        organiser = await _open(path, token)
        try:
            # The organiser moves it in the admin (the race's change form: race_move,
            # whose message comes after commit).
            moved = await _elsewhere(lambda: _admin_move(race, draft))
            assert moved.status_code == 302
            seen = await anonymous.until(lambda f: f is not None and f.get("event") == "gone")
            assert _events(seen) in (["gone"], ["countdown", "gone"])
            gone = seen[-1]
            assert gone["id"].endswith(".end")
            assert gone["data"]["reason"] == "not_found"
            assert await anonymous.next() is None  # the stream has ended
            # The organiser's stream goes on (a heartbeat, then more): never ``gone``.
            later = await organiser.until(lambda f: f is not None and "heartbeat" in f)
            assert "gone" not in _events(later)
            # A reconnect answers 404, as GET /races/{id} does.
            again = await AsyncClient().get(path, headers={"Last-Event-ID": gone["id"]})
            assert again.status_code == 404
            assert json.loads(again.content)["code"] == "not_found"
        finally:
            await anonymous.close()
            await organiser.close()

    _run(main, heartbeat_s=0.3)


def test_an_event_after_a_move_no_message_told_of_goes_to_organisers_only() -> None:
    """The move is written with no message (as one lost on the way would be); the next
    event (standings) reaches the organiser, and the anonymous stream gets ``gone``
    instead.  The heartbeat is a minute away: only the check before the event can end
    the stream here."""
    race = _upcoming_race()
    draft = _tournament(Tournament.Status.DRAFT)
    token = _organiser_token()
    path = f"/api/v1/races/{race.id}/events"

    async def main() -> None:
        anonymous = await _open(path)
        organiser = await _open(path, token)
        try:
            await _elsewhere(lambda: Race.objects.filter(id=race.id).update(tournament=draft))
            publish_now([(race_topic(race.id), "standings", {})])
            seen = await anonymous.until(lambda f: f is None or f.get("event") == "gone")
            assert "standings" not in _events(seen)
            assert seen[-1] is not None
            assert seen[-1]["id"].endswith(".end")
            assert await anonymous.next() is None
            got = await organiser.until(lambda f: f is not None and f.get("event") == "standings")
            assert "gone" not in _events(got)
            assert got[-1]["data"]["race"] == str(race.id)
        finally:
            await anonymous.close()
            await organiser.close()

    _run(main, heartbeat_s=60.0)


def test_the_heartbeat_ends_a_stream_when_nothing_happens() -> None:
    """No message and no event: the next heartbeat finds the race a draft's."""
    race = _upcoming_race()
    draft = _tournament(Tournament.Status.DRAFT)
    path = f"/api/v1/races/{race.id}/events"

    async def main() -> None:
        anonymous = await _open(path)
        try:
            heartbeat = await anonymous.until(lambda f: f is not None and "heartbeat" in f)
            assert "gone" not in _events(heartbeat)
            await _elsewhere(lambda: Race.objects.filter(id=race.id).update(tournament=draft))
            seen = await anonymous.until(lambda f: f is None or f.get("event") == "gone")
            assert seen[-1] is not None
            assert seen[-1]["event"] == "gone"
            assert seen[-1]["id"].endswith(".end")
            assert await anonymous.next() is None
        finally:
            await anonymous.close()

    _run(main, heartbeat_s=0.3)


def test_a_deleted_tournament_ends_its_stream() -> None:
    """A published tournament with no race may be deleted (``tournament_delete``): its
    open stream ends with ``gone`` at the next heartbeat (it used to stay open, sending
    heartbeats only, for good)."""
    t = _tournament(Tournament.Status.OPEN)
    path = f"/api/v1/tournaments/{t.id}/events"

    async def main() -> None:
        anonymous = await _open(path)
        try:
            await _elsewhere(lambda: tournament_delete(tournament_id=t.id))
            seen = await anonymous.until(lambda f: f is None or f.get("event") == "gone")
            assert seen[-1] is not None
            assert seen[-1]["data"]["reason"] == "not_found"
            assert seen[-1]["id"].endswith(".end")
            assert await anonymous.next() is None
        finally:
            await anonymous.close()

    _run(main, heartbeat_s=0.3)


def test_tournament_streams_hear_a_race_move_in_and_out() -> None:
    """Moving a race from one public tournament to another: the old tournament's stream
    gets ``race_removed``, the new one's ``race_added`` (neither heard of it before)."""
    old = _tournament(Tournament.Status.OPEN)
    new = _tournament(Tournament.Status.OPEN)
    race = _upcoming_race("Moving")
    Race.objects.filter(id=race.id).update(tournament=old)

    async def main() -> None:
        old_stream = await _open(f"/api/v1/tournaments/{old.id}/events")
        new_stream = await _open(f"/api/v1/tournaments/{new.id}/events")
        try:
            await _elsewhere(lambda: race_move(race_id=race.id, tournament_id=new.id))
            removed = await old_stream.until(lambda f: f is not None and "event" in f)
            assert removed[-1]["event"] == "race_removed"
            assert removed[-1]["data"]["race"] == str(race.id)
            added = await new_stream.until(lambda f: f is not None and "event" in f)
            assert added[-1]["event"] == "race_added"
            assert [r["id"] for r in added[-1]["data"]["races"]] == [str(race.id)]
        finally:
            await old_stream.close()
            await new_stream.close()

    _run(main, heartbeat_s=0.3)
