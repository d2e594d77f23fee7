"""Hidden information through the API (RULES.md 7): whole games are played with random
legal moves (plus illegal and malformed ones, undo, history, export, resign), and after
every response no face-down reserve card and no stock card appears anywhere in it."""

from __future__ import annotations

import hashlib
import random
import re
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.engine import PRESETS, new_game, status
from games.models import Game

pytestmark = pytest.mark.django_db

# A card token as the API writes cards (rank then suit, upper case), not inside a word.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[CDHS](?![A-Za-z0-9])")
# The refusals that name a card the player did not send name one that public
# information determines: the next card of a foundation (from the visible
# foundations), or under same-suit building the card one rank above the moved one.
NEEDS = re.compile(r"it needs ([A2-9TJQK][CDHS]) next")
NEEDS_SAME_SUIT = re.compile(
    r"([A2-9TJQK][CDHS]) cannot go on [A2-9TJQK][CDHS]: needs the ([A2-9TJQK][CDHS])"
)
RANKS = "A23456789TJQK"
# The seed the server "draws" when a test asks for none (random_seed patched): a
# race-grade 32-hex seed whose deal is playable from the start in every preset.  A truly
# random one made the test random: a deal blocked at the start is over at once and
# reveals its export (1 failure in 3 whole-suite runs, one-pass).
SERVER_SEED = "5feceb66ffc86f38d952786c6d696c79"
# Fixed help text of the notation errors: the same examples whatever the deal.
EXAMPLES = re.compile(r"such as QH>t2 or 5S>f|such as QH, TD, 10D")


def hidden_cards(game_id: str) -> set[str]:
    """Face-down reserve cards and stock cards in the stored snapshot right now."""
    state = Game.objects.get(id=game_id).state
    reserve = list(state["reserve"])
    face_down = [] if state["rules"]["reserve_face_up"] else reserve[:-1]
    return set(face_down) | set(state["stock"])


def next_home(game_id: str, card: str) -> str:
    """The next card the foundation of ``card``'s suit takes (from public data)."""
    state = Game.objects.get(id=game_id).state
    suit = card[-1]
    pile = state["foundations"][suit]
    base = RANKS.index(state["base_rank"])
    return RANKS[(base + len(pile)) % 13] + suit


def json_strings(body: Any) -> list[str]:
    """Every string (keys and values) anywhere in a JSON body."""
    if isinstance(body, str):
        return [body]
    if isinstance(body, dict):
        return [s for k, v in body.items() for s in [k, *json_strings(v)]]
    if isinstance(body, list):
        return [s for v in body for s in json_strings(v)]
    return []


