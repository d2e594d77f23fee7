# mypy: disable-error-code="no-untyped-call, attr-defined, misc, arg-type"
"""The organisers' admin in a real browser at 1,280 px (issue 13 item 3): the header,
a race page and a tournament page render without horizontal overflow."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from tests.browser.conftest import horizontal_overflow, screenshot
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a long organiser pass phrase"


def log_in(page: Any, base: str) -> User:
    # A superuser: transactional tests flush the organisers group its migration made.
    user = User.objects.create_superuser("org", "org@example.test", PASSWORD)
    page.goto(f"{base}/admin/login/")
    page.fill("input[name=username]", "org")
    page.fill("input[name=password]", PASSWORD)
    page.click("input[type=submit]")
    page.wait_for_url(f"{base}/admin/")
    return user


def test_header_and_view_site(live_server: Any, page: Any) -> None:
    log_in(page, live_server.url)
    assert page.locator("#site-name").inner_text() == "Canfield race server: organisers"
    assert page.title() == "Tournaments, races and players | Canfield organisers"
    assert page.get_by_role("link", name="View site").get_attribute("href") == "/"
    assert horizontal_overflow(page) == 0
    assert screenshot(page, "admin-index").stat().st_size > 1000


def test_race_page_fits_1280px(live_server: Any, page: Any) -> None:
    t = TournamentFactory(name="Evening Cup with a fairly long name for the breadcrumbs")
    race = running_race(t, name="Evening Cup race 1")
    for i in range(8):
        play(race, Result(f"player_with_a_long_name_{i}", 10 + i, 1000 * i, moves=30 + i))
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/admin/games/race/{race.pk}/change/")
    assert page.locator("h2").first.inner_text() == "Evening Cup race 1"
    leader = page.locator("#entries-group tr", has_text="player_with_a_long_name_7")
    assert leader.locator("td.field-rank_now").inner_text() == "1 (live)"
    assert horizontal_overflow(page) == 0
    assert screenshot(page, "admin-race").stat().st_size > 1000


def test_tournament_page_fits_1280px(live_server: Any, page: Any) -> None:
    t = TournamentFactory(name="Evening Cup")
    finished_race(t, Result("ann", 30, 1000), Result("bob", 20, 900), name="Evening Cup race 1")
    for i in range(2, 7):
        running_race(t, name=f"Evening Cup race {i}", mode="window", time_limit_s=300)
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/admin/games/tournament/{t.pk}/change/")
    races = page.locator("#races-group")
    assert races.locator("tbody tr.has_original").count() == 6
    assert horizontal_overflow(page) == 0
    # Every column of the races table is inside the viewport (nothing cut off).
    right = page.evaluate(
        "() => Math.max(...[...document.querySelectorAll('#races-group th')]"
        ".map(th => th.getBoundingClientRect().right))"
    )
    assert right <= 1280
    assert screenshot(page, "admin-tournament").stat().st_size > 1000


@pytest.mark.parametrize(
    ("model", "locale"),
    [
        (model, locale)
        for model in ("race", "raceentry")
        for locale in ("en-GB", "fr-FR", "de-DE", "es-ES")
    ],
)
def test_race_and_entry_lists_fit_1280px(
    live_server: Any, chromium: Any, model: str, locale: str
) -> None:
    """The race list's last columns (entrants, commitment) were cut off on a desktop; a
    new user saw the French, German and Spanish lists cut ("ENGAGEME") where the English
    one fitted."""
    t = TournamentFactory(name="Evening Cup with a fairly long name for the breadcrumbs")
    for i in range(3):
        race = running_race(t, name=f"Evening Cup race number {i} of the autumn season")
        play(race, Result(f"player_{i}", 10 + i, 1000 * i))
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        _list_fits(live_server, page, model, locale)
    finally:
        ctx.close()


def _list_fits(live_server: Any, page: Any, model: str, locale: str) -> None:
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/admin/games/{model}/")
    expect(page.locator("#result_list tbody tr")).to_have_count(3)
    assert screenshot(page, f"admin-{model}-list-{locale}").stat().st_size > 1000
    # Every cell inside the list's own box: none hidden behind its scroll bar.
    right, box = page.evaluate(
        "() => [Math.max(...[...document.querySelectorAll('#result_list th, #result_list td')]"
        ".map(c => c.getBoundingClientRect().right)),"
        " document.querySelector('#changelist .results').getBoundingClientRect().right]"
    )
    assert right <= box <= 1280
    assert horizontal_overflow(page) == 0


def test_cancelling_a_race_from_the_list_asks_first(live_server: Any, chromium: Any) -> None:
    """An organiser picks *Cancel* in the race list's action bar: a page says what will
    happen to the race (in the admin's language) and nothing is done until they confirm;
    *No, take me back* leaves the race running."""
    race = running_race(TournamentFactory(name="Abendpokal"), name="Lauf 1")
    play(race, Result("ann", 12, 900))
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="de-DE")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        changelist = f"{live_server.url}/admin/games/race/"
        for confirm in (False, True):
            page.goto(changelist)
            page.locator("#result_list input.action-select").check()
            page.select_option("select[name=action]", "cancel")
            page.get_by_role("button", name="Ausführen").click()
            expect(page.locator("#content h1")).to_have_text("Dieses Rennen absagen?")
            assert page.locator("#confirm-races li").all_inner_texts() == [
                "Lauf 1 (Abendpokal): läuft, 1 Teilnehmer; wird abgesagt"
            ]
            assert horizontal_overflow(page) == 0
            # The two choices are buttons of one height, side by side.
            yes, no = (
                page.get_by_role("button", name="Ja, dieses Rennen absagen").bounding_box(),
                page.get_by_role("link", name="Nein, zurück").bounding_box(),
            )
            assert abs(yes["height"] - no["height"]) <= 1
            assert abs(yes["y"] - no["y"]) <= 1
            assert no["x"] > yes["x"] + yes["width"]
            if not confirm:
                assert screenshot(page, "admin-race-cancel-confirm-de").stat().st_size > 1000
                page.get_by_role("link", name="Nein, zurück").click()
                page.wait_for_url(changelist)
                race.refresh_from_db()
                assert race.status == "scheduled"
            else:
                page.get_by_role("button", name="Ja, dieses Rennen absagen").click()
                page.wait_for_url(changelist)
                expect(page.locator("ul.messagelist")).to_contain_text("Abgesagt: 1 Rennen.")
                race.refresh_from_db()
                assert race.status == "cancelled"
    finally:
        ctx.close()


def test_publishing_a_tournament_from_the_list_asks_first(live_server: Any, chromium: Any) -> None:
    """An organiser picks *Publish* in the tournament list's action bar: a page says what
    publishing will do to the draft (in the admin's language, French here) and nothing is
    done until they confirm; *No, take me back* leaves it a draft."""
    from games.models import Tournament

    draft = TournamentFactory(name="Coupe du soir", status=Tournament.Status.DRAFT)
    running_race(draft, name="Manche 1")
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale="fr-FR")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        changelist = f"{live_server.url}/admin/games/tournament/"
        for confirm in (False, True):
            page.goto(changelist)
            page.locator("#result_list input.action-select").check()
            page.select_option("select[name=action]", "publish")
            page.locator("button[name=index]").click()
            expect(page.locator("#content h1")).to_have_text("Publier ce tournoi\u202f?")
            assert page.locator("#confirm-tournaments li").all_inner_texts() == [
                "Coupe du soir\u202f: brouillon, 1 course\u202f; sera ouvert\u202f: les joueurs "
                "le voient, ainsi que ses courses"
            ]
            assert horizontal_overflow(page) == 0
            yes = page.get_by_role("button", name="Oui, publier ce tournoi")
            no = page.get_by_role("link", name="Non, revenir à la page précédente")
            yes_box, no_box = yes.bounding_box(), no.bounding_box()
            assert abs(yes_box["y"] - no_box["y"]) <= 1
            if not confirm:
                assert screenshot(page, "admin-tournament-publish-confirm-fr").stat().st_size > 1000
                no.click()
                page.wait_for_url(changelist)
                draft.refresh_from_db()
                assert draft.status == "draft"
            else:
                yes.click()
                page.wait_for_url(changelist)
                expect(page.locator("ul.messagelist")).to_contain_text(
                    "1 tournoi désormais ouvert."
                )
                draft.refresh_from_db()
                assert draft.status == "open"
    finally:
        ctx.close()
