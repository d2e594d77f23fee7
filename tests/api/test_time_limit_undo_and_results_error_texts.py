"""API error texts from a new user's pass: every field error a sentence, an undo refusal
that says why, and ``409 race_not_finished`` telling when to ask again (the race's end
and ``Retry-After``), as ``race_not_started`` tells the start."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.selectors.races import race_results
from games.services.errors import RaceNotFinished
from games.services.races import race_create
from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

#: The server's clock in these tests (:func:`frozen`).
NOW = datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)


@pytest.fixture
def frozen(monkeypatch: pytest.MonkeyPatch) -> datetime:
    """The server's clock stands at ``NOW`` (every ``timezone.now()`` reads it)."""
    monkeypatch.setattr(timezone, "now", lambda: NOW)
    return NOW


def test_the_time_limit_field_error_is_a_sentence(
    frozen: datetime, make_client: Callable[..., APIClient]
) -> None:
    org = make_client("org", staff=True)
    body = {
        "name": "Sprint",
        "starts_at": (NOW + timedelta(minutes=5)).isoformat(),
        "ends_at": (NOW + timedelta(minutes=15)).isoformat(),
        "time_limit_s": 5,
    }
    errors = org.post("/api/v1/races", body, format="json").json()["errors"]
    assert errors["time_limit_s"] == [
        "A scheduled race lasts from starts_at to ends_at (600 s) for every entrant: leave "
        "time_limit_s out (or use mode window for a time limit per entrant)."
    ]


def test_an_undo_refused_by_the_race_says_why(make_client: Callable[..., APIClient]) -> None:
    ann = make_client("ann")
    race = running_race(name="No undo", allow_undo=False)
    game_id = ann.post(f"/api/v1/races/{race.id}/join").json()["game_id"]
    ann.post(f"/api/v1/games/{game_id}/moves", {"move": "draw"}, format="json")
    answer = ann.post(f"/api/v1/games/{game_id}/undo")
    assert answer.status_code == 403
    assert (answer.json()["code"], answer.json()["detail"]) == (
        "undo_not_allowed",
        "Undo is not allowed in this game: its race does not allow undo (allow_undo).",
    )


def test_results_before_the_end_say_when_with_retry_after(frozen: datetime) -> None:
    race = race_create(
        name="Long",
        opens_at=NOW - timedelta(minutes=2),
        starts_at=NOW - timedelta(minutes=1),
        ends_at=NOW + timedelta(seconds=90, milliseconds=400),
        late_join_s=None,
    )
    answer = APIClient().get(f"/api/v1/races/{race.id}/results")
    assert answer.status_code == 409
    body = answer.json()
    assert body["code"] == "race_not_finished"
    assert body["ends_at"] == "2030-01-02T03:05:35.400000Z"
    assert "2030-01-02T03:05:35.400000Z" in body["detail"]
    assert answer["Retry-After"] == "91"  # 90.4 s, rounded up
    assert body["retry_after"] == 91
    # With the clock passed in: the seconds until the end, rounded up; at least 1 after it.
    end = body["ends_at"]
    with pytest.raises(RaceNotFinished) as before:
        race_results(race=race, now=NOW + timedelta(seconds=30))
    assert before.value.extra == {"ends_at": end, "retry_after": 61}
    with pytest.raises(RaceNotFinished) as after:
        race_results(race=race, now=race.ends_at + timedelta(seconds=30))
    assert after.value.extra["retry_after"] == 1


def test_the_schema_documents_the_end_and_the_header() -> None:
    schema = APIClient().get("/api/v1/schema/?format=json").json()
    op = schema["paths"]["/api/v1/races/{race_id}/results"]["get"]
    conflict = op["responses"]["409"]
    assert "Retry-After" in conflict["headers"]
    ref = conflict["content"]["application/problem+json"]["schema"]["$ref"].rsplit("/", 1)[1]
    props = schema["components"]["schemas"][ref]["properties"]
    assert props["ends_at"]["format"] == "date-time"
    assert props["retry_after"]["type"] == "integer"
