# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""Deleting an account re-scores what its race entries counted for (games.services.accounts).

The deletion cascades to the player's race entries and tournament standings rows.  The
published ranks of a finished race kept a gap (1, 3 after deleting the player ranked 2)
and the tournaments kept the places and points earned against the player.  Now every
finished race the player ran in is ranked again and each tournament's standings
recomputed, in the deletion's transaction, through one account's page and the admin's
"delete selected" alike.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Race, RaceEntry
from games.selectors.races import race_standings
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_scoring import table

pytestmark = pytest.mark.django_db

#: Two races of one tournament; bob is second in the first and wins the second.
FIRST = (
    Result("ann", 40, 1000),
    Result("bob", 30, 1000),
    Result("cat", 20, 1000),
    Result("dan", 10, 1000),
)
SECOND = (Result("bob", 45, 1000), Result("cat", 35, 1000), Result("ann", 25, 1000))


def without(results: tuple[Result, ...], name: str) -> tuple[Result, ...]:
    return tuple(r for r in results if r.player != name)


def ranks(race: Race) -> list[tuple[str, int | None]]:
    """``(username, rank)`` of every entry, as published (stored), in rank order."""
    return [
        (e.player.username, e.rank)
        for e in RaceEntry.objects.filter(race=race).select_related("player").order_by("rank")
    ]


def superuser_client() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("boss", password="a-long-password-9"))
    return client


def delete_through_admin(client: Client, users: list[User], *, bulk: bool) -> None:
    """One account's delete page, or the user list's "delete selected" action."""
    if bulk:
        resp = client.post(
            reverse("admin:auth_user_changelist"),
            {
                "action": "delete_selected",
                "_selected_action": [str(u.pk) for u in users],
                "post": "yes",
            },
        )
        assert resp.status_code == 302, resp.content.decode()[:500]
        return
    for user in users:
        resp = client.post(reverse("admin:auth_user_delete", args=[user.pk]), {"post": "yes"})
        assert resp.status_code == 302, resp.content.decode()[:500]


@pytest.mark.parametrize("bulk", [False, True])
def test_deleting_a_player_in_the_admin_re_ranks_their_races_and_re_scores_the_tournament(
    bulk: bool,
) -> None:
    t = TournamentFactory()
    first = finished_race(t, *FIRST)
    second = finished_race(t, *SECOND)
    # bob: 8 + 10 points; ann: 10 + 6; cat: 6 + 8; dan: 5.
    assert table(t) == [
        ("bob", 1, 18, 0, 2, 75, 2000),
        ("ann", 2, 16, 0, 2, 65, 2000),
        ("cat", 3, 14, 0, 2, 55, 2000),
        ("dan", 4, 5, 0, 1, 10, 1000),
    ]
    live = running_race(t, name="live")
    for result in (Result("bob", 30, 500), Result("ann", 20, 500), Result("cat", 10, 500)):
        play(live, result)

    delete_through_admin(superuser_client(), [User.objects.get(username="bob")], bulk=bulk)

    assert not User.objects.filter(username="bob").exists()
    # The published ranks close the gap bob left.
    assert ranks(first) == [("ann", 1), ("cat", 2), ("dan", 3)]
    assert ranks(second) == [("cat", 1), ("ann", 2)]
    # ann: 10 + 8 = 18, cat: 8 + 10 = 18 (ann has more cards home), dan: 6.
    assert table(t) == [
        ("ann", 1, 18, 0, 2, 65, 2000),
        ("cat", 2, 18, 0, 2, 55, 2000),
        ("dan", 3, 6, 0, 1, 10, 1000),
    ]
    # ... which are the standings of the same races played without bob.
    alone = TournamentFactory()
    finished_race(alone, *without(FIRST, "bob"))
    finished_race(alone, *without(SECOND, "bob"))
    assert table(alone) == table(t)
    # The running race ranks its entrants live: bob's entry is simply gone.
    live.refresh_from_db()
    assert live.status == Race.Status.SCHEDULED
    assert [(row["player"], row["rank"]) for row in race_standings(race=live)] == [
        ("ann", 1),
        ("cat", 2),
    ]


def test_the_bulk_delete_of_two_players_of_one_race_re_ranks_it_once_without_both() -> None:
    t = TournamentFactory()
    first = finished_race(t, *FIRST)
    delete_through_admin(
        superuser_client(), list(User.objects.filter(username__in=["ann", "cat"])), bulk=True
    )
    assert ranks(first) == [("bob", 1), ("dan", 2)]
    assert table(t) == [("bob", 1, 10, 0, 1, 30, 1000), ("dan", 2, 8, 0, 1, 10, 1000)]


