# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""Rating races: values against openskill, ties, disqualification, re-rating, idempotency."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from games.engine import make_rules
from games.models import (
    Game,
    PlayerRating,
    Race,
    RaceEntry,
    RaceRating,
    RatingChange,
    RatingPool,
)
from games.rating_model import PROVISIONAL_RACES, display_rating
from games.services import ratings as rating_services
from games.services.games import game_start
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
from games.services.ratings import (
    pool_key,
    pool_recompute,
    race_rate,
    race_set_rated,
    ratings_sweep,
)
from tests.factories import UserFactory
from tests.ratings.helpers import Result, expected_fold, history, race_of, ranks_of, ratings
from tests.tournaments.factories import play, running_race

pytestmark = pytest.mark.django_db


def assert_matches(expected: dict[str, tuple[float, float, int]], pool: str = "classic") -> None:
    got = ratings(pool)
    assert set(got) == set(expected)
    for name, (mu, sigma, games) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-9), name
        assert got[name][1] == pytest.approx(sigma, abs=1e-9), name
        assert got[name][2] == games, name


def test_two_players_match_the_library() -> None:
    race = race_of(Result("ann", 52, 90_000, won=True), Result("bob", 30, 50_000))
    assert ranks_of(race) == {"ann": 1, "bob": 2}
    assert race_rate(race_id=race.id) == "rated"
    assert_matches(expected_fold([{"ann": 1, "bob": 2}]))
    ann = PlayerRating.objects.get(player__username="ann")
    assert ann.provisional is True
    assert ann.games_rated == 1
    assert ann.rating == display_rating(ann.mu, ann.sigma)
    assert ann.ordinal == pytest.approx(ann.mu - 3 * ann.sigma)
    change = RatingChange.objects.get(player__username="bob")
    assert (change.rank, change.entrants_rated, change.rating_before) == (2, 2, 1000)
    assert change.rating_after == display_rating(change.mu_after, change.sigma_after)
    assert RaceRating.objects.get(race=race).status == RaceRating.Status.RATED


def test_three_players_with_a_tie_share_the_place() -> None:
    race = race_of(
        Result("ann", 40, 10_000, moves=80),
        Result("bob", 30, 20_000, moves=90),
        Result("cat", 30, 20_000, moves=90),
    )
    assert ranks_of(race) == {"ann": 1, "bob": 2, "cat": 2}
    race_rate(race_id=race.id)
    assert_matches(expected_fold([{"ann": 1, "bob": 2, "cat": 2}]))
    got = ratings()
    assert got["bob"][:2] == pytest.approx(got["cat"][:2])  # same prior, same place


def test_ten_players_with_a_disqualification_then_reinstated() -> None:
    results = [Result(f"p{i}", 10 + 4 * i, 1000 * (i + 1)) for i in range(10)]
    race = race_of(*results)
    race_rate(race_id=race.id)
    full = ranks_of(race)
    assert len(full) == 10
    assert full["p9"] == 1
    assert full["p0"] == 10
    assert_matches(expected_fold([full]))

    cheat = RaceEntry.objects.get(race=race, player__username="p5")
    race_entry_disqualify(entry_id=cheat.id, reason="two accounts")
    assert race_rate(race_id=race.id) == "rated"
    without = ranks_of(race)
    assert "p5" not in without
    assert len(without) == 9
    assert_matches(expected_fold([without]))
    assert not PlayerRating.objects.filter(player__username="p5").exists()
    assert not RatingChange.objects.filter(player__username="p5").exists()

    race_entry_reinstate(entry_id=cheat.id)
    race_rate(race_id=race.id)
    assert_matches(expected_fold([full]))


