"""Every API endpoint takes exactly the query parameters it declares, each once (api.query).

``GET /api/v1/races?phse=running`` listed every race (the typo was ignored) and
``?phase=running&phase=open`` was read as one filter of both; ``?format=bogus`` was a
404 and ``?format=json`` silently accepted on endpoints that declare no ``format``.
Now an undeclared parameter is ``400 unknown_query_parameter`` and a repeated one
``400 repeated_query_parameter``, naming the parameter and listing the accepted ones.
The OpenAPI schema declares exactly the accepted parameters: the walk below sends, to
every operation of the served schema, each declared parameter (accepted), each declared
parameter twice (repeated) and an undeclared one (unknown, ``accepted`` being the
schema's list).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client
from rest_framework.test import APIClient

from api import streams as api_streams

pytestmark = pytest.mark.django_db

OURS = {"unknown_query_parameter", "repeated_query_parameter"}
#: An id that names nothing: the query is checked before anything is looked up.
NO_ID = "00000000-0000-4000-8000-000000000000"
RACES_ACCEPT = ["cursor", "mode", "page_size", "phase"]


def _problem(resp: Any) -> dict[str, Any]:
    assert resp["Content-Type"] == "application/problem+json", resp.content
    return dict(resp.json())


def test_an_unknown_parameter_is_refused_not_ignored(anon: APIClient) -> None:
    resp = anon.get("/api/v1/races?phse=running")
    assert resp.status_code == 400
    problem = _problem(resp)
    assert problem["code"] == "unknown_query_parameter"
    assert problem["parameters"] == ["phse"]
    assert problem["accepted"] == RACES_ACCEPT
    assert problem["detail"] == (
        "Unknown query parameter(s) 'phse': this endpoint does not declare it. "
        "It accepts cursor, mode, page_size, phase."
    )


def test_a_repeated_parameter_is_refused_not_merged(anon: APIClient) -> None:
    resp = anon.get("/api/v1/races?phase=running&phase=open")
    assert resp.status_code == 400
    problem = _problem(resp)
    assert problem["code"] == "repeated_query_parameter"
    assert (problem["parameters"], problem["accepted"]) == (["phase"], RACES_ACCEPT)
    assert problem["detail"].startswith("Query parameter(s) 'phase' given more than once")
    # The one way to ask for several phases.
    assert anon.get("/api/v1/races?phase=running,open").status_code == 200


def test_several_unknown_parameters_are_all_named_and_win_over_a_repeat(
    anon: APIClient,
) -> None:
    problem = anon.get("/api/v1/races?zz=1&phase=open&phase=running&aa=2&aa=3").json()
    assert (problem["code"], problem["parameters"]) == ("unknown_query_parameter", ["aa", "zz"])
    assert "does not declare them" in problem["detail"]


def test_an_endpoint_without_parameters_says_it_takes_none(anon: APIClient) -> None:
    problem = anon.get(f"/api/v1/races/{NO_ID}?verbose=1").json()
    assert (problem["code"], problem["accepted"]) == ("unknown_query_parameter", [])
    assert problem["detail"].endswith("It accepts no query parameters.")
    # Also a name with no value, and an empty name.
    assert anon.get("/api/v1/variants?verbose").json()["parameters"] == ["verbose"]
    assert anon.get("/api/v1/variants?=1").json()["parameters"] == [""]


def test_a_post_refuses_query_parameters_before_it_changes_anything(
    make_client: Callable[..., APIClient],
) -> None:
    from games.models import Game

    player = make_client("ann")
    resp = player.post("/api/v1/games?seed=5", {"seed": "7"}, format="json")
    assert resp.status_code == 400
    assert _problem(resp)["code"] == "unknown_query_parameter"
    assert not Game.objects.exists()


def test_authentication_and_method_come_first(anon: APIClient) -> None:
    """The check runs after DRF's own (401, 403, 429) and never hides a 405."""
    assert anon.get("/api/v1/games?zz=1").json()["code"] == "not_authenticated"
    resp = anon.delete("/api/v1/races?zz=1")
    assert (resp.status_code, resp.json()["code"]) == (405, "method_not_allowed")


@pytest.mark.parametrize("value", ["json", "api", "bogus"])
def test_format_is_no_parameter_of_the_data_endpoints(anon: APIClient, value: str) -> None:
    """The format is chosen by ``Accept``; ``?format=bogus`` was a 404 ``not_found``."""
    resp = anon.get(f"/api/v1/races?format={value}")
    assert resp.status_code == 400
    assert _problem(resp)["code"] == "unknown_query_parameter"


