"""What ``python3 dev.py demo`` prints, from a new user's pass: no garbled live line
before the start ("-. home-only-1 - home"), the time that breaks a tie on cards shown
(two bots equal on cards and moves ranked 2 and 3 with nothing to tell them apart), and
an honest wall time (it said "done in 48 s" after 79 s: setup was left out)."""

from __future__ import annotations

from canfield_bot.__main__ import standings_table
from canfield_bot.demo import RANKING_LEGEND, done_line, live_standings_line


def _row(rank: int | None, player: str, cards: int | None, ms: int | None) -> dict[str, object]:
    return {"rank": rank, "player": player, "cards_home": cards, "moves": 7, "elapsed_ms": ms}


def test_before_the_start_the_live_line_waits() -> None:
    rows = [_row(None, "home-only-1", None, None), _row(None, "priority-2", None, None)]
    assert live_standings_line(rows) == "waiting for the start (2 entrants)"
    assert live_standings_line(rows[:1]) == "waiting for the start (1 entrant)"


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
