"""The pages through Django's test client: accounts, CSRF, CSP, play, races, results."""

from __future__ import annotations

import html as html_lib
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.models import Game, Race
from games.services.games import game_end, game_start
from games.services.races import race_close, race_create, race_join
from tests.factories import make_user
from tests.web.conftest import PASSWORD, PageClient

pytestmark = pytest.mark.django_db


def message_of(html: str) -> str:
    match = re.search(r'id="board-message"[^>]*>(.*?)</div>', html, re.S)
    assert match
    return re.sub(r"<[^>]+>", "", match.group(1)).strip()


def legal_of(html: str) -> list[str]:
    match = re.search(r'data-legal="([^"]*)"', html)
    return html_lib.unescape(match.group(1)).split() if match else []


def test_signup_logs_in_and_lands_in_the_lobby() -> None:
    pages = PageClient()
    pages.get("/accounts/signup/")
    resp = pages.post(
        "/accounts/signup/",
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert resp.status_code == 302
    assert resp["Location"] == "/"
    lobby = pages.get("/").content.decode()
    assert "Log out newbie" in lobby


def test_signup_refuses_a_taken_username_regardless_of_case(player: Any) -> None:
    pages = PageClient()
    pages.get("/accounts/signup/")
    resp = pages.post(
        "/accounts/signup/", {"username": "ADA", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert resp.status_code == 200
    assert "This username is taken." in resp.content.decode()


def test_login_takes_the_username_in_any_case(player: Any) -> None:
    """A walkthrough signed up as "Alice" (sign-up refuses "ALICE" beside it) and could
    not log in as "alice"."""
    pages = PageClient()
    pages.get("/accounts/login/")
    ok = pages.post("/accounts/login/", {"username": "ADA", "password": PASSWORD})
    assert (ok.status_code, ok["Location"]) == (302, "/")
    assert pages.client.session["_auth_user_id"] == str(player.pk)
    assert "Log out ada" in pages.get("/").content.decode()


def test_login_logout_and_password_change(player: Any) -> None:
    pages = PageClient()
    pages.get("/accounts/login/")
    bad = pages.post("/accounts/login/", {"username": "ada", "password": "wrong"})
    assert bad.status_code == 200
    assert "_auth_user_id" not in pages.client.session
    ok = pages.post("/accounts/login/", {"username": "ada", "password": PASSWORD})
    assert ok.status_code == 302
    assert pages.client.session["_auth_user_id"] == str(player.pk)
    pages.get("/accounts/password/")
    changed = pages.post(
        "/accounts/password/",
        {
            "old_password": PASSWORD,
            "new_password1": "another-pass-77x",
            "new_password2": "another-pass-77x",
        },
    )
    assert changed.status_code == 302
    assert changed["Location"] == "/accounts/password/done/"
    pages.get("/")
    out = pages.post("/accounts/logout/", {})
    assert out.status_code == 302
    assert "_auth_user_id" not in pages.client.session


def test_a_post_without_the_csrf_token_is_refused(player: Any) -> None:
    game = game_start(player=player, seed="1")
    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    resp = client.post(f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0})
    assert resp.status_code == 403
    game.refresh_from_db()
    assert game.move_number == 0


def test_pages_carry_a_strict_csp_and_session_cookie_flags(pages: PageClient) -> None:
    resp = pages.get("/")
    csp = resp["Content-Security-Policy"]
    assert "script-src 'self'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    html = resp.content.decode()
    # No inline script: every <script> has a src.
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    # No inline event handler either (onclick=...).
    assert not re.search(r"<[^>]+\son[a-z]+=", html)
    from django.conf import settings

    assert settings.SESSION_COOKIE_HTTPONLY is True
    assert settings.SESSION_COOKIE_SAMESITE == "Lax"


def test_play_page_moves_refusals_and_retries(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1")
    page = pages.get(f"/play/{game.id}/").content.decode()
    assert 'data-move-number="0"' in page
    legal = legal_of(page)
    assert "draw" in legal
    first = pages.post(
        f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True
    )
    assert first.status_code == 200
    assert 'data-move-number="1"' in first.content.decode()
    # The same click again (a double click, a resubmitted form): not played twice.
    again = pages.post(
        f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True
    )
    assert 'data-move-number="1"' in again.content.decode()
    game.refresh_from_db()
    assert game.move_number == 1
    # An illegal move: the engine's reason, nothing changed.
    refused = pages.post(
        f"/play/{game.id}/move", {"move": "KS>t9", "expected_move_number": 1}, htmx=True
    )
    assert "Refused:" in refused.content.decode()
    game.refresh_from_db()
    assert game.move_number == 1
    # Without htmx the refusal is the whole page with a 4xx status.
    plain = pages.post(f"/play/{game.id}/move", {"move": "redeal", "expected_move_number": 0})
    assert plain.status_code == 409
    assert "The board was out of date" in plain.content.decode()


def test_illegal_move_shows_the_engine_reason(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1")
    view = game.state
    top = view["tableau"][0][-1]
    resp = pages.post(
        f"/play/{game.id}/move", {"move": f"{top}>t1", "expected_move_number": 0}, htmx=True
    )
    text = message_of(resp.content.decode())
    assert text.startswith("Refused:")
    assert len(text) > 15
    assert Game.objects.get(id=game.id).move_number == 0


def test_undo_and_resign_with_confirmation(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="1")
    pages.post(f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True)
    undone = pages.post(f"/play/{game.id}/undo", {"expected_move_number": 1}, htmx=True)
    assert 'data-move-number="0"' in undone.content.decode()
    ask = pages.post(f"/play/{game.id}/resign", {})
    assert ask.status_code == 200
    assert "Resign this game?" in ask.content.decode()
    assert Game.objects.get(id=game.id).status == "playing"
    page = pages.get(f"/play/{game.id}/").content.decode()
    assert f"/replay/{game.id}/" not in page  # no link to what is still secret
    done = pages.post(f"/play/{game.id}/resign", {"confirmed": "1"}, htmx=True)
    assert Game.objects.get(id=game.id).status == "resigned"
    home = Game.objects.get(id=game.id).cards_home
    said = f"You resigned: {home} card{'s' if home != 1 else ''} home."
    assert said in done.content.decode()
    # And when the board is drawn again (it said nothing: other endings said theirs).
    assert said in pages.get(f"/play/{game.id}/").content.decode()
    assert said in pages.get(f"/play/{game.id}/board").content.decode()
    # Over: the board links to the replay and the solution.
    assert f"/replay/{game.id}/" in done.content.decode()
    assert f"/play/{game.id}/solution" in done.content.decode()


def test_someone_elses_game_is_404(pages: PageClient) -> None:
    other = make_user(username="bob")
    game = game_start(player=other, seed="1")
    assert pages.get(f"/play/{game.id}/").status_code == 404
    assert pages.post(f"/play/{game.id}/move", {"move": "draw"}, htmx=True).status_code == 404
    assert pages.get(f"/replay/{game.id}/").status_code == 404


def test_practice_form_starts_a_game(pages: PageClient) -> None:
    pages.get("/")
    resp = pages.post(
        "/practice", {"variant": "draw-one", "draw": "", "redeals": "2", "seed": "12345"}
    )
    assert resp.status_code == 302
    game = Game.objects.get()
    assert game.deal.seed == "12345"
    assert game.deal.options["redeals"] == 2
    bad = pages.post("/practice", {"variant": "classic", "seed": "no spaces!"})
    assert bad.status_code == 400


def _race(name: str = "Evening race", minutes: int = 10) -> Race:
    now = timezone.now()  # at the call: a module-level time is stale when the module runs late
    return race_create(
        name=name,
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=5),
        ends_at=now + timedelta(minutes=minutes),
        late_join_s=None,  # running already: joining stays open
    )


def test_lobby_join_race_page_and_live_etag(pages: PageClient, player: Any) -> None:
    race = _race()
    lobby = pages.get("/").content.decode()
    assert "Join Evening race" in lobby
    joined = pages.post(f"/races/{race.id}/join", {})
    game = Game.objects.get(player=player)
    assert joined["Location"] == f"/play/{game.id}/"
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert race.commitment in page
    assert race.deal.seed not in page
    live = pages.get(f"/races/{race.id}/live")
    etag = live["ETag"]
    assert pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=etag).status_code == 304
    pages.post(f"/play/{game.id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True)
    changed = pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    lobby_live = pages.get("/lobby/races")
    assert pages.get("/lobby/races", HTTP_IF_NONE_MATCH=lobby_live["ETag"]).status_code == 304


def test_results_page_reveals_seed_and_replay_steps(pages: PageClient, player: Any) -> None:
    race = _race()
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    for n, mv in enumerate(["draw", "draw"]):
        pages.post(f"/play/{game.id}/move", {"move": mv, "expected_move_number": n}, htmx=True)
    assert pages.get(f"/races/{race.id}/results").status_code == 302
    assert pages.get(f"/replay/{game.id}/").status_code == 404  # not while running
    assert race_close(race_id=race.id, now=race.ends_at) == "finished"
    results = pages.get(f"/races/{race.id}/results").content.decode()
    assert race.deal.seed in results
    assert race.commitment in results
    assert "yes: SHA-256 of the seed equals the commitment" in results
    other = PageClient(make_user(username="carol"))
    step1 = other.get(f"/replay/{game.id}/?step=1", HTTP_HX_REQUEST="true").content.decode()
    assert 'data-replay-step="1"' in step1
    assert "Move 1 of 2" in step1
    end = other.get(f"/replay/{game.id}/?step=99").content.decode()
    assert 'data-replay-step="2"' in end


def test_tournament_and_player_pages(pages: PageClient, player: Any) -> None:
    from games.models import Tournament

    t = Tournament.objects.create(name="Winter cup", description="Four races.")
    race = _race("Cup race 1")
    race.tournament = t
    race.save(update_fields=["tournament"])
    page = pages.get(f"/tournaments/{t.id}/").content.decode()
    assert "Winter cup" in page
    assert "Cup race 1" in page
    assert "Winter cup" in pages.get("/").content.decode()
    me = pages.get("/players/ada/").content.decode()
    assert "My practice games" in me
    assert pages.get("/players/nobody/").status_code == 404


def test_language_from_accept_language_and_the_footer_switch(pages: PageClient) -> None:
    fr = pages.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="fr">' in fr
    assert "Salon" in fr
    pages.post("/i18n/setlang/", {"language": "de", "next": "/"})
    de = pages.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="de">' in de
    assert "Sprache" in de


@pytest.mark.parametrize(
    ("lang", "name"),
    [
        ("en", "queen of hearts"),
        ("fr", "dame de cœur"),
        ("es", "reina de corazones"),
        ("de", "Herz-Dame"),
    ],
)
def test_card_names_are_translated(lang: str, name: str) -> None:
    from django.utils import translation

    from web.board import card_label

    with translation.override(lang):
        assert card_label("QH") == name


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "Your time ends in"),
        ("fr", "Fin de votre temps dans"),
        ("es", "Su tiempo termina en"),
        ("de", "Ihre Zeit endet in"),
    ],
)
def test_window_race_page_counts_down_the_players_own_time(
    pages: PageClient, player: Any, lang: str, words: str
) -> None:
    """A new user started a 90-second window race on a phone, went back to the race page
    and read only "En curso; termina en 9:52" (the window's end) beside Play: their own
    clock, which stops first, is now counted down there too, until their game is over."""
    now = timezone.now()
    race = race_create(
        name="Window race",
        mode=Race.Mode.WINDOW,
        time_limit_s=90,
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=5),
        late_join_s=None,
        ends_at=now + timedelta(minutes=10),
    )
    pages.get("/")
    pages.post(f"/races/{race.id}/join", {})
    before = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert "data-my-deadline" not in before  # the clock has not started
    pages.post(f"/races/{race.id}/start", {})
    game = Game.objects.get(player=player)
    assert game.deadline is not None
    page = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert (
        f'<p data-my-deadline>{words} <span data-countdown="{game.deadline.isoformat()}">' in page
    )
    live = pages.get(f"/races/{race.id}/live", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert f'data-countdown="{game.deadline.isoformat()}"' in live
    game_end(game_id=game.id, player=player)
    after = pages.get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    assert "data-my-deadline" not in after  # resigned: no clock left to count


def test_window_race_start_button_starts_the_clock(pages: PageClient, player: Any) -> None:
    now = timezone.now()
    race = race_create(
        name="Window race",
        mode=Race.Mode.WINDOW,
        time_limit_s=300,
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=5),
        late_join_s=None,  # joining stays open after the start
        ends_at=now + timedelta(hours=1),
    )
    pages.get("/")
    pages.post(f"/races/{race.id}/join", {})
    page = pages.get(f"/races/{race.id}/").content.decode()
    assert "Start my clock and play" in page
    # A late starter is told the window may cut the clock short (a walkthrough started
    # 40 s before the window's end and got 37 s of a promised 60).
    note = re.search(r"<small data-window-note>(.*?)</small>", page, re.S)
    assert note is not None
    assert note.group(1).startswith(
        "You get 300 seconds, fewer if the window closes first; it closes in "
        f'<span data-countdown="{race.ends_at.isoformat()}">'
    )
    assert not Game.objects.filter(player=player).exists()
    started = pages.post(f"/races/{race.id}/start", {})
    game = Game.objects.get(player=player)
    assert started["Location"] == f"/play/{game.id}/"
    assert game.deadline is not None
    assert 299 <= (game.deadline - game.started_at).total_seconds() <= 300


