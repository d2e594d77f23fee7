"""What ``python3 dev.py demo`` prints, from a new user's pass: no garbled live line
before the start ("-. home-only-1 - home"), the time that breaks a tie on cards shown
(two bots equal on cards and moves ranked 2 and 3 with nothing to tell them apart), and
an honest wall time (it said "done in 48 s" after 79 s: setup was left out), and a live
standings line printed only when it changed (the same line came four times in a row)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from canfield_bot.__main__ import standings_table
from canfield_bot.client import LiveEvent
from canfield_bot.demo import (
    RANKING_LEGEND,
    done_line,
    live_standings_line,
    print_live_standings,
)


def _row(rank: int | None, player: str, cards: int | None, ms: int | None) -> dict[str, object]:
    return {"rank": rank, "player": player, "cards_home": cards, "moves": 7, "elapsed_ms": ms}


def test_before_the_start_the_live_line_waits() -> None:
    rows = [_row(None, "home-only-1", None, None), _row(None, "priority-2", None, None)]
    assert live_standings_line(rows) == "waiting for the start (2 entrants)"
    assert live_standings_line(rows[:1]) == "waiting for the start (1 entrant)"
    # A large race's event carries its first lines and the count of all of them.
    assert live_standings_line(rows, 250) == "waiting for the start (250 entrants)"


def test_the_live_line_shows_the_time_that_breaks_a_tie() -> None:
    rows = [
        _row(1, "lookahead-3", 30, 21_500),
        _row(2, "home-only-1", 12, 8_012),
        _row(3, "home-only-4", 12, 8_047),
        _row(None, "late-5", None, None),
    ]
    assert live_standings_line(rows) == (
        "1. lookahead-3 30 home at 21.500 s, 2. home-only-1 12 home at 8.012 s, "
        "3. home-only-4 12 home at 8.047 s, late-5 (unranked)"
    )


def test_the_final_table_tells_a_tie_on_cards_apart() -> None:
    rows = [
        {**_row(2, "home-only-1", 12, 8_012), "status": "blocked"},
        {**_row(3, "home-only-4", 12, 8_047), "status": "blocked"},
    ]
    lines = standings_table(rows).splitlines()
    assert lines[2].split()[4] == "8.012"
    assert lines[3].split()[4] == "8.047"
    assert "'time s'" in RANKING_LEGEND
    assert "moves never break a tie" in RANKING_LEGEND


def test_the_done_line_is_the_whole_wall_time() -> None:
    assert done_line(79.4, 40) == (
        "done in 79 s wall time (setup, a race of at most 40 s, scoring and shutdown)"
    )


class _Stream:
    """A stand-in for ``CanfieldClient``: its event stream yields ``events`` and each one
    moves the fake clock to the time given with it."""

    def __init__(self, events: list[tuple[float, LiveEvent]], now: list[float]) -> None:
        self.events_given, self.now = events, now

    def __call__(self, url: str) -> _Stream:
        return self

    async def __aenter__(self) -> _Stream:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def events(self, path: str) -> AsyncIterator[LiveEvent]:
        assert path == "races/r1/events"
        for at, ev in self.events_given:
            self.now[0] = at
            yield ev


def test_live_standings_print_a_line_only_when_it_changed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same standings pushed again printed the same line (four times in a row)."""
    waiting = [_row(None, "home-only-1", None, None), _row(None, "priority-2", None, None)]
    first = [_row(1, "priority-2", 5, 3_000), _row(2, "home-only-1", 4, 2_000)]
    later = [_row(1, "priority-2", 6, 7_000), _row(2, "home-only-1", 4, 2_000)]
    quick = [_row(1, "priority-2", 7, 9_500), _row(2, "home-only-1", 4, 2_000)]

    def standings(rows: list[dict[str, object]]) -> LiveEvent:
        return LiveEvent("standings", "", {"standings": rows})

    now = [0.0]
    stream = _Stream(
        [
            (0.0, standings(waiting)),
            (5.0, standings(waiting)),
            (5.5, LiveEvent("phase", "", {"phase": "running"})),
            (6.0, standings(first)),
            (9.0, standings(first)),
            (12.0, standings(first)),
            (15.0, standings(first)),
            (20.0, standings(later)),
            (21.0, standings(quick)),  # changed, but within 2 s of the line before
            (24.0, standings(quick)),  # still the one not yet shown: shown now
            (30.0, standings(quick)),
        ],
        now,
    )
    monkeypatch.setattr("canfield_bot.demo.CanfieldClient", stream)
    asyncio.run(print_live_standings("http://x", "r1", every=2.0, clock=lambda: now[0]))
    assert capsys.readouterr().out.splitlines() == [
        "[demo] live standings: waiting for the start (2 entrants)",
        "[demo] live: the race is running",
        f"[demo] live standings: {live_standings_line(first)}",
        f"[demo] live standings: {live_standings_line(later)}",
        f"[demo] live standings: {live_standings_line(quick)}",
    ]