def test_the_schema_and_its_viewers_take_their_own_parameters() -> None:
    client = Client()
    assert client.get("/api/v1/schema?format=json")["Content-Type"].startswith(
        "application/vnd.oai.openapi+json"
    )
    assert client.get("/api/v1/schema?lang=fr&format=yaml").status_code == 200
    for url, accepted in (
        ("/api/v1/schema?formt=json", ["format", "lang"]),
        ("/api/v1/docs/?version=2", ["lang"]),
        ("/api/v1/redoc/?x=1", ["lang"]),
    ):
        resp = client.get(url)
        assert resp.status_code == 400, url
        problem = _problem(resp)
        assert (problem["code"], problem["accepted"]) == ("unknown_query_parameter", accepted)
    resp = client.get("/api/v1/schema?format=json&format=yaml")
    assert _problem(resp)["code"] == "repeated_query_parameter"
    assert client.get("/api/v1/docs/?lang=de").status_code == 200
    assert client.get("/api/v1/redoc/?lang=de").status_code == 200


def test_whole_lists_keep_not_paginated_and_refuse_the_rest(anon: APIClient) -> None:
    assert anon.get("/api/v1/leaderboards?cursor=x").json()["code"] == "not_paginated"
    problem = anon.get("/api/v1/leaderboards?other=1").json()
    assert (problem["code"], problem["accepted"]) == ("unknown_query_parameter", [])


# ------------------------------------------------------------------ the schema's walk


def _sample(param: dict[str, Any]) -> str:
    schema = param.get("schema", {})
    items = schema.get("items", {})
    enum = schema.get("enum") or items.get("enum")
    if enum:
        return str(enum[0])
    if schema.get("type") == "integer":
        return "1"
    return "x"


def _operations(schema: dict[str, Any]) -> list[tuple[str, str, list[dict[str, Any]]]]:
    ops = []
    for path, item in schema["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            declared = [p for p in op.get("parameters", []) if p.get("in") == "query"]
            ops.append((method, path, declared))
    return ops


def _url(path: str) -> str:
    for name in ("game_id", "race_id", "tournament_id"):
        path = path.replace("{" + name + "}", NO_ID)
    return path.replace("{pool}", "classic").replace("{username}", "nobody")


def _send(client: APIClient, streams: Callable[[str], Any], method: str, url: str) -> Any:
    if url.split("?")[0].endswith("/events"):  # the streams: served by ASGI only
        return streams(url)
    return getattr(client, method)(url, format="json")


def test_every_operation_accepts_exactly_what_the_schema_declares(
    make_client: Callable[..., APIClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The streams read the database in a worker thread, on a connection that cannot see
    # this test's transaction: here they read it in the test's thread.
    async def same_thread(fn: Callable[[], Any]) -> Any:
        return await sync_to_async(fn, thread_sensitive=True)()

    monkeypatch.setattr(api_streams, "_db", same_thread)
    served = APIClient().get("/api/v1/schema?format=json").json()
    # An organiser: every permission check passes, so the query check is reached.
    client = make_client("org", staff=True)
    token: str = client.token  # type: ignore[attr-defined]
    streams = functools.partial(
        async_to_sync(AsyncClient().get), headers={"Authorization": f"Token {token}"}
    )
    ops = _operations(served)
    assert len(ops) >= 40
    with_params = 0
    for method, path, declared in ops:
        url = _url(path)
        names = sorted(p["name"] for p in declared)
        # Undeclared: refused, and the accepted list is the schema's.
        resp = _send(client, streams, method, f"{url}?undeclared_name=1")
        assert resp.status_code == 400, (method, path, resp.content)
        problem = _problem(resp)
        assert problem["code"] == "unknown_query_parameter", (method, path)
        assert problem["accepted"] == names, (method, path)
        assert problem["parameters"] == ["undeclared_name"]
        with_params += bool(declared)
        for param in declared:
            pair = f"{param['name']}={_sample(param)}"
            # Declared: accepted (the answer may refuse the value, never the name).
            once = _send(client, streams, method, f"{url}?{pair}")
            code = once.json().get("code") if once.status_code >= 400 else None
            assert code not in OURS, (method, path, pair, once.content)
            # Declared but repeated: refused.
            twice = _send(client, streams, method, f"{url}?{pair}&{pair}")
            assert twice.status_code == 400, (method, path, pair)
            assert _problem(twice)["code"] == "repeated_query_parameter", (method, path, pair)
            assert _problem(twice)["parameters"] == [param["name"]]
    assert with_params >= 10  # the lists, the solution and the three streams


def test_every_api_view_is_checked() -> None:
    """Every DRF view under /api/v1/ inherits the check (a new view cannot forget it)."""
    from django.urls import URLPattern, URLResolver, get_resolver
    from rest_framework.views import APIView

    from api.query import ApiView

    found = []

    def walk(patterns: list[URLPattern | URLResolver]) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                walk(p.url_patterns)
            else:
                cls = getattr(p.callback, "cls", None)
                if cls is not None and issubclass(cls, APIView):
                    found.append(cls)

    walk(get_resolver().url_patterns)
    assert len(found) >= 35
    assert [c.__name__ for c in found if not issubclass(c, ApiView)] == []
