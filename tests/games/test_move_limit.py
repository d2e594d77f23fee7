# mypy: disable-error-code="no-untyped-call, assignment, arg-type"
"""A game accepts at most ``GAME_MOVE_LIMIT`` moves, undone ones included.

The rules set no limit (redeals are unlimited, RULES.md 3.6), and every accepted move
stays stored (an undo keeps its row): without a limit one game could grow without end
by drawing, or by drawing and undoing, and every undo, replay and export reads all of
it again.  The limit is the server's: one more move is ``409 move_limit_reached`` and
changes nothing; the game may still be resigned."""

from __future__ import annotations

import importlib
import re
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.test import override_settings
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Game, Move
from games.services.errors import MoveLimitReached
from games.services.games import game_end, game_start, game_undo, move_play
from tests.factories import UserFactory
from tests.web.conftest import PageClient
from web.refusals import refusal_words

pytestmark = pytest.mark.django_db

#: Classic seed 7 (the refusal tests' deal): its stock of 34 cards gives 12 draws
#: before a redeal is needed, more than any test here plays.
SEED = "7"


def rows(game: Game) -> int:
    return Move.objects.filter(game=game).count()


@override_settings(GAME_MOVE_LIMIT=3)
def test_the_move_after_the_limit_is_refused_and_changes_nothing() -> None:
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    t0 = game.started_at
    for n in range(3):
        move_play(game_id=game.id, player=player, move="draw", now=t0 + timedelta(seconds=n))
    before = Game.objects.get(pk=game.pk)
    assert (before.move_number, before.moves_accepted, rows(before)) == (3, 3, 3)
    with pytest.raises(MoveLimitReached) as refused:
        move_play(game_id=game.id, player=player, move="draw", now=t0 + timedelta(seconds=9))
    assert refused.value.code == "move_limit_reached"
    assert refused.value.extra == {"limit": 3}
    after = Game.objects.get(pk=game.pk)
    assert (after.move_number, after.moves_accepted, rows(after)) == (3, 3, 3)
    assert after.state == before.state
    assert after.updated_at == before.updated_at


@override_settings(GAME_MOVE_LIMIT=3)
def test_undone_moves_count_towards_the_limit() -> None:
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    move_play(game_id=game.id, player=player, move="draw")
    move_play(game_id=game.id, player=player, move="draw")
    game_undo(game_id=game.id, player=player)
    move_play(game_id=game.id, player=player, move="draw")
    game.refresh_from_db()
    # Two live moves, three rows: the undone one stays stored and counts.
    assert (game.move_number, game.moves_accepted, rows(game)) == (2, 3, 3)
    with pytest.raises(MoveLimitReached):
        move_play(game_id=game.id, player=player, move="draw")
    # An undo adds no row, so it is still accepted at the limit; the next move is not.
    game_undo(game_id=game.id, player=player)
    with pytest.raises(MoveLimitReached):
        move_play(game_id=game.id, player=player, move="draw")


@override_settings(GAME_MOVE_LIMIT=2)
def test_a_game_at_the_limit_may_still_be_resigned() -> None:
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    move_play(game_id=game.id, player=player, move="draw")
    move_play(game_id=game.id, player=player, move="draw")
    assert game_end(game_id=game.id, player=player).status == Game.Status.RESIGNED


@override_settings(GAME_MOVE_LIMIT=2)
def test_the_retry_of_the_last_accepted_move_is_still_answered_at_the_limit() -> None:
    """A retry (``expected_move_number`` naming a move already accepted) plays nothing,
    so the limit does not refuse it: the client learns its move was taken."""
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=1)
    again = move_play(game_id=game.id, player=player, move="draw", expected_move_number=1)
    assert again.replayed
    assert again.move.number == 2


@override_settings(GAME_MOVE_LIMIT=1)
def test_the_api_answers_409_move_limit_reached_with_the_limit() -> None:
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    client = APIClient()
    client.force_authenticate(player)
    url = f"/api/v1/games/{game.id}/moves"
    assert client.post(url, {"move": "draw"}, format="json").status_code == 201
    resp = client.post(url, {"move": "draw"}, format="json")
    assert resp.status_code == 409
    assert resp["Content-Type"].startswith("application/problem+json")
    body = resp.json()
    assert body["code"] == "move_limit_reached"
    assert body["limit"] == 1
    assert "move limit of 1" in body["detail"]
    assert client.get(f"/api/v1/games/{game.id}").json()["move_number"] == 1


def test_the_refusal_reads_the_limit_with_its_thousands_separator() -> None:
    exc = MoveLimitReached("limit").because("move_limit_reached", {"limit": 10_000})
    with translation.override("en"):
        assert refusal_words(exc) == (
            "This game has reached its limit of 10,000 moves (taken-back moves count too) "
            "and takes no more: resign it and start another."
        )
    for lang in ("fr", "es", "de"):
        with translation.override(lang):
            words = refusal_words(exc)
        assert re.search(r"10\D000", words), (lang, words)
        assert "reached" not in words, (lang, words)  # translated


@override_settings(GAME_MOVE_LIMIT=1)
def test_the_play_page_says_the_limit_in_the_page_language() -> None:
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    pages = PageClient(player)
    said = []
    for n in range(2):
        r = pages.post(
            f"/play/{game.id}/move",
            {"move": "draw", "expected_move_number": n},
            htmx=True,
            HTTP_ACCEPT_LANGUAGE="de",
        )
        assert r.status_code == 200
        text = re.search(r'id="board-message"[^>]*>(.*?)</div>', r.content.decode(), re.S)
        said.append(" ".join(re.sub(r"<[^>]+>", "", text.group(1)).split()) if text else "")
    assert said[1].startswith("Abgelehnt: Dieses Spiel hat seine Grenze von 1 Zug erreicht"), said
    assert Game.objects.get(pk=game.pk).moves_accepted == 1


def test_the_migration_counts_the_moves_of_existing_games() -> None:
    """Games stored before the field came get the count of their rows, undone ones
    included (the migration's ``count_moves``)."""
    player = UserFactory()
    played, fresh = game_start(player=player, seed=SEED), game_start(player=player, seed="8")
    for _ in range(3):
        move_play(game_id=played.id, player=player, move="draw")
    game_undo(game_id=played.id, player=player)
    Game.objects.update(moves_accepted=0)
    migration: Any = importlib.import_module("games.migrations.0025_game_moves_accepted")
    migration.count_moves(apps, None)
    assert Game.objects.get(pk=played.pk).moves_accepted == 3
    assert Game.objects.get(pk=fresh.pk).moves_accepted == 0


@override_settings(GAME_MOVE_LIMIT=2)
def test_the_game_view_counts_the_moves_left_and_lists_none_at_the_limit() -> None:
    """A client sees the limit coming (``moves_left``), and at it the view lists no legal
    move, as for a game that is over, rather than moves that would all be refused."""
    player = UserFactory()
    game = game_start(player=player, seed=SEED)
    client = APIClient()
    client.force_authenticate(player)
    url = f"/api/v1/games/{game.id}"
    seen = [client.get(url).json()]
    for n in range(2):
        seen.append(client.post(f"{url}/moves", {"move": "draw"}, format="json").json()["game"])
        if n == 0:
            seen.append(client.post(f"{url}/undo", {}, format="json").json())
    assert [v["moves_left"] for v in seen] == [2, 1, 1, 0]
    assert [bool(v["legal_moves"]) for v in seen] == [True, True, True, False]
    assert seen[-1]["status"] == "playing"
    assert seen[-1]["undo_allowed"] is True  # an undo adds no row: still accepted
