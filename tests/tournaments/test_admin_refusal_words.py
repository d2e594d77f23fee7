# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Tournament refusals in the admin are in the admin's language, name the form's fields
as it labels them, and show times in the admin's format: the French admin said
"max_entrants must be at least 1 (or empty for no limit)", a past start
"...elle se termine à 2026-12-04 23:07:00+00:00...", and the English "Finish" refusal
"2 race(s) ... before finishing it" (no full stop, "(s)")."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Tournament
from tests.tournaments.factories import Result, TournamentFactory, play, running_race
from tests.tournaments.test_admin import client_for, organiser, tournament_post

pytestmark = pytest.mark.django_db

MAX_ENTRANTS = {
    "en": "“max entrants” must be at least 1 (or empty for no limit).",
    "fr": "«\u202fnombre max. de participants\u202f» doit valoir au moins 1 (ou rester vide\u202f: "
    "pas de limite).",
    "es": None,
    "de": None,
}


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_max_entrants_zero_is_refused_in_the_admins_language(language: str) -> None:
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_add"),
        tournament_post(max_entrants=0),
        HTTP_ACCEPT_LANGUAGE=language,
    )
    (error,) = resp.context["adminform"].form.non_field_errors()
    assert "max_entrants" not in error
    expected = MAX_ENTRANTS[language]
    if expected is not None:
        assert error == expected
    assert error.endswith(".")
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "Busy Cup: 2 races of the tournament are not finished (upcoming, running or being "
            "scored): close or cancel them before finishing the tournament.",
        ),
        (
            "de",
            "Busy Cup: 2 Rennen des Turniers sind nicht beendet (demnächst, laufend oder in "
            "Wertung): Schließen Sie sie oder sagen Sie sie ab, bevor Sie das Turnier beenden.",
        ),
        (
            "fr",
            "Busy Cup\u202f: 2 courses du tournoi ne sont pas terminées (à venir, en cours ou "
            "en cours de classement)\u202f: clôturez-les ou annulez-les avant de terminer le "
            "tournoi.",
        ),
        (
            "es",
            "Busy Cup: 2 carreras del torneo no han terminado (próximas, en curso o en "
            "clasificación): ciérrelas o cancélelas antes de terminar el torneo.",
        ),
    ],
)
def test_the_finish_refusal_counts_the_races_in_words(language: str, expected: str) -> None:
    t = TournamentFactory(name="Busy Cup")
    play(running_race(t, name="one"), Result("ann", 10, 100))
    running_race(t, name="two")
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_changelist"),
        {"action": "finish", "_selected_action": [str(t.pk)], "apply": "1"},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert [str(m) for m in get_messages(resp.wsgi_request)] == [expected]
