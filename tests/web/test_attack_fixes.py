"""Defects a hostile tester found in the pages (issue [web]), each pinned by a test.

- A race game before its race starts: every play action goes to the race page, never 500.
- Undo with a garbled move number is refused (400) and undoes nothing.
- The lobby links a race game to its replay only once the deal is revealed.
- The lobby's ETag does not move when a draft tournament gets a race (drafts are secret).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.models import Game, Tournament
from games.services.games import game_end, game_start
from games.services.races import race_create, race_join
from tests.tournaments.factories import TournamentFactory, running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_play_actions_before_the_start_go_to_the_race_page(pages: PageClient, player: Any) -> None:
    now = timezone.now()
    race = race_create(
        name="Later",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=15),
    )
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    assert game_id is not None
    actions: list[tuple[str, str, dict[str, Any]]] = [
        ("post", f"/play/{game_id}/move", {"move": "draw", "expected_move_number": 0}),
        ("post", f"/play/{game_id}/undo", {"expected_move_number": 0}),
        ("get", f"/play/{game_id}/resign", {}),
        ("get", f"/play/{game_id}/solution", {}),
    ]
    for method, url, data in actions:
        resp = pages.post(url, data) if method == "post" else pages.get(url)
        assert resp.status_code == 302, (url, resp.status_code)
        assert resp["Location"] == f"/races/{race.id}/"
    htmx = pages.post(
        f"/play/{game_id}/move", {"move": "draw", "expected_move_number": 0}, htmx=True
    )
    assert (htmx.status_code, htmx["HX-Redirect"]) == (204, f"/races/{race.id}/")
    assert Game.objects.get(id=game_id).move_number == 0


@pytest.mark.parametrize("garbled", ["abc", "-1", "1.5"])
def test_undo_with_a_garbled_move_number_undoes_nothing(
    pages: PageClient, player: Any, garbled: str
) -> None:
    game = game_start(player=player, seed="1")
    for number in (0, 1):
        pages.post(f"/play/{game.id}/move", {"move": "draw", "expected_move_number": number})
    resp = pages.post(f"/play/{game.id}/undo", {"expected_move_number": garbled})
    assert resp.status_code == 400
    assert Game.objects.get(id=game.id).move_number == 2


def test_lobby_links_a_finished_race_game_to_its_replay_only_when_revealed(
    pages: PageClient, player: Any
) -> None:
    race = running_race()
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    game_end(game_id=game_id, player=player)  # over for me; the race still runs
    lobby = pages.get("/").content.decode()
    assert f"/replay/{game_id}/" not in lobby
    assert f"/play/{game_id}/" in lobby


def test_lobby_etag_ignores_races_of_draft_tournaments() -> None:
    anonymous = Client()
    first = anonymous.get("/lobby/races")
    etag = first["ETag"]
    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)  # type: ignore[no-untyped-call]
    running_race(tournament=draft, name="Secret race")
    again = anonymous.get("/lobby/races", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    running_race(name="Public race")
    changed = anonymous.get("/lobby/races", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert "Public race" in changed.content.decode()
    assert "Secret race" not in changed.content.decode()


def test_signup_refuses_look_alike_letters_as_the_api_does() -> None:
    """A Cyrillic capital Es in place of the C of ``Carol`` would pass for it in standings."""
    pages = PageClient()
    pages.get("/accounts/signup/")
    form = {"password1": "correct horse 42", "password2": "correct horse 42"}
    taken = pages.post("/accounts/signup/", {**form, "username": "Carol"})
    assert taken.status_code == 302  # created
    resp = PageClient().post("/accounts/signup/", {**form, "username": "\u0421arol"})
    assert resp.status_code == 200  # the form again, with the error
    assert "username" in resp.content.decode()
    assert not User.objects.filter(username="\u0421arol").exists()
    again = PageClient().post("/accounts/signup/", {**form, "username": "carol"})
    assert again.status_code == 200
    assert User.objects.filter(username__iexact="carol").count() == 1


def test_signup_refuses_a_username_of_dots_only() -> None:
    """``/players/../`` resolves to the lobby in a browser: such a name has no page."""
    form = {"password1": "correct horse 42", "password2": "correct horse 42"}
    for name in (".", ".."):
        resp = PageClient().post("/accounts/signup/", {**form, "username": name})
        assert resp.status_code == 200  # the form again, with the error
        assert "A username cannot be made of dots only." in resp.content.decode()
    french = PageClient().post(
        "/accounts/signup/", {**form, "username": ".."}, HTTP_ACCEPT_LANGUAGE="fr"
    )
    french_text = "Un nom d\u2019utilisateur ne peut pas être fait que de points."
    assert french_text in french.content.decode()
    assert not User.objects.exists()


def test_a_race_game_over_before_the_race_says_where_results_will_be(
    pages: PageClient, player: Any
) -> None:
    race = running_race()
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    game_end(game_id=game_id, player=player)
    page = pages.get(f"/play/{game_id}/").content.decode()
    assert "Your game is over." in page
    assert f'href="/races/{race.id}/"' in page
    assert f"/replay/{game_id}/" not in page  # still secret while the race runs
