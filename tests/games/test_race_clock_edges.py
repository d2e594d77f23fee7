# mypy: disable-error-code="no-untyped-call, assignment, arg-type, union-attr"
"""The race clock at its edges: the ranking's milliseconds, a deadline to the
millisecond, a race's end passed before the sweeper closed it.

Every instant is injected (``now=``); the races are made relative to the clock only so
that ``race_create`` takes them, and everything after uses the race's own times."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.models import Game, Race, RaceEntry
from games.services.errors import RaceClosed
from games.services.games import game_end, game_undo, move_play
from games.services.races import race_close, race_create, race_join
from tests.tournaments.factories import window_race

pytestmark = pytest.mark.django_db

MS = timedelta(milliseconds=1)


def running_race(**kw: Any) -> Race:
    """A scheduled race that started a minute ago and ends in five, joining open."""
    now = timezone.now()
    return race_create(
        name="clock",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
        **{"late_join_s": None, **kw},
    )


def first_home(race: Race) -> list[str]:
    """Draws until a card can go home, then that move: the moves that put one card home
    more than the deal did, on this race's deal."""
    state, moves = race.deal.new_state(), list[str]()
    for _ in range(40):
        home = next((m for m in state.legal_moves() if m.endswith(">f")), None)
        if home is not None:
            return [*moves, home]
        state.play("draw")
        moves.append("draw")
    raise AssertionError("no card goes home in 40 draws on this deal")


def test_a_count_reached_1_ms_later_ranks_after_not_beside() -> None:
    """Two players reach the same count 1.000 s and 1.001 s after the start: 1000 and
    1001 ms, ranks 1 and 2.  The time went through float seconds and 1.001 s came out
    1000 ms: the two shared rank 1 (as did 2.002 s and 2.001 s, 4.004 s and 4.003 s)."""
    from tests.factories import create_user

    race = running_race()
    moves = first_home(race)
    at = {"fast": timedelta(seconds=1), "slow": timedelta(seconds=1, milliseconds=1)}
    for name, last in at.items():
        player = create_user(name)
        game = race_join(race_id=race.id, player=player).entry.game
        for n, move in enumerate(moves):
            when = race.starts_at + (last if n == len(moves) - 1 else n * MS)
            move_play(game_id=game.id, player=player, move=move, now=when)
    ms = dict(
        RaceEntry.objects.filter(race=race).values_list("player__username", "game__cards_home_ms")
    )
    assert ms == {"fast": 1000, "slow": 1001}
    assert race_close(race_id=race.id, now=race.ends_at) == "finished"
    ranks = dict(RaceEntry.objects.filter(race=race).values_list("player__username", "rank"))
    assert ranks == {"fast": 1, "slow": 2}


def test_elapsed_ms_is_exact_for_every_millisecond() -> None:
    """Every whole number of milliseconds up to an hour is stored as itself (740 of the
    first 100,000 were one short), and a part of a millisecond is dropped, not rounded."""
    from games.services.games import _elapsed_ms

    t0 = running_race().starts_at
    assert all(_elapsed_ms(t0, t0 + k * MS) == k for k in range(0, 3_600_000, 997))
    assert [_elapsed_ms(t0, t0 + k * MS) for k in (1001, 2002, 4004, 1015)] == [
        1001,
        2002,
        4004,
        1015,
    ]
    assert _elapsed_ms(t0, t0 + timedelta(microseconds=1_000_999)) == 1000
    assert _elapsed_ms(t0, t0 - MS) == 0


ACTS: dict[str, Callable[[Game, Any, Any], Any]] = {
    "move": lambda g, p, t: move_play(game_id=g.id, player=p, move="draw", now=t),
    "undo": lambda g, p, t: game_undo(game_id=g.id, player=p, now=t),
    "resign": lambda g, p, t: game_end(game_id=g.id, player=p, now=t),
}


@pytest.mark.parametrize("act", list(ACTS))
@pytest.mark.parametrize(
    ("offset", "accepted"),
    [(-MS, True), (timedelta(0), False), (MS, False)],
    ids=["-1ms", "at", "+1ms"],
)
def test_the_deadline_is_the_first_instant_refused(
    act: str, offset: timedelta, accepted: bool
) -> None:
    """A move, an undo or a resignation 1 ms before the deadline is taken; at the
    deadline and after it, ``409 race_closed`` and nothing changes (RULES.md 3.9: a game
    still going at the deadline is timed out)."""
    from tests.factories import create_user

    race = running_race(allow_undo=True)
    player = create_user("ann")
    game = race_join(race_id=race.id, player=player).entry.game
    move_play(game_id=game.id, player=player, move="draw", now=race.starts_at)
    when = race.ends_at + offset
    if accepted:
        ACTS[act](game, player, when)
    else:
        with pytest.raises(RaceClosed):
            ACTS[act](game, player, when)
    after = Game.objects.get(id=game.id)
    done = {"move": ("playing", 2), "undo": ("playing", 0), "resign": ("resigned", 1)}
    assert (after.status, after.move_number) == (done[act] if accepted else ("playing", 1))


