# mypy: disable-error-code="misc"
"""In Chromium: a player whose race game is blocked, in a race with Undo, reads why the
race goes on ("Time left" counting down while another player has resigned, with no word
why): a note under the counts that stays when the board's message is closed, at 1,280 px
and on a 390 px phone in French."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_end, move_play
from games.services.races import race_join
from tests.browser.conftest import screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations
from tests.games.test_undo_blocked import SEED, TO_BLOCKED
from tests.tournaments.factories import running_race

#: The note's question, then its answer once the player opens it.
WORDS = {
    "en-GB": ("Why does the race go on?", "This race allows Undo"),
    "fr-FR": ("Pourquoi la course continue\u202f?", "Cette course permet Annuler un coup"),
}


@pytest.mark.parametrize(("locale", "width"), [("en-GB", 1280), ("fr-FR", 390)])
def test_a_blocked_player_reads_why_the_race_goes_on(
    live_server: Any,
    chromium: Any,
    transactional_db: Any,
    monkeypatch: pytest.MonkeyPatch,
    locale: str,
    width: int,
) -> None:
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="Saturday Cup #1", allow_undo=True)
    alice = User.objects.create_user("alice", password=PASSWORD)
    bob = User.objects.create_user("bob", password=PASSWORD)
    game = race_join(race_id=race.id, player=alice).entry.game
    other = race_join(race_id=race.id, player=bob).entry.game
    assert game is not None
    assert other is not None
    game_end(game_id=other.id, player=bob)  # the other player resigned
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=alice, move=move)
    phone = width < 500
    ctx = chromium.new_context(
        viewport={"width": width, "height": 844 if phone else 900},
        has_touch=phone,
        is_mobile=phone,
        locale=locale,
    )
    try:
        page = ctx.new_page()
        log_in(page, live_server.url, "alice")
        page.goto(f"{live_server.url}/play/{game.id}/")
        note = page.locator("#board [data-race-open]")
        question, answer = WORDS[locale]
        expect(note).to_be_visible()
        # Folded: the board's message says what Undo and Resign do; the note answers
        # why the race goes on when asked (on a phone the two filled the first screen).
        expect(note.locator("summary")).to_have_text(question)
        expect(note.locator("p")).to_be_hidden()
        note.locator("summary").click()
        expect(note.locator("p")).to_be_visible()
        expect(note.locator("p")).to_contain_text(answer)
        expect(page.locator("#board [data-countdown][data-refresh-board]")).to_have_count(1)
        note.scroll_into_view_if_needed()
        screenshot(page, f"race-open-note-blocked-{locale}-{width}-message", full_page=False)
        # Closing the board's message (the blocked game's last word) leaves the note.
        page.locator("#board .message-close").click()
        expect(note).to_be_visible()
        assert serious_violations(page) == []
        screenshot(page, f"race-open-note-blocked-{locale}-{width}", full_page=False)
    finally:
        ctx.close()