def test_rescore_of_an_early_race_re_rates_every_later_race() -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cat", 20, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("cat", 35, 1000), Result("ann", 25, 1000))
    r3 = race_of(Result("cat", 50, 1000), Result("ann", 40, 1000), Result("dan", 30, 1000))
    for r in (r1, r2, r3):
        race_rate(race_id=r.id)
    before = [ranks_of(r) for r in (r1, r2, r3)]
    assert_matches(expected_fold(before))

    # Ann is disqualified in the first race: all three races are re-rated in order.
    entry = RaceEntry.objects.get(race=r1, player__username="ann")
    race_entry_disqualify(entry_id=entry.id, reason="bot")
    assert race_rate(race_id=r1.id) == "rated"
    after = [ranks_of(r) for r in (r1, r2, r3)]
    assert after[0] == {"bob": 1, "cat": 2}
    assert_matches(expected_fold(after))
    assert RatingChange.objects.count() == 2 + 3 + 3
    ann = RatingChange.objects.filter(player__username="ann").order_by("race_ends_at")[0]
    assert ann.race_id == r2.id
    assert ann.games_rated == 1
    assert ann.rating_before == 1000
    # Later tasks of r2 and r3 find nothing to do.
    assert race_rate(race_id=r2.id) == "unchanged"
    assert race_rate(race_id=r3.id) == "unchanged"


def test_races_rated_out_of_order_end_as_in_race_order() -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("ann", 25, 1000), Result("cat", 20, 1000))
    assert r1.ends_at < r2.ends_at
    race_rate(race_id=r2.id)
    race_rate(race_id=r1.id)
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))


def test_rating_twice_changes_nothing() -> None:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), Result("cat", 30, 900))
    assert race_rate(race_id=race.id) == "rated"
    rows = history()
    stored = ratings()
    assert race_rate(race_id=race.id) == "unchanged"
    assert history() == rows
    assert ratings() == stored


def test_a_crash_mid_rating_leaves_the_pool_as_it_was(monkeypatch: pytest.MonkeyPatch) -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("ann", 25, 1000))
    race_rate(race_id=r1.id)
    rows, stored = history(), ratings()

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("worker killed")

    monkeypatch.setattr(rating_services, "_store_ratings", crash)
    with pytest.raises(RuntimeError):
        race_rate(race_id=r2.id)
    assert history() == rows
    assert ratings() == stored
    assert not RaceRating.objects.filter(race=r2).exists()
    monkeypatch.undo()
    assert race_rate(race_id=r2.id) == "rated"
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))


def test_fewer_than_two_ranked_entries_is_not_rated() -> None:
    solo = race_of(Result("ann", 40, 1000))
    assert race_rate(race_id=solo.id) == "not_rated"
    assert RaceRating.objects.get(race=solo).reason == "too_few_entries"
    pair = race_of(Result("bob", 40, 1000), Result("cat", 30, 1000))
    entry = RaceEntry.objects.get(race=pair, player__username="cat")
    race_entry_disqualify(entry_id=entry.id, reason="abuse")
    assert race_rate(race_id=pair.id) == "not_rated"
    assert not PlayerRating.objects.exists()
    assert not RatingChange.objects.exists()


def test_organisers_mark_a_race_unrated_and_rated_again() -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("ann", 25, 1000))
    race_rate(race_id=r1.id)
    race_rate(race_id=r2.id)
    race_set_rated(race_id=r1.id, rated=False)
    assert race_rate(race_id=r1.id) == "not_rated"
    assert RaceRating.objects.get(race=r1).reason == "unrated"
    assert_matches(expected_fold([ranks_of(r2)]))
    race_set_rated(race_id=r1.id, rated=True)
    assert race_rate(race_id=r1.id) == "rated"
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))


def test_a_race_marked_unrated_before_it_finishes_never_counts() -> None:
    race = running_race()
    race_set_rated(race_id=race.id, rated=False)
    for r in (Result("ann", 40, 1000), Result("bob", 30, 1000)):
        play(race, r)
    from games.services.race_admin import race_close_now

    race_close_now(race_id=race.id)
    assert race_rate(race_id=race.id) == "not_rated"
    assert not PlayerRating.objects.exists()


def test_practice_games_are_never_rated() -> None:
    player = UserFactory(username="solo")
    game = game_start(player=player, variant="classic")
    Game.objects.filter(id=game.id).update(status=Game.Status.WON, cards_home=52)
    assert ratings_sweep() == []
    assert not RatingPool.objects.exists()
    assert not PlayerRating.objects.exists()


