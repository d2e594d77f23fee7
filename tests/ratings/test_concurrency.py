# mypy: disable-error-code="no-untyped-call, arg-type, misc"
"""Two rating tasks at once on PostgreSQL: the pool's row lock makes them one after the other."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import RaceEntry, RaceRating, RatingChange
from games.services.race_admin import race_entry_disqualify
from games.services.ratings import race_rate
from tests.api.test_concurrency import race as in_threads
from tests.ratings.helpers import Result, expected_fold, race_of, ranks_of, ratings

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _no_task_on_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Set-up commits must not rate the races: the threads below do it."""
    monkeypatch.setattr("games.services.races.race_rating_enqueue", lambda **kw: None)


def check(expected: dict[str, tuple[float, float, int]]) -> None:
    got = ratings()
    assert set(got) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9)
        assert got[name][1] == pytest.approx(sigma, abs=1e-9)
        assert got[name][2] == games


def test_two_concurrent_tasks_for_one_race_rate_it_once() -> None:
    race = race_of(*(Result(f"p{i}", 10 + 3 * i, 1000 + i) for i in range(12)))
    outcomes = in_threads(2, lambda i: race_rate(race_id=race.id))
    assert sorted(outcomes) == ["rated", "unchanged"], outcomes
    check(expected_fold([ranks_of(race)]))
    assert RatingChange.objects.filter(race=race).count() == 12


def test_concurrent_tasks_of_two_races_end_in_race_order() -> None:
    r1 = race_of(*(Result(f"p{i}", 10 + 3 * i, 1000) for i in range(6)))
    r2 = race_of(*(Result(f"p{i}", 40 - 3 * i, 1000) for i in range(6)))
    outcomes = in_threads(2, lambda i: race_rate(race_id=(r2, r1)[i].id))
    assert outcomes == ["rated", "rated"]
    check(expected_fold([ranks_of(r1), ranks_of(r2)]))


def test_concurrent_re_rates_after_a_disqualification_agree() -> None:
    r1 = race_of(*(Result(f"p{i}", 10 + 3 * i, 1000) for i in range(5)))
    r2 = race_of(*(Result(f"p{i}", 40 - 3 * i, 1000) for i in range(5)))
    race_rate(race_id=r1.id)
    race_rate(race_id=r2.id)
    entry = RaceEntry.objects.get(race=r1, player__username="p4")
    race_entry_disqualify(entry_id=entry.id, reason="shared account")
    outcomes: list[Any] = in_threads(2, lambda i: race_rate(race_id=r1.id))
    assert sorted(outcomes) == ["rated", "unchanged"], outcomes
    check(expected_fold([ranks_of(r1), ranks_of(r2)]))
    assert RaceRating.objects.filter(status="rated").count() == 2
