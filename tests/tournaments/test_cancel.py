# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc, return-value"
"""Cancelling a tournament cancels its races not finished yet (tournament_set_status).

A tournament cancelled while one of its races was running kept that race: it closed
later and its scoring re-computed the cancelled tournament's standings.  Now a cancelled
tournament, like a finished one, has no race left whose result could change them.
"""

from __future__ import annotations

import importlib
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, Race, RaceEntry, Tournament
from games.services.errors import InvalidRace, InvalidTournament
from games.services.race_admin import race_close_now
from games.services.races import race_close, races_due
from games.services.tournaments import tournament_rescore, tournament_set_status
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser
from tests.tournaments.test_admin_services import later_race
from tests.tournaments.test_scoring import table

pytestmark = pytest.mark.django_db


def during(race: Race) -> datetime:
    """A time while ``race`` runs (90 s after its start): the cancellation's time, given
    to the service (a race whose end has passed is scored, not cancelled)."""
    return race.starts_at + timedelta(seconds=90)


def a_tournament_mid_race() -> tuple[Tournament, Race, Race]:
    """ann won the first race; in the running one ben leads, which would put him first."""
    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 1000), Result("ben", 20, 1000))
    running = running_race(t, name="running")
    play(running, Result("ben", 40, 1000))
    play(running, Result("ann", 10, 1000))
    upcoming = later_race(t, name="upcoming")
    return t, running, upcoming


def test_cancelling_cancels_the_unfinished_races_and_a_late_close_changes_nothing() -> None:
    t, running, upcoming = a_tournament_mid_race()
    before = table(t)
    assert before == [("ann", 1, 10, 0, 1, 30, 1000), ("ben", 2, 8, 0, 1, 20, 1000)]

    NOW = during(running)
    assert tournament_set_status(tournament_id=t.id, status="cancelled", now=NOW).status == (
        "cancelled"
    )

    statuses = dict(Race.objects.filter(tournament=t).values_list("name", "status"))
    assert statuses == {"race": "finished", "running": "cancelled", "upcoming": "cancelled"}
    games = Game.objects.filter(race_entry__race=running).order_by("player__username")
    assert [(g.player.username, g.status, g.finished_at) for g in games] == [
        ("ann", "timed_out", NOW),
        ("ben", "timed_out", NOW),
    ]
    assert table(t) == before
    # The race's end comes: nothing closes it, nothing re-scores the tournament.
    assert running.id not in races_due(now=running.ends_at)
    assert race_close(race_id=running.id, now=running.ends_at) == "cancelled"
    with pytest.raises(InvalidRace, match="the race is cancelled"):
        race_close_now(race_id=running.id, now=running.ends_at)
    assert RaceEntry.objects.filter(race=running, rank__isnull=False).count() == 0
    assert table(t) == before
    # Re-scoring the cancelled tournament gives the same table (only finished races count).
    assert tournament_rescore(tournament_id=t.id) == 2
    assert table(t) == before
    # Cancelling again changes nothing.
    assert tournament_set_status(tournament_id=t.id, status="cancelled").status == "cancelled"
    assert table(t) == before


def test_a_race_being_scored_is_scored_not_cancelled() -> None:
    """Its end had passed (or it was over for everyone): it was played in full, and
    cancelling the tournament scores it as the sweeper would have, ben first."""
    t, running, upcoming = a_tournament_mid_race()
    Race.objects.filter(id=running.id).update(status=Race.Status.CLOSING)
    tournament_set_status(tournament_id=t.id, status="cancelled", now=during(running))
    assert race_close(race_id=running.id, now=running.ends_at) == "finished"
    assert Race.objects.get(id=upcoming.id).status == "cancelled"
    assert [row[:3] for row in table(t)] == [("ben", 1, 18), ("ann", 2, 18)]


def test_the_admin_cancel_action_asks_first_listing_the_races_then_cancels_them() -> None:
    """One click used to cancel the tournament and its running races, and the message
    did not say races went too: now a confirmation page lists them first."""
    t, running, upcoming = a_tournament_mid_race()
    Race.objects.filter(id=upcoming.id).update(name="upcoming")
    c = client_for(organiser())
    url = reverse("admin:games_tournament_changelist")
    resp = c.post(url, {"action": "cancel", "_selected_action": [str(t.pk)]})
    assert resp.status_code == 200
    page = resp.content.decode()
    assert "<title>Cancel this tournament and its races?" in page
    assert "1 tournament will be cancelled. 2 races will be cancelled." in page
    assert "<li>running: running, 2 entrants</li>" in page
    assert "<li>upcoming: upcoming, 0 entrants</li>" in page
    assert "race: " not in page  # the finished race stays as it is
    assert 'value="Yes, cancel this tournament and its races"' in page
    assert set(Race.objects.filter(tournament=t).values_list("name", "status")) == {
        ("race", "finished"),
        ("running", "scheduled"),
        ("upcoming", "scheduled"),
    }
    t.refresh_from_db()
    assert t.status == Tournament.Status.OPEN

    resp = c.post(
        url, {"action": "cancel", "_selected_action": [str(t.pk)], "apply": "1"}, follow=True
    )
    assert resp.status_code == 200
    assert [str(m) for m in resp.context["messages"]] == [
        "1 tournament now cancelled. 2 unfinished races were cancelled too."
    ]
    assert set(Race.objects.filter(id__in=[running.id, upcoming.id]).values_list("status")) == {
        ("cancelled",)
    }
    t.refresh_from_db()
    assert t.status == Tournament.Status.CANCELLED


