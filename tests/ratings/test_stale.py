# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""A rated race whose results or ``rated`` flag change is marked stale, and the sweep
re-rates it even when the task queued after the change was lost (a broker outage).

Nothing here runs the on-commit callbacks: every queued ``games.race_rate`` is lost,
so only the stale mark and ``ratings_sweep`` can bring the ratings up to date.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Race, RaceEntry, RaceRating
from games.selectors.ratings import race_rating
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
from games.services.ratings import race_rate, race_set_rated, ratings_sweep
from tests.ratings.helpers import Result, expected_fold, race_of, ranks_of, ratings

pytestmark = pytest.mark.django_db


def assert_matches(expected: dict[str, tuple[float, float, int]]) -> None:
    got = ratings()
    assert set(got) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
        assert got[name][2] == games, name


def three_rated_races() -> tuple[Race, Race, Race]:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cat", 20, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("cat", 35, 1000), Result("ann", 25, 1000))
    r3 = race_of(Result("cat", 50, 1000), Result("ann", 40, 1000), Result("dan", 30, 1000))
    for r in (r1, r2, r3):
        assert race_rate(race_id=r.id) == "rated"
    assert ratings_sweep() == []
    return r1, r2, r3


def stale(race: Race) -> bool:
    return Race.objects.values_list("rating_stale", flat=True).get(id=race.id)


def test_a_disqualification_and_its_lifting_are_re_rated_by_the_sweep() -> None:
    r1, r2, r3 = three_rated_races()
    entry = RaceEntry.objects.get(race=r2, player__username="bob")

    race_entry_disqualify(entry_id=entry.id, reason="bot")
    assert stale(r2) is True
    # What the race's rating page and GET /races/{id}/rating say meanwhile.
    assert race_rating(race=Race.objects.get(id=r2.id))["status"] == "pending"
    assert ratings_sweep() == [f"{r2.id}:rated"]
    assert stale(r2) is False
    assert race_rating(race=Race.objects.get(id=r2.id))["status"] == "rated"
    assert ranks_of(r2) == {"cat": 1, "ann": 2}
    assert_matches(expected_fold([ranks_of(r) for r in (r1, r2, r3)]))
    assert ratings()["bob"][2] == 1  # r1 only
    assert ratings_sweep() == []

    race_entry_reinstate(entry_id=entry.id)
    assert stale(r2) is True
    assert ratings_sweep() == [f"{r2.id}:rated"]
    assert ranks_of(r2) == {"bob": 1, "cat": 2, "ann": 3}
    assert_matches(expected_fold([ranks_of(r) for r in (r1, r2, r3)]))
    assert ratings()["bob"][2] == 2
    assert ratings_sweep() == []


def test_marking_a_rated_race_unrated_and_rated_again_is_re_rated_by_the_sweep() -> None:
    r1, r2, r3 = three_rated_races()
    race_set_rated(race_id=r1.id, rated=False)
    assert ratings_sweep() == [f"{r1.id}:not_rated"]
    assert RaceRating.objects.get(race=r1).reason == "unrated"
    assert_matches(expected_fold([ranks_of(r2), ranks_of(r3)]))
    assert ratings_sweep() == []

    race_set_rated(race_id=r1.id, rated=True)
    assert ratings_sweep() == [f"{r1.id}:rated"]
    assert_matches(expected_fold([ranks_of(r) for r in (r1, r2, r3)]))


def test_the_sweep_re_rates_in_race_order_and_later_stale_races_cost_nothing() -> None:
    """Changes to r3 then r1: the sweep takes r1 first; its replay re-rates r2 and r3 from
    their stored results, so r3 (stale too) is found already up to date."""
    r1, r2, r3 = three_rated_races()
    race_set_rated(race_id=r3.id, rated=False)
    entry = RaceEntry.objects.get(race=r1, player__username="ann")
    race_entry_disqualify(entry_id=entry.id, reason="two accounts")
    assert ratings_sweep() == [f"{r1.id}:rated", f"{r3.id}:unchanged"]
    assert (stale(r1), stale(r2), stale(r3)) == (False, False, False)
    assert ranks_of(r1) == {"bob": 1, "cat": 2}
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))
    assert RaceRating.objects.get(race=r3).reason == "unrated"
    assert ratings_sweep() == []


def test_a_task_that_did_arrive_clears_the_mark() -> None:
    r1, r2, _r3 = three_rated_races()
    entry = RaceEntry.objects.get(race=r1, player__username="cat")
    race_entry_disqualify(entry_id=entry.id, reason="abuse")
    assert race_rate(race_id=r1.id) == "rated"
    assert stale(r1) is False
    assert ratings_sweep() == []


def test_a_change_to_a_race_not_finished_marks_nothing() -> None:
    from tests.tournaments.factories import running_race

    race = running_race()
    race_set_rated(race_id=race.id, rated=False)
    assert stale(race) is False
    assert ratings_sweep() == []


