"""What a race says of the viewer's own game (found by an attack on ``game_status``).

A scheduled race's game is created when the player joins, and its stored status was
computed then from the secret deal: a deal dead from the deal was stored ``blocked``,
and the race, the game list, the standings and the lobby told every entrant so before
the start (one bit of the secret deal per join; RULES.md 7).  A window-race game past
its own deadline still said ``playing`` until the race closed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import new_game
from games.models import Game
from games.selectors.games import game_status_seen
from games.services.races import race_create, race_join, race_start
from tests.helpers import blocked_seed
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db


def _dead_seed() -> str:
    """The first seed of the form ``dead-N`` whose classic deal is blocked at the deal."""
    return blocked_seed("dead")


def _dead_race(monkeypatch: pytest.MonkeyPatch, *, starts_in: timedelta) -> Any:
    """A scheduled race on :func:`_dead_seed`'s deal starting ``starts_in`` from now (an
    hour long, joining open from two minutes ago, or before the start, until the end).

    New races never get such a deal (:func:`games.services.races.race_seed`), so the
    race is made as one announced before that rule was: its seed source is replaced."""
    seed = _dead_seed()
    monkeypatch.setattr("games.services.races.race_seed", lambda rules: seed)
    now = timezone.now()
    starts = now + starts_in
    return race_create(
        name=f"Dead deal {starts_in}",
        opens_at=min(now, starts) - timedelta(minutes=2),
        starts_at=starts,
        ends_at=starts + timedelta(hours=1),
        late_join_s=None,
    )


def test_a_deal_dead_from_the_deal_shows_nothing_before_the_start(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    race = _dead_race(monkeypatch, starts_in=timedelta(hours=1))
    ann = make_client("ann")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    stored = Game.objects.get(id=game_id)
    assert stored.status == "blocked"  # what the join computed from the secret deal
    assert stored.finished_at is not None

    mine = ann.get(f"/api/v1/races/{race.id}").json()
    assert (mine["phase"], mine["game_status"]) == ("open", "not_started")
    listed = {r["id"]: r for r in ann.get("/api/v1/races?phase=open").json()["results"]}
    assert listed[str(race.id)]["game_status"] == "not_started"
    games = {g["id"]: g for g in ann.get("/api/v1/games").json()["results"]}
    assert (games[game_id]["status"], games[game_id]["finished_at"]) == ("not_started", None)
    (row,) = ann.get(f"/api/v1/races/{race.id}/standings").json()["standings"]
    assert (row["status"], row["finished"], row["rank"]) == ("not_started", False, None)
    # No counts either, as for a window entrant who has not started (a walkthrough saw
    # "1 / 0 / at the deal" here, read from the stored deal, and "-" in a window race).
    assert (row["cards_home"], row["moves"], row["elapsed_ms"]) == (None, None, None)

    pages = Client()
    pages.force_login(ann.user)  # type: ignore[attr-defined]
    lobby = pages.get("/").content.decode()
    live = pages.get(f"/races/{race.id}/live").content.decode()
    assert "not started yet" in lobby
    for html in (lobby, live):
        assert "blocked" not in html
        assert "Your game is over" not in html
        assert "See your game" not in html


def test_after_the_start_the_same_game_says_blocked(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: once the deal is in play, a dead deal is public to its player."""
    race = _dead_race(monkeypatch, starts_in=-timedelta(minutes=1))
    ann = make_client("ann")
    ann.post(f"/api/v1/races/{race.id}/join")
    assert ann.get(f"/api/v1/races/{race.id}").json()["game_status"] == "blocked"


def _window_game(make_client: Callable[..., APIClient]) -> tuple[Any, APIClient, Game]:
    """A running window race (30 s each), ``bob`` in it with his clock started."""
    now = timezone.now()
    race = race_create(
        name="Window",
        mode="window",
        time_limit_s=30,
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(hours=1),
    )
    bob = make_client("bob")
    race_join(race_id=race.id, player=bob.user)  # type: ignore[attr-defined]
    game = race_start(race_id=race.id, player=bob.user)  # type: ignore[attr-defined]
    return race, bob, game


