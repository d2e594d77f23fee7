# mypy: disable-error-code="no-untyped-call, arg-type, misc, assignment, attr-defined"
"""Cancelling a race: a finished race is left alone and said to be (the admin counted
and logged it as cancelled); a race whose end has passed but which the sweeper has not
scored yet (``scheduled`` past ``ends_at``, or ``closing``) is closed and scored as the
sweeper would, not cancelled (its results depended on the sweeper's latency), by the
race's "Cancel" and by "Cancel the tournament"; time is given to the services."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from games.models import Game, Race, RaceEntry, Tournament
from games.services.race_admin import race_cancel_now
from games.services.races import race_cancel, races_end
from games.services.tournaments import tournament_set_status
from tests.factories import StaffFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race

pytestmark = pytest.mark.django_db


def _organiser_client(language: str = "en") -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _played(tournament: Tournament | None = None, name: str = "Played") -> Race:
    """A running race with two results (ann ahead of ben), games still ``playing``."""
    race = running_race(tournament, name=name)
    play(race, Result("ann" + name, 30, 100))
    play(race, Result("ben" + name, 20, 200))
    return race


def _ranks(race: Race) -> dict[str, Any]:
    return {
        e.player.username: (e.rank, e.status)
        for e in RaceEntry.objects.filter(race=race).select_related("player")
    }


def test_a_race_past_its_end_not_swept_yet_is_scored_not_cancelled() -> None:
    race = _played()
    after = race.ends_at + timedelta(seconds=3)  # the sweeper has not come yet
    outcome = race_cancel_now(race_id=race.id, now=after)
    assert outcome.result == "scored"
    race.refresh_from_db()
    assert (race.status, race.cancelled_at, race.scored_at) == ("finished", None, after)
    assert _ranks(race) == {"annPlayed": (1, "timed_out"), "benPlayed": (2, "timed_out")}
    # The games ended at their deadline (as the sweeper ends them), not at the cancel.
    assert set(
        Game.objects.filter(race_entry__race=race).values_list("finished_at", flat=True)
    ) == {race.ends_at}
    # race_cancel says the same, and a race still running is cancelled.
    running = _played(name="Running")
    at = running.ends_at - timedelta(seconds=1)
    assert race_cancel(race_id=running.id, now=at).status == "cancelled"
    assert RaceEntry.objects.filter(race=running, rank__isnull=False).count() == 0


def test_a_closing_race_is_scored_not_cancelled() -> None:
    race = _played()
    Race.objects.filter(id=race.id).update(status=Race.Status.CLOSING)
    ended = races_end(race_ids=[race.id], now=race.ends_at + timedelta(seconds=1))
    assert (ended.cancelled, ended.scored) == ([], [race.id])
    race.refresh_from_db()
    assert race.status == "finished"
    assert _ranks(race)["annPlayed"][0] == 1


def test_the_tournament_cancel_scores_its_races_past_their_end() -> None:
    t = TournamentFactory(status="open")
    ended = _played(t, name="Ended")
    running = _played(t, name="Running")
    Race.objects.filter(id=running.id).update(ends_at=ended.ends_at + timedelta(minutes=10))
    now = ended.ends_at + timedelta(seconds=5)
    tournament_set_status(tournament_id=t.id, status="cancelled", now=now)
    ended.refresh_from_db()
    running.refresh_from_db()
    assert (ended.status, running.status) == ("finished", "cancelled")
    assert running.cancelled_at == now
    assert _ranks(ended)["annEnded"] == (1, "timed_out")


def _cancel_action(client: Client, races: list[Race]) -> str:
    resp = client.post(
        reverse("admin:games_race_changelist"),
        {"action": "cancel", "_selected_action": [str(r.pk) for r in races], "apply": "1"},
        follow=True,
    )
    assert resp.status_code == 200
    return resp.content.decode()


@pytest.mark.parametrize(
    ("language", "left_alone", "not_cancelled"),
    [
        (
            "en",
            "Left alone: “Done”. A finished race keeps its results.",
            "Not cancelled, ended: “Ended”.",
        ),
        (
            "fr",
            "Laissée telle quelle\u202f: «\u202fDone\u202f». Une course terminée garde ses "
            "résultats.",
            "Pas annulée, terminée\u202f: «\u202fEnded\u202f».",
        ),
        (
            "es",
            "Sin cambios: «Done». Una carrera terminada conserva sus resultados.",
            "No cancelada, terminada: «Ended».",
        ),
        (
            "de",
            "Unverändert: „Done“. Ein beendetes Rennen behält seine Ergebnisse.",
            "Nicht abgesagt, beendet: „Ended“.",
        ),
    ],
)
def test_the_admin_counts_only_races_really_cancelled(
    language: str, left_alone: str, not_cancelled: str
) -> None:
    client = _organiser_client(language)
    done = finished_race(None, Result("a" + language, 10, 100), name="Done")
    page = _cancel_action(client, [done])
    assert left_alone in page
    assert "Cancelled: 1 race" not in page
    assert "Annulée\u202f: 1 course" not in page
    done.refresh_from_db()
    assert done.status == "finished"
    assert not LogEntry.objects.filter(object_id=str(done.pk)).exists()
    # A race past its end: scored, said so, logged as what happened.
    ended = _played(name="Ended")
    Race.objects.filter(id=ended.id).update(
        starts_at=ended.starts_at - timedelta(hours=1),
        opens_at=ended.opens_at - timedelta(hours=1),
        ends_at=ended.starts_at - timedelta(seconds=1),
    )
    Game.objects.filter(race_entry__race=ended).update(
        deadline=ended.starts_at - timedelta(seconds=1)
    )
    page = _cancel_action(client, [ended])
    assert not_cancelled in page
    ended.refresh_from_db()
    assert ended.status == "finished"
    logs = list(
        LogEntry.objects.filter(object_id=str(ended.pk)).values_list("change_message", flat=True)
    )
    assert logs == ["Closed and scored, not cancelled: its end had passed"]


def test_the_admin_cancel_of_a_running_race_still_counts_it() -> None:
    client = _organiser_client()
    race = _played(name="On")
    page = _cancel_action(client, [race])
    assert "Cancelled: 1 race." in page
    assert LogEntry.objects.filter(object_id=str(race.pk), change_message="Cancelled").exists()
    page = _cancel_action(client, [race])
    assert "Already cancelled, left alone: “On”." in page
    assert "Cancelled: 1 race." not in page
    assert LogEntry.objects.filter(object_id=str(race.pk)).count() == 1
