"""A practice game dealt at random is never blocked at the deal (RULES.md 3.9).

About 1 classic deal in 100 has no move but draw and redeal: a practice game started
without a seed was over at its first second.  Races already drew again; practice
games now follow the same rule, through the one helper both use
(:func:`games.services.seeds.live_seed`).  A seed or deck the player gives is dealt
exactly as asked, blocked or not.  Classic seed ``"295"`` is blocked (asserted below).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import GameState, deal_deck, legal_moves, make_rules, new_game, status
from games.models import Game
from games.services import games as game_services
from games.services import races as race_services
from games.services import seeds
from games.services.errors import InvalidOptions
from games.services.games import game_start
from tests.factories import make_user
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

BLOCKED = "295"
LIVE = "296"


def _practice_seeds(monkeypatch: pytest.MonkeyPatch, *given: str) -> list[str]:
    """Make the practice games' seed source give ``given`` in order; returns the seeds
    drawn so far (a list the source appends to)."""
    drawn: list[str] = []
    source: Iterator[str] = iter(given)

    def next_seed() -> str:
        seed = next(source)
        drawn.append(seed)
        return seed

    monkeypatch.setattr(game_services, "random_seed", next_seed)
    return drawn


def test_the_seeds_have_the_properties_the_tests_need() -> None:
    blocked = new_game("classic", seed=BLOCKED)
    assert status(blocked) == "blocked"
    assert set(legal_moves(blocked)) <= {"draw", "redeal"}
    assert status(new_game("classic", seed=LIVE)) == "playing"


def test_live_seed_skips_blocked_deals_from_the_source_it_is_given() -> None:
    source = iter([BLOCKED, BLOCKED, LIVE, "never drawn"])
    assert seeds.live_seed(make_rules("classic"), draw=lambda: next(source)) == LIVE
    assert next(source) == "never drawn"


def test_races_and_practice_games_share_the_one_helper(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both draw through :func:`seeds.live_seed`: its check sees each one's seed."""
    checked: list[str] = []

    def check(state: GameState) -> str:
        checked.append("checked")
        return str(status(state))

    monkeypatch.setattr(seeds, "status", check)
    game_start(player=make_user(username="ann"))
    assert checked == ["checked"]
    now = timezone.now()
    race_services.race_create(
        name="r",
        opens_at=now,
        starts_at=now + timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
    )
    assert checked == ["checked", "checked"]
    assert race_services.LIVE_DEAL_ATTEMPTS == seeds.LIVE_DEAL_ATTEMPTS


def test_a_random_practice_game_skips_a_blocked_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _practice_seeds(monkeypatch, BLOCKED, LIVE)
    game = game_start(player=make_user(username="ann"))
    assert drawn == [BLOCKED, LIVE]
    assert game.deal.seed == LIVE
    assert game.status == "playing"
    assert game.finished_at is None


def test_a_given_seed_or_deck_is_dealt_as_asked_even_blocked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _practice_seeds(monkeypatch)  # any draw would fail: nothing to give
    player = make_user(username="ann")
    by_seed = game_start(player=player, seed=BLOCKED)
    by_deck = game_start(player=player, deck=deal_deck(BLOCKED))
    assert (by_seed.deal.seed, by_seed.status) == (BLOCKED, "blocked")
    assert (by_deck.deal.deck, by_deck.status) == (deal_deck(BLOCKED), "blocked")
    assert drawn == []


def test_rules_whose_deals_are_all_blocked_start_no_game(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _practice_seeds(monkeypatch, *[BLOCKED] * seeds.LIVE_DEAL_ATTEMPTS)
    with pytest.raises(InvalidOptions, match="blocked at the deal"):
        game_start(player=make_user(username="ann"))
    assert len(drawn) == seeds.LIVE_DEAL_ATTEMPTS
    assert not Game.objects.exists()


def _api(user: User) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_api_deals_the_next_seed_after_a_blocked_one(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _practice_seeds(monkeypatch, BLOCKED, LIVE)
    answer = _api(make_user(username="ann")).post("/api/v1/games", {}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["status"] == "playing"
    assert drawn == [BLOCKED, LIVE]
    assert Game.objects.get(id=answer.json()["id"]).deal.seed == LIVE


def test_the_api_deals_a_blocked_seed_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _practice_seeds(monkeypatch)
    answer = _api(make_user(username="ann")).post("/api/v1/games", {"seed": BLOCKED}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["status"] == "blocked"
    assert answer.json()["legal_moves"] == []
    assert drawn == []


def test_the_api_refuses_rules_whose_deals_are_all_blocked(monkeypatch: pytest.MonkeyPatch) -> None:
    _practice_seeds(monkeypatch, *[BLOCKED] * seeds.LIVE_DEAL_ATTEMPTS)
    answer = _api(make_user(username="ann")).post("/api/v1/games", {}, format="json")
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["code"] == "invalid_options"
    assert not Game.objects.exists()


def test_the_practice_page_deals_the_next_seed_after_a_blocked_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = _practice_seeds(monkeypatch, BLOCKED, LIVE)
    pages = PageClient(make_user(username="ann"))
    answer = pages.post("/practice", {"variant": "classic"})
    game = Game.objects.get()
    assert answer.status_code == 302
    assert answer["Location"] == f"/play/{game.id}/"
    assert drawn == [BLOCKED, LIVE]
    assert (game.deal.seed, game.status) == (LIVE, "playing")


def test_the_practice_page_deals_a_blocked_seed_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _practice_seeds(monkeypatch)
    pages = PageClient(make_user(username="ann"))
    answer = pages.post("/practice", {"variant": "classic", "seed": BLOCKED})
    game = Game.objects.get()
    assert answer.status_code == 302
    assert (game.deal.seed, game.status) == (BLOCKED, "blocked")
    assert drawn == []
