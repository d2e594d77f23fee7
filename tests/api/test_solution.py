"""The solver in the product, as queued work (issue 12 item 4, issue 18 item 6).

* ``GET /games/{id}/solution`` never solves in the request: a cached verdict is
  200 at once, otherwise a job goes to the ``solver`` queue and the answer is
  202 with ``Retry-After`` (on the embedded default the job runs in-process on
  commit, so the same request answers 200).
* A per-player limit on waiting jobs (429 ``too_many_solves``).
* A broker that is down loses no job: the sweeper sends it again.
* ``POST /games {"winnable": true}`` draws from a pool filled ahead of time;
  an empty pool is 503 ``no_winnable_deal`` with ``Retry-After`` and a refill.

Seeds with known verdicts: classic "0" is won, "2" is lost (asserted below).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import make_rules, new_game
from games.engine.solver import solve
from games.models import Deal, Game, Solve, WinnableDeal, WinnableStreak
from games.selectors.solver import solve_status
from games.services import solver as solver_services
from games.services import winnable_pool
from games.services.errors import IllegalMove
from games.services.solver import solve_request, solve_run, solves_resend
from tests.conftest import _winnable_seeds

pytestmark = pytest.mark.django_db

WON_SEED, LOST_SEED = "0", "2"


def start(client: APIClient, **body: Any) -> dict[str, Any]:
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


def finished(client: APIClient, seed: str) -> str:
    game = start(client, seed=seed)
    client.post(f"/api/v1/games/{game['id']}/resign")
    return str(game["id"])


@pytest.fixture(autouse=True)
def in_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedded default's runner: tasks run in-process when sent (as with no REDIS_URL)."""
    from canfield_site.celery import app

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    assert app.conf.task_always_eager


@pytest.fixture
def no_solving(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any solver call fails the test: the code under test must not solve."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the solver ran inside the request")

    monkeypatch.setattr(solver_services, "solve", refuse)
    monkeypatch.setattr(winnable_pool, "solve", refuse)


# ------------------------------------------------------------------ solutions


def test_solution_is_secret_until_the_game_is_over(player: APIClient) -> None:
    game = start(player, seed=WON_SEED)
    resp = player.get(f"/api/v1/games/{game['id']}/solution")
    assert resp.status_code == 409
    assert resp.json()["code"] == "deal_secret"
    assert not Solve.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_embedded_default_answers_the_solution_in_the_same_request(player: APIClient) -> None:
    game_id = finished(player, WON_SEED)
    resp = player.get(f"/api/v1/games/{game_id}/solution")
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert (body["status"], body["result"]) == ("done", "won")
    state = new_game("classic", seed=WON_SEED)
    for move in body["moves"]:
        state.play(move)
    assert state.cards_home == 52
    # Cached: the next request answers from the job, with no new one.
    assert player.get(f"/api/v1/games/{game_id}/solution").json() == body
    assert Solve.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_solution_of_a_lost_deal(player: APIClient) -> None:
    game_id = finished(player, LOST_SEED)
    body = player.get(f"/api/v1/games/{game_id}/solution").json()
    assert (body["result"], body["moves"]) == ("lost", [])
    assert body["nodes"] > 0


def _resigned_after(client: APIClient, seed: str, moves: list[str]) -> str:
    """A game of ``seed`` with ``moves`` played, then resigned; its id."""
    game = start(client, seed=seed)
    for n, move in enumerate(moves):
        played = client.post(
            f"/api/v1/games/{game['id']}/moves",
            {"move": move, "expected_move_number": n},
            format="json",
        )
        assert played.status_code == 201, played.content
    assert client.post(f"/api/v1/games/{game['id']}/resign").json()["status"] == "resigned"
    return str(game["id"])