def test_a_window_game_past_its_deadline_says_timed_out(
    make_client: Callable[..., APIClient],
) -> None:
    race, bob, game = _window_game(make_client)
    assert bob.get(f"/api/v1/races/{race.id}").json()["game_status"] == "playing"
    assert game.deadline is not None
    # The deadline passes (injected: the stored game is left as the sweeper would find it).
    Game.objects.filter(id=game.id).update(
        started_at=game.started_at - timedelta(seconds=31),
        deadline=game.deadline - timedelta(seconds=31),
    )
    game.refresh_from_db()
    assert game.status == "playing"
    assert game_status_seen(game) == "timed_out"
    assert bob.get(f"/api/v1/races/{race.id}").json()["game_status"] == "timed_out"
    (row,) = bob.get(f"/api/v1/races/{race.id}/standings").json()["standings"]
    assert (row["status"], row["finished"]) == ("timed_out", True)


def test_the_live_fragment_changes_with_the_language_and_a_deadline(
    make_client: Callable[..., APIClient],
) -> None:
    """Its ETag named neither the language nor the games past their own deadline, so a
    French request with the English ETag got a 304, and a deadline changed nothing."""
    race, bob, game = _window_game(make_client)
    pages = Client()
    pages.force_login(bob.user)  # type: ignore[attr-defined]
    url = f"/races/{race.id}/live"
    en = pages.get(url, HTTP_ACCEPT_LANGUAGE="en")
    tag = en["ETag"]
    assert pages.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=tag).status_code == 304
    fr = pages.get(url, HTTP_ACCEPT_LANGUAGE="fr", HTTP_IF_NONE_MATCH=tag)
    assert fr.status_code == 200
    assert fr["ETag"] != tag
    assert game.deadline is not None
    Game.objects.filter(id=game.id).update(deadline=game.deadline - timedelta(seconds=31))
    late = pages.get(url, HTTP_ACCEPT_LANGUAGE="en", HTTP_IF_NONE_MATCH=tag)
    assert late.status_code == 200
    assert "Your game is over:" in late.content.decode()


def test_undo_before_the_start_says_only_not_started(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Undo checked the stored status first: ``game_over (blocked)`` for a deal dead from
    the deal, ``nothing_to_undo`` for any other, before the race started."""
    now = timezone.now()
    answers = []
    for seed in (_dead_seed(), "alive-0"):
        assert (new_game("classic", seed=seed).status() == "blocked") is (seed != "alive-0")
        # As _dead_race: the dead deal of a race announced before race_seed's rule.
        monkeypatch.setattr("games.services.races.race_seed", lambda rules, s=seed: s)
        race = race_create(
            name=f"Undo {seed}",
            opens_at=now - timedelta(minutes=1),
            starts_at=now + timedelta(hours=1),
            ends_at=now + timedelta(hours=2),
            allow_undo=True,
        )
        ann = make_client(f"ann-{seed}")
        game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
        answer = ann.post(f"/api/v1/games/{game_id}/undo", {}, format="json")
        answers.append((answer.status_code, answer.json()["code"]))
    assert answers == [(409, "race_not_started")] * 2


def test_a_cancelled_race_shows_the_seed_its_games_show(
    make_client: Callable[..., APIClient],
) -> None:
    """An entrant's game of a cancelled race revealed the seed while the race itself said
    ``seed: null`` (found by an attack): both show it now, and nobody sees it before."""
    from games.services.races import race_cancel

    staff = make_client("org", staff=True)
    ann = make_client("ann")
    race = running_race(name="Called off")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    assert ann.get(f"/api/v1/races/{race.id}").json()["seed"] is None
    race_cancel(race_id=race.id)
    game = ann.get(f"/api/v1/games/{game_id}").json()
    assert game["deal"]["revealed"] is True
    for viewer in (ann, staff, APIClient()):
        assert viewer.get(f"/api/v1/races/{race.id}").json()["seed"] == game["deal"]["seed"]
