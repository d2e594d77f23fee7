"""Who may see a game's replay: decided once, by ``games.selectors.games.game_replay_get``
(DESIGN.md: selectors decide what a player may see; the page only calls it).  Every case
through the selector and through ``/replay/<id>/`` (RULES.md 7)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client

from games.models import Game, Race, Tournament
from games.selectors.games import game_race, game_replay_get
from games.services.errors import NotFound
from games.services.games import game_end, game_start
from games.services.race_admin import race_close_now
from games.services.races import race_join, races_cancel
from tests.factories import create_user
from tests.tournaments.factories import TournamentFactory, running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def _sees(viewer: Any, game: Game) -> bool:
    """Whether the selector and the page agree that ``viewer`` sees the replay of ``game``;
    fails when they disagree."""
    try:
        got = game_replay_get(game_id=game.id, viewer=viewer)
    except NotFound:
        by_selector = False
    else:
        assert got.id == game.id
        by_selector = True
    client = PageClient(viewer) if viewer.is_authenticated else PageClient()
    status = client.get(f"/replay/{game.id}/").status_code
    assert status in (200, 404)
    assert by_selector is (status == 200)
    return by_selector


def _race_game(race: Any, username: str, *, staff: bool = False) -> tuple[Any, Game]:
    player = create_user(username, staff=staff)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    return player, game


def test_own_practice_game_once_over_and_never_someone_elses() -> None:
    owner = create_user("owner")
    other = create_user("other")
    game = game_start(player=owner, seed="replay-visibility-1")
    assert not _sees(owner, game)  # still playing: its deal is hidden
    game_end(game_id=game.id, player=owner)
    assert _sees(owner, game)
    assert not _sees(other, game)
    assert not _sees(AnonymousUser(), game)
    assert game_race(game) is None


def test_running_race_game_is_nobodys_replay_yet() -> None:
    race = running_race(name="Running")
    player, game = _race_game(race, "racer")
    game_end(game_id=game.id, player=player)  # over for the player, the race runs on
    assert not _sees(player, game)
    assert not _sees(create_user("watcher"), game)
    assert not _sees(create_user("boss", staff=True), game)


def test_finished_race_game_is_anyones_replay() -> None:
    race = running_race(name="Done")
    player, game = _race_game(race, "racer")
    race_close_now(race_id=race.id)
    assert _sees(player, game)
    assert _sees(create_user("watcher"), game)
    assert _sees(AnonymousUser(), game)
    got = game_replay_get(game_id=game.id, viewer=AnonymousUser())
    race_of = game_race(got)
    assert race_of is not None
    assert race_of.id == race.id


def test_cancelled_race_game_is_anyones_replay() -> None:
    race = running_race(name="Off")
    player, game = _race_game(race, "racer")
    races_cancel(race_ids=[race.id])
    assert _sees(player, game)
    assert _sees(AnonymousUser(), game)


def test_draft_tournament_race_game_only_for_those_who_see_drafts() -> None:
    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)  # type: ignore[no-untyped-call]
    race = running_race(name="Rehearsal")
    tester, game = _race_game(race, "tester")
    race_close_now(race_id=race.id)
    # Nobody may join a draft's race: one is moved into the draft (as race_move does).
    Race.objects.filter(id=race.id).update(tournament=draft)
    assert not _sees(create_user("watcher"), game)
    assert not _sees(AnonymousUser(), game)
    assert not _sees(tester, game)  # their own game too: the race is the organisers'
    assert _sees(create_user("boss", staff=True), game)


def test_absent_or_malformed_ids_are_not_found() -> None:
    viewer = create_user("viewer")
    with pytest.raises(NotFound):
        game_replay_get(game_id="00000000-0000-0000-0000-000000000000", viewer=viewer)
    with pytest.raises(NotFound):
        game_replay_get(game_id="not-a-uuid", viewer=viewer)
    assert Client().get("/replay/00000000-0000-0000-0000-000000000000/").status_code == 404


def test_game_race_reads_at_most_one_query(django_assert_num_queries: Any) -> None:
    race = running_race(name="Counted")
    _player, game = _race_game(race, "racer")
    race_close_now(race_id=race.id)
    bare = Game.objects.get(id=game.id)
    with django_assert_num_queries(1):  # the entry and its race together
        got = game_race(bare)
    assert got is not None
    assert got.id == race.id
    loaded = Game.objects.select_related("race_entry__race").get(id=game.id)
    with django_assert_num_queries(0):
        assert game_race(loaded) == race


def test_the_replay_page_and_its_viewer_vary_on_hx_request() -> None:
    """``/replay/<id>/?step=N`` answers the page, or to htmx the viewer alone (whose
    address it pushes into the history): both say ``Vary: HX-Request``, so a browser's
    cache never shows the bare viewer as the page."""
    owner = create_user("stepper")
    game = game_start(player=owner, seed="replay-visibility-vary")
    game_end(game_id=game.id, player=owner)
    client = PageClient(owner)
    page = client.get(f"/replay/{game.id}/?step=0")
    part = client.get(f"/replay/{game.id}/?step=0", HTTP_HX_REQUEST="true")
    assert page.status_code == part.status_code == 200
    assert "<html" in page.content.decode()
    assert "<html" not in part.content.decode()
    for resp in (page, part):
        assert "HX-Request" in [v.strip() for v in resp["Vary"].split(",")]
