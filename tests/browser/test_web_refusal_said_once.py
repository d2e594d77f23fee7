"""A refused move is said to a screen reader once, in Chromium.

Every outcome is said through ``#announcer``, the polite live region that stays on the
page (``app.js`` ``announce``). The board that comes back with a refusal is swapped in
whole, and its message was ``role="alert"``: an alert added to the page is announced by
itself (Chromium fires an alert event for it, which screen readers speak), so a refusal
was heard twice, once from the new board and once from ``#announcer``. The board's
message is now no live region at all, whatever it says (some screen readers read a
polite region added to the page on arrival too: test_web_outcome_said_once.py), and a
refusal keeps its look (``class="message error"``, "Refused:").
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.services.games import game_start
from tests.browser.web_helpers import PASSWORD, log_in


def _said_once(page: Any) -> None:
    """The refusal shows on the board, is in ``#announcer``, and no alert carries it."""
    message = page.locator("#board-message")
    expect(message).to_contain_text("Refused:")
    expect(message).to_have_class("message error")
    assert message.get_attribute("role") is None
    assert message.get_attribute("aria-live") is None
    expect(page.locator("#announcer")).to_contain_text("Refused:")
    expect(page.locator("[role=alert]")).to_have_count(0)


@pytest.mark.django_db(transaction=True)
def test_a_refused_key_move_is_not_also_an_alert(live_server: Any, page: Any) -> None:
    User.objects.create_user("ida", password=PASSWORD)
    game = game_start(player=User.objects.get(username="ida"), variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "ida")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.keyboard.press("1")
    page.keyboard.press("1")  # the top card of pile 1 onto pile 1: refused
    _said_once(page)


@pytest.mark.django_db(transaction=True)
def test_a_refused_typed_move_is_not_also_an_alert(live_server: Any, page: Any) -> None:
    User.objects.create_user("ivo", password=PASSWORD)
    game = game_start(player=User.objects.get(username="ivo"), variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "ivo")
    page.goto(f"{live_server.url}/play/{game.id}/")
    page.click("details.typed summary")
    page.fill("#typed-move", "QD>t9")
    page.press("#typed-move", "Enter")
    _said_once(page)
    expect(page.locator("#board-message")).to_contain_text("'t9' is not a destination")
