"""The rating mathematics against the openskill library's own computation."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from games.rating_model import (
    INITIAL,
    LIBRARY_MAX_ENTRIES,
    Skill,
    _rate_linear,
    display_rating,
    rate_race,
)


def library(skills: list[Skill], ranks: list[int]) -> list[tuple[float, float]]:
    """openskill's Plackett-Luce update, called directly."""
    model = PlackettLuce()
    teams = [[model.rating(mu=s.mu, sigma=s.sigma)] for s in skills]
    return [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[float(r) for r in ranks])]


def spread(n: int) -> list[Skill]:
    """``n`` distinct hand-made skills (mu 15..35, sigma 1..8)."""
    return [Skill(15 + 20 * i / max(1, n - 1), 1 + 7 * ((i * 7) % n) / n) for i in range(n)]


def test_two_newcomers_winner_gains_loser_loses() -> None:
    a, b = rate_race([INITIAL, INITIAL], [1, 2])
    (lib_a, lib_b) = library([INITIAL, INITIAL], [1, 2])
    assert (a.mu, a.sigma) == pytest.approx(lib_a, abs=1e-12)
    assert (b.mu, b.sigma) == pytest.approx(lib_b, abs=1e-12)
    assert a.mu > 25 > b.mu
    assert a.sigma < INITIAL.sigma
    assert b.sigma < INITIAL.sigma


def test_display_rating_is_scaled_conservative_estimate() -> None:
    assert display_rating(25.0, 25 / 3) == 1000  # mu - 3 sigma = 0
    assert display_rating(25.0, 1.5) == round(1000 + 20 * 20.5) == 1410
    assert display_rating(-40.0, 2.0) == 1000 + 20 * -46 == 80
    assert INITIAL.display == 1000
    assert Skill(30.0, 2.0).ordinal == pytest.approx(24.0)


@pytest.mark.parametrize(
    "ranks",
    [
        [1, 2],
        [2, 1],
        [1, 1],
        [1, 2, 3],
        [1, 2, 2],
        [1, 1, 3],
        [3, 1, 2],
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        [1, 2, 2, 4, 5, 5, 5, 8, 9, 10],
        [4, 1, 9, 2, 2, 7, 6, 8, 1, 10],
    ],
)
def test_linear_form_equals_library(ranks: list[int]) -> None:
    """The O(n log n) form gives the library's numbers (ties included)."""
    skills = spread(len(ranks))
    got = _rate_linear(skills, ranks)
    for g, (mu, sigma) in zip(got, library(skills, ranks), strict=True):
        assert g.mu == pytest.approx(mu, abs=1e-9)
        assert g.sigma == pytest.approx(sigma, abs=1e-9)


def test_large_race_uses_linear_form_equal_to_library() -> None:
    """Above LIBRARY_MAX_ENTRIES, rate_race still matches the library (ties of 3)."""
    n = LIBRARY_MAX_ENTRIES + 200
    skills = spread(n)
    ranks = [3 * (i // 3) + 1 for i in range(n)][::-1]
    got = rate_race(skills, ranks)
    lib = library(skills, ranks)
    assert max(abs(g.mu - m) for g, (m, _s) in zip(got, lib, strict=True)) < 1e-9
    assert max(abs(g.sigma - s) for g, (_m, s) in zip(got, lib, strict=True)) < 1e-9


def test_rate_race_refuses_fewer_than_two() -> None:
    with pytest.raises(ValueError, match="at least two"):
        rate_race([INITIAL], [1])
    with pytest.raises(ValueError, match="one rank per skill"):
        rate_race([INITIAL, INITIAL], [1])
