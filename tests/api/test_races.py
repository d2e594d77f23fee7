"""Races through the public API: announcement to results, deadlines, fairness, window mode."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import GameState, new_game
from games.engine.record import GameRecord
from games.models import Game, Move, Race, RaceEntry
from games.tasks import race_sweep
from tests.helpers import race_seed_ok

pytestmark = pytest.mark.django_db

CARD = re.compile(r"\b(?:[A2-9TJQK]|10)[CDHS]\b")


def iso(dt: Any) -> str:
    return str(dt.isoformat())


def create_race(staff: APIClient, **body: Any) -> dict[str, Any]:
    now = timezone.now()
    payload = {
        "name": "Monday sprint",
        "starts_at": iso(now - timedelta(seconds=1)),
        "ends_at": iso(now + timedelta(minutes=10)),
        "late_join_s": None,  # running already: joining stays open until the end
        **body,
    }
    resp = staff.post("/api/v1/races", payload, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


def expire(race_id: str) -> None:
    """Move the race's end (and every deadline) into the past, as the clock would.

    The instant comes from the race, not the wall clock: every race this is used on was
    created running (``create_race``: it started a second before it was created), so a
    second after its start is already past for the server's clock."""
    race = Race.objects.get(id=race_id)
    past = race.starts_at + timedelta(seconds=1)
    assert race.opens_at <= race.starts_at < past < race.ends_at
    starts = min(race.starts_at, past - timedelta(seconds=1))
    Race.objects.filter(id=race_id).update(
        ends_at=past, starts_at=starts, opens_at=min(race.opens_at, starts)
    )
    Game.objects.filter(race_entry__race_id=race_id).update(deadline=past)


def hidden_cards(game_id: str) -> set[str]:
    """Face-down reserve cards and stock cards of a game, from its snapshot."""
    state = Game.objects.get(id=game_id).state
    reserve = state["reserve"]
    face_down = set() if state["rules"]["reserve_face_up"] else set(reserve[:-1])
    return face_down | set(state["stock"])


def play_moves(client: APIClient, game_id: str, count: int, *, prefer_home: bool) -> list[str]:
    """Play up to ``count`` moves from the view's legal moves; returns them."""
    played: list[str] = []
    for _ in range(count):
        view = client.get(f"/api/v1/games/{game_id}").json()
        moves = view["legal_moves"]
        if not moves:
            break
        home = [m for m in moves if m.endswith(">f")]
        move = home[0] if (prefer_home and home) else moves[-1]
        resp = client.post(
            f"/api/v1/games/{game_id}/moves",
            {"move": move, "expected_move_number": view["move_number"]},
            format="json",
        )
        assert resp.status_code == 201, resp.json()
        played.append(move)
    return played


def test_only_staff_create_races(make_client: Callable[..., APIClient], anon: APIClient) -> None:
    now = timezone.now()
    body = {"name": "x", "starts_at": iso(now), "ends_at": iso(now + timedelta(minutes=1))}
    assert make_client("pat").post("/api/v1/races", body, format="json").status_code == 403
    assert anon.post("/api/v1/races", body, format="json").status_code == 401
    assert Race.objects.count() == 0


