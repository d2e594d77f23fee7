"""A game's view and a line of the game list read the clock once.

``game_view`` read it for the status, again for ``undo_allowed`` (and again for the
deal's ``revealed``): at a race game's deadline it could say ``playing`` with
``undo_allowed: false``.  ``GameSummary`` read it for ``status`` and again for
``finished_at``: across a race's start a row could say ``not_started`` with the
``finished_at`` the join stored from the secret deal (RULES.md 7).  The clock here
moves one second on every reading, so two readings never agree."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import GameState
from games.models import Game
from games.selectors.games import game_view
from games.services.games import move_play
from games.services.races import race_create, race_join
from tests.factories import create_user
from tests.helpers import blocked_seed, ticking

pytestmark = pytest.mark.django_db


def test_game_view_status_and_undo_agree_at_the_deadline(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = timezone.now()
    race = race_create(
        name="Undo at the deadline",
        opens_at=now - timedelta(minutes=5),
        now=now - timedelta(minutes=5),  # announced when joining opened
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
        allow_undo=True,
    )
    ann = create_user("ann")
    game = race_join(race_id=race.id, player=ann, now=now - timedelta(minutes=2)).entry.game
    assert game is not None
    move = GameState.from_dict(game.state).legal_moves()[0]
    move_play(game_id=game.id, player=ann, move=move, now=now)
    game = Game.objects.select_related("deal", "race_entry").get(id=game.id)
    assert game.deadline is not None
    seen = set()
    for before in range(4):
        clock = ticking(game.deadline - timedelta(seconds=before))
        monkeypatch.setattr(timezone, "now", lambda clock=clock: next(clock))
        view = game_view(game)
        seen.add(view["status"])
        if view["status"] == "playing":
            assert view["undo_allowed"] is True, (before, view["status"])
            assert view["finished_at"] is None
        else:
            assert view["status"] == "timed_out"
            assert view["undo_allowed"] is False
            assert view["finished_at"] == game.deadline
        assert view["deal"]["seed"] is None
    assert seen == {"playing", "timed_out"}


def test_game_view_takes_its_instant() -> None:
    """``now=`` decides the whole view: one second before the deadline it is playing
    and undoable, at the deadline timed out and not undoable."""
    now = timezone.now()
    race = race_create(
        name="Given instant",
        opens_at=now - timedelta(minutes=5),
        now=now - timedelta(minutes=5),  # announced when joining opened
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
        allow_undo=True,
    )
    bob = create_user("bob")
    game = race_join(race_id=race.id, player=bob, now=now - timedelta(minutes=2)).entry.game
    assert game is not None
    move_play(
        game_id=game.id,
        player=bob,
        move=GameState.from_dict(game.state).legal_moves()[0],
        now=now,
    )
    game = Game.objects.select_related("deal", "race_entry").get(id=game.id)
    assert game.deadline is not None
    before = game_view(game, now=game.deadline - timedelta(seconds=1))
    at = game_view(game, now=game.deadline)
    assert (before["status"], before["undo_allowed"]) == ("playing", True)
    assert (at["status"], at["undo_allowed"]) == ("timed_out", False)


def test_game_list_row_status_and_finished_at_agree_across_the_start(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = blocked_seed("dead")
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: seed)
    created = timezone.now()
    starts = created + timedelta(minutes=5)
    race = race_create(
        name="Dead deal",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(hours=1),
        late_join_s=None,
    )
    ann = make_client("ann")
    game = race_join(race_id=race.id, player=ann.user, now=created).entry.game  # type: ignore[attr-defined]
    assert game is not None
    stored = Game.objects.get(id=game.id)
    assert stored.status == "blocked"  # computed from the deal at the join
    assert stored.finished_at is not None
    seen = set()
    for before in range(10):
        clock = ticking(starts - timedelta(seconds=before))
        monkeypatch.setattr(timezone, "now", lambda clock=clock: next(clock))
        [row] = ann.get("/api/v1/games").json()["results"]
        seen.add(row["status"])
        if row["status"] == "not_started":
            assert row["finished_at"] is None, (before, row)
        else:
            assert row["status"] == "blocked", (before, row)
            assert row["finished_at"] is not None
    assert seen == {"not_started", "blocked"}


def test_game_list_row_gives_a_game_past_its_deadline_the_views_finished_at(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its deadline, before the sweeper records it, a game is ``timed_out`` in both
    the list and the view; the view gave the deadline as ``finished_at`` and the list
    ``null``."""
    now = timezone.now()
    race = race_create(
        name="Out of time",
        opens_at=now - timedelta(minutes=5),
        now=now - timedelta(minutes=5),  # announced when joining opened
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=10),
    )
    cat = make_client("cat")
    game = race_join(race_id=race.id, player=cat.user, now=now - timedelta(minutes=2)).entry.game  # type: ignore[attr-defined]
    assert game is not None
    stored = Game.objects.select_related("deal", "race_entry").get(id=game.id)
    assert stored.deadline is not None
    assert stored.finished_at is None
    after = stored.deadline + timedelta(seconds=5)
    monkeypatch.setattr(timezone, "now", lambda: after)
    [row] = cat.get("/api/v1/games").json()["results"]
    view = cat.get(f"/api/v1/games/{game.id}").json()
    assert (row["status"], view["status"]) == ("timed_out", "timed_out")
    assert row["finished_at"] == view["finished_at"]
    assert row["finished_at"] is not None
    assert row["finished_at"].startswith(stored.deadline.strftime("%Y-%m-%dT%H:%M:%S"))
