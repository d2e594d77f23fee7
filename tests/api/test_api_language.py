"""The API speaks English, and says so: ``Content-Language: en`` on every answer under
``/api/`` whatever ``Accept-Language`` asks, its texts (DRF's own field errors too) in
English; clients key on the stable ``code`` (README, "API").

A new user's pass found ``Content-Language: fr`` on an illegal move's problem whose
``detail`` was English, and DRF's own messages were translated.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

from tests.tournaments.factories import running_race

pytestmark = pytest.mark.django_db

FR: dict[str, Any] = {"HTTP_ACCEPT_LANGUAGE": "fr"}


def test_an_illegal_move_is_english_and_says_so(make_client: Callable[..., APIClient]) -> None:
    player = make_client("ann")
    game = player.post("/api/v1/games", {"seed": "1"}, format="json", **FR).json()
    answer = player.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "QH>f9"}, format="json", **FR
    )
    assert answer.status_code == 400
    assert answer["Content-Type"] == "application/problem+json"
    assert answer["Content-Language"] == "en"


def test_drf_field_errors_stay_english_under_another_language(
    make_client: Callable[..., APIClient],
) -> None:
    player = make_client("ann")
    answer = player.post("/api/v1/auth/password", {}, format="json", **FR)
    assert answer.status_code == 400
    assert answer["Content-Language"] == "en"
    errors = answer.json()["errors"]
    assert errors["current_password"] == ["This field is required."]


@pytest.mark.parametrize("language", ["fr", "de", "es"])
def test_every_kind_of_api_answer_is_content_language_en(language: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    race = running_race(name="Open")
    answers = {
        "list": client.get("/api/v1/races"),
        "one": client.get(f"/api/v1/races/{race.id}"),
        "not found": client.get("/api/v1/nowhere"),
        "unauthenticated": client.get("/api/v1/games"),
        "nul": client.get("/api/v1/races?phase=%00"),
        "schema": client.get("/api/v1/schema/"),
    }
    for name, answer in answers.items():
        assert answer["Content-Language"] == "en", name
    assert answers["unauthenticated"].json()["detail"] == (
        "Authentication credentials were not provided."
    )


def test_the_pages_still_answer_in_the_visitors_language() -> None:
    answer = Client(HTTP_ACCEPT_LANGUAGE="fr").get("/")
    assert answer["Content-Language"] == "fr"


@pytest.mark.django_db(transaction=True)
def test_an_event_stream_and_its_refusal_are_content_language_en() -> None:
    race = running_race(name="Streamed")

    async def go() -> tuple[Any, Any]:
        client = AsyncClient(headers={"Accept-Language": "fr"})
        missing = await client.get("/api/v1/races/00000000-0000-4000-8000-000000000000/events")
        stream = await client.get(f"/api/v1/races/{race.id}/events")
        it = stream.streaming_content.__aiter__()  # type: ignore[attr-defined]
        await asyncio.wait_for(it.__anext__(), 10)  # the snapshot
        await it.aclose()
        return missing, stream

    missing, stream = asyncio.run(go())
    assert missing.status_code == 404
    assert missing["Content-Language"] == "en"
    assert stream["Content-Type"].startswith("text/event-stream")
    assert stream["Content-Language"] == "en"


def test_a_refusal_before_django_is_content_language_en() -> None:
    """The WSGI guard's 415 (an unreadable ``Content-Type``) is answered before Django."""
    from canfield_site.wsgi import application

    seen: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]]) -> None:
        seen["status"], seen["headers"] = status, dict(headers)

    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": "/api/v1/races",
        "QUERY_STRING": "",
        "CONTENT_TYPE": "text/plain; charset=rot13",
        "HTTP_ACCEPT_LANGUAGE": "fr",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.input": None,
        "wsgi.url_scheme": "http",
    }
    body = b"".join(application(environ, start_response))
    assert seen["status"].startswith("415 ")
    assert json.loads(body)["code"] == "unsupported_media_type"
    assert seen["headers"]["Content-Language"] == "en"


def test_the_schema_says_the_language_of_its_lang_query() -> None:
    """``?lang=fr`` translates the schema's texts (enum labels): it said
    ``Content-Language: en`` on French text."""
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    french = client.get("/api/v1/schema/?format=json&lang=fr")
    assert french.status_code == 200
    assert "Terminé" in french.content.decode()
    assert french["Content-Language"] == "fr"
    assert client.get("/api/v1/schema/?format=json&lang=fr-ca")["Content-Language"] == "fr"
    english = client.get("/api/v1/schema/?format=json")
    assert "Terminé" not in english.content.decode()
    assert english["Content-Language"] == "en"
    assert client.get("/api/v1/schema/?lang=zz")["Content-Language"] == "en"
    refused = client.get("/api/v1/schema/?lang=fr&lang=de")
    assert refused.status_code == 400
    assert refused["Content-Language"] == "en"


@pytest.mark.parametrize("page", ["docs", "redoc"])
def test_the_docs_pages_say_the_language_of_their_lang_query(page: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    assert client.get(f"/api/v1/{page}/?lang=de")["Content-Language"] == "de"
    assert client.get(f"/api/v1/{page}/?lang=es")["Content-Language"] == "es"
    assert client.get(f"/api/v1/{page}/")["Content-Language"] == "en"
    assert client.options(f"/api/v1/{page}/?lang=de")["Content-Language"] == "en"
