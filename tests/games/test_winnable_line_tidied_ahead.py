# mypy: disable-error-code="no-untyped-call, assignment"
"""A proven-winnable deal's line is shortened on the solver queue when it is pooled, never
in the request that draws it.

An attack: ``POST /api/v1/games {"winnable": true}`` took 0.4 to 12 s of the web worker's
CPU (one request 50 s, waiting on the player's own row lock held by the next one) because
the draw shortened the pooled line (``games.engine.tidy.tidy_line``, up to 200,000 engine
moves) inside the request and its transaction; a few such requests in parallel held every
web worker (three in compose.yaml) while race players' moves waited.  A race with
``require_winnable`` (or a tournament batch of ten) did the same in the organiser's request.
"""

from __future__ import annotations

import sys
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

import games.engine.tidy
import games.services.winnable_pool as winnable_pool
from games.engine import make_rules, new_game
from games.engine.solver import SolveResult, solve
from games.engine.tidy import tidy_line
from games.models import WinnableDeal
from games.services.games import game_start
from games.services.races import race_create
from games.services.winnable_pool import rules_key, winnable_pool_fill
from tests.conftest import _winnable_seeds
from tests.factories import create_user

pytestmark = pytest.mark.django_db

CLASSIC = make_rules("classic").to_dict()


def _proof(seed: str) -> SolveResult:
    """The solver's own winning line of ``seed``'s classic deal (not shortened)."""
    proof = solve(new_game("classic", seed=seed), max_nodes=20_000, max_seconds=None)
    assert proof.result == "won"
    return proof


def _pooled(purpose: str) -> tuple[str, list[str]]:
    """One deal in the share ``purpose`` whose stored line is the solver's own (a row
    pooled before lines were shortened when pooled); returns its seed and line."""
    seed = _winnable_seeds()[0]
    proof = _proof(seed)
    WinnableDeal.objects.create(
        rules_key=rules_key(make_rules("classic")),
        purpose=purpose,
        variant="classic",
        options=CLASSIC,
        seed=seed,
        moves=proof.moves,
        nodes=proof.nodes,
        seconds=proof.seconds,
    )
    return seed, list(proof.moves)


@pytest.fixture
def no_tidy_here(monkeypatch: pytest.MonkeyPatch) -> None:
    """Shortening a line in the code under test fails the test: ``tidy_line`` refuses in
    every module of the project that holds it (``games.engine.tidy`` and each that
    imported it)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a winning line was shortened inside the request")

    holders = [
        m
        for name, m in list(sys.modules.items())
        if name.startswith("games.") and hasattr(m, "tidy_line")
    ]
    assert games.engine.tidy in holders
    for module in holders:
        monkeypatch.setattr(module, "tidy_line", refuse)


def _wins(seed: str, moves: list[str]) -> bool:
    state = new_game("classic", seed=seed)
    for move in moves:
        state.play(move)
    return state.cards_home == 52


def test_a_winnable_practice_game_takes_the_pooled_line_as_it_is(
    no_tidy_here: None, queued: list[tuple[str, dict[str, Any]]]
) -> None:
    seed, line = _pooled("practice")
    game = game_start(player=create_user("p"), winnable=True)
    assert game.deal.seed == seed
    assert game.deal.solver_result == "won"
    assert game.deal.solver_moves == line
    assert _wins(seed, game.deal.solver_moves)


def test_a_winnable_race_takes_the_pooled_line_as_it_is(
    no_tidy_here: None, queued: list[tuple[str, dict[str, Any]]]
) -> None:
    seed, line = _pooled("race")
    now = timezone.now()
    race = race_create(
        name="r",
        require_winnable=True,
        opens_at=now,
        starts_at=now + timedelta(minutes=5),
        ends_at=now + timedelta(minutes=15),
    )
    assert race.deal.seed == seed
    assert race.deal.solver_moves == line


def test_the_fill_pools_the_shortened_line(monkeypatch: pytest.MonkeyPatch) -> None:
    seed = _winnable_seeds()[0]
    proof = _proof(seed)
    shortened = tidy_line(new_game("classic", seed=seed), proof.moves)
    assert len(shortened) < len(proof.moves)  # this seed's line does get shorter
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: seed)
    monkeypatch.setattr(winnable_pool, "solve", lambda state, max_seconds: proof)
    added = winnable_pool_fill(options=CLASSIC, size=1, reserve=1, attempts=2)
    assert added == 1
    (row,) = WinnableDeal.objects.all()
    assert row.seed == seed
    assert row.moves == shortened
    assert _wins(seed, row.moves)
