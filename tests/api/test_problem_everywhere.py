"""Every answer under /api/v1/ is problem+json, whoever refuses it (issue 12 item 5).

Unknown paths and malformed ids under every HTTP method, for an anonymous
client, a token client and a browser session with CSRF checks on; CSRF
failures; a ``Host`` outside ``ALLOWED_HOSTS`` (``DisallowedHost``), with DEBUG
off and on; and every known endpoint under every method (any 4xx/5xx it gives
is problem+json).
"""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.test import Client

from games.services.tokens import token_issue
from tests.factories import create_user

pytestmark = pytest.mark.django_db

METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"]
SOME_ID = uuid.UUID(int=12345)

UNKNOWN_PATHS = [
    "/api/v1/nope",
    "/api/v1/nope/",
    "/api/v1/games/",
    "/api/v1/games/not-a-uuid",
    "/api/v1/games/12/moves",
    "/api/v1/games/not-a-uuid/undo",
    f"/api/v1/games/{SOME_ID}/nope",
    "/api/v1/races/%01/join",
    "/api/v1/races/../../admin/",
    "/api/v1/tournaments/x/standings",
    f"/api/v1/tournaments/{SOME_ID}/races/extra",
    "/api/v1/health/extra",
    "/api/v2/games",
    "/api/",
]

KNOWN_PATHS = [
    "/api/v1/health",
    "/api/v1/auth/register",
    "/api/v1/auth/token",
    "/api/v1/variants",
    "/api/v1/games",
    f"/api/v1/games/{SOME_ID}",
    f"/api/v1/games/{SOME_ID}/moves",
    f"/api/v1/games/{SOME_ID}/undo",
    f"/api/v1/games/{SOME_ID}/resign",
    f"/api/v1/games/{SOME_ID}/export",
    f"/api/v1/games/{SOME_ID}/solution",
    "/api/v1/races",
    f"/api/v1/races/{SOME_ID}",
    f"/api/v1/races/{SOME_ID}/join",
    f"/api/v1/races/{SOME_ID}/start",
    f"/api/v1/races/{SOME_ID}/standings",
    f"/api/v1/races/{SOME_ID}/results",
    "/api/v1/tournaments",
    f"/api/v1/tournaments/{SOME_ID}",
    f"/api/v1/tournaments/{SOME_ID}/standings",
    f"/api/v1/tournaments/{SOME_ID}/me",
    f"/api/v1/tournaments/{SOME_ID}/races",
    f"/api/v1/tournaments/{SOME_ID}/rescore",
    # The rest of api/urls.py but the event streams (an open stream never ends).
    "/api/v1/auth/logout",
    "/api/v1/auth/logout-all",
    "/api/v1/auth/password",
    f"/api/v1/games/{SOME_ID}/hint",
    f"/api/v1/races/{SOME_ID}/standings.csv",
    f"/api/v1/races/{SOME_ID}/rating",
    f"/api/v1/tournaments/{SOME_ID}/standings.csv",
    f"/api/v1/tournaments/{SOME_ID}/races.csv",
    "/api/v1/leaderboards",
    "/api/v1/leaderboards/classic",
    "/api/v1/players/walker",
    "/api/v1/players/walker/history",
    "/api/v1/schema",
    "/api/v1/docs",
    "/api/v1/redoc",
    "/api/v1/redoc/redoc.standalone.js",
]


def _clients() -> dict[str, Client]:
    anonymous = Client(enforce_csrf_checks=True)
    user = create_user("walker")
    token = Client(
        enforce_csrf_checks=True,
        HTTP_AUTHORIZATION=f"Token {token_issue(user=user)[0]}",
    )
    session = Client(enforce_csrf_checks=True)
    session.force_login(user)
    return {"anonymous": anonymous, "token": token, "session": session}


