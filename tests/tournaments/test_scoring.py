# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Tournament scoring: both schemes, tie-breaks, shared ranks, disqualification, idempotence."""

from __future__ import annotations

import pytest

from games.models import RaceEntry, Tournament, TournamentStanding
from games.services.errors import InvalidTournament, TournamentFull, TournamentInviteOnly
from games.services.race_admin import race_entry_disqualify, race_entry_reinstate
from games.services.races import race_join
from games.services.tournaments import tournament_create, tournament_rescore
from tests.factories import StaffFactory, UserFactory
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

pytestmark = pytest.mark.django_db


def table(t: Tournament) -> list[tuple[str, int, int, int, int, int, int]]:
    return [
        (
            s.player.username,
            s.rank,
            s.points,
            s.wins,
            s.races_played,
            s.cards_home_total,
            s.time_ms_total,
        )
        for s in TournamentStanding.objects.filter(tournament=t)
        .select_related("player")
        .order_by("rank", "player__username")
    ]


def test_points_by_place_with_shared_race_ranks() -> None:
    t = TournamentFactory()
    finished_race(
        t,
        Result("ann", 30, 1000),
        Result("bob", 20, 900),
        Result("cat", 20, 900),
        Result("dan", 10, 500),
    )
    # bob and cat tie for 2nd in the race: both earn 8; dan is 4th: 5.
    assert table(t) == [
        ("ann", 1, 10, 0, 1, 30, 1000),
        ("bob", 2, 8, 0, 1, 20, 900),
        ("cat", 2, 8, 0, 1, 20, 900),
        ("dan", 4, 5, 0, 1, 10, 500),
    ]


def test_tie_breaks_points_then_wins_then_cards_then_time() -> None:
    t = TournamentFactory(points_table=[10, 10, 10])
    # Everyone earns 10 points in each race they play (ranks 1-3 all score 10).
    finished_race(
        t, Result("win", 52, 60_000, won=True), Result("many", 40, 1000), Result("fast", 30, 1000)
    )
    finished_race(t, Result("slow", 30, 5000))
    finished_race(t, Result("slowr", 30, 9000))
    rows = table(t)
    assert rows == [
        ("win", 1, 10, 1, 1, 52, 60_000),  # same points, one win
        ("many", 2, 10, 0, 1, 40, 1000),  # more cards home
        ("fast", 3, 10, 0, 1, 30, 1000),  # same cards, less time
        ("slow", 4, 10, 0, 1, 30, 5000),
        ("slowr", 5, 10, 0, 1, 30, 9000),
    ]


def test_exact_ties_share_a_rank() -> None:
    t = TournamentFactory()
    finished_race(t, Result("a", 20, 100))
    finished_race(t, Result("b", 20, 100))
    finished_race(t, Result("c", 19, 100))
    assert [(r[0], r[1]) for r in table(t)] == [("a", 1), ("b", 1), ("c", 3)]


def test_cards_home_plus_win_bonus() -> None:
    t = TournamentFactory(
        scoring=Tournament.Scoring.CARDS_HOME, points_per_card=2, win_bonus=30, points_table=[]
    )
    finished_race(t, Result("a", 52, 90_000, won=True), Result("b", 40, 1000))
    assert table(t) == [("a", 1, 52 * 2 + 30, 1, 1, 52, 90_000), ("b", 2, 80, 0, 1, 40, 1000)]


def test_disqualification_rescores_race_and_tournament_and_reinstating_restores() -> None:
    t = TournamentFactory()
    race = finished_race(t, Result("a", 40, 100), Result("b", 30, 100), Result("c", 20, 100))
    before = table(t)
    entry = RaceEntry.objects.get(race=race, player__username="a")
    race_entry_disqualify(entry_id=entry.id, reason="used a solver", by=StaffFactory())
    entry.refresh_from_db()
    assert entry.rank is None
    assert entry.disqualified_reason == "used a solver"
    assert {e.player.username: e.rank for e in RaceEntry.objects.filter(race=race)} == {
        "a": None,
        "b": 1,
        "c": 2,
    }
    s = TournamentStanding.objects.get(tournament=t, player__username="a")
    assert (s.points, s.races_played, s.disqualifications, s.rank) == (0, 0, 1, 3)
    assert [(r[0], r[1], r[2]) for r in table(t)] == [("b", 1, 10), ("c", 2, 8), ("a", 3, 0)]
    race_entry_reinstate(entry_id=entry.id)
    assert table(t) == before


def test_rescore_is_idempotent() -> None:
    t = TournamentFactory()
    finished_race(t, Result("a", 40, 100), Result("b", 30, 100))
    first = table(t)
    assert tournament_rescore(tournament_id=t.id) == 2
    assert tournament_rescore(tournament_id=t.id) == 2
    assert table(t) == first


def test_unfinished_races_do_not_count() -> None:
    t = TournamentFactory()
    finished_race(t, Result("a", 40, 100))
    race = running_race(t)
    race_join(race_id=race.id, player=UserFactory(username="z"))
    tournament_rescore(tournament_id=t.id)
    assert [r[0] for r in table(t)] == ["a"]


def test_entry_rules_invite_only_and_max_entrants() -> None:
    invite = TournamentFactory(entry=Tournament.Entry.INVITE)
    with pytest.raises(TournamentInviteOnly):
        race_join(race_id=running_race(invite).id, player=UserFactory())
    full = TournamentFactory(max_entrants=1)
    race = running_race(full)
    race_join(race_id=race.id, player=UserFactory())
    with pytest.raises(TournamentFull):
        race_join(race_id=race.id, player=UserFactory())


def test_points_table_is_validated() -> None:
    with pytest.raises(InvalidTournament):
        tournament_create(name="x", points_table=[1, 5])
    with pytest.raises(InvalidTournament):
        tournament_create(name="x", scoring="nonsense")
    t = tournament_create(name="x")
    assert t.points_table == [10, 8, 6, 5, 4, 3, 2, 1]
