# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The *Add races* form checks the time limit against the mode, as the API does.

A new organiser's findings: a scheduled race's time limit (``5``) was silently ignored
(the race got its span), where the API refuses it; and a window race's ``5`` beside a
Duration of ``10`` (minutes) was a 5-second time limit, a bare number being seconds in
Time limit but minutes in the fields beside it."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser

#: A year always ahead of the clock.
YEAR = timezone.now().year + 3

pytestmark = pytest.mark.django_db


def _races(mode: str, **fields: Any) -> dict[str, Any]:
    """One 10-minute race in ``mode``, with ``fields``."""
    return {
        "count": 1,
        "first_starts_at": f"{YEAR}-05-01 18:00",
        "duration": "10",
        "gap": "0:00",
        "opens_before": "1:00",
        "variant": "classic",
        "mode": mode,
        **fields,
    }


def _post(data: dict[str, Any], language: str = "en") -> tuple[Any, Any]:
    c = client_for(organiser())
    t = TournamentFactory(name="Limits")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    return t, c.post(url, data, HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize(
    ("language", "error"),
    [
        (
            "en",
            "A scheduled race lasts its duration (10:00) for every entrant: leave the time "
            "limit empty, or choose the window mode for a time limit per entrant.",
        ),
        (
            "fr",
            "Une course à horaire fixe dure sa durée (10:00) pour chaque participant\u202f: "
            "laissez le temps imparti vide, ou choisissez le mode fenêtre pour un temps "
            "imparti par participant.",
        ),
    ],
)
def test_a_scheduled_race_refuses_a_time_limit_other_than_its_duration(
    language: str, error: str
) -> None:
    t, answer = _post(_races("scheduled", time_limit_s="5"), language)
    assert answer.status_code == 200
    assert answer.context["form"].errors == {"time_limit_s": [error]}
    assert t.races.count() == 0


@pytest.mark.parametrize("typed", ["", "10:00", "600"])
def test_a_scheduled_race_takes_no_time_limit_or_its_own_span(typed: str) -> None:
    t, answer = _post(_races("scheduled", time_limit_s=typed))
    assert answer.status_code == 302
    assert t.races.get().time_limit_s == 600


@pytest.mark.parametrize(
    ("language", "typed", "error"),
    [
        ("en", "5", "5 seconds is too short: for 5 minutes write 5:00 (for 5 seconds, 0:05)."),
        ("en", "1", "1 second is too short: for 1 minute write 1:00 (for 1 second, 0:01)."),
        (
            "en",
            " 29 ",
            "29 seconds is too short: for 29 minutes write 29:00 (for 29 seconds, 0:29).",
        ),
        (
            "fr",
            "5",
            "5 secondes, c\u2019est trop court\u202f: pour 5 minutes, écrivez 5:00 "
            "(pour 5 secondes, 0:05).",
        ),
        (
            "es",
            "5",
            "5 segundos es demasiado poco: para 5 minutos escriba 5:00 (para 5 segundos, 0:05).",
        ),
        (
            "de",
            "5",
            "5 Sekunden sind zu kurz: für 5 Minuten schreiben Sie 5:00 (für 5 Sekunden, 0:05).",
        ),
    ],
)
def test_a_window_race_refuses_a_short_bare_number(language: str, typed: str, error: str) -> None:
    t, answer = _post(_races("window", time_limit_s=typed), language)
    assert answer.status_code == 200
    assert answer.context["form"].errors == {"time_limit_s": [error]}
    assert t.races.count() == 0


@pytest.mark.parametrize(
    ("typed", "seconds"), [("30", 30), ("0:05", 5), ("5:00", 300), ("0:00:20", 20)]
)
def test_a_window_race_takes_30_bare_seconds_or_an_explicit_short_limit(
    typed: str, seconds: int
) -> None:
    t, answer = _post(_races("window", time_limit_s=typed))
    assert answer.status_code == 302
    assert t.races.get().time_limit_s == seconds