def _problem(response: Any, method: str) -> dict[str, Any]:
    assert response["Content-Type"] == "application/problem+json", (
        method,
        response.status_code,
        response.content[:200],
    )
    if method == "HEAD":
        return {}
    body: dict[str, Any] = json.loads(response.content)
    assert body["status"] == response.status_code
    assert body["type"].endswith(body["code"])
    return body


def test_every_method_on_unknown_paths_is_a_problem_404() -> None:
    for who, client in _clients().items():
        for path in UNKNOWN_PATHS:
            for method in METHODS:
                response = client.generic(
                    method, path, data=b'{"move": "draw"}', content_type="application/json"
                )
                assert response.status_code == 404, (who, method, path, response.status_code)
                body = _problem(response, method)
                if body:
                    assert body["code"] == "not_found"


def test_every_method_on_known_paths_answers_errors_as_problems() -> None:
    seen: set[int] = set()
    for client in _clients().values():
        for path in KNOWN_PATHS:
            for method in METHODS:
                response = client.generic(method, path, data=b"{}", content_type="application/json")
                assert response.status_code < 500, (method, path, response.status_code)
                if response.status_code >= 400:
                    seen.add(response.status_code)
                    _problem(response, method)
    # The walk met the refusals it is about: auth, CSRF/permission, not found, method.
    assert {400, 401, 403, 404, 405} <= seen


def test_session_post_without_csrf_token_is_a_problem_403() -> None:
    session = _clients()["session"]
    response = session.post(
        "/api/v1/games", data={"variant": "classic", "seed": "1"}, content_type="application/json"
    )
    assert response.status_code == 403
    body = _problem(response, "POST")
    # The code the problem-code table gives it (an attack saw permission_denied).
    assert body["code"] == "csrf_failed"
    # One sentence, as Django's own check words it (it read "CSRF Failed: CSRF token
    # missing.: send a token ...", DRF's message with ours glued on).
    assert body["detail"] == (
        "CSRF check failed (CSRF cookie not set): send a token in the Authorization header, "
        "or the X-CSRFToken header with a session."
    )
    from games.models import Game

    assert not Game.objects.exists()


def test_csrf_failure_view_answers_problem_json_on_api_paths() -> None:
    from django.test import RequestFactory

    from api.refusals import csrf_failure

    request = RequestFactory().post("/api/v1/anything")
    response = csrf_failure(request, reason="CSRF cookie not set.")
    assert response.status_code == 403
    body = _problem(response, "POST")
    assert body["code"] == "csrf_failed"
    assert body["detail"].startswith("CSRF check failed (CSRF cookie not set): send a token")
    # Outside the API Django's own page stays.
    page = csrf_failure(RequestFactory().post("/admin/login/"), reason="x")
    assert page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("path", ["/api/v1/health", "/api/v1/games", "/api/v1/nope"])
def test_disallowed_host_is_a_problem_400(settings: Any, debug: bool, path: str) -> None:
    settings.DEBUG = debug
    for method in ("GET", "POST", "DELETE"):
        response = Client().generic(method, path, HTTP_HOST="evil.example")
        assert response.status_code == 400
        body = _problem(response, method)
        assert body["code"] == "bad_request"
        assert "evil.example" not in json.dumps(body)


def test_pages_outside_the_api_keep_django_answers() -> None:
    response = Client().get("/admin/nope-not-here/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert not response["Content-Type"].startswith("application/problem+json")


@pytest.mark.parametrize(
    ("path", "name"), [("/api/v1/docs", "Swagger"), ("/api/v1/redoc", "Offline Redoc")]
)
def test_options_on_a_documentation_page_describes_it_in_json(path: str, name: str) -> None:
    """Swagger UI's page answered OPTIONS with a 500 (its template drawn without its
    context); ReDoc's with a broken page.  Both describe themselves as every endpoint does."""
    response = Client().options(path)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Allow"] == "GET, HEAD, OPTIONS"
    body = json.loads(response.content)
    assert body["name"] == name
    assert body["renders"] == ["text/html"]
