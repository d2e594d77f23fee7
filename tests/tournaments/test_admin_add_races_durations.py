# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The *Add races* form takes every duration the same way: a new organiser found
Duration, Gap and "Opens before" taking ``7:30`` while "Time limit (seconds)" took only
seconds, and the README calling "Opens before" the joining lead time."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser

#: A year always ahead of the clock.
YEAR = timezone.now().year + 3

pytestmark = pytest.mark.django_db


def _window_races(**fields: Any) -> dict[str, Any]:
    """One 10-minute window race, with ``fields``."""
    return {
        "count": 1,
        "first_starts_at": f"{YEAR}-05-01 18:00",
        "duration": "10:00",
        "gap": "0:00",
        "opens_before": "1:00",
        "variant": "classic",
        "mode": "window",
        **fields,
    }


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [
        ("7:30", 450),
        ("0:07:30", 450),
        ("450", 450),  # a bare number stays seconds, as the field took before
        (" 60 ", 60),
        ("10:00", 600),
    ],
)
def test_time_limit_takes_minutes_seconds_and_plain_seconds(typed: str, seconds: int) -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Window")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    assert c.post(url, _window_races(time_limit_s=typed)).status_code == 302
    assert t.races.get().time_limit_s == seconds


@pytest.mark.parametrize(
    ("language", "typed", "error"),
    [
        ("en", "7:75", "Enter minutes:seconds (e.g. 7:30), H:MM:SS or whole seconds."),
        ("en", "0:00", "Enter at least 0:01."),
        (
            "fr",
            "sept",
            "Saisissez minutes:secondes (par ex. 7:30), H:MM:SS ou des secondes entières.",
        ),
        (
            "de",
            "\u0663",
            "Geben Sie Minuten:Sekunden (z. B. 7:30), H:MM:SS oder ganze Sekunden ein.",
        ),
    ],
)
def test_time_limit_refuses_other_text_in_words(language: str, typed: str, error: str) -> None:
    c = client_for(organiser())
    t = TournamentFactory(name="Window")
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    answer = c.post(url, _window_races(time_limit_s=typed), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer.context["form"].errors == {"time_limit_s": [error]}
    assert not t.races.exists()


def test_every_duration_says_its_format_and_one_name_for_the_lead_time() -> None:
    c = client_for(organiser())
    url = reverse("admin:games_tournament_add_races", args=[TournamentFactory().pk])
    form = c.get(url).context["form"]
    fields = form.fields
    assert str(fields["opens_before"].label) == "Joining lead time"
    assert str(fields["time_limit_s"].label) == "Time limit"
    for name in ("duration", "gap", "opens_before", "late_join"):
        assert ", as minutes:seconds (" in str(fields[name].help_text), name
        assert "H:MM:SS or whole minutes" in str(fields[name].help_text), name
    assert str(fields["time_limit_s"].help_text) == (
        "window mode: the time each player gets from their own start, as minutes:seconds "
        "(7:30), H:MM:SS or whole seconds (450)"
    )
    html = c.get(url).content.decode()
    for name in ("duration", "gap", "opens_before", "time_limit_s", "late_join"):
        assert re.search(rf'<input type="text" name="{name}"[^>]*placeholder="M:SS"', html), name
    assert "Opens before" not in html


def test_the_readme_names_the_lead_time_as_the_form_does() -> None:
    readme = (settings.BASE_DIR / "README.md").read_text()
    assert "*joining lead time*" in readme
    assert "Opens before" not in readme
