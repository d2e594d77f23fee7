# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""A finished (or cancelled) tournament's page in the admin shows its scheme read only
with that scheme's parameters alone, as the form does while it can be edited: a
finished *points by place* tournament showed "Points per card: 1" and "Win bonus: 20",
which it never used, beside its points table."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Tournament
from games.services.tournaments import tournament_set_status
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("scoring", "shown", "hidden"),
    [
        (Tournament.Scoring.PLACE_POINTS, ["points_table"], ["points_per_card", "win_bonus"]),
        (Tournament.Scoring.CARDS_HOME, ["points_per_card", "win_bonus"], ["points_table"]),
    ],
)
@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_an_ended_tournament_shows_only_its_schemes_parameters(
    scoring: str, shown: list[str], hidden: list[str], status: str
) -> None:
    t = TournamentFactory(scoring=scoring)
    tournament_set_status(tournament_id=t.pk, status=status)
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]))
        .content.decode()
    )
    assert [f for f in shown if f'field-{f}"' in page] == shown
    assert [f for f in hidden if f'field-{f}"' in page] == []
