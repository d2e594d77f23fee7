"""A race cancelled mid-game (by its organisers, or with its tournament): every page says
so, never "Time is up" nor "timed out", and no page links results it will never have."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Game
from games.services.races import race_join, races_cancel
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _cancelled_game(player: Any, name: str = "Called off") -> tuple[Any, Game]:
    race = running_race(name=name)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    races_cancel(race_ids=[race.id])
    game.refresh_from_db()
    assert game.status == Game.Status.TIMED_OUT  # as the service stores it
    race.refresh_from_db()
    return race, game


def test_the_play_page_says_the_organisers_cancelled_the_race(
    pages: PageClient, player: Any
) -> None:
    race, game = _cancelled_game(player)
    for _ in range(2):  # and after a reload
        html = pages.get(f"/play/{game.id}/").content.decode()
        assert "The organisers cancelled this race: your game ended with 1 card home." in html
        assert "Time is up" not in html
        assert '<dd data-stat="status">race cancelled' in html
        assert "timed out" not in html
        assert "Time left" not in html  # no clock left running on a game that is over
    # No "Results" (a cancelled race has none: its results answer 409): the race page.
    assert f'href="/races/{race.id}/results"' not in html
    assert f'<a href="/races/{race.id}/">Race</a>' in html
    board = pages.get(f"/play/{game.id}/board").content.decode()
    assert "The organisers cancelled this race" in board
    assert ">Results<" not in board


def test_a_game_out_of_time_before_the_cancellation_still_timed_out(
    pages: PageClient, player: Any
) -> None:
    from datetime import timedelta

    race = running_race(name="Late call")  # started a minute ago, ends in five
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    # Instants taken from the race itself (no wall clock): the game ran out 20 s into the
    # race, and the organisers cancelled it 10 s later, both before the race's end.
    out_of_time = race.starts_at + timedelta(seconds=20)
    Game.objects.filter(id=game.id).update(
        deadline=out_of_time, status=Game.Status.TIMED_OUT, finished_at=out_of_time
    )
    assert races_cancel(race_ids=[race.id], now=out_of_time + timedelta(seconds=10)) == [race.id]
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert "Time is up: your game has ended with 1 card home." in html
    assert "The organisers cancelled" not in html


def test_the_lobby_and_player_page_say_race_cancelled(pages: PageClient, player: Any) -> None:
    _cancelled_game(player, name="Called off")
    lobby = " ".join(pages.get("/").content.decode().split())
    assert "Race game · Called off" in lobby
    assert "<small>race cancelled · 1 card home" in lobby
    assert "timed out" not in lobby
    page = " ".join(pages.get(f"/players/{player.username}/").content.decode().split())
    assert "Called off" in page
    assert "<td>race cancelled </td>" in page
    assert "race not finished" not in page


def test_the_play_page_in_french(pages: PageClient, player: Any) -> None:
    _, game = _cancelled_game(player)
    html = pages.get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert (
        "Les organisateurs ont annulé cette course\u202f: votre partie s\u2019est terminée "
        "avec 1 carte posée." in html
    )
    assert "Le temps est écoulé" not in html
    assert "course annulée" in html


def test_the_race_page_says_it_was_cancelled_and_shows_its_seed(
    pages: PageClient, player: Any
) -> None:
    race, _ = _cancelled_game(player, name="Called off")
    html = pages.get(f"/races/{race.id}/").content.decode()
    assert (
        "The organisers cancelled this race: it has no results, ranks or rating, "
        "and never will." in html
    )
    assert "Results, seed and replays" not in html
    assert f'href="/races/{race.id}/results"' not in html
    # The selectors reveal a cancelled race's seed (race_public, RULES.md 7): the page
    # shows it, and its commitment line no longer says it comes at the end.
    assert race.deal.seed
    assert f'<code class="wrap" data-seed>{race.deal.seed}</code>' in html
    assert "the seed is now revealed, so anyone can check the deal" in html
    assert "the seed is revealed when the race is over" not in html
    # The standings' row of the game the cancellation ended: "race cancelled".
    flat = " ".join(html.split())
    assert (
        "<td data-cards-home>1</td><td>0</td><td>at the deal</td><td>race cancelled </td>" in flat
    )
    assert "timed out" not in html
    live = pages.get(f"/races/{race.id}/live").content.decode()
    assert "The organisers cancelled this race" in live
    fr = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Les organisateurs ont annulé cette course\u202f: elle n\u2019a" in fr


def test_a_running_race_page_keeps_its_seed_secret(pages: PageClient, player: Any) -> None:
    race = running_race(name="Still on")
    html = pages.get(f"/races/{race.id}/").content.decode()
    assert race.deal.seed not in html
    assert "data-seed" not in html
    assert "the seed is revealed when the race is over" in html
    assert "The organisers cancelled" not in html


def _player_row(html: str, race_name: str) -> str:
    """The player page's row of the race ``race_name`` (whitespace folded)."""
    flat = " ".join(html.split())
    start = flat.index(f">{race_name}</a></th>")
    return flat[start : flat.index("</tr>", start)]


