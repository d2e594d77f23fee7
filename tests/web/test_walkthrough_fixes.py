"""What a new user's walkthrough found on the pages: a Join button for a race whose
joining had closed, no word on the play page when a race game's time was up, "You
resigned." for a game already won, and race times to the minute only."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.services.games import game_start
from games.services.races import race_join
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_no_join_button_once_joining_has_closed(pages: PageClient) -> None:
    closed = running_race(name="Closed race", late_join_s=0)  # joining closed at the start
    still = running_race(name="Open race", late_join_s=None)  # open until the end
    lobby = pages.get("/").content.decode()
    assert "Join Open race" in lobby
    assert "Join Closed race" not in lobby
    assert lobby.count("joining closed") == 1
    page = pages.get(f"/races/{closed.id}/").content.decode()
    assert "Join the race" not in page
    assert "Joining this race is closed." in page
    assert "Join the race" in pages.get(f"/races/{still.id}/").content.decode()
    # The refused join answers with the same page: no button that cannot work.
    refused = pages.post(f"/races/{closed.id}/join", {})
    assert refused.status_code == 409
    assert "Join the race" not in refused.content.decode()


def test_the_play_page_says_when_time_is_up(pages: PageClient, player: Any) -> None:
    race = running_race(name="Timed", late_join_s=None)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    Game.objects.filter(id=game.id).update(deadline=timezone.now() - timedelta(seconds=1))
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert "Time is up: your game has ended with 1 card home." in html  # the base card
    # Said once: the closing line under the board no longer repeats "Time is up."
    assert html.count("Time is up") == 1
    assert "Your game is over. The results, the seed and the replays appear" in html
    # The board follows the race's event stream, and asks again every 10 s where the
    # stream is refused, to show the results link once the race is scored.
    assert (
        f'data-await-results data-race-events="{race.id}" hx-get="/play/{game.id}/board" '
        'hx-trigger="every 10s"'
    ) in html
    assert "Time left" not in html


def test_resigning_a_game_already_won_says_so(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, variant="classic", seed="3")
    Game.objects.filter(id=game.id).update(status=Game.Status.WON)
    answer = pages.post(f"/play/{game.id}/resign", {"confirmed": "1"}, htmx=True)
    html = answer.content.decode()
    assert "The game is already over." in html
    assert "You resigned" not in html
    assert Game.objects.get(id=game.id).status == "won"


def test_race_times_are_shown_to_the_second(pages: PageClient) -> None:
    race = running_race(name="Seconds", late_join_s=None)
    html = pages.get(f"/races/{race.id}/").content.decode()
    assert html.count('data-local="seconds"') == 4  # opens, starts, joining closes, ends
    assert race.ends_at.strftime("%H:%M:%S") in html  # the page's own text, before JS


@pytest.mark.parametrize("url", ["/accounts/signup/", "/"])
def test_form_fields_are_valid_html(url: str, player: Any) -> None:
    """A help list (``<ul>``) inside ``<small>`` inside ``<p>`` was split by the browser
    into five elements with one id, and the password's ``aria-describedby`` named an
    empty one."""
    from html.parser import HTMLParser

    from django.test import Client

    client = Client()
    if url == "/":
        client.force_login(player)  # the practice form
    html = client.get(url).content.decode()
    ids: list[str] = []
    blocks_in_p: list[str] = []

    class Check(HTMLParser):
        open_p = 0

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "p":
                self.open_p += 1
            elif self.open_p and tag in ("ul", "div", "ol", "p", "table"):
                blocks_in_p.append(tag)
            ids.extend(v for k, v in attrs if k == "id" and v)

        def handle_endtag(self, tag: str) -> None:
            if tag == "p" and self.open_p:
                self.open_p -= 1

    Check().feed(html)
    assert blocks_in_p == []
    assert len(ids) == len(set(ids))
    if url != "/":
        field = html.split('id="id_password1"', 1)[0].rsplit("<input", 1)[1]
        described = field.split('aria-describedby="', 1)[1].split('"', 1)[0]
        assert f'id="{described}"><ul>' in html  # the password rules, in one element
