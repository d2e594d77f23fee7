# mypy: disable-error-code="no-untyped-call"
"""A race with ``require_winnable`` never runs the solver in the organiser's request.

With the rules' pool of proven-winnable deals empty, race creation solved fresh deals
inside the web request (up to ``WINNABLE_ATTEMPTS`` x ``WINNABLE_BUDGET_SECONDS``).
Solver work runs on the ``solver`` queue only: an empty pool now refuses the race
(``503 no_winnable_deal`` with ``Retry-After``; nothing created) and queues a refill,
and a pooled deal makes a race like any other (secret seed, public commitment,
RULES.md 7).  Every test here fails if any solver entry point is called.
"""

from __future__ import annotations

import hashlib
import sys
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

import games.engine.solver as engine_solver
from games.engine import make_rules, new_game
from games.models import Deal, Game, Race, Tournament, WinnableDeal, WinnableStreak
from games.services.errors import NoWinnableDeal
from games.services.races import race_create
from games.services.winnable_pool import rules_key
from tests.conftest import _winnable_seeds
from tests.factories import create_user
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db

#: The solver, as this module keeps it for filling pools before a test forbids it.
real_solve = engine_solver.solve
CLASSIC = make_rules("classic").to_dict()
FILL = ("games.winnable_pool_fill", {"options": CLASSIC})


@pytest.fixture(autouse=True)
def no_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every binding of the solver in the product's modules fails the test when called."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the solver ran inside the request")

    _winnable_seeds()  # found (by solving) before the solver is forbidden: cached
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("games", "api", "web") and getattr(module, "solve", None) is (
            real_solve
        ):
            monkeypatch.setattr(module, "solve", refuse)
    assert engine_solver.solve is refuse


