# mypy: disable-error-code="no-untyped-call, assignment"
"""The event streams' schema says what they answer.

The schema promised a ``406 not_acceptable`` on each stream, as on every other
operation, but a stream ignores ``Accept`` and answers ``200``; its ``standings`` event's
``oldest_change_ms``/``latest_change_ms`` were "server times in ms" (every other time
on the wire is ISO 8601: these are milliseconds since the Unix epoch); the headers it
named (``Cache-Control: no-cache``) were fewer than it sends; ``last_event_id`` in a
snapshot was not described at all.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.test import AsyncClient, override_settings

from tests.api.test_schema import generate
from tests.tournaments.factories import running_race

STREAMS = (
    "/api/v1/races/{race_id}/events",
    "/api/v1/tournaments/{tournament_id}/events",
    "/api/v1/games/{game_id}/events",
)


@pytest.fixture(scope="module")
def schema(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    data: dict[str, Any] = generate(tmp_path_factory.mktemp("schema"))
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("path", STREAMS)
def test_a_stream_promises_no_406(schema: dict[str, Any], path: str) -> None:
    op = schema["paths"][path]["get"]
    assert "406" not in op["responses"]
    assert "ignores `Accept`" in op["description"]


@pytest.mark.django_db
def test_the_stream_descriptions_say_units_headers_and_the_snapshot_id(
    schema: dict[str, Any],
) -> None:
    race = schema["paths"][STREAMS[0]]["get"]
    assert "milliseconds since the Unix epoch" in race["responses"]["200"]["description"]
    text = race["description"]
    assert "`Cache-Control: private, no-cache, no-transform`" in text
    assert "`Vary: Authorization`" in text
    assert "`last_event_id` in a `snapshot` is the number of the `Last-Event-ID`" in text


@pytest.mark.django_db(transaction=True)
def test_a_stream_asked_for_xml_still_streams() -> None:
    race = running_race(name="accept xml")

    async def main() -> None:
        response: Any = await AsyncClient().get(
            f"/api/v1/races/{race.id}/events", headers={"Accept": "application/xml"}
        )
        try:
            assert response.status_code == 200
            assert response["Content-Type"].startswith("text/event-stream")
            assert response["Cache-Control"] == "private, no-cache, no-transform"
            first = await asyncio.wait_for(response.streaming_content.__aiter__().__anext__(), 5)
            assert b"event: snapshot" in bytes(first)
        finally:
            await response.streaming_content.aclose()

    with override_settings(LIVE_REDIS_URL=""):
        asyncio.run(main())