class Checked:
    """A client wrapper that checks every response for hidden cards and secrets."""

    def __init__(self, client: APIClient, game_id: str, seed: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.seed = seed
        self.responses = 0

    def check(self, resp: Any) -> Any:
        self.responses += 1
        hidden = hidden_cards(self.game_id)
        text = resp.content.decode()
        headers = "\n".join(f"{k}: {v}" for k, v in resp.headers.items())
        for match in NEEDS.finditer(text):
            assert match.group(1) == next_home(self.game_id, match.group(1))
        for match in NEEDS_SAME_SUIT.finditer(text):
            moved, needed = match.groups()
            assert needed == RANKS[(RANKS.index(moved[0]) + 1) % 13] + moved[1]
        text = NEEDS_SAME_SUIT.sub("needs <one above>", text)
        scrubbed = EXAMPLES.sub("such as <examples>", NEEDS.sub("it needs <next> next", text))
        leaked = set(CARD.findall(scrubbed + "\n" + headers)) & hidden
        assert not leaked, (leaked, resp.status_code, text)
        game = Game.objects.get(id=self.game_id)
        # Over for good: a blocked practice game whose last move may still be taken back
        # keeps its deal hidden (games.selectors.games.deal_revealed).
        over = game.is_over and not (game.status == "blocked" and game.move_number > 0)
        if self.seed is not None and not over:
            # Every seed, short ones too: no JSON string and no header carries it (a seed
            # as short as "1" would match digits of numbers in the raw text).
            if len(self.seed) > 8:
                assert self.seed not in text + headers
            assert self.seed not in set(resp.headers.values())
            if resp.headers.get("Content-Type", "").endswith("json"):
                assert all(self.seed not in s.split() for s in json_strings(resp.json()))
        if resp.headers.get("Content-Type", "").startswith("application/json"):
            self.check_body(resp.json(), over)
        return resp

    def check_body(self, body: Any, over: bool) -> None:
        """The views in ``body`` reveal the deal exactly when the game is over."""
        views = []
        if isinstance(body, dict) and "deal" in body:
            views.append(body)
        if isinstance(body, dict) and isinstance(body.get("game"), dict):
            views.append(body["game"])
        for view in views:
            assert uuid.UUID(view["id"]).version == 4
            assert str(uuid.UUID(view["id"])) == view["id"] == self.game_id
            assert view["deal"]["revealed"] is over
            if over:
                assert view["deal"]["seed"] == self.seed
            else:
                assert view["deal"]["seed"] is None
            assert set(view["stock"]) == {"count"}

    def get(self, path: str) -> Any:
        return self.check(self.client.get(path))

    def post(self, path: str, body: Any = None) -> Any:
        return self.check(self.client.post(path, body, format="json"))


def unavailable_hidden(game_id: str, rng: random.Random) -> str | None:
    hidden = sorted(hidden_cards(game_id))
    return rng.choice(hidden) if hidden else None


def play_whole_game(
    client: APIClient, rng: random.Random, variant: str, seed: str | None, max_moves: int
) -> tuple[Checked, dict[str, Any]]:
    body: dict[str, Any] = {"variant": variant}
    if seed is not None:
        body["seed"] = seed
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201
    view = resp.json()
    game_id = view["id"]
    stored_seed = Game.objects.get(id=game_id).deal.seed
    assert stored_seed == (seed or SERVER_SEED)
    api = Checked(client, game_id, stored_seed)
    api.check(resp)
    base = f"/api/v1/games/{game_id}"
    assert api.get(f"{base}/export").json()["code"] == "deal_secret"
    moves = 0
    while view["status"] == "playing" and moves < max_moves:
        n = view["move_number"]
        roll = rng.random()
        if roll < 0.06 and n > 0:
            resp = api.post(f"{base}/undo", {"expected_move_number": n})
            assert resp.status_code == 200, resp.json()
            view = resp.json()
            assert view["move_number"] == n - 1
            continue
        if roll < 0.10:
            card = unavailable_hidden(game_id, rng)
            if card is not None:
                resp = api.post(f"{base}/moves", {"move": f"{card}>{rng.choice(['f', 't1'])}"})
                assert resp.status_code == 422
                assert resp.json()["code"] == "illegal_move"
        elif roll < 0.13:
            resp = api.post(
                f"{base}/moves", {"move": rng.choice(["ZZ>f", "XX>t9", "", "go", "draw3"])}
            )
            assert resp.status_code == 400
        elif roll < 0.16:
            # An available card sent somewhere it cannot go (or a stale number).
            visible = [p[-1] for p in view["tableau"] if p] + view["waste"]["cards"][-1:]
            if visible:
                move = f"{rng.choice(visible)}>{rng.choice(['f', 't1', 't2', 't3', 't4'])}"
                if move not in view["legal_moves"]:
                    resp = api.post(f"{base}/moves", {"move": move})
                    assert resp.status_code == 422, resp.json()
            resp = api.post(f"{base}/moves", {"move": "draw", "expected_move_number": n + 3})
            assert resp.status_code == 409
            assert resp.json()["current_move_number"] == n
        elif roll < 0.18:
            api.get(f"{base}/moves?page_size=5")
            api.get(base)
            api.get("/api/v1/games")
            assert api.get(f"{base}/export").status_code == 409
        legal = view["legal_moves"]
        cards = [m for m in legal if m not in ("draw", "redeal")]
        move = rng.choice(cards) if cards and rng.random() < 0.7 else rng.choice(legal)
        resp = api.post(f"{base}/moves", {"move": move, "expected_move_number": n})
        assert resp.status_code == 201, resp.json()
        view = resp.json()["game"]
        moves += 1
        if rng.random() < 0.05:  # a retried request is a replay, not a second move
            again = api.post(f"{base}/moves", {"move": move, "expected_move_number": n})
            assert again.status_code == 200
            assert again.json()["replayed"] is True
    if view["status"] == "playing" or view["undo_allowed"]:
        # Resigned: a blocked game that could still be undone ends for good with it
        # (until then its deal stays hidden).
        view = api.post(f"{base}/resign").json()
        assert view["status"] == "resigned"
    return api, view


@pytest.mark.parametrize("variant", list(PRESETS))
@pytest.mark.parametrize("seed", ["1", "271828", None])
def test_no_hidden_card_in_any_response(
    make_client: Callable[..., APIClient],
    variant: str,
    seed: str | None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("games.services.games.random_seed", lambda: SERVER_SEED)
    assert status(new_game(variant, seed=seed or SERVER_SEED)) == "playing"
    client = make_client()
    rng = random.Random(f"{variant}:{seed}")  # noqa: S311 - test data
    api, view = play_whole_game(client, rng, variant, seed, max_moves=60)
    assert api.responses >= 3  # start, export refused, at least one move
    assert view["status"] != "playing"
    # Once over, the deal is revealed: seed, commitment and an export that replays.
    game_id = view["id"]
    stored_seed = Game.objects.get(id=game_id).deal.seed
    assert view["deal"]["seed"] == stored_seed
    assert view["deal"]["commitment"] == hashlib.sha256(stored_seed.encode()).hexdigest()
    record = client.get(f"/api/v1/games/{game_id}/export").json()
    assert record["seed"] == stored_seed
    assert len(record["deck"]) == 52
    history = client.get(f"/api/v1/games/{game_id}/moves?page_size=500").json()["results"]
    assert [m["notation"] for m in history] == record["moves"]
    assert all(set(m) == {"number", "notation", "played_at", "cards_home"} for m in history)


def test_refusal_of_a_hidden_card_does_not_say_where_it_is(player: APIClient) -> None:
    """A face-down reserve card and a stock card get the same refusal, without their name."""
    game = player.post("/api/v1/games", {"seed": "0"}, format="json").json()
    state = Game.objects.get(id=game["id"]).state
    in_reserve, in_stock = state["reserve"][0], state["stock"][-1]
    answers = []
    for card in (in_reserve, in_stock):
        resp = player.post(
            f"/api/v1/games/{game['id']}/moves", {"move": f"{card}>f"}, format="json"
        )
        assert resp.status_code == 422
        assert card not in resp.content.decode()
        answers.append(resp.json()["detail"])
    assert answers[0] == answers[1]


def test_ids_are_uuids_and_errors_for_unknown_ids_are_uniform(
    player: APIClient, make_client: Callable[..., APIClient]
) -> None:
    game = player.post("/api/v1/games", {"seed": "5"}, format="json").json()
    assert uuid.UUID(game["id"]).version == 4
    other = make_client("mallory")
    theirs = other.get(f"/api/v1/games/{game['id']}")
    missing = other.get(f"/api/v1/games/{uuid.uuid4()}")
    assert theirs.status_code == missing.status_code == 404
    assert {k: v for k, v in theirs.json().items() if k != "instance"} == {
        k: v for k, v in missing.json().items() if k != "instance"
    }