@pytest.fixture(autouse=True)
def _no_worker(queued: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """Every test here runs with tasks recorded, not run (``queued``, tests/conftest.py)."""
    return queued


def fill_pool(count: int, purpose: str = "race", skip: int = 0) -> list[str]:
    """Put ``count`` proven-winnable classic deals in the share ``purpose`` of the pool
    (``race``: the races' reserve; ``practice``: the players' pool), as a refill would;
    returns their seeds (solved here, before the code under test runs, within a node
    budget).  ``skip``: seeds of ``_winnable_seeds`` another call used already."""
    seeds = list(_winnable_seeds()[skip : skip + count])
    for seed in seeds:
        proof = real_solve(new_game("classic", seed=seed), max_nodes=20_000, max_seconds=None)
        assert proof.result == "won"
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
    return seeds


def _times() -> dict[str, Any]:
    now = timezone.now()
    return {
        "opens_at": now,
        "starts_at": now + timedelta(minutes=5),
        "ends_at": now + timedelta(minutes=15),
    }


# ------------------------------------------------------------------ the service


def test_an_empty_pool_refuses_the_race_and_queues_a_refill(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    with pytest.raises(NoWinnableDeal) as caught:
        race_create(name="r", require_winnable=True, **_times())
    assert caught.value.extra["retry_after"] == settings.WINNABLE_RETRY_AFTER_SECONDS
    assert "require_winnable" in caught.value.detail
    assert queued == [FILL]
    assert not Race.objects.exists()
    assert not Deal.objects.exists()


def test_a_pooled_deal_makes_a_proven_winnable_race(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    (seed,) = fill_pool(1)
    race = race_create(name="r", require_winnable=True, **_times())
    assert race.require_winnable
    assert race.deal.seed == seed
    assert race.commitment == hashlib.sha256(seed.encode()).hexdigest()
    assert race.deal.solver_result == "won"
    state = new_game("classic", seed=seed)
    for move in race.deal.solver_moves:
        state.play(move)
    assert state.cards_home == 52
    assert not WinnableDeal.objects.exists()  # taken from the pool
    assert queued == []  # a refill is asked for only once the race is committed


# ------------------------------------------------------------------ the API


def _organiser_api() -> APIClient:
    client = APIClient()
    client.force_authenticate(User.objects.create_superuser("org"))
    return client


def _race_body() -> dict[str, Any]:
    return {
        "name": "winnable",
        "require_winnable": True,
        **{k: v.isoformat() for k, v in _times().items()},
    }


def test_the_api_answers_an_empty_pool_with_503_and_retry_after(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    client = _organiser_api()
    refused = client.post("/api/v1/races", _race_body(), format="json")
    assert refused.status_code == 503, refused.content
    assert refused["Content-Type"] == "application/problem+json"
    assert refused["Retry-After"] == str(settings.WINNABLE_RETRY_AFTER_SECONDS)
    problem = refused.json()
    assert problem["code"] == "no_winnable_deal"
    assert problem["retry_after"] == settings.WINNABLE_RETRY_AFTER_SECONDS
    assert "the race was not created" in problem["detail"]
    assert not Race.objects.exists()
    assert queued == [FILL]
    # The refill proves a deal (on the solver queue); the same request then succeeds.
    (seed,) = fill_pool(1)
    created = client.post("/api/v1/races", _race_body(), format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["require_winnable"] is True
    assert body["seed"] is None  # secret until the race is over (RULES.md 7)
    assert body["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    assert seed not in created.content.decode()


def test_rules_whose_deals_prove_lost_are_422_with_no_refill(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    WinnableStreak.objects.create(
        rules_key=rules_key(make_rules("classic")),
        lost_in_a_row=settings.WINNABLE_GIVE_UP_AFTER,
        updated_at=timezone.now(),
    )
    refused = _organiser_api().post("/api/v1/races", _race_body(), format="json")
    assert refused.status_code == 422
    assert refused.json()["code"] == "no_winnable_deal_found"
    assert queued == []
    assert not Race.objects.exists()


def _batch(count: int) -> dict[str, Any]:
    return {
        "count": count,
        "first_starts_at": (timezone.now() + timedelta(hours=1)).isoformat(),
        "duration_s": 600,
        "require_winnable": True,
    }


def test_a_tournament_batch_the_pool_cannot_cover_adds_no_race(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    t = _tournament()
    pooled = fill_pool(2)
    client = _organiser_api()
    refused = client.post(f"/api/v1/tournaments/{t.id}/races", _batch(3), format="json")
    assert refused.status_code == 503, refused.content
    assert refused.json()["code"] == "no_winnable_deal"
    assert refused["Retry-After"] == str(settings.WINNABLE_RETRY_AFTER_SECONDS)
    assert "fewer than the 3 races need" in refused.json()["detail"]
    assert not Race.objects.exists()
    # The two deals drawn for the first two races went back with the rollback.
    assert sorted(WinnableDeal.objects.values_list("seed", flat=True)) == sorted(pooled)
    assert queued == [FILL]
    added = client.post(f"/api/v1/tournaments/{t.id}/races", _batch(2), format="json")
    assert added.status_code == 201, added.content
    assert sorted(str(s) for s in Race.objects.values_list("deal__seed", flat=True)) == sorted(
        pooled
    )


def test_a_batch_larger_than_the_pool_can_hold_is_refused(
    queued: list[tuple[str, dict[str, Any]]], settings: Any
) -> None:
    """The most one batch adds is what a full races' reserve holds (not the players' pool)."""
    settings.WINNABLE_POOL_SIZE = 3
    settings.WINNABLE_RACE_RESERVE = 4
    t = _tournament()
    size = 4
    refused = _organiser_api().post(
        f"/api/v1/tournaments/{t.id}/races", _batch(size + 1), format="json"
    )
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_tournament"
    assert f"at most {size} at a time" in refused.json()["detail"]
    assert "WINNABLE_RACE_RESERVE" in refused.json()["detail"]
    assert queued == []
    assert not Race.objects.exists()


# ------------------------------------------------------------------ the admin form


def _admin() -> Client:
    user = create_user("organiser", staff=True)  # in the organisers group
    c = Client()
    c.force_login(user)
    return c


def _tournament() -> Tournament:
    t = TournamentFactory()
    assert isinstance(t, Tournament)
    return t


def _add_races(c: Client, t: Tournament, count: int, language: str = "en") -> Any:
    starts = timezone.now() + timedelta(days=1)
    return c.post(
        reverse("admin:games_tournament_add_races", args=[t.pk]),
        {
            "count": count,
            "first_starts_at": starts.strftime("%Y-%m-%d %H:%M"),
            "duration": "10:00",
            "gap": "5:00",
            "opens_before": "10",
            "variant": "classic",
            "mode": "scheduled",
            "require_winnable": "on",
        },
        HTTP_ACCEPT_LANGUAGE=language,
    )


def _form_errors(resp: Any) -> list[str]:
    return [str(e) for e in resp.context["form"].non_field_errors()]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "No race was added: the solver queue has not proven enough deals"),
        ("fr", "Aucune course n\N{RIGHT SINGLE QUOTATION MARK}a été ajoutée"),
    ],
)
def test_the_admin_form_says_so_when_the_pool_is_short(
    queued: list[tuple[str, dict[str, Any]]], language: str, words: str
) -> None:
    t = _tournament()
    resp = _add_races(_admin(), t, 1, language)
    assert resp.status_code == 200
    (error,) = _form_errors(resp)
    assert words in error
    assert f"{settings.WINNABLE_RETRY_AFTER_SECONDS}" in error
    assert not Race.objects.exists()
    assert queued == [FILL]


def test_the_admin_form_adds_winnable_races_from_the_pool(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    t = _tournament()
    pooled = fill_pool(2)
    resp = _add_races(_admin(), t, 2)
    assert resp.status_code == 302
    races = list(t.races.all())
    assert sorted(str(r.deal.seed) for r in races) == sorted(pooled)
    assert all(r.require_winnable and r.deal.solver_result == "won" for r in races)


def test_the_admin_form_refuses_a_batch_larger_than_the_pool(
    queued: list[tuple[str, dict[str, Any]]], settings: Any
) -> None:
    settings.WINNABLE_POOL_SIZE = 3
    settings.WINNABLE_RACE_RESERVE = 4
    t = _tournament()
    most = 4
    resp = _add_races(_admin(), t, most + 1)
    assert resp.status_code == 200
    (error,) = _form_errors(resp)
    assert f"at most {most} at a time" in error
    assert not Race.objects.exists()


# ------------------------------------------------------------------ players never starve organisers


def _player_api() -> APIClient:
    client = APIClient()
    client.force_authenticate(create_user("drainer"))
    return client


def _practice_seeds() -> list[str]:
    return [
        str(s)
        for s in Deal.objects.filter(games__kind=Game.Kind.PRACTICE).values_list("seed", flat=True)
    ]


def test_players_emptying_their_pool_never_starve_organisers(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    """An attack: practice draws (``winnable: true``) emptied the one pool races draw
    from too, then ``POST /races`` with ``require_winnable`` answered 503 for as long as a
    script kept drawing.  Practice games now draw from the players' pool only: once it
    is empty they get 503 ``no_winnable_deal`` (with ``Retry-After``, as before), and the
    races' reserve is still there for the organiser."""
    (reserved,) = fill_pool(1, "race")
    practice = fill_pool(2, "practice", skip=1)
    player = _player_api()
    body = {"variant": "classic", "winnable": True}
    for _ in practice:
        assert player.post("/api/v1/games", body, format="json").status_code == 201
    drained = player.post("/api/v1/games", body, format="json")
    assert drained.status_code == 503, drained.content
    assert drained.json()["code"] == "no_winnable_deal"
    assert drained["Retry-After"] == str(settings.WINNABLE_RETRY_AFTER_SECONDS)
    assert sorted(_practice_seeds()) == sorted(practice)
    assert list(WinnableDeal.objects.values_list("purpose", "seed")) == [("race", reserved)]
    created = _organiser_api().post("/api/v1/races", _race_body(), format="json")
    assert created.status_code == 201, created.content
    assert created.json()["commitment"] == hashlib.sha256(reserved.encode()).hexdigest()
    assert not WinnableDeal.objects.exists()
    # Each pool deal went to one game or one race: no race deal was ever seen by a player.
    assert reserved not in _practice_seeds()


def test_a_race_takes_the_reserve_first_then_the_players_pool(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    (reserved,) = fill_pool(1, "race")
    (spare,) = fill_pool(1, "practice", skip=1)
    first = race_create(name="a", require_winnable=True, **_times())
    second = race_create(name="b", require_winnable=True, **_times())
    assert (first.deal.seed, second.deal.seed) == (reserved, spare)
    with pytest.raises(NoWinnableDeal):
        race_create(name="c", require_winnable=True, **_times())
    assert Race.objects.count() == 2


def test_a_practice_draw_leaves_the_reserve_alone_and_asks_for_a_refill(
    queued: list[tuple[str, dict[str, Any]]],
) -> None:
    """With the players' pool empty and the reserve full, a practice draw is refused
    and a refill of the rules' pool is queued (the same 503 as an empty pool ever gave)."""
    fill_pool(2, "race")
    refused = _player_api().post(
        "/api/v1/games", {"variant": "classic", "winnable": True}, format="json"
    )
    assert refused.status_code == 503
    assert refused.json()["code"] == "no_winnable_deal"
    assert queued == [FILL]
    assert WinnableDeal.objects.filter(purpose="race").count() == 2
