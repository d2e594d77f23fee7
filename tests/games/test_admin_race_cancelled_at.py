# mypy: disable-error-code="no-untyped-call, assignment"
"""The admin's race page shows when a cancelled race was cancelled (``Race.cancelled_at``,
read-only, with its help text, in the page's language); a race not cancelled shows no
such line."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.services.races import race_cancel
from tests.factories import StaffFactory
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "label", "help_start"),
    [
        ("en", "Cancelled", "when the organisers cancelled it"),
        ("fr", "Annulée", "quand les organisateurs l\u2019ont annulée"),
        ("es", "Cancelada", "cuándo la cancelaron los organizadores"),
        ("de", "Abgesagt", "wann die Veranstalter das Rennen abgesagt haben"),
    ],
)
def test_a_cancelled_race_shows_when_it_was_cancelled(
    language: str, label: str, help_start: str
) -> None:
    user: User = StaffFactory(is_superuser=True)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    race = running_race(name="Called off")
    at = race.starts_at + timedelta(seconds=30)
    race_cancel(race_id=race.id, now=at)
    page = client.get(reverse("admin:games_race_change", args=[race.pk])).content.decode()
    block = page[page.index("field-cancelled") :]
    block = block[: block.index("</fieldset>") if "</fieldset>" in block else 2000]
    assert f"<label>{label}" in block, block  # then the language's colon
    assert f"{at.strftime('%Y-%m-%d %H:%M:%S')} UTC" in block
    assert help_start in block
    assert 'name="cancelled' not in page  # read-only: no input
    running = running_race(name="On")
    page = client.get(reverse("admin:games_race_change", args=[running.pk])).content.decode()
    assert "field-cancelled" not in page