def test_deleting_through_the_orm_re_scores_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any code that deletes users (a queryset delete here, as a service would) goes
    through the same receivers; a running race's stream is told to fetch its live
    standings again."""
    from games.services import race_admin

    told: list[tuple[str, str, dict[str, Any]]] = []
    monkeypatch.setattr(race_admin, "publish_on_commit", lambda *events: told.extend(events))
    t = TournamentFactory()
    live = running_race(t, name="live")
    play(live, Result("ann", 30, 500))
    play(live, Result("bob", 20, 500))
    first = finished_race(t, *FIRST)
    User.objects.filter(username="ann").delete()
    assert ranks(first) == [("bob", 1), ("cat", 2), ("dan", 3)]
    assert [(row[0], row[1], row[2]) for row in table(t)] == [
        ("bob", 1, 10),
        ("cat", 2, 8),
        ("dan", 3, 6),
    ]
    assert told == [(f"race:{live.id}", "standings", {})]
    assert [(row["player"], row["rank"]) for row in race_standings(race=live)] == [("bob", 1)]
    # A finished race without a tournament is re-ranked as well.
    free = finished_race(None, Result("eve", 30, 1000), Result("fay", 20, 1000))
    User.objects.get(username="eve").delete()
    assert ranks(free) == [("fay", 1)]


def test_a_failed_re_score_keeps_the_account(monkeypatch: pytest.MonkeyPatch) -> None:
    """The re-score runs in the deletion's transaction: if it fails, nothing is deleted
    and the published results stay as they were."""
    from games.services import race_admin

    t = TournamentFactory()
    first = finished_race(t, *FIRST)
    before = (ranks(first), table(t))

    def crash(**kwargs: Any) -> int:
        raise RuntimeError("database went away")

    monkeypatch.setattr(race_admin, "tournament_rescore", crash)
    with pytest.raises(RuntimeError, match="went away"), transaction.atomic():
        User.objects.get(username="bob").delete()
    assert User.objects.filter(username="bob").exists()
    assert (ranks(first), table(t)) == before


@pytest.mark.postgres
def test_the_deletion_locks_the_races_then_the_tournament_then_deletes_the_rows() -> None:
    """The project's lock order (race, tournament, standings rows), as closing a race
    takes it: the race rows are locked before the deletion touches their entries, the
    tournament's before it deletes the player's standings rows (a closer holding the
    tournament replaces them: the other order deadlocked,
    test_account_delete_locks.py)."""
    t = TournamentFactory()
    finished_race(t, *FIRST)
    bob = User.objects.get(username="bob")
    with CaptureQueriesContext(connection) as ctx:
        bob.delete()
    sql = [q["sql"] for q in ctx.captured_queries]

    def first_index(pred: Any) -> int:
        return next(i for i, s in enumerate(sql) if pred(s))

    race_lock = first_index(lambda s: "FOR NO KEY UPDATE" in s and 'FROM "games_race"' in s)
    entry_delete = first_index(lambda s: s.startswith('DELETE FROM "games_raceentry"'))
    tournament_lock = first_index(
        lambda s: "FOR NO KEY UPDATE" in s and 'FROM "games_tournament"' in s
    )
    standings_delete = first_index(lambda s: s.startswith('DELETE FROM "games_tournamentstanding"'))
    assert race_lock < tournament_lock < entry_delete
    assert tournament_lock < standings_delete


def test_the_deletion_costs_the_same_queries_whatever_the_number_of_races() -> None:
    """Each finished race was re-ranked on its own (about 6 ms a race on PostgreSQL: a
    player of 1,000 races took 5.7 s to delete, and some thousands outlasted the 30 s a
    web request has).  Now they are re-ranked together; the ranks are those of each
    race alone."""

    def queries_to_delete(name: str, races: int) -> int:
        t = TournamentFactory()
        played = [
            finished_race(
                t,
                Result(f"{name}-a", 40, 1000),
                Result(name, 30, 1000),
                Result(f"{name}-b", 20, 1000),
            )
            for _ in range(races)
        ]
        with CaptureQueriesContext(connection) as ctx:
            User.objects.get(username=name).delete()
        for race in played:
            assert ranks(race) == [(f"{name}-a", 1), (f"{name}-b", 2)]
            race.refresh_from_db()
            assert race.rating_stale
        return len(ctx.captured_queries)

    assert queries_to_delete("few", 2) == queries_to_delete("many", 5)
