"""The play page's Undo button follows the game view's ``undo_allowed``: enabled on a
blocked game whose last move may be taken back (it was disabled with every other control
once the game was not playing), disabled with nothing to take back or once over for good."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.selectors.races import race_standings
from games.services.games import game_end, game_start, move_play
from games.services.races import race_join
from tests.games.test_undo_blocked import SEED, TO_BLOCKED
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _undo_button(html: str) -> str:
    found = re.search(r'<button type="submit" data-action="undo"[^>]*>', html)
    assert found is not None
    return found.group(0)


def _board_tag(html: str) -> str:
    found = re.search(r'<section id="board"[^>]*>', html)
    assert found is not None
    return found.group(0)


def test_undo_is_offered_on_a_blocked_game_and_nowhere_it_would_be_refused(
    pages: PageClient, player: Any
) -> None:
    game = game_start(player=player, seed=SEED)
    first = pages.get(f"/play/{game.id}/").content.decode()
    assert "disabled" in _undo_button(first)  # nothing to take back yet
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    blocked = pages.get(f"/play/{game.id}/").content.decode()
    assert "data-blocked" in blocked
    assert "Undo takes back the move that blocked it; Resign ends the game." in blocked
    assert "disabled" not in _undo_button(blocked)
    assert 'class="controls"' in blocked  # not "controls idle": the buttons show
    board = _board_tag(blocked)
    assert 'data-undo="1"' in board
    assert 'data-move-number="26"' in board
    assert "data-move-url" not in board  # no move but the undo
    # The undo from the page: the game plays on.
    undone = pages.post(f"/play/{game.id}/undo", {"expected_move_number": 26}, follow=True)
    assert "data-move-url" in _board_tag(undone.content.decode())
    # Blocked again and resigned: over for good, no undo offered.
    move_play(game_id=game.id, player=player, move="AD>f")
    pages.post(f"/play/{game.id}/resign", {"confirmed": "1"})
    over = pages.get(f"/play/{game.id}/").content.decode()
    assert "disabled" in _undo_button(over)
    assert "Undo takes back the move" not in over
    assert "data-undo" not in _board_tag(over)


def test_the_player_page_continues_a_blocked_game_that_may_be_undone(
    pages: PageClient, player: Any
) -> None:
    """Your own page listed such a game with a Replay link, which is 404 while its deal
    stays hidden (undo, then read the line): it is continued like a game being played."""
    game = game_start(player=player, seed=SEED)
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    own = pages.get(f"/players/{player.username}/").content.decode()
    assert f'<a href="/play/{game.id}/">Continue' in own
    assert f"/replay/{game.id}/" not in own
    assert pages.get(f"/replay/{game.id}/").status_code == 404
    # Resigned: over for good, replayed.
    game_end(game_id=game.id, player=player)
    over = pages.get(f"/players/{player.username}/").content.decode()
    assert f'<a href="/replay/{game.id}/">Replay' in over
    assert pages.get(f"/replay/{game.id}/").status_code == 200


def test_the_race_page_and_lobby_do_not_call_an_undoable_blocked_game_over(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The race page said "Your game is over: Blocked" (the lobby "See your game") while
    the standings said not finished and the game's Undo took the move back: they offer
    Play, as for a game being played, until it is over for good (resigned here)."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="Undo race", allow_undo=True)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    assert race_standings(race=race)[0]["finished"] is False
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert "data-my-game" not in page
    assert f'<a class="button primary" href="/play/{game.id}/">Play</a>' in page
    lobby = pages.get("/").content.decode()
    assert f'<a class="button" href="/play/{game.id}/">Play</a>' in lobby
    game_end(game_id=game.id, player=player)
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert 'data-my-game="over"' in page
    lobby = pages.get("/").content.decode()
    assert f'<a href="/play/{game.id}/">See your game</a>' in lobby


def test_a_blocked_race_game_shows_how_long_its_undo_lasts(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its Undo is taken until the player's deadline, but the board dropped the "Time
    left" countdown (which redraws the board when time is up) with the other controls:
    the Undo stayed enabled after the deadline, refused when used."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="Undo race", allow_undo=True)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert "Undo takes back the move that blocked it" in html
    assert "Time left" in html
    assert re.search(r'data-countdown="[^"]+" data-refresh-board="1"', html)
    assert "data-await-results" not in html
    # Past the deadline: over for good, no clock, waiting for the results.
    Game.objects.filter(id=game.id).update(deadline=timezone.now() - timedelta(seconds=1))
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert "Time left" not in html
    assert "Your game is over. The results, the seed and the replays appear" in html
    assert "disabled" in _undo_button(html)


RACE_OPEN = (
    "<summary>Why does the race go on?</summary><p>This race allows Undo, so until your time "
    "is up you may still take back the move that blocked your game."
)


def test_a_blocked_race_game_says_why_the_race_goes_on(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player blocked in a race with Undo saw "Time left" count down to the race's end
    with no word why (another player had resigned): the board says, in a note that does
    not fade, that their game keeps the race open until their time is up, and what
    resigning does; it goes once the game is over for good (resigned)."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="Undo race", allow_undo=True)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert "data-race-open" not in html  # playing: no such note
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert RACE_OPEN in html
    assert (
        "Resign to end your game for good now: a race ends early once joining has closed "
        "and every player\u2019s game is won, resigned, out of time, or blocked with no Undo "
        "left." in html.replace("&#x27;", "\u2019").replace("'", "\u2019")
    )
    # The board fragment (what Undo, moves and polls swap in) says it too.
    assert RACE_OPEN in pages.get(f"/play/{game.id}/board").content.decode()
    game_end(game_id=game.id, player=player)
    assert "data-race-open" not in pages.get(f"/play/{game.id}/").content.decode()


def test_a_blocked_game_without_undo_has_no_such_note(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocked in a race without Undo, the game is over for good: no note of the race
    going on because of it."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="No undo race", allow_undo=False)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    html = pages.get(f"/play/{game.id}/").content.decode()
    assert 'data-stat="status">blocked' in html.replace("\n", "")
    assert "data-race-open" not in html


RACE_PAGE_NOTE = {
    "en": "Your game is blocked, but this race allows Undo: until your time is up you may "
    "still take back the move that blocked your game",
    "fr": "Votre partie est bloquée, mais cette course permet Annuler un coup\u202f: jusqu\u2019à "
    "la fin de votre temps",
    "es": "Su partida está bloqueada, pero esta carrera permite Deshacer: hasta que se acabe "
    "su tiempo",
    "de": "Ihr Spiel ist blockiert, aber dieses Rennen erlaubt Rückgängig: Bis Ihre Zeit um ist",
}


def _note(html: str) -> str | None:
    found = re.search(r"<p data-blocked-undo>([^<]*)</p>", html)
    return None if found is None else found.group(1).replace("&#x27;", "\u2019")


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_race_page_says_why_a_blocked_game_with_undo_goes_on(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    """The race page offered only "Play" to a player blocked in a race with Undo, with no
    word why their game (and the race) goes on: a one-line note says it, in the page's
    language, on the page and in its live part, until the game is over for good."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="Undo race", allow_undo=True)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    page = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert _note(page) is None  # playing: no such note
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    for url in (f"/races/{race.id}/", f"/races/{race.id}/live"):
        page = pages.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        note = _note(page)
        assert note is not None, url
        assert note.startswith(RACE_PAGE_NOTE[lang]), note
        assert f'href="/play/{game.id}/">' in page  # Play stays
    game_end(game_id=game.id, player=player)
    page = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert _note(page) is None
    assert 'data-my-game="over"' in page


def test_the_race_page_has_no_such_note_without_undo(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocked in a race without Undo, the game is over for good: "Your game is over"."""
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="No undo race", allow_undo=False)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for move in TO_BLOCKED:
        move_play(game_id=game.id, player=player, move=move)
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert _note(page) is None
    assert 'data-my-game="over"' in page
