# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""A finished or cancelled tournament takes no races: "Add scheduled races…" was still
offered, and its form took everything before saying, once posted, that no races can be
added.  The tournament page now says so instead of the button, and the add-races page,
reached by its URL, says so instead of the form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Race, Tournament
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import YEAR, client_for, organiser

pytestmark = pytest.mark.django_db

REFUSALS = {
    ("finished", "en"): "The tournament is finished: no races can be added to it.",
    ("cancelled", "en"): "The tournament is cancelled: no races can be added to it.",
    ("finished", "fr"): "Le tournoi est terminé\u202f: on ne peut plus y ajouter de courses.",
    (
        "cancelled",
        "de",
    ): "Das Turnier ist abgesagt: Es können keine Rennen mehr hinzugefügt werden.",
}

FORM = {
    "count": 2,
    "first_starts_at": f"{YEAR}-01-01 10:00",
    "duration": "10:00",
    "gap": "5:00",
    "opens_before": "10:00",
    "variant": "classic",
    "mode": "scheduled",
}


@pytest.mark.parametrize(("status", "language"), list(REFUSALS))
def test_no_add_races_for_a_finished_or_cancelled_tournament(status: str, language: str) -> None:
    t = TournamentFactory(status=status)
    c = client_for(organiser())
    add_url = reverse("admin:games_tournament_add_races", args=[t.pk])
    refusal = REFUSALS[(status, language)]
    page = c.get(
        reverse("admin:games_tournament_change", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert add_url not in page
    assert refusal in page
    page = c.get(add_url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert refusal in page
    assert 'name="count"' not in page
    resp = c.post(add_url, FORM, HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 200
    assert refusal in resp.content.decode()
    assert not Race.objects.exists()


@pytest.mark.parametrize("status", [Tournament.Status.DRAFT, Tournament.Status.OPEN])
def test_a_draft_or_open_tournament_still_offers_add_races(status: str) -> None:
    t = TournamentFactory(status=status)
    c = client_for(organiser())
    add_url = reverse("admin:games_tournament_add_races", args=[t.pk])
    assert add_url in c.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
    assert 'name="count"' in c.get(add_url).content.decode()
    assert c.post(add_url, FORM).status_code == 302
    assert Race.objects.filter(tournament=t).count() == 2
