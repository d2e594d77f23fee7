# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Race refusals in the admin are in the admin's language, as the tournament ones are
(``games.admin.refusals``): moving a race to another tournament, the *Add scheduled
races* form and the race actions said the race services' English detail on a French
page ("Rien n'a été enregistré : the race has 1 entrant(s), admitted under its
tournament's rules: it can no longer move", "a window race needs time_limit_s > 0
(seconds)").  They now name the form's fields as it labels them, a race's phase in
words, and count with ngettext."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from games.admin.refusals import admin_refusal
from games.models import Race, Tournament
from games.services.errors import InvalidRace
from games.services.races import race_create
from tests.tournaments.factories import Result, TournamentFactory, play, running_race
from tests.tournaments.test_admin import YEAR, client_for, organiser

pytestmark = pytest.mark.django_db

N = "\u202f"  # the narrow no-break space before a French colon
Q = "\u2019"  # the French apostrophe


def messages_of(resp: Any) -> list[str]:
    return [str(m) for m in get_messages(resp.wsgi_request)]


def later_race(tournament: Tournament, name: str = "later") -> Race:
    now = timezone.now()
    race = race_create(
        name=name,
        opens_at=now + timedelta(minutes=50),
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=1, minutes=10),
    )
    race.tournament = tournament
    race.save(update_fields=["tournament"])
    return race


def move(race: Race, target: Tournament, language: str) -> list[str]:
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_race_change", args=[race.pk]),
        {
            "name": race.name,
            "tournament": target.pk,
            "entries-TOTAL_FORMS": 0,
            "entries-INITIAL_FORMS": 0,
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )
    return messages_of(resp)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "Nothing was saved: The race has 2 entrants, admitted under its tournament's "
            "rules: its “tournament” can no longer change.",
        ),
        (
            "fr",
            f"Rien n{Q}a été enregistré{N}: la course a 2 participants, admis selon les règles "
            f"de son tournoi{N}: son «\u202ftournoi\u202f» ne peut plus changer.",
        ),
        (
            "de",
            "Nichts wurde gespeichert: Das Rennen hat 2 Teilnehmer, zugelassen nach den Regeln "
            "seines Turniers: „Turnier“ kann sich nicht mehr ändern.",
        ),
    ],
)
def test_moving_a_race_with_entrants_is_refused_in_the_admins_language(
    language: str, expected: str
) -> None:
    a, b = TournamentFactory(), TournamentFactory()
    race = later_race(a)
    Race.objects.filter(pk=race.pk).update(opens_at=timezone.now() - timedelta(minutes=1))
    play(race, Result("ann", 1, 0))
    play(race, Result("bob", 1, 0))
    assert move(race, b, language) == [expected]
    race.refresh_from_db()
    assert race.tournament_id == a.pk


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            f"Rien n{Q}a été enregistré{N}: le tournoi est terminé{N}: on ne peut plus y ajouter "
            "de courses.",
        ),
        (
            "es",
            "No se ha guardado nada: el torneo está terminado: ya no se le pueden añadir carreras.",
        ),
    ],
)
def test_moving_a_race_into_a_finished_tournament_is_refused_in_words(
    language: str, expected: str
) -> None:
    race = later_race(TournamentFactory())
    done = TournamentFactory(status=Tournament.Status.FINISHED)
    assert move(race, done, language) == [expected]


def add_races(t: Tournament, language: str, **fields: Any) -> Any:
    data = {
        "count": 2,
        "first_starts_at": f"{YEAR}-01-01 10:00",
        "duration": "10:00",
        "gap": "5:00",
        "opens_before": "10",
        "variant": "classic",
        "mode": "scheduled",
        **fields,
    }
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_add_races", args=[t.pk]),
        data,
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert resp.status_code == 200
    assert not t.races.exists()
    return resp.context["form"].non_field_errors()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "A window race needs “Time limit” (more than 0 seconds)."),
        (
            "fr",
            "Une course à fenêtre a besoin de «\u202fTemps imparti\u202f» (plus de 0 seconde).",
        ),
        ("es", "Una carrera con ventana necesita «Tiempo límite» (más de 0 segundos)."),
        ("de", "Ein Zeitfenster-Rennen braucht „Zeitlimit“ (mehr als 0 Sekunden)."),
    ],
)
def test_add_races_names_the_forms_time_limit(language: str, expected: str) -> None:
    assert add_races(TournamentFactory(), language, mode="window") == [expected]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            f"Les inscriptions ne seraient jamais ouvertes{N}: donnez à «\u202fOuverture des "
            "inscriptions avant le départ\u202f» ou à «\u202fInscription tardive\u202f» une "
            "valeur supérieure à zéro.",
        ),
        (
            "de",
            "Die Teilnahme wäre nie offen: Setzen Sie „Vorlaufzeit der Teilnahme“ oder „Später "
            "Einstieg“ auf einen Wert über null.",
        ),
    ],
)
def test_add_races_that_would_never_open_is_refused_in_words(language: str, expected: str) -> None:
    errors = add_races(TournamentFactory(), language, opens_before="0", late_join="0")
    assert errors == [expected]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "R1: The race is closing: joining cannot be opened."),
        (
            "fr",
            f"R1{N}: la course est en clôture{N}: ses inscriptions ne peuvent pas être ouvertes.",
        ),
        (
            "de",
            "R1: Das Rennen ist in der Phase „wird abgeschlossen“: Die Teilnahme kann nicht "
            "geöffnet werden.",
        ),
    ],
)
def test_a_race_action_refusal_names_the_phase_in_words(language: str, expected: str) -> None:
    """A race past its end but not closed yet (closing) cannot be opened."""
    t = TournamentFactory()
    race = running_race(t, name="R1")
    Race.objects.filter(pk=race.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "open_now", "_selected_action": [str(race.pk)]},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert messages_of(resp) == [expected]


def test_closing_a_race_not_started_with_entrants_is_refused_in_french() -> None:
    t = TournamentFactory()
    race = later_race(t, name="R2")
    Race.objects.filter(pk=race.pk).update(opens_at=timezone.now() - timedelta(minutes=1))
    play(race, Result("ann", 1, 0))
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_race_changelist"),
        {"action": "close_now", "_selected_action": [str(race.pk)], "apply": "1"},
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert messages_of(resp) == [
        f"R2{N}: la course n{Q}a pas commencé, personne ne l{Q}a donc jouée{N}: annulez-la plutôt "
        f"(la clore classerait et coterait des parties que personne n{Q}a pu jouer)."
    ]


def test_a_race_refusal_without_its_facts_keeps_the_services_detail() -> None:
    exc = InvalidRace("something new").because("move_with_entrants", {})
    assert admin_refusal(exc) == "something new"
