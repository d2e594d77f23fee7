# mypy: disable-error-code="no-untyped-call, arg-type, misc"
"""An undo out of a blocked race game and the race's close never overlap (PostgreSQL).

The undo reads the race as still scheduled, under its lock on the game only; a closer
(the sweeper at the race's end, or a cancel) then timed out the games ``playing`` in its
snapshot, which did not include the blocked game being undone, and finished the race.
The undo committed after: a game ``playing`` in a finished (or cancelled) race, never
timed out, its deal hidden from its player while the race's seed was out.  The closers
now lock the race's games before timing them out, so they wait for the undo and then
see its game playing.  The two transactions are ordered by events and by PostgreSQL's
own lock wait, not by sleeping."""

from __future__ import annotations

import threading
import time
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection

import games.services.games as games_service
from games.models import Game, Race
from games.services.games import game_undo
from games.services.races import race_cancel, race_close, race_join
from tests.factories import create_user
from tests.games.test_undo_blocked import SEED, TO_BLOCKED, _play
from tests.tournaments.factories import running_race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _waiting_on_a_lock() -> bool:
    with connection.cursor() as cur:
        cur.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return bool(cur.fetchone()[0])


@pytest.mark.parametrize("closer", ["close", "cancel"])
def test_a_race_is_not_closed_under_an_undo_out_of_a_blocked_game(
    monkeypatch: Any, closer: str
) -> None:
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    race = running_race(name="overlap", allow_undo=True)
    ann = create_user("ann")
    game = race_join(race_id=race.id, player=ann).entry.game
    assert game is not None
    _play(game.id, ann, TO_BLOCKED)
    game.refresh_from_db()
    assert (game.status, game.deadline) == ("blocked", race.ends_at)

    inside, release = threading.Event(), threading.Event()
    real_changed = games_service._changed

    def slow_changed(g: Game, change: str) -> None:
        """The undo's transaction, paused once the game row is written (still locked)."""
        inside.set()
        assert release.wait(timeout=20)
        real_changed(g, change)

    monkeypatch.setattr(games_service, "_changed", slow_changed)
    results: dict[str, Any] = {}

    def run(name: str, call: Any) -> None:
        try:
            results[name] = call()
        except BaseException as exc:  # reported below
            results[name] = exc
        finally:
            connection.close()

    undo_at = race.ends_at - timedelta(seconds=1)
    close_at = race.ends_at + timedelta(seconds=1)
    undoer = threading.Thread(
        target=run, args=("undo", lambda: game_undo(game_id=game.id, player=ann, now=undo_at))
    )
    close = (
        (lambda: race_close(race_id=race.id, now=close_at))
        if closer == "close"
        # Before the end: a race past its end is scored, not cancelled (races_end).
        else (lambda: race_cancel(race_id=race.id, now=undo_at + timedelta(seconds=0.5)).status)
    )
    closing = threading.Thread(target=run, args=("close", close))
    undoer.start()
    try:
        assert inside.wait(timeout=20)
        closing.start()
        # Until the closer is done (the old code) or waits for the undo's lock.
        deadline = time.monotonic() + 20
        while closing.is_alive() and not _waiting_on_a_lock():
            assert time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        release.set()
        undoer.join(timeout=30)
        if closing.ident is not None:
            closing.join(timeout=30)
    assert not undoer.is_alive()
    assert not closing.is_alive()
    assert results["undo"].status == "playing", results
    assert results["close"] == ("finished" if closer == "close" else "cancelled"), results
    game.refresh_from_db()
    # The undone game was timed out with the race, not left playing in it.
    assert (game.status, game.move_number) == ("timed_out", 25)
    assert Race.objects.get(id=race.id).status == results["close"]
