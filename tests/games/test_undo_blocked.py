"""Undo out of a blocked game (RULES.md 3.9: the server declares "blocked", the player
does not choose it): the move that led into the blocked position may be taken back when
the game allows undo, and the view's ``undo_allowed`` says truthfully whether an undo
would be accepted now.  A blocked game that can still be undone keeps its deal hidden (or
reading the solution and then undoing would play the winning line) and keeps its race
open; resigning it ends it for good (``resigned``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from django.utils.html import escape
from rest_framework.test import APIClient

from games.engine import deal_deck, layout, make_rules, parse_deck
from games.models import Game, Race
from games.selectors.games import game_view
from games.selectors.races import race_standings
from games.services.errors import RaceClosed
from games.services.games import game_end, game_undo, move_play
from games.services.race_admin import race_close_now
from games.services.races import race_cancel, race_join, race_over_for_everyone
from tests.api.conftest import client_for
from tests.factories import create_user
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

#: A classic deal that the moves below block at move 26 (checked in the first test).
SEED = "3ad0241d40aded3d77c900bb212725b6"
TO_BLOCKED = [
    *["draw", "draw", "TD>t2", "7D>t1", "9S>t2"],
    *["draw"] * 7,
    "KD>f",
    *["draw"] * 3,
    "redeal",
    *["draw"] * 8,
    "AD>f",
]


def test_the_moves_block_the_deal_at_move_26() -> None:
    state = layout(parse_deck(deal_deck(SEED)), make_rules("classic"))
    for n, move in enumerate(TO_BLOCKED, start=1):
        assert state.status() == "playing", n
        state.play(move)
    assert (len(TO_BLOCKED), state.status()) == (26, "blocked")


@pytest.fixture
def player() -> APIClient:
    """A client with a token, as a player (``client.user``)."""
    user = create_user("alice")
    client = client_for(user)
    client.user = user  # type: ignore[attr-defined]
    return client


def _play(game_id: Any, player: User, moves: list[str]) -> None:
    for move in moves:
        move_play(game_id=game_id, player=player, move=move)


def test_a_blocked_practice_game_may_be_undone(player: APIClient) -> None:
    """The report: 409 ``game_over`` although the view said ``"undo_allowed": true``."""
    game = player.post("/api/v1/games", {"seed": SEED}, format="json").json()
    assert game["undo_allowed"] is False  # nothing to take back yet
    _play(game["id"], player.user, TO_BLOCKED[:-1])  # type: ignore[attr-defined]
    view = player.post(
        f"/api/v1/games/{game['id']}/moves",
        {"move": "AD>f", "expected_move_number": 25},
        format="json",
    ).json()["game"]
    assert (view["status"], view["undo_allowed"], view["legal_moves"]) == ("blocked", True, [])
    # Not over for good: the deal stays hidden (else: read the solution, undo, win).
    assert (view["deal"]["seed"], view["deal"]["revealed"]) == (None, False)
    for path in ("export", "solution"):
        secret = player.get(f"/api/v1/games/{game['id']}/{path}")
        assert (secret.status_code, secret.json()["code"]) == (409, "deal_secret")

    undone = player.post(
        f"/api/v1/games/{game['id']}/undo", {"expected_move_number": 26}, format="json"
    )
    assert undone.status_code == 200, undone.json()
    back = undone.json()
    assert (back["status"], back["move_number"], back["undo_allowed"]) == ("playing", 25, True)
    assert "AD>f" in back["legal_moves"]

    # Blocked again, then resigned: over for good, undo refused, deal revealed.
    _play(game["id"], player.user, ["AD>f"])  # type: ignore[attr-defined]
    ended = player.post(f"/api/v1/games/{game['id']}/resign").json()
    assert (ended["status"], ended["undo_allowed"]) == ("resigned", False)
    assert (ended["deal"]["seed"], ended["deal"]["revealed"]) == (SEED, True)
    refused = player.post(f"/api/v1/games/{game['id']}/undo", {"expected_move_number": 26})
    assert (refused.status_code, refused.json()["code"]) == (409, "game_over")
    assert player.post(f"/api/v1/games/{game['id']}/resign").json() == ended  # idempotent


def test_undo_allowed_is_false_where_undo_is_refused(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": SEED}, format="json").json()
    _play(game["id"], player.user, ["draw"])  # type: ignore[attr-defined]
    assert player.get(f"/api/v1/games/{game['id']}").json()["undo_allowed"] is True
    resigned = player.post(f"/api/v1/games/{game['id']}/resign").json()
    assert (resigned["status"], resigned["undo_allowed"]) == ("resigned", False)
    assert player.post(f"/api/v1/games/{game['id']}/undo").json()["code"] == "game_over"


# ------------------------------------------------------------------ races


@pytest.fixture
def race_on_seed(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Race]:
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: SEED)
    return running_race


def _blocked_entrant(race: Race, name: str) -> tuple[User, Game]:
    player = create_user(name)
    game = race_join(race_id=race.id, player=player).entry.game
    assert game is not None
    _play(game.id, player, TO_BLOCKED)
    game.refresh_from_db()
    assert game.status == "blocked"
    return player, game


def _close_joining(race: Race) -> None:
    """Joining closed at the start (a minute ago): the race may close early."""
    Race.objects.filter(id=race.id).update(late_join_s=0)
    race.refresh_from_db()


def test_a_blocked_race_game_may_be_undone_and_keeps_the_race_open(
    race_on_seed: Callable[..., Race],
) -> None:
    race = race_on_seed(name="Undo race", allow_undo=True)
    ann, game = _blocked_entrant(race, "ann")
    _close_joining(race)
    # Ann may still take the move back: the race is not over for everyone, her line is
    # not finished.
    assert game_view(game)["undo_allowed"] is True
    assert race_over_for_everyone(race) is False
    assert race_standings(race=race)[0]["finished"] is False
    ann_api = client_for(ann)
    undone = ann_api.post(f"/api/v1/games/{game.id}/undo", {"expected_move_number": 26})
    assert (undone.status_code, undone.json()["status"]) == (200, "playing")

    # Blocked again and resigned: over for good, the race may close early.
    _play(game.id, ann, ["AD>f"])
    ended = ann_api.post(f"/api/v1/games/{game.id}/resign").json()
    assert (ended["status"], ended["undo_allowed"], ended["deal"]["seed"]) == (
        "resigned",
        False,
        None,  # a race game's deal waits for the race
    )
    assert race_over_for_everyone(race) is True
    assert race_standings(race=race)[0]["finished"] is True


def test_a_blocked_race_game_is_settled_once_the_race_closes(
    race_on_seed: Callable[..., Race],
) -> None:
    race = race_on_seed(name="Closed", allow_undo=True)
    ann, game = _blocked_entrant(race, "ann")
    assert game.deadline is not None
    # Past the deadline: no undo, and the view says so.
    assert game_view(game)["undo_allowed"] is True
    with pytest.raises(RaceClosed):
        game_undo(game_id=game.id, player=ann, now=game.deadline)
    race_close_now(race_id=race.id)
    game.refresh_from_db()
    assert game_view(game)["undo_allowed"] is False
    answer = client_for(ann).post(f"/api/v1/games/{game.id}/undo")
    assert (answer.status_code, answer.json()["code"]) == (409, "race_closed")


def test_a_blocked_game_of_a_cancelled_race_is_settled(race_on_seed: Callable[..., Race]) -> None:
    race = race_on_seed(name="Cancelled", allow_undo=True)
    ann, game = _blocked_entrant(race, "ann")
    race_cancel(race_id=race.id)
    game.refresh_from_db()
    assert game_view(game)["undo_allowed"] is False
    assert game_view(game)["deal"]["seed"] == SEED  # the cancelled race's deal is out
    answer = client_for(ann).post(f"/api/v1/games/{game.id}/undo")
    assert (answer.status_code, answer.json()["code"]) == (409, "race_closed")
    # Resigning it changes nothing now.
    assert game_end(game_id=game.id, player=ann).status == "blocked"


def test_a_race_without_undo_is_over_when_blocked(race_on_seed: Callable[..., Race]) -> None:
    race = race_on_seed(name="No undo")
    ann, game = _blocked_entrant(race, "ann")
    _close_joining(race)
    assert game_view(game)["undo_allowed"] is False
    assert race_over_for_everyone(race, now=timezone.now() + timedelta(seconds=1)) is True
    assert race_standings(race=race)[0]["finished"] is True
    answer = client_for(ann).post(f"/api/v1/games/{game.id}/undo")
    assert (answer.status_code, answer.json()["code"]) == (403, "undo_not_allowed")


def test_a_move_or_hint_on_an_undoable_blocked_game_says_it_may_be_undone(
    player: APIClient,
) -> None:
    """409 game_over said "the game is over (blocked)" beside "undo_allowed": true."""
    game = player.post("/api/v1/games", {"seed": SEED}, format="json").json()
    _play(game["id"], player.user, TO_BLOCKED)  # type: ignore[attr-defined]
    blocked = (
        "The game is blocked: no move is left (RULES.md 3.9); undo takes back the move "
        "that blocked it, or resign ends it."
    )
    move = player.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 26}
    )
    hint = player.get(f"/api/v1/games/{game['id']}/hint")
    for answer in (move, hint):
        assert (answer.status_code, answer.json()["code"], answer.json()["detail"]) == (
            409,
            "game_over",
            blocked,
        )
    player.post(f"/api/v1/games/{game['id']}/resign")
    move = player.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 26}
    )
    hint = player.get(f"/api/v1/games/{game['id']}/hint")
    for answer in (move, hint):
        assert (answer.status_code, answer.json()["detail"]) == (
            409,
            "The game is over (resigned).",
        )


def test_the_deal_of_an_undoable_blocked_game_says_blocked_not_over(player: APIClient) -> None:
    """``/export`` and ``/solution`` said "shown when the game is over" of a game whose
    status is ``blocked`` and that may still be undone: they say what is left."""
    game = player.post("/api/v1/games", {"seed": SEED}, format="json").json()
    _play(game["id"], player.user, TO_BLOCKED)  # type: ignore[attr-defined]
    for what in ("deal", "solution"):
        path = "export" if what == "deal" else "solution"
        secret = player.get(f"/api/v1/games/{game['id']}/{path}")
        assert (secret.status_code, secret.json()["code"], secret.json()["detail"]) == (
            409,
            "deal_secret",
            "The game is blocked, not over: no move is left (RULES.md 3.9), but undo takes "
            f"back the move that blocked it, or resign ends it; the {what} is shown once "
            "the game is over for good.",
        )


def test_the_deal_of_a_blocked_race_game_waits_for_the_race(
    race_on_seed: Callable[..., Race],
) -> None:
    """A race game's deal is secret until the race ends (RULES.md 7): the detail names the
    blocked game's way out, and then the race, never anything of the deal."""
    race = race_on_seed(name="Undo race", allow_undo=True)
    ann, game = _blocked_entrant(race, "ann")
    ann_api = client_for(ann)
    secret = ann_api.get(f"/api/v1/games/{game.id}/solution").json()
    assert (secret["code"], secret["detail"]) == (
        "deal_secret",
        "The game is blocked, not over: no move is left (RULES.md 3.9), but undo takes back "
        "the move that blocked it, or resign ends it; the solution is shown when the race is "
        "finished or cancelled.",
    )
    assert set(secret) == {"type", "title", "status", "detail", "instance", "code"}

    ann_api.post(f"/api/v1/games/{game.id}/resign")
    secret = ann_api.get(f"/api/v1/games/{game.id}/export").json()
    assert (secret["code"], secret["detail"]) == (
        "deal_secret",
        "The deal of a race game is shown when the race is finished or cancelled (RULES.md 7).",
    )