def test_practice_form_winnable_takes_no_seed(pages: PageClient) -> None:
    pages.get("/")
    refused = pages.post("/practice", {"variant": "classic", "seed": "12", "winnable": "on"})
    assert refused.status_code == 400
    assert "A winnable deal is drawn for you: leave the seed empty." in refused.content.decode()
    assert not Game.objects.exists()


def test_an_action_address_opened_with_get_goes_to_its_page(pages: PageClient, player: Any) -> None:
    """A plain move form's answer stays on ``/play/<id>/move``; opened again (history, a
    bookmark) it was an empty 405.  GET now goes to the page; other methods stay 405."""
    game = game_start(player=player, seed="7")
    pages.get("/")  # the CSRF token
    for action in ("move", "undo", "hint"):
        r = pages.get(f"/play/{game.id}/{action}")
        assert (r.status_code, r["Location"]) == (302, f"/play/{game.id}/"), action
        put = pages.client.put(f"/play/{game.id}/{action}", HTTP_X_CSRFTOKEN=pages.token)
        assert put.status_code == 405
    now = timezone.now()
    race = race_create(
        name="r", opens_at=now, starts_at=now + timedelta(hours=1), ends_at=now + timedelta(hours=2)
    )
    for action in ("join", "start"):
        r = pages.get(f"/races/{race.id}/{action}")
        assert (r.status_code, r["Location"]) == (302, f"/races/{race.id}/"), action
    assert Game.objects.get(id=game.id).move_number == 0
    assert not race.entries.exists()


