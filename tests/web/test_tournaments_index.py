# mypy: disable-error-code="no-untyped-call"
"""``/tournaments/``: the public tournaments for everyone, drafts for organisers only."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest

from games.models import Tournament
from tests.factories import OrganiserFactory
from tests.tournaments.factories import TournamentFactory
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_drafts_are_listed_for_organisers_only() -> None:
    TournamentFactory(name="Spring cup")
    TournamentFactory(name="Secret plan", status=Tournament.Status.DRAFT)
    public = PageClient().get("/tournaments/")
    assert public.status_code == 200
    html = public.content.decode()
    assert "Spring cup" in html
    assert "Secret plan" not in html
    staff = PageClient(OrganiserFactory()).get("/tournaments/").content.decode()
    assert "Secret plan" in staff
    assert "Drafts (organisers only)" in staff


def test_the_index_is_translated_and_refuses_a_post() -> None:
    TournamentFactory(name="Coupe", status=Tournament.Status.FINISHED)
    fr = PageClient().get("/tournaments/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tournois terminés" in fr
    assert PageClient().client.post("/tournaments/").status_code == 405


def _made(status: str, count: int, prefix: str) -> None:
    """``count`` tournaments of ``status`` named ``<prefix> 01`` (oldest) .. a minute apart."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(1, count + 1):
        TournamentFactory(
            name=f"{prefix} {i:02d}", status=status, created_at=start + timedelta(minutes=i)
        )


def _names(html: str, prefix: str) -> list[str]:
    return re.findall(rf">({prefix} \d\d)</a>", html)


def test_finished_and_cancelled_tournaments_are_shown_twenty_at_a_time() -> None:
    _made(Tournament.Status.FINISHED, 22, "Done")
    _made(Tournament.Status.CANCELLED, 21, "Off")
    _made(Tournament.Status.OPEN, 25, "Live")
    first = PageClient().get("/tournaments/").content.decode()
    assert _names(first, "Done") == [f"Done {i:02d}" for i in range(22, 2, -1)]
    assert _names(first, "Off") == [f"Off {i:02d}" for i in range(21, 1, -1)]
    assert len(_names(first, "Live")) == 25  # open tournaments are all listed
    assert first.count("Page 1 of 2") == 2
    assert '<a href="?finished_page=2#t-finished-h" rel="next">Older tournaments</a>' in first
    assert '<a href="?cancelled_page=2#t-cancelled-h" rel="next">Older tournaments</a>' in first
    assert "Newer tournaments" not in first
    both = PageClient().get("/tournaments/?finished_page=2&cancelled_page=2").content.decode()
    assert _names(both, "Done") == ["Done 02", "Done 01"]
    assert _names(both, "Off") == ["Off 01"]
    # Each section's links keep the other section's page.
    assert '<a href="?cancelled_page=2#t-finished-h" rel="prev">Newer tournaments</a>' in both
    assert '<a href="?finished_page=2#t-cancelled-h" rel="prev">Newer tournaments</a>' in both
    assert "Older tournaments" not in both


def test_a_page_number_that_is_no_page_shows_the_nearest_page() -> None:
    _made(Tournament.Status.FINISHED, 21, "Done")
    for asked, shown in (("abc", ["Done 21", "Done 20"]), ("99", ["Done 01"]), ("0", ["Done 01"])):
        page = PageClient().get(f"/tournaments/?finished_page={asked}")
        assert page.status_code == 200
        assert _names(page.content.decode(), "Done")[:2] == shown
    twice = PageClient().get("/tournaments/?finished_page=1&finished_page=2")
    assert twice.status_code == 400


def test_one_page_sections_have_no_pager_and_the_pager_is_translated() -> None:
    _made(Tournament.Status.FINISHED, 20, "Done")
    assert "Page 1 of" not in PageClient().get("/tournaments/").content.decode()
    _made(Tournament.Status.CANCELLED, 21, "Off")
    for lang, words in (
        ("fr", ("Page 1 sur 2", "Tournois plus anciens")),
        ("es", ("Página 1 de 2", "Torneos más antiguos")),
        ("de", ("Seite 1 von 2", "Ältere Turniere")),
    ):
        html = PageClient().get("/tournaments/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert html.count(words[0]) == 1, lang
        assert words[1] in html, lang
    fr2 = PageClient().get("/tournaments/?cancelled_page=2", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Tournois plus récents" in fr2.content.decode()
