"""Each test here fails on one fault a review planted in the code and no test caught
(issue 18.2): undo ignoring ``expected_move_number``, a race deal shown before the race
is over for everyone, tournament points and tie-breaks, ``commitment_verified``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game, Move, Race, Tournament, TournamentStanding
from games.selectors.races import race_results
from games.services.errors import RaceClosed, StaleMoveNumber
from games.services.games import game_undo, move_play
from games.services.race_admin import race_cancel_now, race_close_now
from games.services.tournaments import tournament_rescore
from tests.factories import create_user
from tests.tournaments.factories import Result, TournamentFactory, finished_race, running_race

pytestmark = pytest.mark.django_db


def _snapshot(game_id: Any) -> tuple[Any, ...]:
    g = Game.objects.get(id=game_id)
    live = list(Move.objects.filter(game_id=game_id, undone_at__isnull=True).values_list("id"))
    return (g.move_number, g.state, g.status, g.cards_home, live)


# ------------------------------------------------------------------ undo


def test_undo_with_a_stale_move_number_changes_nothing(
    make_client: Callable[..., APIClient],
) -> None:
    ann = make_client("ann")
    gid = ann.post("/api/v1/games", {"seed": "1"}, format="json").json()["id"]
    for n in range(2):
        assert (
            ann.post(
                f"/api/v1/games/{gid}/moves",
                {"move": "draw", "expected_move_number": n},
                format="json",
            ).status_code
            == 201
        )
    before = _snapshot(gid)
    resp = ann.post(f"/api/v1/games/{gid}/undo", {"expected_move_number": 1}, format="json")
    assert resp.status_code == 409
    assert resp["Content-Type"].startswith("application/problem+json")
    assert (resp.json()["code"], resp.json()["current_move_number"]) == ("stale_move_number", 2)
    assert _snapshot(gid) == before
    # The service says the same, and the right number is accepted.
    with pytest.raises(StaleMoveNumber):
        game_undo(game_id=gid, player=ann.user, expected_move_number=3)  # type: ignore[attr-defined]
    assert _snapshot(gid) == before
    ok = ann.post(f"/api/v1/games/{gid}/undo", {"expected_move_number": 2}, format="json")
    assert (ok.status_code, ok.json()["move_number"]) == (200, 1)


def test_undo_after_the_deadline_is_refused_by_the_clock() -> None:
    race = running_race(allow_undo=True)
    player = create_user("ann")
    from games.services.races import race_join

    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    assert game.deadline is not None
    move_play(game_id=game.id, player=player, move="draw", now=game.started_at)
    before = _snapshot(game.id)
    with pytest.raises(RaceClosed):
        game_undo(game_id=game.id, player=player, now=game.deadline)
    assert _snapshot(game.id) == before
    # One microsecond earlier the same undo is accepted.
    undone = game_undo(
        game_id=game.id, player=player, now=game.deadline - timedelta(microseconds=1)
    )
    assert undone.move_number == 0


# ------------------------------------------------------------------ reveal paths


def _reveals(client: APIClient, gid: str) -> dict[str, Any]:
    view = client.get(f"/api/v1/games/{gid}")
    export = client.get(f"/api/v1/games/{gid}/export")
    solution = client.get(f"/api/v1/games/{gid}/solution")
    return {
        "view_seed": view.json()["deal"]["seed"],
        "view_revealed": view.json()["deal"]["revealed"],
        "export": (export.status_code, export.json().get("code")),
        "solution": (solution.status_code, solution.json().get("code")),
    }


SECRET = {
    "view_seed": None,
    "view_revealed": False,
    "export": (409, "deal_secret"),
    "solution": (409, "deal_secret"),
}


@pytest.mark.parametrize("how", ["resign", "time_out"])
def test_a_race_deal_stays_secret_after_my_game_ends_until_the_race_does(
    make_client: Callable[..., APIClient], how: str
) -> None:
    ann, ben = make_client("ann"), make_client("ben")
    race = running_race(mode="window", time_limit_s=60)
    gids = {}
    for name, client in (("ann", ann), ("ben", ben)):
        gids[name] = client.post(f"/api/v1/races/{race.id}/start").json()["id"]
    if how == "resign":
        assert ann.post(f"/api/v1/games/{gids['ann']}/resign").json()["status"] == "resigned"
    else:  # ann's own clock ran out; ben still plays
        Game.objects.filter(id=gids["ann"]).update(deadline=timezone.now() - timedelta(seconds=1))
    assert Race.objects.get(id=race.id).status == "scheduled"
    assert _reveals(ann, gids["ann"]) == SECRET
    assert _reveals(ben, gids["ben"]) == SECRET
    assert ann.get(f"/api/v1/races/{race.id}/results").json()["code"] == "race_not_finished"
    assert race_close_now(race_id=race.id) == "finished"
    seed = Race.objects.get(id=race.id).deal.seed
    after = _reveals(ann, gids["ann"])
    assert (after["view_seed"], after["view_revealed"], after["export"][0]) == (seed, True, 200)
    assert after["solution"][0] in (200, 202)


def test_a_cancelled_race_reveals_its_deal(make_client: Callable[..., APIClient]) -> None:
    ann = make_client("ann")
    race = running_race()
    gid = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    assert _reveals(ann, gid) == SECRET
    race_cancel_now(race_id=race.id)
    assert _reveals(ann, gid)["view_seed"] == Race.objects.get(id=race.id).deal.seed


# ------------------------------------------------------------------ tournament scoring


def test_points_past_the_table_are_zero_and_wins_break_ties_before_cards() -> None:
    cup: Tournament = TournamentFactory(points_table=[10, 5, 5])  # type: ignore[no-untyped-call, assignment]
    finished_race(cup, Result("a", 52, 1_000, won=True), Result("b", 51, 1_000))
    finished_race(
        cup,
        Result("x", 50, 1_000),
        Result("b", 49, 1_000),
        Result("y", 48, 1_000),
        Result("a", 5, 1_000),  # rank 4: past the three-entry table
    )
    tournament_rescore(tournament_id=cup.id)
    rows = {
        s.player.username: (s.rank, s.points, s.wins, s.cards_home_total)
        for s in TournamentStanding.objects.filter(tournament=cup).select_related("player")
    }
    # a, b and x have 10 points each: a's win puts a first although a has fewest cards;
    # b's 100 cards put b before x.
    assert rows == {
        "a": (1, 10, 1, 57),
        "b": (2, 10, 0, 100),
        "x": (3, 10, 0, 50),
        "y": (4, 5, 0, 48),
    }


# ------------------------------------------------------------------ commitment


def test_commitment_verified_is_false_when_the_seed_does_not_match() -> None:
    race = finished_race(None, Result("a", 10, 1_000))
    assert race_results(race=race)["commitment_verified"] is True
    Race.objects.filter(id=race.id).update(commitment="0" * 64)
    race.refresh_from_db()
    results = race_results(race=race)
    assert results["commitment_verified"] is False
    from benchmarks.verify import verify_results

    assert "the server says the commitment does not verify" in verify_results(results)
