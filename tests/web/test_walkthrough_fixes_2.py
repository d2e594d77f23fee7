"""What the walkthrough of this stop found: "Log in to join" returned to a bare fragment
after the live refresh, the race's countdown and Play button sat below a phone's screen,
"blocked" came with no word of what it means, the results page sent readers to a file
they do not have, and "0.0 s" read as a card put home at the start of the race."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.test import Client

from games.services.games import game_start
from tests.helpers import blocked_seed
from tests.tournaments.factories import Result, finished_race, running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_log_in_to_join_returns_to_the_race_page_from_the_live_fragment() -> None:
    race = running_race(name="Open race", late_join_s=None)
    login = f"/accounts/login/?next=/races/{race.id}/"
    anonymous = Client()
    assert f'href="{login}"' in anonymous.get(f"/races/{race.id}/").content.decode()
    # The fragment the page refreshes itself with links to the page, not to itself.
    assert f'href="{login}"' in anonymous.get(f"/races/{race.id}/live").content.decode()


def test_the_race_page_puts_now_before_the_facts(pages: PageClient) -> None:
    race = running_race(name="Phone race")
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert page.index('id="live-h"') < page.index('id="about-h"')


def test_a_blocked_game_says_what_blocked_means(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed=blocked_seed("blocked"))
    assert game.status == "blocked"
    page = pages.get(f"/play/{game.id}/").content.decode()
    assert re.search(r'data-stat="status">\s*blocked', page)
    assert (
        "The game is blocked: drawing and redealing alone can never bring a card that may be "
        "played, so no move is left that changes anything." in page
    )
    assert "It ends as blocked when drawing and redealing alone can never bring" in page
    playing = game_start(player=player, seed="7")
    assert "data-blocked" not in pages.get(f"/play/{playing.id}/").content.decode()


def test_results_explain_the_shuffle_and_the_start_of_the_clock(pages: PageClient) -> None:
    race = finished_race(None, Result("ann", 30, 4200), Result("bob", 1, 0), name="Done")
    page = pages.get(f"/races/{race.id}/results").content.decode()
    assert "RULES.md" not in page
    steps = re.search(r"<ol class=\"shuffle\" data-shuffle>(.*?)</ol>", page, re.S)
    assert steps is not None
    assert steps.group(1).count("<li>") == 5
    assert "SHA-256 of the seed followed by “:” and k in decimal" in steps.group(1)
    cells = {
        name: re.search(rf">{name}</a></th>(.*?)</tr>", page, re.S).group(1)  # type: ignore[union-attr]
        for name in ("ann", "bob")
    }
    assert "<td>4.200</td>" in cells["ann"]
    assert "<td>at the deal</td>" in cells["bob"]  # one card home from the deal, at 0 ms
    live = pages.get(f"/races/{race.id}/").content.decode()
    assert "<td>at the deal</td>" in live


def test_the_move_that_wins_says_you_won(
    pages: PageClient, player: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A walkthrough won and the board still said "five of hearts to its foundation";
    only the small Status field said "won".  The clock is stopped (the game takes
    54.36 s): the words' tenths were once compared with a real duration, rounded
    there as here, and a slow run past a minute is worded in minutes."""
    from datetime import UTC, datetime, timedelta

    from django.utils import timezone

    from games.engine import new_game
    from games.engine.solver import solve
    from games.models import Game

    now = [datetime(2026, 6, 1, 12, 0, tzinfo=UTC)]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    line = solve(new_game("classic", seed="7"), max_nodes=2_000_000, max_seconds=None)
    assert line.result == "won"
    game = game_start(player=player, seed="7")
    for number, move in enumerate(line.moves[:-1]):
        r = pages.post(
            f"/play/{game.id}/move", {"move": move, "expected_move_number": number}, htmx=True
        )
        assert "You won" not in r.content.decode()
    now[0] += timedelta(seconds=54.36)
    last = pages.post(
        f"/play/{game.id}/move",
        {"move": line.moves[-1], "expected_move_number": len(line.moves) - 1},
        htmx=True,
    ).content.decode()
    game.refresh_from_db()
    assert (game.status, game.cards_home) == (Game.Status.WON, 52)
    assert game.finished_at is not None
    assert game.finished_at - game.started_at == timedelta(seconds=54.36)
    n = len(line.moves)
    # Tenths cut, as the ranking cuts milliseconds (never rounded up: not 54.4).
    said = f"You won: all 52 cards are home, in {n} moves and 54.3 seconds."
    message = re.search(r'<div id="board-message"[^>]*class="message won"[^>]*>(.*?)</div>', last)
    assert message is not None
    assert message.group(1) == said
    # The page says it again when opened later; in Spanish in its words.
    assert said in pages.get(f"/play/{game.id}/").content.decode()
    spanish = pages.get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert f"¡Ha ganado! Las 52 cartas están en las fundaciones, en {len(line.moves)} " in spanish


