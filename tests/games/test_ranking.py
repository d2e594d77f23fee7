"""One ranking rule (RULES.md 6), four forms that must agree: the domain's Python ranks
(games.engine.ranking), the scoring SQL (race_score), the live-standings ORM ordering
(race_standings) and the bot's independent check (benchmarks.verify)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from benchmarks.verify import expected_ranks, verify_results
from games.engine.ranking import RANK_KEY, rank_entries, rank_key
from games.models import Game, Race, RaceEntry
from games.ranking import rank_order_sql
from games.selectors.races import race_results, race_standings
from games.services.race_admin import race_rescore_all
from games.services.races import race_close, race_join
from tests.games.test_races import end_now, running_race

# Few distinct values, so that generated tables are full of ties.
ROW = st.fixed_dictionaries(
    {
        "cards_home": st.sampled_from([1, 2, 30, 52]),
        "elapsed_ms": st.sampled_from([0, 1_000, 2_000]),
        "moves": st.integers(0, 3),
        "status": st.sampled_from(["playing", "resigned", "blocked"]),
        "disqualified": st.booleans(),
        "started": st.booleans(),
    }
)


def test_the_key_is_cards_then_time_never_moves() -> None:
    assert [(p.field, p.descending) for p in RANK_KEY] == [
        ("cards_home", True),
        ("elapsed_ms", False),
    ]
    assert rank_order_sql() == "cards_home DESC, elapsed_ms ASC"
    fast = {"cards_home": 52, "elapsed_ms": 1, "moves": 900}
    slow = {"cards_home": 52, "elapsed_ms": 2, "moves": 90}
    assert rank_key(fast) < rank_key(slow)
    assert rank_key({"cards_home": 9, "elapsed_ms": 5, "moves": 0}) == rank_key(
        {"cards_home": 9, "elapsed_ms": 5, "moves": 400}
    )
    rows: list[dict[str, Any]] = [
        {"cards_home": 52, "elapsed_ms": 5},
        {"cards_home": 52, "elapsed_ms": 5},
        {"cards_home": 52, "elapsed_ms": 9},
        {"cards_home": 40, "elapsed_ms": 0, "disqualified": True},
        {"cards_home": None, "elapsed_ms": None},
    ]
    assert rank_entries(rows) == [1, 1, 3, None, None]


def _table(rows: list[dict[str, Any]]) -> tuple[Race, list[str]]:
    race = running_race()
    names = []
    for i, row in enumerate(rows):
        name = f"p{i}-{race.pk.hex[:12]}"
        names.append(name)
        entry = race_join(race_id=race.id, player=User.objects.create(username=name)).entry
        assert entry.game is not None
        if row["started"]:
            Game.objects.filter(id=entry.game.id).update(
                cards_home=row["cards_home"],
                cards_home_ms=row["elapsed_ms"],
                move_number=row["moves"],
                status="won" if row["cards_home"] == 52 else row["status"],
            )
        else:  # joined, never started: no game (as a window-mode entrant)
            RaceEntry.objects.filter(id=entry.id).update(game=None)
            Game.objects.filter(id=entry.game.id).delete()
        RaceEntry.objects.filter(id=entry.id).update(disqualified=row["disqualified"])
    return race, names


@pytest.mark.django_db
@settings(
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rows=st.lists(ROW, min_size=1, max_size=7))
@example(  # two winners tied on time, three tied non-winners, one disqualified, one absent
    rows=[
        {
            "cards_home": c,
            "elapsed_ms": t,
            "moves": m,
            "status": "playing",
            "disqualified": dq,
            "started": st_,
        }
        for c, t, m, dq, st_ in (
            (52, 1_000, 3, False, True),
            (52, 1_000, 1, False, True),
            (30, 0, 0, False, True),
            (30, 0, 2, False, True),
            (30, 0, 3, False, True),
            (52, 0, 0, True, True),
            (1, 0, 0, False, False),
        )
    ]
)
def test_python_sql_orm_and_bot_ranks_agree(rows: list[dict[str, Any]]) -> None:
    race, names = _table(rows)
    facts = [
        {
            "cards_home": r["cards_home"] if r["started"] else None,
            "elapsed_ms": r["elapsed_ms"],
            "disqualified": r["disqualified"],
        }
        for r in rows
    ]
    domain = dict(zip(names, rank_entries(facts), strict=True))
    # Live standings: the ORM form.
    live = {r["player"]: r["rank"] for r in race_standings(race=race)}
    assert live == domain
    # Close: the SQL form.
    end_now(race)
    assert race_close(race_id=race.id) == "finished"
    race.refresh_from_db()
    stored = {
        e.player.username: e.rank
        for e in RaceEntry.objects.filter(race=race).select_related("player")
    }
    assert stored == domain
    # The bot's independent check on the published results.
    results = race_results(race=race)
    bot = expected_ranks(results["entries"])
    assert {e["player"]: bot[i] for i, e in enumerate(results["entries"])} == domain
    # (The move lists are empty here: the facts were set directly, so only ranks are checked.)
    assert [p for p in verify_results(results) if "rank" in p] == []


@pytest.mark.django_db
def test_bot_flags_a_wrong_rank_and_accepts_shared_ones() -> None:
    race, _ = _table(
        [
            dict(r, disqualified=False, started=True)
            for r in (
                {"cards_home": 52, "elapsed_ms": 100, "moves": 3, "status": "won"},
                {"cards_home": 52, "elapsed_ms": 100, "moves": 2, "status": "won"},
                {"cards_home": 30, "elapsed_ms": 100, "moves": 1, "status": "playing"},
            )
        ]
    )
    end_now(race)
    assert race_close(race_id=race.id) == "finished"
    race.refresh_from_db()
    results = race_results(race=race)
    assert sorted(e["rank"] for e in results["entries"]) == [1, 1, 3]
    # The move lists are empty here (facts set directly), so only the rank checks matter.
    problems = [p for p in verify_results(results) if "rank" in p]
    assert problems == []
    results["entries"][0]["rank"], results["entries"][1]["rank"] = 1, 2
    assert [p for p in verify_results(results) if "rank" in p] == [
        f"{results['entries'][1]['player']}: rank 2, the rule gives 1"
    ]


@pytest.mark.django_db
def test_finished_race_keeps_its_published_ranks_until_rescored() -> None:
    race, _ = _table(
        [
            dict(r, disqualified=False, started=True, status="playing")
            for r in (
                {"cards_home": 20, "elapsed_ms": 500, "moves": 10},
                {"cards_home": 20, "elapsed_ms": 500, "moves": 90},
            )
        ]
    )
    end_now(race)
    race_close(race_id=race.id)
    assert list(RaceEntry.objects.filter(race=race).values_list("rank", flat=True)) == [1, 1]
    # Ranks published under the old rule (fewer moves first) stay as they are on read ...
    few, many = RaceEntry.objects.filter(race=race).order_by("moves")
    RaceEntry.objects.filter(id=many.id).update(rank=2)
    race.refresh_from_db()
    assert [r["rank"] for r in race_standings(race=race)] == [1, 2]
    assert race_close(race_id=race.id) == "finished"  # closing again changes nothing
    assert RaceEntry.objects.get(id=many.id).rank == 2
    # ... until an organiser re-scores the race: then the current rule applies.
    race_rescore_all(race_id=race.id)
    assert list(RaceEntry.objects.filter(race=race).values_list("rank", flat=True)) == [1, 1]
