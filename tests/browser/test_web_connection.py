"""The pages when the connection to the server fails for a while, in Chromium: what the
play page says when a move gets no answer, and how long it stays said."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from games.models import Game
from games.services.games import game_start
from tests.browser.web_helpers import PASSWORD, log_in

OFFLINE = "The server did not answer; try again."

#: What a reverse proxy answers when the server behind it does not (nginx's own page).
GATEWAY_PAGE = (
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"
    "<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n"
    "</body>\r\n</html>\r\n"
)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("failure", ["no answer", "gateway error"])
def test_the_server_did_not_answer_goes_once_a_move_is_answered(
    live_server: Any, page: Any, failure: str
) -> None:
    player = User.objects.create_user("nia", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    base = live_server.url
    log_in(page, base, "nia")
    page.goto(f"{base}/play/{game.id}/")
    if failure == "no answer":
        page.route("**/move", lambda route: route.abort("connectionrefused"))
    else:
        page.route(
            "**/move",
            lambda route: route.fulfill(status=502, content_type="text/html", body=GATEWAY_PAGE),
        )
    page.keyboard.press("d")
    message = page.locator("#board-message")
    expect(message).to_have_text(OFFLINE)  # not the proxy page's HTML
    expect(message).to_have_class("message error")
    assert Game.objects.get(id=game.id).move_number == 0
    # The server is back: the next move is played and the message goes with it.
    page.unroute("**/move")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(message).to_have_text("draw from the stock")
    expect(message).not_to_have_class("message error")
    expect(page.locator("#announcer")).to_have_text("draw from the stock")
    page.keyboard.press("w")
    page.keyboard.press("h")  # QD home (the waste's top card after one draw of e2e-5)
    page.wait_for_selector('#board[data-move-number="2"]')
    expect(page.locator("body")).not_to_contain_text(OFFLINE)
    assert Game.objects.get(id=game.id).move_number == 2
