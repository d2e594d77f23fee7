# mypy: disable-error-code="no-untyped-call, assignment"
"""``manage.py winnable_tidy``: the deals pooled before the fill shortened each line keep
the solver's first line (a draw deals it as it is, no request shortens it).  The command
shortens each such line outside requests, as the fill does (``tidy_line``, then the
engine's replay to 52 cards home before the line is stored), marks it
(``WinnableDeal.tidied_at``) so that a second run leaves it alone, and with ``--dry-run``
stores nothing."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

import games.services.winnable_pool as winnable_pool
from games.engine import make_rules, new_game
from games.engine.solver import solve
from games.engine.tidy import tidy_line
from games.models import WinnableDeal
from games.services.winnable_pool import rules_key, winnable_line_tidy, winnable_pool_fill
from tests.conftest import _winnable_seeds

pytestmark = pytest.mark.django_db

CLASSIC = make_rules("classic").to_dict()


def _solver_line(seed: str) -> list[str]:
    proof = solve(new_game("classic", seed=seed), max_nodes=20_000, max_seconds=None)
    assert proof.result == "won"
    return list(proof.moves)


def _pool(seed: str, moves: list[str], *, tidied_at: Any = None) -> WinnableDeal:
    """A pooled deal of the classic rules with the line ``moves`` stored as it is."""
    return WinnableDeal.objects.create(
        rules_key=rules_key(make_rules("classic")),
        purpose=WinnableDeal.Purpose.PRACTICE,
        variant="classic",
        options=CLASSIC,
        seed=seed,
        moves=moves,
        tidied_at=tidied_at,
    )


def _wins(seed: str, line: list[str]) -> bool:
    state = new_game("classic", seed=seed)
    for move in line:
        state.play(move)
    return state.cards_home == 52


def _run(*args: str) -> str:
    out = StringIO()
    call_command("winnable_tidy", "--no-progress", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_the_command_shortens_old_lines_once_and_leaves_shortened_ones() -> None:
    first, second, third = _winnable_seeds()[:3]
    old = {seed: _solver_line(seed) for seed in (first, second)}
    rows = {seed: _pool(seed, old[seed]) for seed in (first, second)}
    marked = timezone.now() - timedelta(days=1)
    done_already = _pool(third, _solver_line(third), tidied_at=marked)  # not to be touched

    said = _run()

    assert said.startswith("2 pooled lines never shortened: 2 shortened\n")
    assert "seconds per line: median " in said
    for seed, row in rows.items():
        row.refresh_from_db()
        expected = tidy_line(new_game("classic", seed=seed), old[seed])
        assert len(expected) < len(old[seed])
        assert row.moves == expected
        assert _wins(seed, row.moves)
        assert row.tidied_at is not None
    done_already.refresh_from_db()
    assert (done_already.moves, done_already.tidied_at) == (_solver_line(third), marked)

    # Idempotent: a second run finds nothing to do and changes nothing.
    stored = {r.id: (r.moves, r.tidied_at) for r in WinnableDeal.objects.all()}
    assert _run() == "0 pooled lines never shortened: nothing\n"
    assert {r.id: (r.moves, r.tidied_at) for r in WinnableDeal.objects.all()} == stored


def test_a_dry_run_stores_nothing() -> None:
    seed = _winnable_seeds()[0]
    line = _solver_line(seed)
    row = _pool(seed, line)
    said = _run("--dry-run")
    assert said.startswith("1 pooled lines never shortened: 1 dry_run (dry run: nothing stored)\n")
    row.refresh_from_db()
    assert (row.moves, row.tidied_at) == (line, None)


def test_the_progress_bar_counts_lines() -> None:
    seed = _winnable_seeds()[0]
    _pool(seed, _solver_line(seed))
    err = StringIO()
    call_command("winnable_tidy", "--limit", "1", stdout=StringIO(), stderr=err)
    assert "1/1" in err.getvalue()


def test_a_shortened_line_that_does_not_win_is_never_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The engine replays every shortened line before it is stored: a line one move short
    of the win (a bug in the shortening) is refused, the row left as it was."""
    seed = _winnable_seeds()[0]
    line = _solver_line(seed)
    row = _pool(seed, line)
    monkeypatch.setattr(
        winnable_pool, "tidy_line", lambda state, moves, max_plays: list(moves)[:-1]
    )
    out = winnable_line_tidy(deal_id=row.id)
    assert (out.result, out.detail) == ("broken", "shortened line does not win")
    row.refresh_from_db()
    assert (row.moves, row.tidied_at) == (line, None)


def test_a_stored_line_that_does_not_win_is_left_alone_and_fails_the_command() -> None:
    seed = _winnable_seeds()[0]
    line = _solver_line(seed)[:-1]
    row = _pool(seed, line)
    with pytest.raises(CommandError, match="1 pooled line"):
        _run()
    row.refresh_from_db()
    assert (row.moves, row.tidied_at) == (line, None)


def test_a_row_drawn_while_its_line_is_shortened_is_not_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seed = _winnable_seeds()[0]
    row = _pool(seed, _solver_line(seed))
    real = tidy_line

    def drawn_meanwhile(state: Any, moves: list[str], max_plays: Any) -> list[str]:
        WinnableDeal.objects.filter(id=row.id).delete()  # a draw took it
        return real(state, moves, max_plays=max_plays)

    monkeypatch.setattr(winnable_pool, "tidy_line", drawn_meanwhile)
    assert winnable_line_tidy(deal_id=row.id).result == "taken"
    assert not WinnableDeal.objects.exists()
    assert winnable_line_tidy(deal_id=row.id).result == "gone"


def test_the_fill_marks_the_lines_it_shortens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals pooled now are shortened when pooled: the command never takes them."""
    seed = _winnable_seeds()[0]
    proof = solve(new_game("classic", seed=seed), max_nodes=20_000, max_seconds=None)
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: seed)
    monkeypatch.setattr(winnable_pool, "solve", lambda state, max_seconds: proof)
    assert winnable_pool_fill(options=CLASSIC, size=1, reserve=0, attempts=1) == 1
    assert WinnableDeal.objects.get().tidied_at is not None
    assert _run() == "0 pooled lines never shortened: nothing\n"


def test_the_summary_counts_no_moves_removed_from_a_line_taken_meanwhile(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A row drawn while its line was shortened stores nothing: its shorter line is not
    "moves removed" (the summary said so, as if stored), and ``--limit`` says how many of
    the lines never shortened it took."""
    first, second = _winnable_seeds()[:2]
    taken = _pool(first, _solver_line(first))
    _pool(second, _solver_line(second))
    real = tidy_line

    def drawn_meanwhile(state: Any, moves: list[str], max_plays: Any) -> list[str]:
        WinnableDeal.objects.filter(id=taken.id).delete()  # a draw took it
        return real(state, moves, max_plays=max_plays)

    monkeypatch.setattr(winnable_pool, "tidy_line", drawn_meanwhile)
    said = _run("--limit", "1")
    assert said.startswith("1 of 2 pooled lines never shortened: 1 taken\n"), said
    assert "moves removed" not in said  # none stored
    assert "seconds per line: median " in said  # the work was done all the same
