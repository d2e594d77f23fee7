# mypy: disable-error-code="no-untyped-call, assignment"
"""A running race's deal cannot be practised in disguise (RULES.md 7).

The check against running races compared the six opening cards as they are.  The four
tableau piles are interchangeable, suits are interchangeable (colour classes with
them) and ranks wrap (RULES.md 1, 3): a deck with two tableau cards swapped, with
clubs and spades swapped throughout, or with every rank one higher, deals the same
game under other names.  An entrant of a ``superior`` race (the whole reserve face
up) knows the whole deck after one pass through the stock; such a deck was accepted
(201), and the practice game's hints (the solver on the whole deal) then gave a
winning line to play in the race, renamed back.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import make_rules
from games.models import Game
from games.services.deal_guard import opening_digest
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

RANKS = "A23456789TJQK"


def _swap(deck: list[str], i: int, j: int) -> list[str]:
    out = list(deck)
    out[i], out[j] = out[j], out[i]
    return out


def _suits(deck: list[str], mapping: dict[str, str]) -> list[str]:
    return [card[0] + mapping[card[1]] for card in deck]


def _ranks_up(deck: list[str], k: int) -> list[str]:
    return [RANKS[(RANKS.index(card[0]) + k) % 13] + card[1] for card in deck]


def _disguises(deck: list[str]) -> dict[str, list[str]]:
    return {
        "t1 and t2 swapped": _swap(deck, 14, 15),
        "t1..t4 reversed": deck[:14] + deck[14:18][::-1] + deck[18:],
        "clubs and spades swapped": _suits(deck, {"C": "S", "S": "C", "D": "D", "H": "H"}),
        "black and red swapped": _suits(deck, {"C": "D", "D": "C", "H": "S", "S": "H"}),
        "every rank one higher": _ranks_up(deck, 1),
        "all at once": _ranks_up(
            _suits(_swap(deck, 16, 17), {"C": "H", "H": "C", "D": "S", "S": "D"}), 5
        ),
    }


@pytest.mark.parametrize("preset", ["superior", "classic"])
def test_a_race_deck_in_disguise_is_refused(player: APIClient, preset: str) -> None:
    race = running_race(variant=preset)
    deck: list[str] = list(race.deal.deck)
    refused: dict[str, Any] = {}
    for name, disguised in _disguises(deck).items():
        assert sorted(disguised) != disguised  # still a deck of 52 distinct cards
        assert len(set(disguised)) == 52
        response = player.post(
            "/api/v1/games", {"variant": preset, "deck": disguised}, format="json"
        )
        refused[name] = (response.status_code, response.json().get("code"))
    assert refused == dict.fromkeys(refused, (409, "deal_in_race"))
    assert not Game.objects.exists()


def test_the_opening_digest_is_the_same_for_every_disguise() -> None:
    rules = make_rules("classic")
    deck = [r + s for s in "CDHS" for r in RANKS]
    digest = opening_digest(deck, rules)
    assert {opening_digest(d, rules) for d in _disguises(deck).values()} == {digest}
    # A visible card really changed is another opening.
    assert opening_digest(_swap(deck, 14, 30), rules) != digest


@pytest.mark.parametrize("preset", ["classic", "storehouse", "superior"])
def test_the_migration_writes_the_digest_the_check_computes(preset: str) -> None:
    """Migration 0027 writes out the form by hand (it may not import the application)."""
    import hashlib
    import importlib

    from games.engine.deal import deal_deck

    migration = importlib.import_module("games.migrations.0027_deal_opening_symmetries")
    rules = make_rules(preset)
    base = rules.to_dict()["base"]
    for seed in ("1", "2", "295", "abc", "race-7"):
        deck = deal_deck(seed)
        cards = migration.opening(deck, base)
        written = hashlib.sha256(migration.form(cards).encode()).hexdigest()
        assert written == opening_digest(deck, rules), seed


def test_an_upcoming_race_is_not_compared_until_it_starts(
    player: APIClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before the start nobody has seen a race's opening (RULES.md 7: the check compares
    only what every entrant sees at the start), so the answer must not depend on it: the
    upcoming race's own deck gets the answer any deck gets.  Compared, it let anyone test
    guesses of an announced race's opening (about two million classes up to renaming, at
    the games throttle's 120 a minute per account) before the race began."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.races import race_create

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)  # stopped for the test
    race = race_create(
        name="later",
        opens_at=now + timedelta(hours=1),
        starts_at=now + timedelta(hours=2),
        ends_at=now + timedelta(hours=3),
    )
    deck: list[str] = list(race.deal.deck)
    answer = player.post("/api/v1/games", {"deck": deck}, format="json")
    assert answer.status_code == 201, answer.content
    # Once it has started, the same deck is the deal of a running race.
    race.opens_at = now - timedelta(minutes=2)
    race.starts_at = now - timedelta(minutes=1)
    race.save(update_fields=["opens_at", "starts_at"])
    refused = player.post("/api/v1/games", {"deck": deck}, format="json")
    assert (refused.status_code, refused.json()["code"]) == (409, "deal_in_race")
