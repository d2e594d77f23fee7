# mypy: disable-error-code="no-untyped-call, arg-type, misc"
"""Organisers' race and tournament actions through the services (issue 18.3): open now,
close now, cancel, re-score, and tournament publish / finish / cancel."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game, Race, Tournament
from games.services.errors import InvalidRace, InvalidTournament, NotFound
from games.services.race_admin import (
    race_cancel_now,
    race_close_now,
    race_open_now,
    race_rescore_all,
)
from games.services.races import race_cancel, race_create, race_join, race_rescore
from games.services.tournaments import tournament_create, tournament_set_status
from tests.factories import UserFactory
from tests.tournaments.factories import Result, finished_race

pytestmark = pytest.mark.django_db


def upcoming_race() -> Race:
    now = timezone.now()
    return race_create(
        name="later",
        opens_at=now + timedelta(hours=1),
        starts_at=now + timedelta(hours=2),
        ends_at=now + timedelta(hours=3),
    )


def test_open_now_moves_opens_at_and_is_idempotent() -> None:
    race = upcoming_race()
    now = timezone.now()
    assert race.opens_at > now
    opened = race_open_now(race_id=race.id, now=now)
    assert opened.opens_at == now
    assert opened.phase(now) == "open"
    again = race_open_now(race_id=race.id, now=now + timedelta(seconds=5))
    assert again.opens_at == now  # already open: unchanged
    race_cancel(race_id=race.id)
    with pytest.raises(InvalidRace):
        race_open_now(race_id=race.id, now=now)
    with pytest.raises(NotFound):
        race_open_now(race_id=uuid.uuid4())


def test_close_now_of_a_race_not_started_ends_it_empty() -> None:
    race = upcoming_race()
    now = timezone.now()
    assert race_close_now(race_id=race.id, now=now) == "finished"
    race.refresh_from_db()
    assert (race.status, race.ends_at) == ("finished", now)
    assert race.starts_at < now
    assert race.opens_at <= race.starts_at
    cancelled = upcoming_race()
    race_cancel_now(race_id=cancelled.id)
    with pytest.raises(InvalidRace):
        race_close_now(race_id=cancelled.id)


def test_close_now_refuses_a_race_not_started_that_has_entrants() -> None:
    """Nobody could play it: closing would rank everyone first and rate it as a draw,
    and the games would stay closed to their players until the old start."""
    race = upcoming_race()
    race_open_now(race_id=race.id)
    entry = race_join(race_id=race.id, player=UserFactory(username="early")).entry
    with pytest.raises(InvalidRace, match="cancel it instead"):
        race_close_now(race_id=race.id)
    race.refresh_from_db()
    assert (race.status, race.phase()) == ("scheduled", "open")
    race_cancel_now(race_id=race.id)
    race.refresh_from_db()
    assert race.status == "cancelled"
    assert Game.objects.get(id=entry.game_id).status == "timed_out"


def test_cancel_and_rescore_raise_not_found() -> None:
    for action in (race_cancel, race_rescore, race_rescore_all, race_cancel_now):
        with pytest.raises(NotFound):
            action(race_id=uuid.uuid4())
        with pytest.raises(NotFound):
            action(race_id="not-a-uuid")


def test_cancel_is_idempotent_and_leaves_a_finished_race_alone() -> None:
    done = finished_race(None, Result("a", 10, 100))
    assert race_cancel(race_id=done.id).status == "finished"
    race = upcoming_race()
    assert race_cancel(race_id=race.id).status == "cancelled"
    assert race_cancel(race_id=race.id).status == "cancelled"


def test_tournament_status_transitions() -> None:
    t = tournament_create(name="Cup", status=Tournament.Status.DRAFT)
    assert tournament_set_status(tournament_id=t.id, status="open").status == "open"
    assert tournament_set_status(tournament_id=t.id, status="open").status == "open"
    with pytest.raises(InvalidTournament):
        tournament_set_status(tournament_id=t.id, status="draft")
    finished_race(t, Result("ann", 30, 100), Result("ben", 20, 100))
    t.refresh_from_db()
    assert t.scored_at is not None
    done = tournament_set_status(tournament_id=t.id, status="finished")
    assert done.status == "finished"
    assert list(done.standings.order_by("rank").values_list("player__username", "points")) == [
        ("ann", 10),
        ("ben", 8),
    ]
    for status in ("open", "cancelled", "bogus"):
        with pytest.raises(InvalidTournament):
            tournament_set_status(tournament_id=t.id, status=status)
    other = tournament_create(name="Other")
    assert tournament_set_status(tournament_id=other.id, status="cancelled").status == "cancelled"
    with pytest.raises(NotFound):
        tournament_set_status(tournament_id=uuid.uuid4(), status="open")


def test_disqualifying_an_entry_of_a_cancelled_race_is_refused() -> None:
    from games.models import RaceEntry
    from games.services.race_admin import race_entry_disqualify
    from tests.tournaments.factories import play, running_race

    race = running_race()
    entry = play(race, Result("ann", 30, 1000))
    race_cancel_now(race_id=race.id)
    with pytest.raises(InvalidRace) as refused:
        race_entry_disqualify(entry_id=entry.id, reason="bot")
    assert refused.value.detail == "the race is cancelled: its entries cannot be disqualified"
    entry = RaceEntry.objects.get(id=entry.id)
    assert (entry.disqualified, entry.disqualified_reason) == (False, "")


def test_reinstating_an_entry_of_a_cancelled_race_is_refused() -> None:
    from games.models import RaceEntry
    from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
    from tests.tournaments.factories import play, running_race

    race = running_race()
    entry = play(race, Result("ann", 30, 1000))
    race_entry_disqualify(entry_id=entry.id, reason="bot")
    race_cancel_now(race_id=race.id)
    with pytest.raises(InvalidRace) as refused:
        race_entry_reinstate(entry_id=entry.id)
    assert refused.value.detail == "the race is cancelled: its entries cannot be reinstated"
    entry = RaceEntry.objects.get(id=entry.id)
    assert (entry.disqualified, entry.disqualified_reason) == (True, "bot")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_disqualification_waits_for_a_concurrent_cancel_then_is_refused() -> None:
    """The disqualification locks the race row before it reads the status: while a
    cancel holds the row it waits, then sees the race cancelled.  Without the lock it
    read ``scheduled`` and disqualified an entry of a race being cancelled."""
    import threading
    import time

    from django.db import connection, transaction

    from games.models import RaceEntry
    from games.services.race_admin import race_entry_disqualify
    from tests.tournaments.factories import play, running_race

    race = running_race()
    entry = play(race, Result("ann", 30, 1000))
    holding = threading.Event()
    outcome: list[object] = []

    def someone_waits_for_a_lock() -> bool:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_stat_clear_snapshot()")  # else frozen for the transaction
            cur.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()"
            )
            row = cur.fetchone()
        return bool(row and row[0])

    def cancel() -> None:
        try:
            with transaction.atomic():
                race_cancel(race_id=race.id)  # holds the race row until the commit
                holding.set()
                for _ in range(200):  # until the disqualification waits (at most 10 s)
                    if someone_waits_for_a_lock():
                        break
                    time.sleep(0.05)
        finally:
            connection.close()

    def disqualify() -> None:
        try:
            assert holding.wait(timeout=10)
            race_entry_disqualify(entry_id=entry.id, reason="bot")
            outcome.append("disqualified")
        except InvalidRace as exc:
            outcome.append(exc.detail)
        finally:
            connection.close()

    threads = [threading.Thread(target=cancel), threading.Thread(target=disqualify)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert outcome == ["the race is cancelled: its entries cannot be disqualified"]
    assert RaceEntry.objects.get(id=entry.id).disqualified is False
    assert Race.objects.get(id=race.id).status == Race.Status.CANCELLED