@pytest.mark.django_db(transaction=True)
def test_solution_from_where_the_game_ended(player: APIClient) -> None:
    """``?start=end``: could the resigned game still have been won from where it stopped?"""
    line = solve(new_game("classic", seed=WON_SEED), max_seconds=None).moves  # positions, no clock
    game_id = _resigned_after(player, WON_SEED, line[:3])
    resp = player.get(f"/api/v1/games/{game_id}/solution", {"start": "end"})
    assert resp.status_code == 200, resp.content
    body = resp.json()
    assert (body["start"], body["after_moves"], body["status"], body["result"]) == (
        "end",
        3,
        "done",
        "won",
    )
    state = new_game("classic", seed=WON_SEED)
    for move in [*line[:3], *body["moves"]]:
        state.play(move)
    assert state.cards_home == 52
    # From the deal is another job, and the default.
    deal = player.get(f"/api/v1/games/{game_id}/solution").json()
    assert (deal["start"], deal["after_moves"], deal["result"]) == ("deal", 0, "won")
    assert Solve.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_solution_from_the_end_of_a_lost_deal_is_lost(player: APIClient) -> None:
    game_id = _resigned_after(player, LOST_SEED, ["draw"])
    body = player.get(f"/api/v1/games/{game_id}/solution?start=end").json()
    assert (body["start"], body["after_moves"], body["result"], body["moves"]) == (
        "end",
        1,
        "lost",
        [],
    )


def test_solution_start_must_be_deal_or_end(player: APIClient) -> None:
    game_id = finished(player, WON_SEED)
    resp = player.get(f"/api/v1/games/{game_id}/solution?start=middle")
    assert resp.status_code == 400
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "validation_error"
    assert not Solve.objects.exists()