def test_the_lobby_links_to_the_practice_form_at_its_top(pages: PageClient) -> None:
    """A new player on a 1280 x 800 screen did not see "Start a practice game": the race
    lists come first.  A link under the heading goes to it; visitors get none."""
    lobby = pages.get("/").content.decode()
    link = '<a href="#practice-h">Start a practice game ↓</a>'
    assert lobby.index(link) < lobby.index('id="races-h"') < lobby.index('id="practice-h"')
    assert link not in Client().get("/").content.decode()


def test_a_pile_of_ten_cards_is_drawn_closer(pages: PageClient, player: Any) -> None:
    """A walkthrough's 24-card pile made the desktop page 1,528 px tall: piles of ten
    cards or more are drawn with less of each covered card showing (app.css .long)."""
    from games.engine import new_game
    from games.engine.solver import solve
    from games.services.games import move_play

    line = solve(new_game("classic", seed="7"), max_nodes=2_000_000, max_seconds=None).moves
    state = new_game("classic", seed="7")
    game = game_start(player=player, seed="7")
    for number, move in enumerate(line):
        if max(len(pile) for pile in state.tableau) >= 10:
            break
        state.play(move)
        move_play(game_id=game.id, player=player, move=move, expected_move_number=number)
    sizes = [len(pile) for pile in state.tableau]
    assert max(sizes) >= 10
    page = pages.get(f"/play/{game.id}/").content.decode()
    drawn = re.findall(r'<div class="stack-cards( long)?">', page)
    assert [bool(mark) for mark in drawn] == [n > 9 for n in sizes]


def test_the_lobby_tells_a_window_race_and_a_finished_race_page_its_outcome(
    pages: PageClient,
) -> None:
    """A Spanish walkthrough could not tell a window race from a scheduled one in the
    lobby, and read "Ahora" (Now) above a race that was over."""
    window = running_race(name="Window", mode="window", time_limit_s=90, late_join_s=None)
    running_race(name="Scheduled", late_join_s=None)
    lobby = pages.get("/").content.decode()
    rows = dict(
        re.findall(r'<li class="race"><a href="[^"]+">(\w+)</a>\s*<small>(.*?)</small>', lobby)
    )
    assert "90 s each, from your own start" in rows["Window"]
    assert "from your own start" not in rows["Scheduled"]
    assert '<h2 id="live-h">Now</h2>' in pages.get(f"/races/{window.id}/").content.decode()
    done = finished_race(None, Result("ann", 30, 1000))
    page = pages.get(f"/races/{done.id}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<h2 id="live-h">Resultado final</h2>' in page


def test_a_win_past_a_minute_is_told_in_minutes() -> None:
    """A walkthrough read "en 492 jugadas y 336,8 segundos"."""
    from datetime import UTC, datetime, timedelta

    from django.utils import translation

    from web.views.play import won_words

    start = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)

    def view(ms: int, moves: int = 492) -> dict[str, Any]:
        finished = start + timedelta(milliseconds=ms)
        return {"move_number": moves, "started_at": start, "finished_at": finished}

    with translation.override("en"):
        assert won_words(view(336_800)).endswith("in 492 moves and 5 min 36.8 s.")
        assert won_words(view(59_900)).endswith("in 492 moves and 59.9 seconds.")
        assert won_words(view(60_000, 1)).endswith("in 1 move and 1 min 0.0 s.")
    with translation.override("es"):
        assert won_words(view(336_800)).endswith("en 492 jugadas y 5 min 36,8 s.")


def test_a_win_s_tenths_are_cut_as_the_ranking_cuts_its_milliseconds() -> None:
    """Rounded, 4 min 59.96 s read "4 min 60.0 s", 59.96 s "60.0 seconds", and 54.3496 s
    (54.349 in the standings, which cut to the millisecond) "54.4 seconds"."""
    from datetime import UTC, datetime, timedelta

    from django.utils import translation

    from web.views.play import won_words

    start = datetime(2026, 12, 3, 18, 0, tzinfo=UTC)

    def view(took: timedelta) -> dict[str, Any]:
        return {"move_number": 9, "started_at": start, "finished_at": start + took}

    with translation.override("en"):
        assert won_words(view(timedelta(milliseconds=299_960))).endswith("4 min 59.9 s.")
        assert won_words(view(timedelta(milliseconds=59_960))).endswith("and 59.9 seconds.")
        assert won_words(view(timedelta(microseconds=54_349_600))).endswith("and 54.3 seconds.")