def test_unfinished_race_is_not_rated() -> None:
    race = running_race()
    play(race, Result("ann", 40, 1000))
    assert race_rate(race_id=race.id) == "not_finished"
    assert race_rate(race_id="00000000-0000-0000-0000-000000000000") == "missing"


def test_each_difficulty_option_makes_its_own_pool() -> None:
    assert pool_key(make_rules("classic")) == ("classic", "classic")
    assert pool_key(make_rules("one-pass")) == ("one-pass", "one-pass")
    assert pool_key(make_rules("classic", redeals=2)) == ("classic.redeals-2", "classic")
    assert pool_key(make_rules("classic", draw=1, redeals=0, build="any-suit")) == (
        "rainbow",
        "rainbow",
    )
    assert pool_key(make_rules("rainbow", redeals=None)) == (
        "draw-one.build-any-suit",
        "draw-one",
    )
    assert pool_key(make_rules("superior", autofill=True)) == (
        "classic.reserve_face_up-yes",
        "classic",
    )
    classic = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    draw_one = race_of(Result("ann", 20, 1000), Result("bob", 30, 1000), variant="draw-one")
    race_rate(race_id=classic.id)
    race_rate(race_id=draw_one.id)
    assert_matches(expected_fold([ranks_of(classic)]), "classic")
    assert_matches(expected_fold([ranks_of(draw_one)]), "draw-one")


def test_provisional_until_the_documented_number_of_races() -> None:
    for i in range(PROVISIONAL_RACES):
        race_rate(race_id=race_of(Result("ann", 40, 1000 + i), Result("bob", 30, 1000)).id)
        ann = PlayerRating.objects.get(player__username="ann")
        assert ann.games_rated == i + 1
        assert ann.provisional is (i + 1 < PROVISIONAL_RACES)


def test_pool_recompute_and_sweep_take_in_unrated_races() -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("ann", 25, 1000), Result("cat", 1, 1000))
    race_rate(race_id=r2.id)
    pool = RatingPool.objects.get(key="classic")
    # Tamper with a stored rating: the recomputation puts it back from the results.
    PlayerRating.objects.filter(player__username="bob").update(mu=99.0)
    assert pool_recompute(pool_id=pool.id) == 2
    assert_matches(expected_fold([ranks_of(r1), ranks_of(r2)]))
    pool.refresh_from_db()
    assert pool.races_rated == 2
    assert pool.recomputed_at is not None
    r3 = race_of(Result("cat", 45, 1000), Result("ann", 25, 1000))
    assert ratings_sweep() == [f"{r3.id}:rated"]
    assert ratings_sweep() == []


def test_finishing_a_race_rates_it_by_itself_in_process(
    django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the embedded default the task runs in-process after the race's commit."""
    from canfield_site.celery import app

    monkeypatch.setitem(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    assert app.conf.task_always_eager is True
    race = running_race()
    play(race, Result("ann", 40, 1000))
    play(race, Result("bob", 30, 1000))
    from games.services.race_admin import race_close_now

    with django_capture_on_commit_callbacks(execute=True):
        # Closed 30 s into the race (running_race started it a minute before it was
        # made): an instant from the race, not the wall clock.
        race_close_now(race_id=race.id, now=race.starts_at + timedelta(seconds=30))
    assert Race.objects.get(id=race.id).status == Race.Status.FINISHED
    assert RaceRating.objects.get(race=race).status == RaceRating.Status.RATED
    assert_matches(expected_fold([ranks_of(race)]))
    # A disqualification re-scores the race and re-rates it the same way.
    entry = RaceEntry.objects.get(race=race, player__username="bob")
    with django_capture_on_commit_callbacks(execute=True):
        race_entry_disqualify(entry_id=entry.id, reason="abuse")
    assert RaceRating.objects.get(race=race).reason == "too_few_entries"
    assert not PlayerRating.objects.exists()
