# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""*Lift disqualification (re-scores)* in the race entries list acts only on entries that
are disqualified: one that is not is left alone and named, gets no history line and
re-scores nothing (an organiser who selected the wrong row used to read "Re-scored."
and find "Disqualification lifted" in the history of an entry never disqualified)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import Race, RaceEntry
from games.services.race_admin import race_entry_disqualify
from tests.factories import StaffFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race

pytestmark = pytest.mark.django_db


def organiser_client() -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    c = Client()
    c.force_login(user)
    return c


def lift(c: Client, *entries: RaceEntry, lang: str = "en") -> list[str]:
    """Run the action on ``entries``; the messages it leaves, in the order given."""
    resp = c.post(
        reverse("admin:games_raceentry_changelist"),
        {"action": "reinstate", "_selected_action": [e.pk for e in entries]},
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert resp.status_code == 302
    return [str(m) for m in get_messages(resp.wsgi_request)]


def lifted_logs(entry: RaceEntry) -> int:
    return LogEntry.objects.filter(
        object_id=str(entry.pk), change_message="Disqualification lifted"
    ).count()


def setup() -> tuple[Race, RaceEntry, RaceEntry]:
    t = TournamentFactory(name="Cup")
    race = finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 1000), name="R1")
    ann = RaceEntry.objects.get(race=race, player__username="ann")
    bob = RaceEntry.objects.get(race=race, player__username="bob")
    race_entry_disqualify(entry_id=ann.id, reason="two accounts")
    return Race.objects.get(id=race.id), ann, bob


def test_only_the_disqualified_entry_is_lifted_and_the_other_is_named() -> None:
    race, ann, bob = setup()
    said = lift(organiser_client(), ann, bob)
    ann.refresh_from_db()
    assert (ann.disqualified, ann.rank) == (False, 1)
    assert said == [
        "Lifted 1 disqualification; re-scored.",
        "Not disqualified, left alone: bob in R1.",
    ]
    assert lifted_logs(ann) == 1
    assert lifted_logs(bob) == 0


def test_an_entry_not_disqualified_alone_changes_nothing() -> None:
    race, ann, bob = setup()
    scored_at = race.scored_at
    said = lift(organiser_client(), bob)
    assert said == ["Not disqualified, left alone: bob in R1."]
    assert lifted_logs(bob) == 0
    assert Race.objects.get(id=race.id).scored_at == scored_at
    assert RaceEntry.objects.get(id=ann.id).disqualified is True


@pytest.mark.parametrize(
    ("lang", "lifted", "alone"),
    [
        (
            "fr",
            "1 disqualification levée\u202f; recalcul effectué.",
            "Non disqualifiée, laissée telle quelle\u202f: bob dans R1.",
        ),
        (
            "es",
            "1 descalificación levantada; recalculado.",
            "No descalificada, sin cambios: bob en R1.",
        ),
        (
            "de",
            "1 Disqualifikation aufgehoben; neu berechnet.",
            "Nicht disqualifiziert, unverändert: bob in R1.",
        ),
    ],
)
def test_the_messages_are_translated(lang: str, lifted: str, alone: str) -> None:
    race, ann, bob = setup()
    said: list[Any] = lift(organiser_client(), ann, bob, lang=lang)
    assert said[0] == lifted
    assert said[1] == alone
