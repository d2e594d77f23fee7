"""A new user's report on the REST API: cancelled races, a scheduled race's time limit,
error wording, starting a race one never joined, the end of an event stream, a
disallowed ``Host`` (each test failed on the code before its fix)."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.test import AsyncClient, Client
from django.utils import timezone
from rest_framework.test import APIClient

from games.services.races import race_cancel, race_create
from tests.tournaments.factories import TournamentFactory, running_race

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------------ a cancelled race


def test_a_cancelled_race_says_no_results_will_come(make_client: Callable[..., APIClient]) -> None:
    """Results answered ``409 race_not_finished`` ("published when the race is finished")
    and the rating ``not_finished``: a polling client waited for ever."""
    ann = make_client("ann")
    race = running_race(name="Called off")
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    ann.post(f"/api/v1/games/{game_id}/moves", {"move": "draw"}, format="json")
    bob = make_client("bob")
    bob.post(f"/api/v1/races/{race.id}/join")
    race_cancel(race_id=race.id)

    anon = APIClient()
    results = anon.get(f"/api/v1/races/{race.id}/results")
    assert results.status_code == 409
    assert results.json()["code"] == "race_cancelled"
    assert "never" in results.json()["detail"]
    rating = anon.get(f"/api/v1/races/{race.id}/rating").json()
    assert (rating["status"], rating["reason"]) == ("not_rated", "cancelled")
    # Nobody was ranked; every line is final.
    standings = anon.get(f"/api/v1/races/{race.id}/standings").json()
    assert standings["phase"] == "cancelled"
    assert [(r["player"], r["rank"], r["finished"]) for r in standings["standings"]] == [
        ("ann", None, True),
        ("bob", None, True),
    ]
    assert {r["status"] for r in standings["standings"]} == {
        "cancelled"
    }  # ended by the cancellation, not the clock


def test_a_cancelled_window_race_lists_who_never_started(
    make_client: Callable[..., APIClient],
) -> None:
    ann = make_client("ann")
    race = running_race(name="Window", mode="window", time_limit_s=60)
    ann.post(f"/api/v1/races/{race.id}/join")
    race_cancel(race_id=race.id)
    rows = APIClient().get(f"/api/v1/races/{race.id}/standings").json()["standings"]
    assert rows == [
        {
            "rank": None,
            "player": "ann",
            "cards_home": None,
            "moves": None,
            "elapsed_ms": None,
            "finished": True,
            "status": "did_not_start",
        }
    ]


# ------------------------------------------------------------------ a scheduled race's time limit


def _race_body(**kw: object) -> dict[str, object]:
    now = timezone.now()
    return {
        "name": "Sprint",
        "starts_at": (now + timedelta(minutes=5)).isoformat(),
        "ends_at": (now + timedelta(minutes=15)).isoformat(),
        **kw,
    }


def test_a_scheduled_race_refuses_a_time_limit_it_would_ignore(
    make_client: Callable[..., APIClient],
) -> None:
    org = make_client("org", staff=True)
    resp = org.post("/api/v1/races", _race_body(mode="scheduled", time_limit_s=5), format="json")
    assert resp.status_code == 400
    body = resp.json()
    assert body["code"] == "validation_error"
    assert list(body["errors"]) == ["time_limit_s"]
    assert "600 s" in body["errors"]["time_limit_s"][0]
    # The span itself, or nothing, is accepted.
    same = org.post("/api/v1/races", _race_body(time_limit_s=600), format="json")
    assert same.status_code == 201, same.json()
    assert same.json()["time_limit_s"] == 600
    assert org.post("/api/v1/races", _race_body(), format="json").json()["time_limit_s"] == 600


# ------------------------------------------------------------------ wording


def test_a_bad_option_value_is_written_in_json(player: APIClient) -> None:
    resp = player.post("/api/v1/games", {"options": {"draw": True}}, format="json")
    assert resp.status_code == 400
    assert resp.json()["detail"].startswith("Invalid value true for option 'draw'")
    resp = player.post("/api/v1/games", {"options": {"draw": "x"}}, format="json")
    assert resp.json()["detail"].startswith("Invalid value \"x\" for option 'draw'")


def test_an_endpoint_without_fields_says_so(player: APIClient) -> None:
    game = player.post("/api/v1/games", {"seed": "1"}, format="json").json()
    resp = player.post(f"/api/v1/games/{game['id']}/resign", {"extra": 1}, format="json")
    assert resp.status_code == 400
    assert resp.json()["code"] == "unknown_field"
    assert resp.json()["detail"] == (
        "Unknown field(s): extra. This endpoint takes no body fields: send no body, or {}."
    )


def test_a_full_tournament_of_one_says_player() -> None:
    from games.services.errors import TournamentFull
    from games.services.standings import tournament_admit
    from tests.factories import create_user

    t: Any = TournamentFactory(max_entrants=1)  # type: ignore[no-untyped-call]
    tournament_admit(tournament_id=t.id, player=create_user("ann"))
    with pytest.raises(TournamentFull, match=r"full \(1 player\)$"):
        tournament_admit(tournament_id=t.id, player=create_user("bob"))


def test_race_not_started_writes_its_time_as_the_json_fields_do(
    make_client: Callable[..., APIClient],
) -> None:
    ann = make_client("ann")
    now = timezone.now()
    race = race_create(
        name="Later",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(hours=1),
        ends_at=now + timedelta(hours=2),
    )
    starts_at = ann.get(f"/api/v1/races/{race.id}").json()["starts_at"]
    assert starts_at.endswith("Z")
    resp = ann.post(f"/api/v1/races/{race.id}/start")
    assert resp.json()["code"] == "race_not_started"
    assert resp.json()["detail"] == f"The race starts at {starts_at}."


def test_problem_bodies_from_outside_drf_are_written_as_drf_writes_them(
    player: APIClient,
) -> None:
    """The 404 handler, the middleware and Django's handlers wrote ``{"type": "...",
    ...}`` with spaces; DRF's views write compact JSON."""
    from_drf = player.post("/api/v1/games", {"nope": 1}, format="json")
    from_handler = player.get("/api/v1/no-such-thing")
    from_host = Client(HTTP_HOST="evil.example").get("/api/v1/health")
    for resp in (from_drf, from_handler, from_host):
        assert resp["Content-Type"] == "application/problem+json"
        body = resp.content.decode()
        assert body == json.dumps(json.loads(body), separators=(",", ":"), ensure_ascii=False)
    assert from_host.status_code == 400


