# mypy: disable-error-code="no-untyped-call, assignment"
"""Fields whose meaning a client had to guess, each checked against what the server sends.

A record's ``variant`` was a bare nullable string (null for rules that are no preset's,
which the game view calls ``custom``), its ``seed`` null without saying when; the
problem's ``instance`` was "the request path" though it carries the query too; a seed
longer than 64 characters is ``validation_error`` while one with a wrong character is
``invalid_deal``, and the seed's description named neither.
"""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.api.test_schema import generate

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    data: dict[str, Any] = generate(tmp_path_factory.mktemp("schema"))
    return data


def test_a_records_variant_and_seed_say_when_they_are_null(
    schema: dict[str, Any], player: APIClient
) -> None:
    props = schema["components"]["schemas"]["RecordView"]["properties"]
    assert "null when they are no preset's" in props["variant"]["description"]
    assert "null for a game dealt from an explicit deck" in props["seed"]["description"]
    custom = player.post(
        "/api/v1/games", {"variant": "draw-one", "options": {"redeals": 2}, "seed": "7"}, "json"
    ).json()
    assert custom["deal"]["variant"] == "custom"
    player.post(f"/api/v1/games/{custom['id']}/resign")
    record = player.get(f"/api/v1/games/{custom['id']}/export").json()
    assert (record["variant"], record["seed"]) == (None, "7")
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    dealt = player.post("/api/v1/games", {"deck": deck}, "json").json()
    player.post(f"/api/v1/games/{dealt['id']}/resign")
    record = player.get(f"/api/v1/games/{dealt['id']}/export").json()
    assert (record["variant"], record["seed"]) == ("classic", None)


def test_a_problems_instance_is_the_path_with_its_query(
    schema: dict[str, Any], player: APIClient
) -> None:
    instance = schema["components"]["schemas"]["Problem"]["properties"]["instance"]
    assert "query" in instance["description"]
    assert player.get("/api/v1/races?phase=later").json()["instance"] == (
        "/api/v1/races?phase=later"
    )


def test_the_seed_says_which_code_refuses_which_seed(
    schema: dict[str, Any], player: APIClient
) -> None:
    seed = schema["components"]["schemas"]["GameStartInput"]["properties"]["seed"]
    assert "longer than 64 characters is 400 validation_error" in seed["description"]
    assert "another character is 400 invalid_deal" in seed["description"]
    long = player.post("/api/v1/games", {"seed": "1" * 65}, "json").json()
    assert long["code"] == "validation_error"
    spaced = player.post("/api/v1/games", {"seed": "a b"}, "json").json()
    assert spaced["code"] == "invalid_deal"


def _enum(schema: dict[str, Any], prop: dict[str, Any]) -> list[str]:
    ref = prop["allOf"][0]["$ref"] if "allOf" in prop else prop["$ref"]
    values: list[str] = schema["components"]["schemas"][ref.rsplit("/", 1)[1]]["enum"]
    return values


@pytest.mark.parametrize(
    ("component", "field", "values"),
    [
        ("GameSummary", "kind", ["practice", "race"]),
        (
            "StandingsView",
            "phase",
            ["upcoming", "open", "running", "closing", "finished", "cancelled"],
        ),
        (
            "TournamentRaceView",
            "phase",
            ["upcoming", "open", "running", "closing", "finished", "cancelled"],
        ),
        ("TournamentRaceView", "status", ["scheduled", "closing", "finished", "cancelled"]),
        (
            "MyRaceView",
            "phase",
            ["upcoming", "open", "running", "closing", "finished", "cancelled"],
        ),
        ("MyRaceView", "race_status", ["scheduled", "closing", "finished", "cancelled"]),
        ("TournamentView", "status", ["draft", "open", "finished", "cancelled"]),
        ("TournamentDetailView", "status", ["draft", "open", "finished", "cancelled"]),
        ("RaceView", "status", ["scheduled", "closing", "finished", "cancelled"]),
    ],
)
def test_a_field_with_a_fixed_set_of_values_lists_them(
    schema: dict[str, Any], component: str, field: str, values: list[str]
) -> None:
    """These were bare strings (the values only in prose, or nowhere: a game line's
    ``kind``, the standings' ``phase``), where the race view's same fields were enums."""
    prop = schema["components"]["schemas"][component]["properties"][field]
    assert _enum(schema, prop) == values


def test_a_problems_title_is_said_to_be_the_status_phrase(
    schema: dict[str, Any], player: APIClient
) -> None:
    """It said "short, human summary of the problem type"; every 409, whatever its code,
    is titled ``Conflict``."""
    title = schema["components"]["schemas"]["Problem"]["properties"]["title"]
    assert "reason phrase" in title["description"]
    game = player.post("/api/v1/games", {"seed": "1"}, "json").json()
    stale = player.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 3}, "json"
    ).json()
    secret = player.get(f"/api/v1/games/{game['id']}/export").json()
    assert (stale["code"], secret["code"]) == ("stale_move_number", "deal_secret")
    assert stale["title"] == secret["title"] == "Conflict"


def test_every_field_of_a_standings_line_says_what_it_is(schema: dict[str, Any]) -> None:
    """``finished`` had no description (is a blocked game finished? a not-started one?),
    nor ``cards_home`` and ``moves`` when they are null."""
    props = schema["components"]["schemas"]["StandingRow"]["properties"]
    assert [name for name, prop in props.items() if not prop.get("description")] == ["player"]
    assert "blocked with no undo left" in props["finished"]["description"]


@pytest.mark.parametrize(
    ("component", "field", "words"),
    [
        ("MoveResult", "number", "1 for the first"),
        ("MoveRow", "cards_home", "after it"),
        ("JoinView", "created", "(201)"),
        ("JoinView", "game_id", "a window race at your POST /races/{id}/start"),
        ("ResultEntry", "move_list", "did not take back"),
        ("ResultsView", "commitment_verified", "check it yourself"),
    ],
)
def test_the_fields_a_race_client_reads_say_what_they_are(
    schema: dict[str, Any], component: str, field: str, words: str
) -> None:
    """Each had no description (a window race's join gives no game yet: why?)."""
    prop = schema["components"]["schemas"][component]["properties"][field]
    assert words in prop["description"]
