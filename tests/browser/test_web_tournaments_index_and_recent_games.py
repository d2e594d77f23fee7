# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""A new user's pass, what a person sees in Chromium: the tournaments index at
``/tournaments/`` (a guessed address answered Django's 404), a total time of 0 read as
a duration ("0.000 s", not "at the deal"), the German rating-change column, recent
practice games told apart without their seed, and a window race's note under its
Start button on a German phone."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import expect

from games.engine.cards import CARD_NAMES
from games.models import Game, Tournament
from games.services.games import game_start, move_play
from games.services.races import race_create, race_join
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.web_helpers import PASSWORD, log_in
from tests.tournaments.factories import Result, TournamentFactory, finished_race


def test_the_tournaments_index_lists_the_public_ones(
    live_server: Any, page: Any, transactional_db: Any
) -> None:
    TournamentFactory(name="Spring cup")
    TournamentFactory(name="Winter cup", status=Tournament.Status.FINISHED)
    TournamentFactory(name="Called off", status=Tournament.Status.CANCELLED)
    TournamentFactory(name="Secret plan", status=Tournament.Status.DRAFT)
    page.goto(f"{live_server.url}/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tournaments").click()
    page.wait_for_url("**/tournaments/")
    main = page.locator("main")
    expect(main.locator("h1")).to_have_text("Tournaments")
    sections = {
        "Open tournaments": "Spring cup",
        "Finished tournaments": "Winter cup",
        "Cancelled tournaments": "Called off",
    }
    for heading, name in sections.items():
        section = main.locator("section", has=page.get_by_role("heading", name=heading))
        expect(section).to_contain_text(name)
        expect(section).to_contain_text("0 races")
    expect(main).not_to_contain_text("Secret plan")
    expect(main).not_to_contain_text("Drafts")
    screenshot(page, "tournaments-index-en-1280")
    main.get_by_role("link", name="Winter cup").click()
    expect(page.locator("h1")).to_have_text("Winter cup")
    # The lobby's list (its ten newest) links to the whole index.
    page.goto(f"{live_server.url}/")
    page.locator("main").get_by_role("link", name="All tournaments").click()
    page.wait_for_url("**/tournaments/")


def test_a_total_time_of_zero_is_a_duration(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    cup = TournamentFactory(name="Quick cup")
    finished_race(cup, Result("ann", 1, 0), Result("bob", 1, 0))
    for locale, width, zero in (("en-GB", 1280, "0.000\xa0s"), ("fr-FR", 390, "0,000\xa0s")):
        ctx = chromium.new_context(viewport={"width": width, "height": 900}, locale=locale)
        page = ctx.new_page()
        page.goto(f"{live_server.url}/tournaments/{cup.id}/")
        cells = page.locator("table.standings tbody td[data-time-ms]")
        expect(cells).to_have_count(2)
        assert cells.all_inner_texts() == [zero, zero]
        expect(page.locator("table.standings")).not_to_contain_text("deal")
        expect(page.locator("table.standings")).not_to_contain_text("donne")
        screenshot(page, f"tournament-zero-time-{locale}-{width}")
        ctx.close()


def test_the_german_rating_change_column_reads_naturally(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    race = finished_race(None, Result("ann", 20, 4000), Result("bob", 10, 5000))
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = ctx.new_page()
    page.goto(f"{live_server.url}/races/{race.id}/results")
    headers = page.locator("table thead th").all_text_contents()
    assert "Wertung (±)" in headers
    assert "Wertung (Änderung)" not in headers
    screenshot(page, "results-de-390")
    ctx.close()


#: The clock of the recent-games tests: the pages' "started 5 minutes ago" counts from it.
NOW = datetime(2026, 3, 14, 15, 9, 26, tzinfo=UTC)


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The server's clock (``timezone.now``, which the live server's thread reads too)
    stopped at :data:`NOW`: how long ago a game started cannot depend on how long the
    test took, or on the wall clock."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


def test_recent_practice_games_are_told_apart_without_their_seed(
    live_server: Any, page: Any, transactional_db: Any, clock: datetime
) -> None:
    """Ten lines read "Practice · Classic — playing · 1 card home" alike: each now says
    how many moves were played and how long ago it started (the local date to the second
    is the tooltip), never the seed of a game being played (RULES.md 7)."""
    ann = User.objects.create_user("ann", password=PASSWORD)
    seeds = ["quiet-fox-1", "quiet-fox-2", "quiet-fox-3"]
    for minutes_ago, seed, draws in zip((50, 20, 5), seeds, (0, 1, 2), strict=True):
        game = game_start(player=ann, seed=seed)
        for _ in range(draws):
            move_play(game_id=game.id, player=ann, move="draw")
        Game.objects.filter(id=game.id).update(started_at=clock - timedelta(minutes=minutes_ago))
    log_in(page, live_server.url, "ann")
    for address in ("/", "/players/ann/"):
        page.goto(f"{live_server.url}{address}")
        lines = page.locator("main ul.list li").filter(has_text="playing").all_inner_texts()
        assert len(lines) == 3, lines
        assert len(set(lines)) == 3, lines
        text = " ".join(lines)
        assert "0 moves played" in text
        assert "1 move played" in text
        assert "2 moves played" in text
        assert re.search(r"started 5\xa0minutes ago", text), text
        assert re.search(r"started 50\xa0minutes ago", text), text
        assert not any(seed in page.content() for seed in seeds)
    screenshot(page, "player-recent-games-1280")


def test_the_window_note_sits_under_the_start_button_on_a_german_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    User.objects.create_user("alice", password=PASSWORD)
    now = timezone.now()
    race = race_create(
        name="Bot window",
        mode="window",
        time_limit_s=60,
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=6),
    )
    race_join(race_id=race.id, player=User.objects.get(username="alice"))
    ctx = chromium.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    page = ctx.new_page()
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/races/{race.id}/")
    button = page.get_by_role("button", name="Meine Uhr starten und spielen")
    note = page.locator("[data-window-note]")
    expect(note).to_contain_text("Sie haben 60 Sekunden")
    b, n = button.bounding_box(), note.bounding_box()
    # Below the button, starting at its left edge, not wrapped beside it.
    assert n["y"] >= b["y"] + b["height"], (b, n)
    assert abs(n["x"] - b["x"]) <= 1, (b, n)
    assert horizontal_overflow(page) == 0
    screenshot(page, "window-note-de-390")
    ctx.close()


def test_two_games_started_the_same_second_differ_by_base_rank(
    live_server: Any, page: Any, transactional_db: Any, clock: datetime
) -> None:
    """Two practice games started the same second read alike but for the deal's base
    rank (public, RULES.md 2.2 and 7); the line shows how long ago the game started and
    the full local date is the ``<time>``'s tooltip (app.js, ``data-local-title``)."""
    ann = User.objects.create_user("ann", password=PASSWORD)
    for card in ("QH", "3C"):
        rest = [c for c in CARD_NAMES if c != card]
        game_start(player=ann, deck=[*rest[:13], card, *rest[13:]])
    Game.objects.filter(player=ann).update(started_at=clock - timedelta(minutes=3))
    log_in(page, live_server.url, "ann")
    for address in ("/", "/players/ann/"):
        page.goto(f"{live_server.url}{address}")
        lines = page.locator("main ul.list li").filter(has_text="playing").all_inner_texts()
        assert len(lines) == 2, lines
        assert sorted(re.search(r"base rank: (\w+)", line)[1] for line in lines) == [  # type: ignore[index]
            "queen",
            "three",
        ]
        assert all(re.search(r"started 3\xa0minutes ago$", line) for line in lines), lines
        titles = page.locator("main li time[data-local-title]").evaluate_all(
            "els => els.map(e => e.title)"
        )
        assert len(titles) == 2, titles
        # Localised by app.js: no longer the server's "YYYY-MM-DD HH:MM:SS UTC" (its own
        # form names the zone too, "UTC" in a browser on UTC).
        assert all(
            t and not re.match(r"\d{4}-\d\d-\d\d ", t) and re.search(r"\d:\d\d:\d\d", t)
            for t in titles
        ), titles
    screenshot(page, "player-recent-games-base-rank-1280")