def test_the_deal_of_a_blocked_game_of_a_race_without_undo_waits_for_the_race(
    race_on_seed: Callable[..., Race],
) -> None:
    race = race_on_seed(name="No undo")
    ann, game = _blocked_entrant(race, "ann")
    secret = client_for(ann).get(f"/api/v1/games/{game.id}/export").json()
    assert (secret["code"], secret["detail"]) == (
        "deal_secret",
        "The deal of a race game is shown when the race is finished or cancelled (RULES.md 7).",
    )


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "The game is blocked, not over: no move is left, but undo takes back the move that "
            "blocked it, or resign ends it; the solution is shown once the game is over for good.",
        ),
        (
            "fr",
            "La partie est bloquée, pas finie\u202f: il ne reste aucun coup, mais "
            "«\u202fAnnuler un coup\u202f» reprend le coup qui l\u2019a bloquée, ou "
            "«\u202fAbandonner\u202f» la termine\u202f; la "
            "solution est affichée une fois la partie finie pour de bon.",
        ),
        (
            "de",
            "Das Spiel ist blockiert, nicht beendet: Es bleibt kein Zug, aber „Rückgängig“ "
            "nimmt den Zug zurück, der es blockiert hat, oder „Aufgeben“ beendet es; die "
            "Lösung wird gezeigt, sobald das Spiel endgültig vorbei ist.",
        ),
    ],
)
def test_the_solution_page_of_an_undoable_blocked_game_says_blocked_not_over(
    player: APIClient, language: str, expected: str
) -> None:
    """The page said "The solution is shown once the game is over." of a game that is
    blocked and may still be undone, where the API says it is blocked, not over: the
    page says what the API says, in its language."""
    game = player.post("/api/v1/games", {"seed": SEED}, format="json").json()
    _play(game["id"], player.user, TO_BLOCKED)  # type: ignore[attr-defined]
    page = Client()
    page.force_login(player.user)  # type: ignore[attr-defined]
    resp = page.get(f"/play/{game['id']}/solution", HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 403
    html = resp.content.decode()
    assert f"<p>{escape(expected)}</p>" in html
    assert "shown once the game is over." not in html


def test_the_solution_page_of_a_blocked_race_game_waits_for_the_race(
    race_on_seed: Callable[..., Race],
) -> None:
    """As the API: the way out of the block, then the race; once resigned, the race.  The
    solution is shown when the race is finished or cancelled (``deal_revealed``): the page
    said "finished" alone."""
    race = race_on_seed(name="Undo race", allow_undo=True)
    ann, game = _blocked_entrant(race, "ann")
    page = Client()
    page.force_login(ann)
    resp = page.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE="fr")
    assert resp.status_code == 403
    assert (
        "pas finie\u202f: il ne reste aucun coup, mais «\u202fAnnuler un coup\u202f» "
        "reprend le coup qui l\u2019a bloquée, ou «\u202fAbandonner\u202f» la termine\u202f; "
        "la solution est affichée quand "
        "la course est terminée ou annulée." in resp.content.decode()
    )
    client_for(ann).post(f"/api/v1/games/{game.id}/resign")
    resp = page.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE="es")
    assert resp.status_code == 403
    assert (
        "<p>La solución de una partida de carrera se muestra cuando la carrera termina o se "
        "cancela.</p>" in resp.content.decode()
    )
    resp = page.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE="de")
    assert (
        "<p>Die Lösung eines Rennspiels wird gezeigt, wenn das Rennen beendet oder abgesagt "
        "ist.</p>" in resp.content.decode()
    )
    resp = page.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE="en")
    assert (
        "<p>The solution of a race game is shown when the race is finished or cancelled.</p>"
        in resp.content.decode()
    )
