# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The admin's page of a cancelled race said "Temps écoulé" (timed out) for the games
the cancellation ended, where the site's pages say "race cancelled" (a new user's
report); a game out of time before the cancellation still says timed out."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from games.services.races import race_join, races_cancel
from tests.factories import UserFactory
from tests.games.test_admin_language import get
from tests.tournaments.factories import running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "cancelled", "timed_out"),
    [("en", "Race cancelled", "Timed out"), ("fr", "Course annulée", "Temps écoulé")],
)
def test_the_admin_race_page_says_race_cancelled(
    language: str, cancelled: str, timed_out: str
) -> None:
    race = running_race(name="Called off")
    game = race_join(race_id=race.id, player=UserFactory(username="ann")).entry.game
    assert game is not None
    races_cancel(race_ids=[race.id])
    game.refresh_from_db()
    assert game.status == Game.Status.TIMED_OUT  # as the service stores it
    c = client_for(organiser())
    _page, text = get(c, reverse("admin:games_race_change", args=[race.pk]), language)
    # The standings table and the entries inline both say it.
    assert text.count(cancelled) == 2, text
    assert timed_out not in text