def test_the_player_page_shows_the_count_a_cancelled_race_game_reached(
    pages: PageClient, player: Any
) -> None:
    """It showed "\u2013" where the lobby said "race cancelled · 1 card home"."""
    from django.test import Client

    from games.services.race_admin import race_entry_disqualify
    from tests.factories import make_user

    race = running_race(name="Called off")
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    Game.objects.filter(id=game.id).update(cards_home=7)  # as seven cards home left it
    other = make_user(username="bo")
    race_entry_disqualify(
        entry_id=race_join(race_id=race.id, player=other).entry.id, reason="two accounts"
    )
    races_cancel(race_ids=[race.id])
    lobby = " ".join(pages.get("/").content.decode().split())
    assert "<small>race cancelled · 7 cards home" in lobby
    row = _player_row(pages.get(f"/players/{player.username}/").content.decode(), "Called off")
    assert "<td>\u2013</td><td>7</td><td>race cancelled </td>" in row
    # Anyone sees it (the race page's standings show it to anyone too).
    anon = _player_row(Client().get(f"/players/{player.username}/").content.decode(), "Called off")
    assert "<td>\u2013</td><td>7</td><td>race cancelled </td>" in anon
    # A disqualified entry has no count, as on the race page.
    row = _player_row(Client().get("/players/bo/").content.decode(), "Called off")
    assert "<td>\u2013</td><td>\u2013</td><td>race cancelled </td>" in row


def test_a_race_cancelled_before_it_started_shows_no_count(pages: PageClient, player: Any) -> None:
    """The player never played it: "\u2013", as the race page's standings (did not start)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.races import race_create

    now = timezone.now()
    race = race_create(
        name="Never run",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=10),
    )
    race_join(race_id=race.id, player=player)
    races_cancel(race_ids=[race.id], now=now)
    row = _player_row(pages.get(f"/players/{player.username}/").content.decode(), "Never run")
    assert "<td>\u2013</td><td>\u2013</td><td>race cancelled </td>" in row


@pytest.mark.parametrize(
    ("ending", "words"), [("resigned", "resigned"), ("won", "won"), ("blocked", "blocked")]
)
def test_the_player_page_shows_a_game_ended_before_the_cancellation_as_it_ended(
    pages: PageClient, player: Any, ending: str, words: str
) -> None:
    """The player page said "race cancelled" for every entry of a cancelled race, even a
    game won or resigned before the cancellation (the lobby said "won")."""
    from django.utils import timezone

    race = running_race(name="Called off")
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    Game.objects.filter(id=game.id).update(status=ending, cards_home=9, finished_at=timezone.now())
    races_cancel(race_ids=[race.id])
    row = _player_row(pages.get(f"/players/{player.username}/").content.decode(), "Called off")
    assert f"<td>\u2013</td><td>9</td><td>{words} </td>" in row
    assert "race cancelled" not in row
    lobby = " ".join(pages.get("/").content.decode().split())
    assert f"<small>{words} · 9 cards home" in lobby


def test_the_player_page_says_race_cancelled_for_a_game_the_cancellation_ended(
    pages: PageClient, player: Any
) -> None:
    """Its game was playing: the cancellation ended it (stored timed out before its
    deadline), and the row says so, not "timed out"."""
    _cancelled_game(player, name="Called off")
    row = _player_row(pages.get(f"/players/{player.username}/").content.decode(), "Called off")
    assert "<td>race cancelled </td>" in row
    assert "timed out" not in row
