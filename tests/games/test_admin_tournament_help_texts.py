# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The tournament form's help texts read alike: a new user saw the points table's alone
begin with a capital letter ("Points by place scheme: ..."), in every language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from tests.games.test_admin_language import get, text_of
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


@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_every_help_text_of_the_tournament_form_starts_in_lower_case(
    cup: dict[str, Any], language: str
) -> None:
    """German begins with a noun (capitalised in German); the other languages alike."""
    t = cup["tournament"]
    for url in (
        reverse("admin:games_tournament_change", args=[t.pk]),
        reverse("admin:games_tournament_add"),
    ):
        page, _ = get(cup["client"], url, language)
        helps = [
            text_of(h)
            for h in re.findall(r'<div class="help"[^>]*>(.*?)</div>\s*</div>', page, re.S)
        ]
        assert len(helps) >= 4, helps
        assert [h for h in helps if h[0].isupper()] == []
