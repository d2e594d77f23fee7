"""No answer depends on a hidden card (RULES.md 7; issue 12 item 3).

* The practice-deck-versus-running-race check compares only the opening cards
  (top reserve, base, four tableau cards): decks that differ only in hidden
  cards get the same answer, byte for byte apart from ``instance``.
* A refused move naming a hidden card gets the same answer wherever the card
  is hidden (face-down reserve or stock).
* The end-of-game check does the same work whatever the stock order (no
  timing that depends on where a playable card lies in the stock).
"""

from __future__ import annotations

import importlib
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import layout, make_rules, new_game, parse_deck
from games.engine.cards import CARD_NAMES
from games.engine.deal import deal_deck
from games.engine.state import GameState
from games.models import Game
from games.services.deal_guard import opening_cards, opening_digest
from games.services.games import deal_create
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db


#: Deck positions of the opening when the base is dealt (RULES.md 2.2): D[12..17].
_DEALT_OPENING = (12, 13, 14, 15, 16, 17)


def _swap(deck: list[str], i: int, j: int) -> list[str]:
    out = list(deck)
    out[i], out[j] = out[j], out[i]
    return out


def _without_instance(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "instance"}


def test_practice_check_compares_only_the_opening_cards(player: APIClient) -> None:
    race = running_race()
    deck: list[str] = list(race.deal.deck)
    hidden_variants = [
        deck,  # the race's exact deck
        _swap(deck, 0, 1),  # two face-down reserve cards swapped
        _swap(deck, 5, 40),  # a face-down reserve card and a stock card
        _swap(deck, 18, 51),  # two stock cards
        deck[:12][::-1] + deck[12:18] + deck[18:][::-1],  # every hidden card moved
    ]
    bodies = []
    classic = make_rules("classic")
    for variant_deck in hidden_variants:
        assert opening_digest(variant_deck, classic) == opening_digest(deck, classic)
        response = player.post("/api/v1/games", {"deck": variant_deck}, format="json")
        assert response.status_code == 409, response.content
        assert response["Content-Type"] == "application/problem+json"
        bodies.append(_without_instance(response.json()))
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["code"] == "deal_in_race"
    assert not Game.objects.filter(player=player.user).exists()  # type: ignore[attr-defined]
    # A deck whose opening differs (a visible card changed) is not the race's deal.
    for i in _DEALT_OPENING:
        other = _swap(deck, i, 30)
        response = player.post("/api/v1/games", {"deck": other}, format="json")
        assert response.status_code == 201, (i, response.content)


def test_fixed_base_race_opening_is_read_off_the_layout(player: APIClient) -> None:
    """Storehouse deals the 48 cards that are not twos (RULES.md 4): D[12..17] holds hidden cards.

    An attack found that the check compared D[12..17] for every deal: with a two
    in D[0..12], D[12] is the face-down card under the top reserve card, and a
    classic practice deck with the race's D[12..17] was refused for exactly one
    guess of that card.
    """
    rules = make_rules("storehouse")
    seed = next(
        (str(n) for n in range(100) if any(c[0] == "2" for c in deal_deck(str(n))[:13])), None
    )
    assert seed is not None, "no seed below 100 has a two in D[0..12]"
    race = running_race(variant="storehouse")
    race.deal = deal_create(rules=rules, seed=seed)
    race.save(update_fields=["deal"])
    deck: list[str] = list(race.deal.deck)
    state = layout(parse_deck(deck), rules)
    hidden = [CARD_NAMES[c] for c in [*state.reserve[:-1], *state.stock]]
    assert deck[12] in hidden  # the property the seed was picked for
    assert opening_cards(deck, rules) == [
        CARD_NAMES[state.reserve[-1]],
        *(f"2{suit}" for suit in "CDHS"),
        *(CARD_NAMES[pile[0]] for pile in state.tableau),
    ]
    # The attack's probe: a classic deck with the race's D[12..17] (here the race's
    # own deck) opens with other cards than the storehouse race, so it is no match.
    response = player.post("/api/v1/games", {"deck": deck}, format="json")
    assert response.status_code == 201, response.content
    # Storehouse decks that differ from the race's only in hidden cards all get one answer.
    at = {card: deck.index(card) for card in hidden}
    reserve_down = [at[CARD_NAMES[c]] for c in state.reserve[:-1]]
    stock = [at[CARD_NAMES[c]] for c in state.stock]
    hidden_variants = [
        deck,
        _swap(deck, reserve_down[0], reserve_down[1]),
        _swap(deck, reserve_down[-1], stock[0]),
        _swap(deck, stock[0], stock[-1]),
    ]
    bodies = []
    for variant_deck in hidden_variants:
        assert opening_digest(variant_deck, rules) == opening_digest(deck, rules)
        response = player.post(
            "/api/v1/games", {"variant": "storehouse", "deck": variant_deck}, format="json"
        )
        assert response.status_code == 409, response.content
        bodies.append(_without_instance(response.json()))
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["code"] == "deal_in_race"
    # A seen card swapped with a hidden one: another opening, not the race's deal.
    for card in [CARD_NAMES[state.reserve[-1]], *(CARD_NAMES[p[0]] for p in state.tableau)]:
        other = _swap(deck, deck.index(card), stock[5])
        response = player.post(
            "/api/v1/games", {"variant": "storehouse", "deck": other}, format="json"
        )
        assert response.status_code == 201, (card, response.content)