def test_a_cancellation_ends_a_game_out_of_time_at_its_deadline() -> None:
    """A window entrant whose own minute ran out before the organisers cancelled the race
    ended at that deadline (the clock ended it: ``timed_out``); the game still within its
    time ended at the cancellation (``cancelled``).  Both were stored as ended at the
    cancellation, a quarter of an hour after the first one's last possible move."""
    from games.selectors.games import game_status_shown, game_view
    from games.services.races import race_cancel, race_start
    from tests.factories import create_user

    race = window_race(name="w", ends_in=timedelta(hours=1))
    s = race.starts_at
    out = race_start(race_id=race.id, player=create_user("out"), now=s)
    still = race_start(race_id=race.id, player=create_user("still"), now=s + timedelta(minutes=15))
    cancel_at = s + timedelta(minutes=15, seconds=30)
    race_cancel(race_id=race.id, now=cancel_at)
    out, still = Game.objects.get(id=out.id), Game.objects.get(id=still.id)
    assert (out.status, out.finished_at) == ("timed_out", s + timedelta(seconds=60))
    assert (still.status, still.finished_at) == ("timed_out", cancel_at)
    assert game_view(out, now=cancel_at)["finished_at"] == s + timedelta(seconds=60)
    assert [game_status_shown(g, now=cancel_at) for g in (out, still)] == ["timed_out", "cancelled"]


def test_a_sweeper_an_hour_late_keeps_every_time_the_race_s_own() -> None:
    """The workers were down: the race is closed an hour after its end.  Moves after the
    end were refused all the same (the deadline is enforced by the move service); each
    game timed out at its own deadline (a window entrant's, before the race's end), the
    ranking times are those the moves stored, and only ``closed_at`` says how late the
    close was."""
    from games.services.races import race_start
    from tests.factories import create_user

    race = window_race(name="late sweep", time_limit_s=120, ends_in=timedelta(minutes=5))
    s = race.starts_at
    moves = first_home(race)
    early, late = create_user("early"), create_user("late")
    early_game = race_start(race_id=race.id, player=early, now=s)
    late_game = race_start(race_id=race.id, player=late, now=race.ends_at - timedelta(seconds=30))
    for n, move in enumerate(moves):
        move_play(game_id=early_game.id, player=early, move=move, now=s + (n + 1) * MS)
    with pytest.raises(RaceClosed):
        move_play(game_id=late_game.id, player=late, move=moves[0], now=race.ends_at)
    swept_at = race.ends_at + timedelta(hours=1)
    assert race_close(race_id=race.id, now=swept_at) == "finished"
    games = {g.player.username: g for g in Game.objects.filter(race_entry__race=race)}
    assert games["early"].finished_at == s + timedelta(seconds=120)
    assert games["late"].finished_at == race.ends_at  # 30 s, cut at the window's end
    entries = {e.player.username: e for e in RaceEntry.objects.filter(race=race)}
    assert (entries["early"].elapsed_ms, entries["early"].rank) == (len(moves), 1)
    assert (entries["late"].elapsed_ms, entries["late"].rank) == (0, 2)
    assert Race.objects.get(id=race.id).closed_at == swept_at


@pytest.mark.parametrize(("mode", "limit"), [("scheduled", None), ("window", 60)])
def test_close_now_makes_a_scheduled_race_s_time_limit_its_new_span(
    mode: str, limit: int | None
) -> None:
    """*Close now* 200 s into a scheduled race of 6 minutes: its time limit (its span,
    ``race_create``) said 360 s afterwards; now 200.  A window race keeps the limit each
    entrant was given."""
    from games.services.race_admin import race_close_now

    race = running_race(mode=mode, time_limit_s=limit)
    closed_at = race.starts_at + timedelta(seconds=200)
    assert race_close_now(race_id=race.id, now=closed_at) == "finished"
    race.refresh_from_db()
    assert (race.ends_at, race.time_limit_s) == (closed_at, 200 if mode == "scheduled" else 60)