def test_the_admin_cancel_action_reads_as_cancelling_the_tournament_in_french() -> None:
    """fr "Annuler" alone also reads as "close this form"."""
    t, _running, _upcoming = a_tournament_mid_race()
    c = client_for(organiser())
    url = reverse("admin:games_tournament_changelist")
    page = c.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<option value="cancel">Annuler le tournoi</option>' in page
    # The confirmation page: French puts its narrow space before each colon (the colons
    # were outside the translated words: "running: en cours").
    page = c.post(
        url, {"action": "cancel", "_selected_action": [str(t.pk)]}, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "<li>running\u202f: en cours, 2 participants</li>" in page
    assert "running:" not in page
    resp = c.post(
        url,
        {"action": "cancel", "_selected_action": [str(t.pk)], "apply": "1"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert [str(m) for m in resp.context["messages"]] == [
        "1 tournoi désormais annulé. 2 courses non terminées ont aussi été annulées."
    ]


def test_a_finished_tournament_cannot_be_cancelled_and_keeps_its_races() -> None:
    t = TournamentFactory()
    finished_race(t, Result("ann", 30, 1000))
    tournament_set_status(tournament_id=t.id, status="finished")
    with pytest.raises(InvalidTournament, match="a finished tournament cannot become cancelled"):
        tournament_set_status(tournament_id=t.id, status="cancelled")
    assert list(Race.objects.filter(tournament=t).values_list("status", flat=True)) == ["finished"]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_race_added_between_the_locks_is_cancelled_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The races are locked before the tournament (the project's order); a race added
    by another transaction in between (committed while the cancellation had not locked
    the tournament yet) is seen under the tournament's lock: the cancellation starts
    over and cancels it too."""
    import threading
    from datetime import timedelta

    from django.utils import timezone

    from games.services import tournaments

    t, running, upcoming = a_tournament_mid_race()
    real = tournaments._tournament_locked
    tries: list[Any] = []
    added: list[Any] = []

    def add_races() -> None:
        try:
            schedule = tournaments.RaceSchedule(
                count=1,
                first_starts_at=timezone.now() + timedelta(hours=2),
                duration=timedelta(minutes=5),
            )
            added.extend(tournaments.tournament_races_add(tournament_id=t.id, schedule=schedule))
        finally:
            connection.close()

    def lock_after_a_race_is_added(tournament_id: Any) -> Tournament:
        if threading.current_thread() is not threading.main_thread():
            return real(tournament_id)  # the adder's own lock
        tries.append(tournament_id)
        if len(tries) == 1:  # another organiser's transaction adds a race and commits
            adder = threading.Thread(target=add_races)
            adder.start()
            adder.join(timeout=30)
            assert len(added) == 1
        return real(tournament_id)

    monkeypatch.setattr(tournaments, "_tournament_locked", lock_after_a_race_is_added)
    tournament_set_status(tournament_id=t.id, status="cancelled", now=during(running))
    assert len(tries) == 2
    statuses = Race.objects.filter(id__in=[running.id, upcoming.id, added[0].id])
    assert sorted(statuses.values_list("status", flat=True)) == ["cancelled"] * 3


@pytest.mark.postgres
def test_cancelling_locks_the_races_then_the_tournament() -> None:
    t, running, upcoming = a_tournament_mid_race()
    with CaptureQueriesContext(connection) as ctx:
        tournament_set_status(tournament_id=t.id, status="cancelled", now=during(running))
    locks = [
        q["sql"].split("WHERE")[0] for q in ctx.captured_queries if "FOR NO KEY UPDATE" in q["sql"]
    ]
    assert '"games_race"' in locks[0]
    assert '"games_tournament"' in locks[1]


def test_the_migration_cancels_the_races_a_tournament_cancelled_before_left_running() -> None:
    t, running, upcoming = a_tournament_mid_race()
    Tournament.objects.filter(id=t.id).update(status=Tournament.Status.CANCELLED)  # as before
    before = table(t)
    migration = importlib.import_module(
        "games.migrations.0017_cancel_races_of_cancelled_tournaments"
    )
    migration.cancel_unfinished(apps, None)
    assert set(Race.objects.filter(id__in=[running.id, upcoming.id]).values_list("status")) == {
        ("cancelled",)
    }
    assert set(Game.objects.filter(race_entry__race=running).values_list("status")) == {
        ("timed_out",)
    }
    assert race_close(race_id=running.id, now=running.ends_at) == "cancelled"
    assert table(t) == before


def test_cancelling_costs_the_same_queries_whatever_the_number_of_races() -> None:
    """Each unfinished race was cancelled on its own (a lock, a games update, a race
    save: about 6 ms a race on PostgreSQL), all under the tournament's lock: 2,000
    upcoming races took 12 s and some thousands outlasted the 30 s the proxy and the
    web workers give a request, so such a tournament could not be cancelled at all.
    Now they are cancelled together, in a fixed number of queries."""

    def queries_to_cancel(races: int) -> int:
        t, running, upcoming = a_tournament_mid_race()
        for n in range(races - 2):
            later_race(t, name=f"later {n}")
        with CaptureQueriesContext(connection) as ctx:
            tournament_set_status(tournament_id=t.id, status="cancelled", now=during(running))
        statuses = Race.objects.filter(tournament=t).values_list("status", flat=True)
        assert sorted(statuses) == ["cancelled"] * races + ["finished"]
        return len(ctx.captured_queries)

    assert queries_to_cancel(2) == queries_to_cancel(7)


def test_the_admin_cancel_page_names_a_draft_it_will_not_cancel() -> None:
    """A draft is not cancelled (the service refuses; it is deleted instead): the page
    says so and does not count its races among those it cancels."""
    t, _running, _upcoming = a_tournament_mid_race()
    draft = TournamentFactory(name="Rehearsal", status=Tournament.Status.DRAFT)
    later_race(draft, name="secret")
    c = client_for(organiser())
    url = reverse("admin:games_tournament_changelist")
    resp = c.post(url, {"action": "cancel", "_selected_action": [str(t.pk), str(draft.pk)]})
    page = resp.content.decode()
    assert "<title>Cancel these 2 tournaments and their races?" in page
    # The draft is not cancelled: one tournament is, and the button says so.
    assert "1 tournament will be cancelled. 2 races will be cancelled." in page
    assert 'value="Yes, cancel this tournament and its races"' in page
    assert (
        "Rehearsal (draft): a draft is not cancelled (that would publish its races&#x27; "
        "seeds): delete it instead" in page
    )
    assert "secret" not in page
    resp = c.post(
        url,
        {"action": "cancel", "_selected_action": [str(t.pk), str(draft.pk)], "apply": "1"},
        follow=True,
    )
    assert [str(m) for m in resp.context["messages"]] == [
        "Rehearsal: A draft tournament was never published: delete it (its races go with "
        "it) rather than cancel it, which would make it and its races' seeds public.",
        "1 tournament now cancelled. 2 unfinished races were cancelled too.",
    ]
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT
    assert Race.objects.get(name="secret").status == Race.Status.SCHEDULED


def test_the_admin_cancel_page_says_a_race_past_its_end_will_be_scored() -> None:
    t, running, upcoming = a_tournament_mid_race()
    Race.objects.filter(id=running.id).update(status=Race.Status.CLOSING)
    Race.objects.filter(id=upcoming.id).update(name="upcoming")
    c = client_for(organiser())
    url = reverse("admin:games_tournament_changelist")
    page = c.post(url, {"action": "cancel", "_selected_action": [str(t.pk)]}).content.decode()
    assert (
        "1 tournament will be cancelled. 1 race will be cancelled. "
        "1 race has ended: it will be scored, not cancelled." in page
    )
    assert "<li data-ended>running: ended, will be scored, not cancelled, 2 entrants</li>" in page
    assert "<li>upcoming: upcoming, 0 entrants</li>" in page
    fr = c.post(
        url, {"action": "cancel", "_selected_action": [str(t.pk)]}, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "1 course est finie\u202f: elle sera classée, pas annulée." in fr
    assert "<li data-ended>running\u202f: finie, sera classée, pas annulée, 2 " in fr
    resp = c.post(
        url, {"action": "cancel", "_selected_action": [str(t.pk)], "apply": "1"}, follow=True
    )
    assert [str(m) for m in resp.context["messages"]] == [
        "1 tournament now cancelled. 1 unfinished race was cancelled too. 1 race whose end "
        "had passed was scored, not cancelled."
    ]
    assert dict(Race.objects.filter(tournament=t).values_list("name", "status")) == {
        "race": "finished",
        "running": "finished",
        "upcoming": "cancelled",
    }


def test_the_admin_cancel_page_names_each_status_as_its_language_writes_it() -> None:
    """The page lower-cased the status label for the middle of a sentence, which wrote
    the German noun "Entwurf" as "entwurf"; each status now has its own in-sentence
    word (German nouns keep their capital, adjectives do not)."""
    a_tournament_mid_race()
    TournamentFactory(name="Probe", status=Tournament.Status.DRAFT)
    done = TournamentFactory(name="Vorjahr", status=Tournament.Status.FINISHED)
    c = client_for(organiser())
    url = reverse("admin:games_tournament_changelist")
    pks = [str(t.pk) for t in Tournament.objects.all()]
    page = c.post(
        url, {"action": "cancel", "_selected_action": pks}, HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Probe (Entwurf):" in page
    assert "entwurf" not in page
    assert f"{done.name} (beendet):" in page
