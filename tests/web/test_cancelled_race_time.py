"""A cancelled race says when it was cancelled, not its scheduled end as if it had ended
then (``Race.cancelled_at``, set by ``games.services.races.races_cancel``): on the race
page (every language) and beside ``ends_at`` in the API's race and tournament views.  A
race cancelled before the time was recorded (``cancelled_at`` NULL) shows no end time."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Race
from games.services.races import race_cancel, race_join, races_cancel
from tests.tournaments.factories import TournamentFactory, running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _shown(when: datetime) -> str:
    """The race page's ``<time>`` of ``when`` (UTC, to the second)."""
    return f"{when.strftime('%Y-%m-%d %H:%M:%S')} UTC"


def _facts(html: str) -> str:
    """The race page's facts list (the "The race" section), whitespace folded."""
    start = html.index('<dl class="facts">')
    return " ".join(html[start : html.index("</dl>", start)].split())


def _cancelled(player: Any, name: str = "Called off") -> tuple[Race, datetime]:
    """A running race ``player`` joined, cancelled 90 s after its start (the time given
    to the service, never the wall clock)."""
    race = running_race(name=name)
    race_join(race_id=race.id, player=player)
    at = race.starts_at + timedelta(seconds=90)
    assert races_cancel(race_ids=[race.id], now=at) == [race.id]
    race.refresh_from_db()
    return race, at


def test_the_service_records_when_a_race_was_cancelled(player: Any) -> None:
    race, at = _cancelled(player)
    assert race.status == Race.Status.CANCELLED
    assert race.cancelled_at == at
    # race_cancel says it too, and cancelling again keeps the first time.
    other = running_race(name="Other")
    then = other.starts_at + timedelta(seconds=30)
    assert race_cancel(race_id=other.id, now=then).cancelled_at == then
    assert race_cancel(race_id=other.id, now=then + timedelta(hours=1)).cancelled_at == then
    assert Race.objects.get(id=other.id).cancelled_at == then
    # A race not cancelled has none.
    assert running_race(name="Still on").cancelled_at is None


def test_the_race_page_says_when_it_was_cancelled_not_its_scheduled_end(
    pages: PageClient, player: Any
) -> None:
    race, at = _cancelled(player)
    facts = _facts(pages.get(f"/races/{race.id}/").content.decode())
    assert (
        f'<dt>Cancelled</dt><dd data-cancelled-at><time datetime="{at.isoformat()}" '
        f'data-local="seconds">{_shown(at)}</time></dd>'
    ) in facts
    assert "<dt>Ends</dt>" not in facts
    # The end it never reached (joining was to close then too: it closed when cancelled).
    assert _shown(race.ends_at) not in facts
    assert "<dt>Joining closes</dt>" not in facts
    # Joining that closed before the cancellation (at the start) did close then.
    early = running_race(name="Closed at the start", late_join_s=0)
    races_cancel(race_ids=[early.id], now=early.starts_at + timedelta(seconds=5))
    facts = _facts(pages.get(f"/races/{early.id}/").content.decode())
    assert f'<dt>Joining closes</dt><dd><time datetime="{early.starts_at.isoformat()}"' in facts
    assert _shown(early.ends_at) not in facts
    # A running race still says when it ends.
    running = running_race(name="On")
    facts = _facts(Client().get(f"/races/{running.id}/").content.decode())
    assert "<dt>Ends</dt><dd><time datetime=" in facts
    assert _shown(running.ends_at) in facts
    assert "data-cancelled-at" not in facts


@pytest.mark.parametrize(
    ("language", "label"), [("fr", "Annulée"), ("es", "Cancelada"), ("de", "Abgesagt")]
)
def test_the_race_page_in_other_languages(player: Any, language: str, label: str) -> None:
    race, at = _cancelled(player)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    facts = _facts(client.get(f"/races/{race.id}/").content.decode())
    assert f"<dt>{label}</dt><dd data-cancelled-at><time" in facts
    assert _shown(at) in facts
    assert _shown(race.ends_at) not in facts


def test_a_race_cancelled_before_the_time_was_recorded_shows_no_end(
    pages: PageClient, player: Any
) -> None:
    race, _at = _cancelled(player)
    Race.objects.filter(id=race.id).update(cancelled_at=None)  # as the migration left it
    facts = _facts(pages.get(f"/races/{race.id}/").content.decode())
    assert "<dt>Ends</dt>" not in facts
    assert "data-cancelled-at" not in facts
    assert _shown(race.ends_at) not in facts
    assert _shown(race.starts_at) in facts  # the rest stays


def test_a_race_cancelled_after_its_end_says_both(pages: PageClient, player: Any) -> None:
    """Cancelled after its end (before races_end scored such a race instead of
    cancelling it; ``cancelled_at`` as such a cancellation left it): play did end at
    ``ends_at``."""
    race = running_race(name="Scored late")
    at = race.ends_at + timedelta(seconds=20)
    Race.objects.filter(id=race.id).update(status=Race.Status.CANCELLED, cancelled_at=at)
    facts = _facts(pages.get(f"/races/{race.id}/").content.decode())
    assert "<dt>Ends</dt><dd><time datetime=" in facts
    assert facts.index(_shown(race.ends_at)) < facts.index(_shown(at))


def test_the_api_shows_the_cancellation_beside_ends_at(player: Any) -> None:
    tournament: Any = TournamentFactory(status="open")  # type: ignore[no-untyped-call]
    race = running_race(name="Called off", tournament=tournament)
    at = race.starts_at + timedelta(seconds=45)
    races_cancel(race_ids=[race.id], now=at)
    running = running_race(name="On", tournament=tournament)
    anon = APIClient()
    body = anon.get(f"/api/v1/races/{race.id}").json()
    assert body["status"] == "cancelled"
    assert body["ends_at"] == race.ends_at.isoformat().replace("+00:00", "Z")
    assert body["cancelled_at"] == at.isoformat().replace("+00:00", "Z")
    assert anon.get(f"/api/v1/races/{running.id}").json()["cancelled_at"] is None
    listed = {r["id"]: r for r in anon.get("/api/v1/races?phase=cancelled").json()["results"]}
    assert listed[str(race.id)]["cancelled_at"] == body["cancelled_at"]
    races = {r["id"]: r for r in anon.get(f"/api/v1/tournaments/{tournament.id}").json()["races"]}
    assert races[str(race.id)]["cancelled_at"] == body["cancelled_at"]
    assert races[str(running.id)]["cancelled_at"] is None