# ------------------------------------------------------------ starting a race one never joined


def test_starting_a_race_one_never_joined_says_not_entered(
    make_client: Callable[..., APIClient],
) -> None:
    """It answered ``409 race_not_open`` "joining closed at ...": true, but the caller
    asked to start, and the reason is that they are not entered."""
    now = timezone.now()
    race = race_create(
        name="Closed doors",
        mode="window",
        time_limit_s=60,
        opens_at=now - timedelta(minutes=3),
        starts_at=now - timedelta(minutes=2),
        ends_at=now + timedelta(minutes=5),
        late_join_s=30,
        now=now - timedelta(minutes=3),  # announced when joining opened
    )
    ann = make_client("ann")
    resp = ann.post(f"/api/v1/races/{race.id}/start")
    assert resp.status_code == 403
    assert resp.json()["code"] == "not_entered"
    assert resp.json()["detail"].startswith("You are not entered in this race")
    assert not race.entries.exists()
    race_cancel(race_id=race.id)
    again = ann.post(f"/api/v1/races/{race.id}/start")
    assert (again.status_code, again.json()["code"]) == (403, "not_entered")
    assert "(the race is cancelled)" in again.json()["detail"]


def test_starting_a_race_before_joining_opens_is_still_race_not_open(
    make_client: Callable[..., APIClient],
) -> None:
    now = timezone.now()
    race = race_create(
        name="Not yet",
        opens_at=now + timedelta(minutes=1),
        starts_at=now + timedelta(minutes=2),
        ends_at=now + timedelta(minutes=5),
    )
    resp = make_client("ann").post(f"/api/v1/races/{race.id}/start")
    assert (resp.status_code, resp.json()["code"]) == (409, "race_not_open")


# ------------------------------------------------------------------ the end of an event stream


@pytest.mark.django_db(transaction=True)
def test_a_reconnect_after_the_end_answers_204_without_a_content_type() -> None:
    """It carried Django's default ``Content-Type: text/html`` with no body."""
    from asgiref.sync import async_to_sync

    race = running_race(name="Over")
    race_cancel(race_id=race.id)
    get = async_to_sync(AsyncClient().get)
    resp = get(f"/api/v1/races/{race.id}/events", headers={"Last-Event-ID": "3.end"})
    assert resp.status_code == 204
    assert "Content-Type" not in resp
    assert resp.content == b""


# ------------------------------------------------------------------ a disallowed Host


def test_a_disallowed_host_logs_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="django.security.DisallowedHost"):
        resp = Client(HTTP_HOST="evil.example").get("/api/v1/health")
    assert resp.status_code == 400
    assert resp.json()["code"] == "bad_request"
    records = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert len(records) == 1
    assert records[0].exc_info is None
    assert "evil.example" in records[0].getMessage()
    formatted = logging.Formatter().format(records[0])
    assert "Traceback" not in formatted
    assert "\n" not in formatted


# ------------------------------------------------------------------ drafts tell nothing


def test_organiser_endpoints_answer_a_player_alike_for_a_draft_and_a_made_up_id(
    player: APIClient,
) -> None:
    """As the README says: 403 before the tournament is looked up, so a player cannot
    tell a draft from a published tournament or from an id that names nothing."""
    import uuid

    from games.models import Tournament

    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)  # type: ignore[no-untyped-call]
    public: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    ids = [draft.id, public.id, uuid.uuid4()]
    for action in ("rescore", "races"):
        answers = [
            (r.status_code, r.json()["code"], r.json()["detail"])
            for r in (player.post(f"/api/v1/tournaments/{t}/{action}", {}) for t in ids)
        ]
        assert answers[0][:2] == (403, "permission_denied")
        assert answers == [answers[0]] * 3
    # And the reads: 404 for the draft as for the made-up id.
    for suffix in ("", "/standings", "/me"):
        codes = [player.get(f"/api/v1/tournaments/{t}{suffix}").status_code for t in ids]
        assert codes[0] == codes[2] == 404