def test_race_creation_publishes_commitment_not_seed(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    race = create_race(staff, variant="draw-one")
    stored = Race.objects.select_related("deal").get(id=race["id"])
    seed = stored.deal.seed
    assert seed is not None
    assert re.fullmatch(r"[0-9a-f]{32}", seed)
    assert race["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    assert race["seed"] is None
    assert race["options"]["draw"] == 1
    assert seed not in json.dumps(race)


def test_bad_race_parameters_are_refused(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    later = iso(now + timedelta(seconds=60))
    cases: list[tuple[dict[str, Any], str]] = [
        ({"starts_at": iso(now), "ends_at": iso(now - timedelta(seconds=5))}, "invalid_race"),
        (
            {"mode": "window", "starts_at": iso(now), "ends_at": later},
            "invalid_race",
        ),
        (
            {"options": {"draw": 7}, "starts_at": iso(now), "ends_at": later},
            "invalid_options",
        ),
        (
            {
                "options": {"redeals": 2**31},
                "require_winnable": True,
                "starts_at": iso(now),
                "ends_at": later,
            },
            "invalid_options",
        ),
        (
            {"seed": "1", "starts_at": iso(now), "ends_at": later},
            "unknown_field",
        ),
    ]
    for body, code in cases:
        resp = staff.post("/api/v1/races", {"name": "r", **body}, format="json")
        assert resp.status_code == 400, body
        assert resp.json()["code"] == code
    assert Race.objects.count() == 0


def test_full_race_with_three_players(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    staff = make_client("org", staff=True)
    race = create_race(staff)
    rid = race["id"]
    # The property the end of this test needs (every game still playing at the close, so
    # each times out): tests/conftest.py gives in-process races such seeds.
    assert race_seed_ok(str(Race.objects.get(id=rid).deal.seed))
    players = {name: make_client(name) for name in ("ann", "ben", "cat")}
    games: dict[str, str] = {}
    for name, client in players.items():
        first = client.post(f"/api/v1/races/{rid}/join")
        again = client.post(f"/api/v1/races/{rid}/join")
        assert (first.status_code, again.status_code) == (201, 200)
        assert first.json()["game_id"] == again.json()["game_id"]
        games[name] = first.json()["game_id"]
    assert RaceEntry.objects.filter(race_id=rid).count() == 3
    # Everyone plays the same deal.
    views = {n: c.get(f"/api/v1/games/{games[n]}").json() for n, c in players.items()}
    assert len({json.dumps(v["tableau"]) + json.dumps(v["reserve"]) for v in views.values()}) == 1
    played = {
        "ann": play_moves(players["ann"], games["ann"], 40, prefer_home=True),
        "ben": play_moves(players["ben"], games["ben"], 3, prefer_home=False),
        "cat": [],
    }
    # Nobody sees another entrant's game.
    assert players["ben"].get(f"/api/v1/games/{games['ann']}").status_code == 404
    standings = anon.get(f"/api/v1/races/{rid}/standings").json()
    assert standings["ranking_rule"].startswith("Players who won come first")
    assert CARD.search(json.dumps(standings["standings"])) is None
    rows = {r["player"]: r for r in standings["standings"]}
    assert rows["ann"]["moves"] == len(played["ann"])
    assert rows["ben"]["moves"] == 3
    assert anon.get(f"/api/v1/races/{rid}/results").json()["code"] == "race_not_finished"

    expire(rid)
    # A move after the deadline is refused by the server clock, whatever the workers do.
    late = players["ben"].post(
        f"/api/v1/games/{games['ben']}/moves",
        {"move": "draw", "expected_move_number": 3},
        format="json",
    )
    assert late.status_code == 409
    assert late.json()["code"] == "race_closed"
    assert Move.objects.filter(game_id=games["ben"]).count() == 3

    race_sweep.apply()
    results = anon.get(f"/api/v1/races/{rid}/results").json()
    seed = Race.objects.get(id=rid).deal.seed
    assert results["seed"] == seed
    assert results["commitment_verified"] is True
    assert results["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    entries = {e["player"]: e for e in results["entries"]}
    for name in players:
        assert entries[name]["move_list"] == played[name]
        record: dict[str, Any] = {
            "format": "canfield-record",
            "version": 1,
            "seed": seed,
            "options": results["options"],
            "moves": played[name],
        }
        replayed = GameRecord.from_dict(record).replay()
        assert entries[name]["cards_home"] == replayed.cards_home
        assert entries[name]["casino_score"] == 5 * replayed.cards_home - 52
        assert entries[name]["status"] == "timed_out"
    # Ranks follow the rule: more cards home first; equal counts by time, then moves.
    ordered = sorted(
        entries.values(), key=lambda e: (-e["cards_home"], e["elapsed_ms"], e["moves"])
    )
    assert [e["rank"] for e in ordered] == sorted(e["rank"] for e in ordered)
    assert ordered[0]["rank"] == 1
    detail = anon.get(f"/api/v1/races/{rid}").json()
    assert (detail["status"], detail["seed"]) == ("finished", seed)
    # After the race the deal is public: an entrant's export replays.
    export = players["ann"].get(f"/api/v1/games/{games['ann']}/export").json()
    assert export["moves"] == played["ann"]


def test_no_hidden_card_or_seed_before_the_end(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    staff = make_client("org", staff=True)
    race = create_race(staff, mode="window", time_limit_s=300)
    rid = race["id"]
    seed = Race.objects.get(id=rid).deal.seed
    assert seed is not None
    ann = make_client("ann")
    responses = [
        anon.get("/api/v1/races"),
        anon.get("/api/v1/races?phase=running"),
        ann.get(f"/api/v1/races/{rid}"),
        ann.post(f"/api/v1/races/{rid}/join"),
        ann.post(f"/api/v1/races/{rid}/start"),
        ann.post(f"/api/v1/races/{rid}/start"),
        anon.get(f"/api/v1/races/{rid}/standings"),
        anon.get(f"/api/v1/races/{rid}/results"),
    ]
    game_id = responses[4].json()["id"]
    hidden = hidden_cards(game_id)
    assert len(hidden) == 12 + 34
    stock_card = Game.objects.get(id=game_id).state["stock"][7]
    responses += [
        ann.get(f"/api/v1/games/{game_id}"),
        ann.get(f"/api/v1/games/{game_id}/export"),
        ann.post(f"/api/v1/games/{game_id}/undo"),
        # Naming a hidden card: refused without echoing it.
        ann.post(f"/api/v1/games/{game_id}/moves", {"move": f"{stock_card}>t1"}, format="json"),
    ]
    assert responses[-1].json()["code"] == "illegal_move"
    for resp in responses:
        text = resp.content.decode() + json.dumps(dict(resp.items()))
        assert seed not in text
        assert not hidden & set(CARD.findall(text)), resp.content
    assert responses[7].status_code == 409  # results
    assert responses[9].json()["code"] == "deal_secret"  # export
    assert responses[10].json()["code"] == "undo_not_allowed"
    # A practice game cannot be started on the running race's deal.
    practice = ann.post("/api/v1/games", {"seed": seed}, format="json")
    assert practice.status_code == 409
    assert practice.json()["code"] == "deal_in_race"


def test_window_mode_personal_clock(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    race = create_race(staff, mode="window", time_limit_s=120)
    rid = race["id"]
    ann, ben = make_client("ann"), make_client("ben")
    assert ben.post(f"/api/v1/races/{rid}/join").json()["game_id"] is None
    started = ann.post(f"/api/v1/races/{rid}/start")
    assert started.status_code == 200
    game = Game.objects.get(id=started.json()["id"])
    assert game.deadline is not None
    assert abs((game.deadline - game.started_at).total_seconds() - 120) < 0.01
    assert ann.post(f"/api/v1/races/{rid}/start").json()["id"] == str(game.id)
    # Ann's own time runs out while the race is still open.
    # (Its deadline set to its own start, already past: no wall clock read here.)
    Game.objects.filter(id=game.id).update(deadline=game.started_at)
    late = ann.post(f"/api/v1/games/{game.id}/moves", {"move": "draw"}, format="json")
    assert late.json()["code"] == "race_closed"
    view = ann.get(f"/api/v1/games/{game.id}").json()
    assert (view["status"], view["legal_moves"]) == ("timed_out", [])
    expire(rid)
    race_sweep.apply()
    results = ann.get(f"/api/v1/races/{rid}/results").json()
    by_player = {e["player"]: e for e in results["entries"]}
    assert by_player["ann"]["rank"] == 1
    assert by_player["ben"]["status"] == "did_not_start"
    assert by_player["ben"]["rank"] is None


def test_scheduled_race_hides_the_deal_until_the_start(
    make_client: Callable[..., APIClient],
) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    race = create_race(
        staff,
        opens_at=iso(now - timedelta(seconds=5)),
        starts_at=iso(now + timedelta(minutes=5)),
        ends_at=iso(now + timedelta(minutes=10)),
    )
    ann = make_client("ann")
    joined = ann.post(f"/api/v1/races/{race['id']}/join").json()
    game_id = joined["game_id"]
    view = ann.get(f"/api/v1/games/{game_id}")
    assert view.status_code == 409
    assert view.json()["code"] == "race_not_started"
    assert CARD.search(view.content.decode()) is None
    move = ann.post(f"/api/v1/games/{game_id}/moves", {"move": "draw"}, format="json")
    assert move.json()["code"] == "race_not_started"
    assert ann.post(f"/api/v1/races/{race['id']}/start").json()["code"] == "race_not_started"
    assert Move.objects.count() == 0


def test_start_before_the_start_is_refused_and_joins_nobody(
    make_client: Callable[..., APIClient],
) -> None:
    """An attack's ``start`` before the start answered 409 but had joined the player (and
    taken a tournament's last place): a refusal changes nothing."""
    staff = make_client("org", staff=True)
    now = timezone.now()
    race = create_race(
        staff,
        mode="window",
        time_limit_s=60,
        opens_at=iso(now - timedelta(seconds=5)),
        starts_at=iso(now + timedelta(minutes=5)),
        ends_at=iso(now + timedelta(minutes=10)),
    )
    ann = make_client("ann")
    resp = ann.post(f"/api/v1/races/{race['id']}/start")
    assert (resp.status_code, resp.json()["code"]) == (409, "race_not_started")
    assert RaceEntry.objects.count() == 0
    assert ann.get(f"/api/v1/races/{race['id']}").json()["entrants"] == 0
    # Joining is still open, and a join is a join.
    assert ann.post(f"/api/v1/races/{race['id']}/join").status_code == 201
    assert RaceEntry.objects.count() == 1


def test_joining_outside_the_window_is_refused(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    upcoming = create_race(
        staff,
        opens_at=iso(now + timedelta(minutes=1)),
        starts_at=iso(now + timedelta(minutes=2)),
        ends_at=iso(now + timedelta(minutes=3)),
    )
    resp = make_client("ann").post(f"/api/v1/races/{upcoming['id']}/join")
    assert (resp.status_code, resp.json()["code"]) == (409, "race_not_open")
    assert RaceEntry.objects.count() == 0


def test_race_undo_only_when_allowed(make_client: Callable[..., APIClient]) -> None:
    staff = make_client("org", staff=True)
    strict = create_race(staff)
    lenient = create_race(staff, allow_undo=True)
    for race in (strict, lenient):  # a draw leaves the game playing, so undo is decided by
        assert race_seed_ok(str(Race.objects.get(id=race["id"]).deal.seed))  # the rule alone
    ann = make_client("ann")
    for race, expected in ((strict, 403), (lenient, 200)):
        gid = ann.post(f"/api/v1/races/{race['id']}/join").json()["game_id"]
        assert (
            ann.post(f"/api/v1/games/{gid}/moves", {"move": "draw"}, format="json").status_code
            == 201
        )
        resp = ann.post(f"/api/v1/games/{gid}/undo")
        assert resp.status_code == expected
        live = Move.objects.filter(game_id=gid, undone_at__isnull=True).count()
        if expected == 403:  # refused: the game is unchanged
            assert resp.json()["code"] == "undo_not_allowed"
            assert (live, Game.objects.get(id=gid).move_number) == (1, 1)
        else:
            assert (resp.json()["move_number"], live) == (0, 0)


def test_race_list_filters(make_client: Callable[..., APIClient], anon: APIClient) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    running = create_race(staff, name="running")
    upcoming = create_race(
        staff,
        name="upcoming",
        starts_at=iso(now + timedelta(minutes=1)),
        ends_at=iso(now + timedelta(minutes=2)),
        opens_at=iso(now),
    )
    done = create_race(staff, name="done")
    expire(done["id"])
    race_sweep.apply()

    def names(query: str) -> list[str]:
        return [r["name"] for r in anon.get(f"/api/v1/races{query}").json()["results"]]

    assert (running["phase"], upcoming["phase"]) == ("running", "open")
    # A phase filter lists the races whose phase field is one of the phases asked.
    assert names("?phase=running") == ["running"]
    assert names("?phase=open") == ["upcoming"]  # named so, but joinable: phase open
    assert names("?phase=upcoming") == []
    assert names("?phase=upcoming,open") == ["upcoming"]
    assert names("?phase=finished") == ["done"]
    assert sorted(names("?phase=open,running")) == ["running", "upcoming"]
    # Several phases are one comma-separated value: a repeated phase is refused (it was
    # read as one list of both, which a client could not count on).
    repeated = anon.get("/api/v1/races?phase=open&phase=finished").json()
    assert (repeated["code"], repeated["parameters"]) == ("repeated_query_parameter", ["phase"])
    assert sorted(names("")) == ["done", "running", "upcoming"]
    for bad, named in (("soon", "'soon'"), ("open,soon", "'soon'"), ("", "''")):
        problem = anon.get(f"/api/v1/races?phase={bad}").json()
        assert (problem["code"], named in problem["detail"]) == ("invalid_filter", True)


def test_state_of_a_raced_game_matches_engine(make_client: Callable[..., APIClient]) -> None:
    """The game of a race is dealt from the race's secret seed under its options."""
    staff = make_client("org", staff=True)
    race = create_race(staff, variant="storehouse")
    gid = make_client("ann").post(f"/api/v1/races/{race['id']}/join").json()["game_id"]
    deal = Race.objects.get(id=race["id"]).deal
    expected = new_game("storehouse", seed=deal.seed)
    assert GameState.from_dict(Game.objects.get(id=gid).state) == expected


def test_the_race_says_how_your_game_stands(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    """``game_status`` follows the viewer's own game: null before joining (and for anyone
    else), ``playing`` once joined, then how it ended; the race page reads it to stop
    offering "Play" for a game that is over."""
    staff = make_client("org", staff=True)
    rid = create_race(staff)["id"]
    ann, ben = make_client("ann"), make_client("ben")
    assert ann.get(f"/api/v1/races/{rid}").json()["game_status"] is None
    game_id = ann.post(f"/api/v1/races/{rid}/join").json()["game_id"]
    ben.post(f"/api/v1/races/{rid}/join")
    assert ann.get(f"/api/v1/races/{rid}").json()["game_status"] == "playing"
    assert ann.post(f"/api/v1/games/{game_id}/resign").status_code == 200
    mine = ann.get(f"/api/v1/races/{rid}").json()
    assert (mine["game_id"], mine["game_status"]) == (game_id, "resigned")
    assert ben.get(f"/api/v1/races/{rid}").json()["game_status"] == "playing"
    assert anon.get(f"/api/v1/races/{rid}").json()["game_status"] is None
    listed = {r["id"]: r for r in ann.get("/api/v1/races").json()["results"]}
    assert listed[rid]["game_status"] == "resigned"