def test_practice_check_ignores_finished_races(player: APIClient) -> None:
    race = running_race()
    race.status = "finished"
    race.save(update_fields=["status"])
    response = player.post("/api/v1/games", {"deck": race.deal.deck}, format="json")
    assert response.status_code == 201
    view = response.json()
    game = Game.objects.get(id=view["id"])
    # A practice game on the finished race's very cards ...
    assert (game.kind, game.deal.deck) == (Game.Kind.PRACTICE, race.deal.deck)
    # ... whose view still hides what is face down: the face-down reserve and the stock
    # as counts only (RULES.md 7), none of their cards anywhere in the answer.
    snapshot = game.state
    face_down = snapshot["reserve"][:-1]
    assert len(face_down) == 12
    assert view["reserve"]["face_down"] == 12
    assert view["stock"] == {"count": len(snapshot["stock"])}
    shown = json.dumps(view)
    for card in [*face_down, *snapshot["stock"]]:
        assert f'"{CARD_NAMES[card] if isinstance(card, int) else card}"' not in shown


def test_a_move_naming_a_hidden_card_gets_one_answer(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "7"}, format="json").json()
    state = Game.objects.get(id=game["id"]).state
    hidden = state["reserve"][:-1] + state["stock"]
    assert len(hidden) == 12 + 34
    answers = set()
    for card in hidden:
        for dest in ("t1", "f"):
            response = player.post(
                f"/api/v1/games/{game['id']}/moves", {"move": f"{card}>{dest}"}, format="json"
            )
            assert response.status_code == 422
            body = response.json()
            assert card not in body["detail"]
            answers.add((body["code"], body["detail"]))
    assert len(answers) == 1, answers
    assert Game.objects.get(id=game["id"]).move_number == 0


def _checks(state: GameState, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The outcome of every waste-card check the end-of-game test makes on ``state``."""
    seen: list[bool] = []
    original = GameState._waste_card_playable

    def counting(self: GameState, card: int) -> bool:
        result = original(self, card)
        seen.append(result)
        return result

    monkeypatch.setattr(GameState, "_waste_card_playable", counting)
    state.status()
    monkeypatch.setattr(GameState, "_waste_card_playable", original)
    return seen


def test_end_of_game_check_does_the_same_work_whatever_the_stock_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = make_rules("classic")
    # A deal whose only move is draw, with a stock card that plays early in one
    # stock order (an early stop would answer sooner for that order).
    for n in range(2000):
        state = new_game("classic", seed=str(n))
        if state.legal_moves() != ["draw"]:
            continue
        deck = [*state_deck(str(n))]
        reversed_deck = deck[:18] + deck[18:][::-1]
        first = _checks(layout(parse_deck(deck), rules), monkeypatch)
        second = _checks(layout(parse_deck(reversed_deck), rules), monkeypatch)
        if True in first[:-1] or True in second[:-1]:
            break
    else:
        pytest.fail("no seed below 2000 has the property the test needs")
    assert len(first) == len(second) == 2 * 12  # 34 cards, draw 3: 12 waste tops a pass


def state_deck(seed: str) -> list[str]:
    """The deck of ``seed`` in deal order (RULES.md 2)."""
    from games.engine import deal_deck

    return list(deal_deck(seed))


def test_migration_0013_recomputes_the_fixed_base_openings_as_the_service_does() -> None:
    migration = importlib.import_module("games.migrations.0013_deal_opening_fixed_base")
    for base in ("2", "K", "A"):
        rules = make_rules("storehouse", base=base)
        for n in range(20):
            deck = deal_deck(str(n))
            assert migration.fixed_base_opening(deck, base) == opening_cards(deck, rules)
