# mypy: disable-error-code="no-untyped-call, assignment"
"""The help under a race page's read-only rules says what the value means in the
organisers' words: an organiser session saw the API's field names ("ends_at -
starts_at", "games.services.races.races_cancel") and, under a crossed-out *Require
winnable*, "the deal was proven winnable by the solver"."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.services.races import race_cancel
from tests.factories import StaffFactory
from tests.tournaments.factories import Result, finished_race, running_race

pytestmark = pytest.mark.django_db

NN = "\u202f"  # French narrow no-break space


def _helps(page: str) -> dict[str, str]:
    """Each form row's help text by field name (rows without help left out)."""
    rows = re.finditer(
        r'<div class="form-row[^"]*field-(\w+)".*?(?=<div class="form-row|</fieldset>)',
        page,
        re.S,
    )
    found = {}
    for row in rows:
        helped = re.search(r'<div class="help"[^>]*>\s*<div>(.*?)</div>', row.group(0), re.S)
        if helped:
            found[row.group(1)] = helped.group(1).strip()
    return found


def _page(race_id: object, language: str) -> str:
    user: User = StaffFactory(is_superuser=True)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client.get(reverse("admin:games_race_change", args=[race_id])).content.decode()


def test_a_finished_races_rules_are_explained_without_field_names() -> None:
    race = finished_race(None, Result("ann", 20, 4000), name="Done")
    page = _page(race.pk, "en")
    helps = _helps(page)
    assert helps["time_limit_s"] == (
        "how long each entrant may play: in a window race from their own start, in a "
        "scheduled race from the start to the end"
    )
    assert helps["late_join_s"] == (
        "how long after the start joining stays open (0: it closes at the start; empty: "
        "until the end)"
    )
    assert helps["require_winnable"] == (
        "whether the race takes a deal the solver has proven winnable"
    )
    for code in ("ends_at", "starts_at", "proven winnable by the solver"):
        assert code not in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "when the organisers cancelled it; empty if that was not recorded"),
        (
            "fr",
            f"quand les organisateurs l\u2019ont annulée{NN}; vide si ce moment n\u2019a pas "
            "été enregistré",
        ),
        ("es", "cuándo la cancelaron los organizadores; vacío si no se registró"),
        (
            "de",
            "wann die Veranstalter das Rennen abgesagt haben; leer, wenn dies nicht "
            "gespeichert wurde",
        ),
    ],
)
def test_a_cancelled_races_time_names_no_code(language: str, words: str) -> None:
    race = running_race(name="Called off")
    race_cancel(race_id=race.id)
    page = _page(race.pk, language)
    assert _helps(page)["cancelled"] == words
    assert "races_cancel" not in page
