# mypy: disable-error-code="no-untyped-call, arg-type, misc, assignment, attr-defined"
"""The race admin's "Close now" and "Cancel" ask first, as "Cancel the tournament" and
"Re-score" do: both end games and reveal the seed, which cannot be undone, so a
mis-click in the action bar must change nothing.  The page names what each selected race
will get (``games.admin.race._outcome``) and posts back with ``apply``; only then does
the action run.  A finished race is left alone by "Close now" and said to be (it was
counted as "Closed now")."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, Race
from games.services.races import race_cancel, race_create
from tests.factories import StaffFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race

pytestmark = pytest.mark.django_db

CHANGELIST = "admin:games_race_changelist"


def _client(language: str = "en") -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def _upcoming(name: str) -> Race:
    """A race open for joining that starts in ten minutes."""
    now = timezone.now()
    return race_create(
        name=name,
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
    )


def _every_kind() -> dict[str, Race]:
    """One race for each thing the confirmation may say, by its outcome under Close now."""
    t = TournamentFactory(name="Evening Cup")
    running = running_race(t, name="Running heat")
    play(running, Result("ann", 12, 900))
    deserted = running_race(name="Deserted heat")
    ended = running_race(name="Ended heat")
    play(ended, Result("ben", 8, 700))
    now = timezone.now()
    Race.objects.filter(id=ended.id).update(
        opens_at=now - timedelta(minutes=10),
        starts_at=now - timedelta(minutes=9),
        ends_at=now - timedelta(minutes=1),
    )
    waiting = _upcoming("Entered heat")
    play(waiting, Result("cid", 0, 0))
    empty = _upcoming("Empty heat")
    finished = finished_race(None, Result("dee", 5, 500), name="Finished heat")
    cancelled = running_race(name="Cancelled heat")
    race_cancel(race_id=cancelled.id)
    return {
        "close": running,
        "close_empty": deserted,
        "score": ended,
        "not_started": waiting,
        "start_and_end": empty,
        "finished": finished,
        "cancelled": cancelled,
    }


def _outcomes(page: str) -> list[tuple[str, str]]:
    """Each listed race's outcome attribute and its line's text, in the page's order."""
    return re.findall(r'<li data-outcome="(\w+)">([^<]+)</li>', page)


def _states(races: dict[str, Race]) -> dict[str, tuple[str, object]]:
    out: dict[str, tuple[str, object]] = {}
    for key, race in races.items():
        race.refresh_from_db()
        out[key] = (race.status, race.ends_at)
    return out


def test_close_now_asks_first_and_changes_nothing_until_confirmed() -> None:
    races = _every_kind()
    before = _states(races)
    playing = Game.objects.filter(status=Game.Status.PLAYING).count()
    client = _client()
    selected = [str(r.pk) for r in races.values()]
    resp = client.post(reverse(CHANGELIST), {"action": "close_now", "_selected_action": selected})
    assert resp.status_code == 200
    page = resp.content.decode()
    assert _states(races) == before  # asked, nothing done
    assert Game.objects.filter(status=Game.Status.PLAYING).count() == playing
    assert "<title>Close these 7 races now?" in page
    assert "Closing a race now ends it at once" in page
    assert "This cannot be undone." in page
    # Running, ended and empty-upcoming races are acted on; the others are said to be not.
    assert "4 races will be closed now." in page
    lines = {
        "finished": "Finished heat: finished, left alone (it keeps its results)",
        "score": "Ended heat: ended, 1 entrant; will be scored",
        "close": "Running heat (Evening Cup): running, 1 entrant; ends now, games still being "
        "played time out",
        # Running with nobody in it: no game to time out, nothing to rank.
        "close_empty": "Deserted heat: running; ends now, nobody entered; no result",
        "cancelled": "Cancelled heat: cancelled already, left alone",
        "not_started": "Entered heat: open, 1 entrant; not started, so nobody has played it: "
        "it cannot be closed, cancel it instead",
        "start_and_end": "Empty heat: open, nobody entered; starts and ends now, with no result",
    }
    # In the order the action takes them: by start.
    by_start = sorted(races, key=lambda k: (races[k].starts_at, races[k].pk))
    assert _outcomes(page) == [(k, lines[k]) for k in by_start]
    # The form posts the same selection back with "apply".
    posted = re.findall(r'name="_selected_action" value="([^"]+)"', page)
    assert sorted(posted) == sorted(selected)
    assert '<input type="hidden" name="action" value="close_now">' in page
    assert '<input type="hidden" name="apply" value="1">' in page

    resp = client.post(
        reverse(CHANGELIST),
        {"action": "close_now", "_selected_action": selected, "apply": "1"},
        follow=True,
    )
    done = resp.content.decode()
    after = _states(races)
    assert {k: status for k, (status, _) in after.items()} == {
        "close": "finished",
        "close_empty": "finished",
        "score": "finished",
        "not_started": "scheduled",  # refused: nobody could play it
        "start_and_end": "finished",
        "finished": "finished",
        "cancelled": "cancelled",
    }
    assert after["finished"] == before["finished"]
    assert "Closed now: 4 races." in done
    assert "Left alone: “Finished heat”. A finished race keeps its results." in done