@pytest.mark.usefixtures("no_solving")
def test_solution_is_queued_and_polled_never_solved_in_the_request(
    player: APIClient,
    queued: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game_id = finished(player, WON_SEED)
    with django_capture_on_commit_callbacks(execute=True):
        first = player.get(f"/api/v1/games/{game_id}/solution")
        again = player.get(f"/api/v1/games/{game_id}/solution")
    for resp in (first, again):
        assert resp.status_code == 202, resp.content
        assert resp["Retry-After"] == str(settings.SOLVER_RETRY_AFTER_SECONDS)
        assert resp.json()["status"] == "pending"
        assert resp.json()["result"] is None
    job = Solve.objects.get()
    assert queued == [("games.solve", {"solve_id": str(job.id)})]  # one job, sent once
    # A solver worker runs it; the next poll is the answer.
    monkeypatch.setattr(solver_services, "solve", solve)
    solve_run(solve_id=job.id)
    done = player.get(f"/api/v1/games/{game_id}/solution")
    assert done.status_code == 200
    assert (done.json()["status"], done.json()["result"]) == ("done", "won")


@pytest.mark.usefixtures("no_solving")
def test_a_solver_error_ends_the_job_as_unknown_and_frees_the_quota(
    player: APIClient,
    queued: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Callable[..., Any],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    game_id = finished(player, WON_SEED)
    with django_capture_on_commit_callbacks(execute=True):
        assert player.get(f"/api/v1/games/{game_id}/solution").status_code == 202
    job = Solve.objects.get()

    def broken(*args: Any, **kw: Any) -> Any:
        raise OverflowError("int too big to convert")

    monkeypatch.setattr(solver_services, "solve", broken)
    solve_run(solve_id=job.id)
    job.refresh_from_db()
    assert (job.status, job.result, job.solution) == ("done", "unknown", [])
    assert job.deal.solver_result == ""  # an error is no verdict on the deal
    assert f"solver job {job.id} failed" in caplog.text
    answer = player.get(f"/api/v1/games/{game_id}/solution")
    assert (answer.status_code, answer.json()["result"]) == (200, "unknown")
    # Not running, so the sweeper never sends it again.
    assert solves_resend(now=timezone.now() + timedelta(days=1), stale_seconds=0) == 0


def test_waiting_solves_are_limited_per_player(
    make_client: Callable[..., APIClient],
    queued: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    ann, ben = make_client("ann"), make_client("ben")
    limit = settings.SOLVER_MAX_PENDING_PER_USER
    games = [finished(ann, str(seed)) for seed in range(10, 10 + limit + 1)]
    with django_capture_on_commit_callbacks(execute=True):
        answers = [ann.get(f"/api/v1/games/{g}/solution") for g in games]
    assert [a.status_code for a in answers] == [202] * limit + [429]
    refused = answers[-1]
    assert refused.json()["code"] == "too_many_solves"
    assert refused["Retry-After"] == str(settings.SOLVER_RETRY_AFTER_SECONDS)
    assert refused["Content-Type"] == "application/problem+json"
    assert Solve.objects.count() == limit
    # Joining a job that exists (a shared deal: a race's) is free for another player.
    from games.services.games import game_create

    shared = Game.objects.get(id=games[0]).deal
    ben_game = game_create(player=ben.user, deal=shared)  # type: ignore[attr-defined]
    ben_game.status = Game.Status.RESIGNED
    ben_game.save(update_fields=["status"])
    assert ben.get(f"/api/v1/games/{ben_game.id}/solution").status_code == 202
    assert Solve.objects.count() == limit
    # When a job is done, ann may ask again.
    solve_run(solve_id=Solve.objects.order_by("created_at").first().id)  # type: ignore[union-attr]
    with django_capture_on_commit_callbacks(execute=True):
        assert ann.get(f"/api/v1/games/{games[-1]}/solution").status_code == 202


def test_a_job_sent_while_the_broker_is_down_is_sent_again_by_the_sweeper(
    player: APIClient,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from canfield_site.celery import app

    def broker_down(*args: Any, **kwargs: Any) -> Any:
        from kombu.exceptions import OperationalError

        raise OperationalError("Error 111 connecting to redis: Connection refused")

    game_id = finished(player, WON_SEED)
    import games.tasks  # noqa: F401 - registers the tasks

    with monkeypatch.context() as down:
        down.setattr(app.tasks["games.solve"], "apply_async", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            resp = player.get(f"/api/v1/games/{game_id}/solution")
    assert resp.status_code == 202  # accepted, not a 500
    job = Solve.objects.get()
    assert job.status == Solve.Status.PENDING
    assert "could not run or send games.solve" in caplog.text
    # Not yet stale: nothing is sent again.
    assert solves_resend(now=job.enqueued_at) == 0
    from datetime import timedelta

    assert job.enqueued_at is not None
    later = job.enqueued_at + timedelta(seconds=settings.SOLVER_RESEND_SECONDS + 1)
    assert solves_resend(now=later) == 1  # eager: the job ran
    assert player.get(f"/api/v1/games/{game_id}/solution").json()["result"] == "won"


def test_a_position_after_moves_is_its_own_job(
    django_capture_on_commit_callbacks: Callable[..., Any],
) -> None:
    """The service and selector later hints use: (deal, moves) -> one job each."""
    from games.services.games import deal_create, rules_build

    deal = deal_create(rules=rules_build(variant="classic"), seed=WON_SEED)
    moves = [new_game("classic", seed=WON_SEED).legal_moves()[0]]
    assert solve_status(deal=deal, moves=moves) is None
    with django_capture_on_commit_callbacks(execute=True):
        job = solve_request(deal=deal, moves=moves)
    job.refresh_from_db()
    assert job.status == Solve.Status.DONE
    status = solve_status(deal=deal, moves=moves)
    assert status is not None
    assert status["result"] in ("won", "lost", "unknown")
    assert solve_status(deal=deal) is None  # the dealt position was not asked
    with pytest.raises(IllegalMove):
        solve_request(deal=deal, moves=["KH>f"])


def test_solver_tasks_go_to_the_solver_queue() -> None:
    from canfield_site.celery import app

    for name in ("games.solve", "games.winnable_pool_fill"):
        assert app.amqp.router.route({}, name)["queue"].name == "solver"
    assert app.amqp.router.route({}, "games.race_sweep")["queue"].name == "celery"


# ------------------------------------------------------------------ winnable pool


def _fill_with(monkeypatch: pytest.MonkeyPatch, seeds: list[str], **kw: Any) -> int:
    it = iter(seeds)
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: next(it))
    return winnable_pool.winnable_pool_fill(
        options=make_rules("classic").to_dict(), attempts=len(seeds), **kw
    )


def test_pool_keeps_only_proven_winnable_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only won deals enter, the first in the races' reserve (the tie goes to it), the
    next in the players' pool, each share to its size; then the fill stops."""
    won = list(_winnable_seeds()[:3])
    added = _fill_with(monkeypatch, [LOST_SEED, *won], size=1, reserve=1)
    assert added == 2
    assert sorted(WinnableDeal.objects.values_list("purpose", "seed")) == [
        ("practice", won[1]),
        ("race", won[0]),
    ]


def test_a_fill_serves_both_shares_and_never_pools_a_seed_twice(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each won deal goes to the share that is emptier for its size (the races' reserve
    on a tie); a seed already pooled, or already dealt (here: a practice game someone
    started on it), is skipped, so no deal reaches two games or races."""
    w = _winnable_seeds()
    start(player, seed=w[2])  # dealt before the fill draws it
    added = _fill_with(monkeypatch, [w[0], w[0], w[1], w[2], w[3]], size=1, reserve=2)
    assert added == 3
    assert sorted(WinnableDeal.objects.values_list("purpose", "seed")) == sorted(
        [("race", w[0]), ("practice", w[1]), ("race", w[3])]
    )


@pytest.mark.usefixtures("no_solving")
def test_winnable_game_is_drawn_from_the_pool_at_once(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.undo()
    _fill_with(monkeypatch, [WON_SEED], reserve=0)  # into the players' pool
    monkeypatch.setattr(winnable_pool, "solve", lambda *a, **k: pytest.fail("solved"))
    game = start(player, variant="classic", winnable=True)
    deal = Deal.objects.get(games__id=game["id"])
    assert (deal.seed, deal.solver_result) == (WON_SEED, "won")
    assert game["deal"]["seed"] is None  # secret while the game runs
    state = new_game("classic", seed=deal.seed)
    for move in deal.solver_moves:
        state.play(move)
    assert state.cards_home == 52
    # Taken from the pool (a refill may since have added other seeds).
    assert not WinnableDeal.objects.filter(seed=WON_SEED).exists()


@pytest.mark.usefixtures("no_solving")
def test_empty_pool_is_a_503_with_retry_after_and_a_refill(
    player: APIClient, queued: list[tuple[str, dict[str, Any]]]
) -> None:
    resp = player.post("/api/v1/games", {"variant": "classic", "winnable": True}, format="json")
    assert resp.status_code == 503
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "no_winnable_deal"
    assert resp["Retry-After"] == str(settings.WINNABLE_RETRY_AFTER_SECONDS)
    assert resp.json()["retry_after"] == settings.WINNABLE_RETRY_AFTER_SECONDS
    assert Game.objects.count() == 0
    assert queued == [("games.winnable_pool_fill", {"options": make_rules("classic").to_dict()})]


def test_other_rules_have_their_own_pool(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fill_with(monkeypatch, [WON_SEED])
    monkeypatch.setattr(winnable_pool, "enqueue_now", lambda *a, **k: True)
    resp = player.post(
        "/api/v1/games",
        {"variant": "classic", "options": {"draw": 1}, "winnable": True},
        format="json",
    )
    assert resp.status_code == 503
    assert WinnableDeal.objects.count() == 1


def test_beat_refill_asks_only_for_presets_below_size(
    queued: list[tuple[str, dict[str, Any]]], monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.WINNABLE_POOL_PRESETS = ["classic"]
    settings.WINNABLE_POOL_SIZE = 1
    settings.WINNABLE_RACE_RESERVE = 1
    assert winnable_pool.winnable_pool_refill() == {"classic": 0}
    assert len(queued) == 1
    seeds = iter(_winnable_seeds()[:2])
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: next(seeds))
    # One deal: the races' reserve is full, the players' pool is not: asked again.
    winnable_pool.winnable_pool_fill(options=make_rules("classic").to_dict(), attempts=1)
    assert winnable_pool.winnable_pool_refill() == {"classic": 1}
    winnable_pool.winnable_pool_fill(options=make_rules("classic").to_dict(), attempts=1)
    assert winnable_pool.winnable_pool_refill() == {}


def test_winnable_with_a_seed_is_refused(player: APIClient) -> None:
    resp = player.post("/api/v1/games", {"winnable": True, "seed": "5"}, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "invalid_deal"
    assert Game.objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_embedded_default_refills_in_the_background_and_answers_at_once(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No worker: the empty pool's 503 comes at once; a thread of the process fills it."""
    import threading

    won = iter(_winnable_seeds()[:2])
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: next(won))
    monkeypatch.setattr(settings, "WINNABLE_POOL_SIZE", 1)
    monkeypatch.setattr(settings, "WINNABLE_RACE_RESERVE", 1)
    body = {"variant": "classic", "winnable": True}
    empty = player.post("/api/v1/games", body, format="json")
    assert empty.status_code == 503
    assert empty.json()["code"] == "no_winnable_deal"
    for thread in threading.enumerate():
        if thread.name == winnable_pool.FILL_THREAD:
            thread.join(timeout=120)
    # Both shares filled: the races' reserve first (a tie), then the players' pool.
    pooled = dict(WinnableDeal.objects.values_list("purpose", "seed"))
    assert pooled == {"race": _winnable_seeds()[0], "practice": _winnable_seeds()[1]}
    game = player.post("/api/v1/games", body, format="json")
    assert game.status_code == 201, game.content
    assert Deal.objects.get(games__id=game.json()["id"]).seed == pooled["practice"]


def test_rules_whose_deals_prove_lost_are_not_retried_for_ever(
    player: APIClient,
    queued: list[tuple[str, dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
    settings: Any,
) -> None:
    """One-pass deals are almost never won: "try again in a few seconds" answered for
    ever (found by a new user).  Once ``WINNABLE_GIVE_UP_AFTER`` deals in a row are
    proved lost, draws say so (422) and ask for no refill, until a fill finds a win."""
    settings.WINNABLE_GIVE_UP_AFTER = 3
    assert solve(new_game("classic", seed=LOST_SEED), max_seconds=30).result == "lost"
    classic = make_rules("classic").to_dict()
    body = {"variant": "classic", "winnable": True}
    seeds = iter([LOST_SEED] * 3)
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: next(seeds))
    # Two attempts, but every deal lost: the fill goes on to the streak of three.
    assert winnable_pool.winnable_pool_fill(options=classic, attempts=2) == 0
    assert WinnableStreak.objects.get().lost_in_a_row == 3
    refused = player.post("/api/v1/games", body, format="json")
    assert refused.status_code == 422
    assert refused.json()["code"] == "no_winnable_deal_found"
    assert refused.json()["tried"] == 3
    assert queued == []  # no refill asked
    assert Game.objects.count() == 0
    _fill_with(monkeypatch, [WON_SEED], reserve=0)  # a later fill wins one: back to normal
    assert WinnableStreak.objects.get().lost_in_a_row == 0
    assert player.post("/api/v1/games", body, format="json").status_code == 201
    assert player.post("/api/v1/games", body, format="json").json()["code"] == "no_winnable_deal"
    assert queued == [("games.winnable_pool_fill", {"options": classic})]  # asked once


def test_one_unlucky_fill_does_not_give_up(monkeypatch: pytest.MonkeyPatch, settings: Any) -> None:
    """Rules whose deals are rarely won (draw three, one redeal: about one in 60) had a
    fill of 20 lost deals mark them "none to be expected" (found by an attack): a fill
    whose deals are all lost goes on past its attempts, and a win ends the streak."""
    settings.WINNABLE_GIVE_UP_AFTER = 3
    seeds = iter([LOST_SEED, LOST_SEED, WON_SEED, LOST_SEED])
    monkeypatch.setattr(winnable_pool, "random_seed", lambda: next(seeds))
    classic = make_rules("classic").to_dict()
    assert winnable_pool.winnable_pool_fill(options=classic, attempts=2, size=5) == 1
    assert WinnableStreak.objects.get().lost_in_a_row == 0
    # Going on is bounded by solver time as well (here none is left).
    settings.WINNABLE_GIVE_UP_SECONDS = 0
    assert winnable_pool.winnable_pool_fill(options=classic, attempts=1, size=5) == 0
    assert WinnableStreak.objects.get().lost_in_a_row == 1