@pytest.mark.parametrize("lift", [False, True])
def test_a_disqualification_whose_re_score_fails_changes_nothing(
    monkeypatch: pytest.MonkeyPatch, lift: bool
) -> None:
    """The entry's ``disqualified`` flag, the race's ranks and the stale mark commit in
    one transaction: the flag used to commit before the re-score's own transaction, so a
    reader saw the entry disqualified with its old rank, and a failed re-score left it
    so.  Now a failed re-score rolls the flag back with it."""
    from games.services import race_admin

    _r1, r2, _r3 = three_rated_races()
    entry = RaceEntry.objects.get(race=r2, player__username="bob")
    if lift:
        race_entry_disqualify(entry_id=entry.id, reason="bot")
        assert ratings_sweep() == [f"{r2.id}:rated"]
    before = (ranks_of(r2), RaceEntry.objects.get(id=entry.id).rank)
    assert before == (({"cat": 1, "ann": 2}, None) if lift else ({"bob": 1, "cat": 2, "ann": 3}, 1))

    real_rescore = race_admin.race_rescore

    def crash(**kwargs: Any) -> None:
        real_rescore(**kwargs)  # the ranks are re-scored (and the race marked stale) ...
        raise RuntimeError("worker lost")  # ... then the tournament's re-score fails

    monkeypatch.setattr(race_admin, "race_rescore", crash)
    change = race_entry_reinstate if lift else race_entry_disqualify
    kwargs = {} if lift else {"reason": "bot"}
    with pytest.raises(RuntimeError, match="worker lost"):
        change(entry_id=entry.id, **kwargs)
    after = RaceEntry.objects.get(id=entry.id)
    assert (after.disqualified, after.disqualified_reason) == (
        (True, "bot") if lift else (False, "")
    )
    assert (ranks_of(r2), after.rank) == before
    assert stale(r2) is False
    assert ratings_sweep() == []


def test_after_a_disqualification_the_ranks_are_those_of_the_others() -> None:
    """Once the disqualification returns, the entry has no rank and the others are
    ranked again without it (1, 2), in the same commit as the flag and the stale mark."""
    _r1, r2, _r3 = three_rated_races()
    entry = RaceEntry.objects.get(race=r2, player__username="bob")
    got = race_entry_disqualify(entry_id=entry.id, reason="bot")
    assert (got.disqualified, got.disqualified_reason, got.rank) == (True, "bot", None)
    assert ranks_of(r2) == {"cat": 1, "ann": 2}
    assert stale(r2) is True
    got = race_entry_reinstate(entry_id=entry.id)
    assert (got.disqualified, got.rank) == (False, 1)
    assert ranks_of(r2) == {"bob": 1, "cat": 2, "ann": 3}


@pytest.mark.parametrize("bulk", [False, True])
def test_deleting_a_player_re_rates_their_races_without_them(bulk: bool) -> None:
    """Deleting an account cascades to its race entries and rating history: its rated
    races are marked stale in the deletion's transaction, and the sweep re-rates the
    pool from the first of them as if the player had never raced.  ``bulk``: the
    admin's "delete selected" (a queryset delete) rather than one account's page."""
    from django.contrib.auth.models import User

    r1, r2, r3 = three_rated_races()
    unrated = race_of(Result("bob", 40, 1000), Result("dan", 30, 1000))
    race_set_rated(race_id=unrated.id, rated=False)
    assert ratings_sweep() == [f"{unrated.id}:not_rated"]
    with_bob = ratings()
    if bulk:
        User.objects.filter(username="bob").delete()
    else:
        User.objects.get(username="bob").delete()
    # Each race bob ran in is ranked again without him, so its results changed: the
    # unrated one too (it is processed again, and still does not count).
    assert (stale(r1), stale(r2), stale(r3), stale(unrated)) == (True, True, False, True)
    assert (ranks_of(r1), ranks_of(r2), ranks_of(unrated)) == (
        {"ann": 1, "cat": 2},
        {"cat": 1, "ann": 2},
        {"dan": 1},
    )
    without_bob = expected_fold(
        [{"ann": 1, "cat": 2}, {"cat": 1, "ann": 2}, {"cat": 1, "ann": 2, "dan": 3}]
    )
    assert with_bob["ann"][0] != pytest.approx(without_bob["ann"][0], abs=1e-6)
    # r1's replay re-rates the later races of the pool from their stored results (the
    # unrated one included): r2 and the unrated race are then unchanged.
    assert ratings_sweep() == [f"{r1.id}:rated", f"{r2.id}:unchanged", f"{unrated.id}:unchanged"]
    assert (stale(r1), stale(r2), stale(r3), stale(unrated)) == (False, False, False, False)
    assert RaceRating.objects.get(race=unrated).reason == "unrated"
    assert_matches(without_bob)
    assert ratings_sweep() == []


def test_a_pool_recompute_clears_the_stale_marks_of_the_races_it_re_rates() -> None:
    """``pool_recompute`` re-rates every race of the pool from its stored results, so
    none is stale afterwards; it left the marks, and the sweep re-rated them again
    (each found unchanged).  A stale race of another pool keeps its mark."""
    from datetime import UTC, datetime

    from games.models import RatingPool
    from games.services.ratings import pool_recompute

    r1, r2, r3 = three_rated_races()
    other = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), variant="draw-one")
    assert ratings_sweep() == [f"{other.id}:rated"]
    race_entry_disqualify(
        entry_id=RaceEntry.objects.get(race=r2, player__username="bob").id, reason="bot"
    )
    race_set_rated(race_id=r3.id, rated=False)
    race_set_rated(race_id=other.id, rated=False)
    assert (stale(r1), stale(r2), stale(r3), stale(other)) == (False, True, True, True)

    now = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)
    assert pool_recompute(pool_id=RatingPool.objects.get(key="classic").id, now=now) == 2
    assert (stale(r1), stale(r2), stale(r3), stale(other)) == (False, False, False, True)
    assert RaceRating.objects.get(race=r3).reason == "unrated"
    assert set(
        RaceRating.objects.filter(pool__key="classic").values_list("rated_at", flat=True)
    ) == {now}
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))
    # Only the other pool's race is left for the sweep.
    assert ratings_sweep() == [f"{other.id}:not_rated"]
    assert ratings_sweep() == []