def test_replay_start_and_end_are_off_where_they_lead_nowhere(
    pages: PageClient, player: Any
) -> None:
    """A walkthrough saw "Start" active at move 0 beside a greyed "Back"."""
    from games.services.games import game_end, move_play

    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    game_end(game_id=game.id, player=player)

    def off(step: int) -> set[str]:
        page = pages.get(f"/replay/{game.id}/?step={step}").content.decode()
        return set(re.findall(r'data-step="(\w+)" aria-disabled="true"', page))

    assert off(0) == {"first", "prev"}
    assert off(1) == {"next", "last"}


def test_an_empty_waste_shows_its_place(pages: PageClient, player: Any) -> None:
    """A visual check found blank space under the reserve: the waste's row, the height of
    a card, with nothing in it before the first draw.  It shows an empty slot there, as
    an empty reserve does, and the cards once there are any."""
    game = game_start(player=player, seed="7")
    page = pages.get(f"/play/{game.id}/").content.decode()
    waste = re.search(r'<div class="fan waste">(.*?)</div>', page, re.S)
    assert waste is not None
    assert waste.group(1).strip() == '<span class="slot" aria-hidden="true">empty</span>'
    drawn = pages.post(
        f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True
    )
    waste = re.search(r'<div class="fan waste">(.*?)</div>', drawn.content.decode(), re.S)
    assert waste is not None
    assert "slot" not in waste.group(1)
    assert waste.group(1).count('class="card') == 3  # classic draws three


def test_my_recent_games_name_the_race(pages: PageClient, player: Any) -> None:
    """A walkthrough's lobby listed "Race game · Classic" twice: which race was which?"""
    from games.services.races import race_join

    race = running_race(name="Friday sprint")
    race_join(race_id=race.id, player=player)
    game_start(player=player, seed="7")
    page = pages.get("/").content.decode()
    assert "Race game · Friday sprint · Classic</a>" in page
    assert "Practice · Classic</a>" in page


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "Welcome, nora: your account is ready, and you are logged in."),
        ("fr", "Bienvenue, nora\u202f: votre compte est prêt et votre session est ouverte."),
        ("es", "Le damos la bienvenida, nora: su cuenta está lista y ha iniciado sesión."),
    ],
)
def test_signing_up_says_the_account_is_ready(language: str, words: str) -> None:
    """A walkthrough signed up and landed on the lobby with no word of what happened."""
    pages = PageClient()
    pages.get("/accounts/signup/")
    form = {"username": "nora", "password1": "x-long-pass-77", "password2": "x-long-pass-77"}
    resp = pages.post("/accounts/signup/", form, HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 302
    lobby = pages.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'<div role="status"><ul class="messages"><li>{words}</li></ul>' in lobby
    assert words not in pages.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()  # once


def test_the_practice_forms_box_label_has_no_colon(pages: PageClient) -> None:
    page = pages.get("/").content.decode()
    assert "A deal the solver proves winnable (leave the seed empty)</label>" in page
    assert "A deal the solver proves winnable (leave the seed empty):</label>" not in page


@pytest.mark.parametrize(("count", "long"), [(4, False), (13, True)])
def test_a_short_move_list_is_one_column(
    pages: PageClient, player: Any, count: int, long: bool
) -> None:
    """A walkthrough's replay of four moves spread them over three columns (1, 1, 2)."""
    from games.models import Game
    from games.services.games import game_end, move_play

    game = game_start(player=player, seed="7")
    for _ in range(count):
        legal = Game.objects.get(id=game.id).engine_state().legal_moves()
        move_play(game_id=game.id, player=player, move="draw" if "draw" in legal else "redeal")
    game_end(game_id=game.id, player=player)
    page = pages.get(f"/replay/{game.id}/").content.decode()
    lists = re.findall(r'<ol class="(moves[^"]*)">', page)
    assert lists == (["moves long"] if long else ["moves"])


def test_a_move_that_empties_a_pile_says_what_the_reserve_put_there(
    pages: PageClient, player: Any
) -> None:
    """A walkthrough read "two of diamonds to its foundation" while six of hearts came
    from the reserve into the emptied pile, unmentioned (RULES.md 3.7)."""
    from games.engine import new_game
    from tests.engine.test_scenarios import _autofill_move
    from web.board import card_subject, move_words

    seed, move = _autofill_move()
    state = new_game("classic", seed=seed)
    filler = state.to_dict()["reserve"][-1]
    card = move.split(">")[0]
    pile = next(i for i, p in enumerate(state.to_dict()["tableau"], 1) if p == [card])
    game = game_start(player=player, seed=seed)
    resp = pages.post(f"/play/{game.id}/move", {"move": move, "expected_move_number": 0}, htmx=True)
    said = re.search(r'id="board-message"[^>]*>(.*?)</div>', resp.content.decode(), re.S)
    assert said is not None
    words = f"{move_words(move)}; {card_subject(filler)} from the reserve fills pile {pile}."
    expected = words[0].upper() + words[1:]  # a sentence (tests/web/test_new_user_wording.py)
    assert unescape(said.group(1)) == expected