def test_cancel_asks_first_and_changes_nothing_until_confirmed() -> None:
    races = _every_kind()
    before = _states(races)
    client = _client()
    selected = [str(r.pk) for r in races.values()]
    page = client.post(
        reverse(CHANGELIST), {"action": "cancel", "_selected_action": selected}
    ).content.decode()
    assert _states(races) == before
    assert "<title>Cancel these 7 races?" in page
    assert "Cancelling a race ends its games still being played as timed out" in page
    assert "4 races will be cancelled." in page
    assert sorted(_outcomes(page)) == [
        ("cancel", "Deserted heat: running, 0 entrants; will be cancelled"),
        ("cancel", "Empty heat: open, 0 entrants; will be cancelled"),
        ("cancel", "Entered heat: open, 1 entrant; will be cancelled"),
        ("cancel", "Running heat (Evening Cup): running, 1 entrant; will be cancelled"),
        ("cancelled", "Cancelled heat: cancelled already, left alone"),
        ("finished", "Finished heat: finished, left alone (it keeps its results)"),
        ("score", "Ended heat: ended, 1 entrant; will be scored"),
    ]
    assert '<input type="hidden" name="action" value="cancel">' in page

    client.post(
        reverse(CHANGELIST), {"action": "cancel", "_selected_action": selected, "apply": "1"}
    )
    after = {k: status for k, (status, _) in _states(races).items()}
    assert after == {
        "close": "cancelled",
        "close_empty": "cancelled",
        "score": "finished",  # its end had passed: scored, not cancelled
        "not_started": "cancelled",
        "start_and_end": "cancelled",
        "finished": "finished",
        "cancelled": "cancelled",
    }


def test_the_confirmation_speaks_the_admins_language() -> None:
    race = running_race(TournamentFactory(name="Coupe du soir"), name="Manche 1")
    play(race, Result("ann", 12, 900))
    page = (
        _client("fr")
        .post(reverse(CHANGELIST), {"action": "close_now", "_selected_action": [str(race.pk)]})
        .content.decode()
    )
    assert "Clore une course maintenant la termine aussitôt" in page
    assert "1 course sera close maintenant." in page
    assert (
        "Manche 1 (Coupe du soir)\u202f: en cours, 1 participant\u202f; se termine maintenant"
        in page
    )
    assert "<title>Clore cette course maintenant\u202f?" in page
    assert 'value="Oui, clore cette course maintenant"' in page
    race.refresh_from_db()
    assert race.status == Race.Status.SCHEDULED
    actions = re.findall(
        r"<option value=\"\w+\">([^<]+)</option>",
        _client("fr").get(reverse(CHANGELIST)).content.decode(),
    )
    assert "Annuler la course (demande d\u2019abord)" in actions
    assert "Clore maintenant (fin, temps écoulé, décompte\u202f; demande d\u2019abord)" in actions


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Deserted heat: running; ends now, nobody entered; no result"),
        (
            "fr",
            "Deserted heat\u202f: en cours\u202f; se termine maintenant, aucun inscrit"
            "\u202f; aucun résultat",
        ),
        ("es", "Deserted heat: en curso; termina ahora, sin inscritos; sin resultado"),
        ("de", "Deserted heat: läuft; endet jetzt, niemand hat teilgenommen; kein Ergebnis"),
    ],
)
def test_a_running_race_nobody_entered_is_said_to_end_with_no_result(
    language: str, line: str
) -> None:
    """A running race with no entrant has no game to time out: the line says it ends with
    no result, not that games time out (it said so with "0 entrants")."""
    race = running_race(name="Deserted heat")
    page = (
        _client(language)
        .post(reverse(CHANGELIST), {"action": "close_now", "_selected_action": [str(race.pk)]})
        .content.decode()
    )
    assert _outcomes(page) == [("close_empty", line)]
