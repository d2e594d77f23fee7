# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""``/admin/games/race/add/``: a new user got a bare "403 Forbidden" page.  Races are
added through a tournament's "Add scheduled races…" or the staff API (each needs a fresh
secret seed), so the address goes back to the race list with a message saying so."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Race
from tests.games.test_admin_language import text_of
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> dict[str, Any]:
    """A tournament with a finished race and a running one of another preset."""
    t = TournamentFactory(name="Evening Cup")
    done = finished_race(t, Result("ann", 30, 4000, moves=70), name="R1")
    live = running_race(t, name="R2", variant="draw-one")
    play(live, Result("ann", 20, 3000, moves=50))
    return {"tournament": t, "finished": done, "running": live, "client": client_for(organiser())}


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_adding_a_race_in_the_admin_goes_back_to_the_list_saying_how(
    cup: dict[str, Any], language: str
) -> None:
    c: Client = cup["client"]
    wanted = {
        "en": "Races are not added here: open a tournament and use “Add scheduled races…”",
        "fr": "Les courses ne s\u2019ajoutent pas ici\u202f: ouvrez un tournoi et utilisez "
        "«\u202fAjouter des courses programmées…\u202f»",
        "es": "Las carreras no se añaden aquí: abra un torneo y use «Añadir carreras programadas…»",
        "de": "Rennen werden nicht hier hinzugefügt: Öffnen Sie ein Turnier und nutzen Sie "
        "„Geplante Rennen hinzufügen …“",
    }
    before = Race.objects.count()
    for method in (c.get, c.post):
        resp = method(reverse("admin:games_race_add"), HTTP_ACCEPT_LANGUAGE=language, follow=True)
        assert resp.redirect_chain == [(reverse("admin:games_race_changelist"), 302)]
        page = resp.content.decode()
        assert text_of(page).count(wanted[language]) == 1
        assert "(POST /api/v1/races)" in text_of(page)
        # Shown as a warning, not with the green tick of a success.
        assert '<li class="warning">' in page
        assert f'href="{reverse("admin:games_race_add")}"' not in page  # no Add button
    assert Race.objects.count() == before


def test_adding_a_race_without_the_right_to_see_races_is_refused() -> None:
    from tests.factories import StaffFactory

    c = client_for(StaffFactory())  # staff, in no group: may not see races
    assert c.get(reverse("admin:games_race_add")).status_code == 403