def test_the_site_has_an_icon() -> None:
    """``/favicon.ico`` was a 404 on every page (a console error in the browser)."""
    client = Client()
    page = client.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert icon is not None
    assert icon.group(1).endswith("web/favicon.svg")
    moved = client.get("/favicon.ico")
    assert (moved.status_code, moved["Location"]) == (301, icon.group(1))


def test_the_lobby_describes_exactly_the_variants_it_offers(pages: PageClient) -> None:
    """The list of variants described "custom", which the practice form does not offer."""
    html = pages.get("/").content.decode()
    select = re.search(r'<select name="variant"[^>]*>(.*?)</select>', html, re.S)
    assert select is not None
    offered = re.findall(r'<option value="([a-z-]+)"[^>]*>([^<]+)</option>', select.group(1))
    described = re.findall(r"<dt>([^<]+)</dt>", html)
    assert [label for _code, label in offered] == described
    assert offered == [
        ("classic", "Classic"),
        ("draw-one", "Draw one"),
        ("superior", "Superior"),
        ("rainbow", "Rainbow"),
        ("storehouse", "Storehouse"),
        ("one-pass", "One pass"),
    ]


def test_a_race_page_before_the_start_says_not_started_yet(pages: PageClient, player: Any) -> None:
    now = timezone.now()
    race = race_create(
        name="Later",
        opens_at=now,
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
    )
    race_join(race_id=race.id, player=player)
    html = pages.get(f"/races/{race.id}/").content.decode()
    assert "not started yet" in html
    assert "playing" not in re.sub(r"<[^>]+>", " ", html).split("Standings")[-1]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "You resigned: 1 card home."),
        ("fr", "Vous avez abandonné\u202f: 1 carte posée."),
        ("es", "Ha abandonado: 1 carta en fundaciones."),
        ("de", "Sie haben aufgegeben: 1 abgelegte Karte."),
    ],
)
def test_a_resigned_game_has_its_last_word(
    pages: PageClient, player: Any, language: str, words: str
) -> None:
    """Resigning showed no message once the board was drawn again, where the other
    endings ("You won: ...", "Time is up: ...") say theirs."""
    game = game_start(player=player, seed="1")
    pages.post(f"/play/{game.id}/resign", {"confirmed": "1"}, htmx=True)
    assert Game.objects.get(id=game.id).cards_home == 1
    html = pages.get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in html
