"""The RFC 9457 problem+json error contract."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.test import APIClient, APIRequestFactory
from rest_framework.views import APIView

from api.errors import PROBLEM_CONTENT_TYPE, ProblemError, problem_body

factory = APIRequestFactory()


class _MoveSerializer(serializers.Serializer[dict[str, Any]]):
    move = serializers.CharField(max_length=8)


class _ProblemView(APIView):
    permission_classes = []

    def post(self, request: Request) -> Response:
        data = _MoveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        raise ProblemError(
            "stale_move_number", "Expected move 12.", status=409, current_move_number=12
        )


class _PrivateView(APIView):
    def get(self, request: Request) -> Response:
        return Response({})


def _json(response: Response) -> dict[str, Any]:
    response.render()
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    import json

    data: dict[str, Any] = json.loads(response.content)
    return data


def test_problem_error_becomes_problem_json() -> None:
    """A raised ProblemError keeps its code, status, detail and extension members."""
    request = factory.post("/api/v1/games/1/moves", {"move": "QH>t2"}, format="json")
    body = _json(_ProblemView.as_view()(request))
    assert body == {
        "type": "urn:canfield:problem:stale_move_number",
        "title": "Conflict",
        "status": 409,
        "detail": "Expected move 12.",
        "code": "stale_move_number",
        "instance": "/api/v1/games/1/moves",
        "current_move_number": 12,
    }


def test_validation_error_lists_field_errors() -> None:
    """Serializer errors: 400 validation_error with an ``errors`` member."""
    request = factory.post("/x", {"move": "far-too-long-move"}, format="json")
    response = _ProblemView.as_view()(request)
    body = _json(response)
    assert response.status_code == 400
    assert body["code"] == "validation_error"
    assert "move" in body["errors"]


def test_malformed_json_is_malformed_request() -> None:
    """Unparseable JSON: 400 malformed_request."""
    request = factory.post("/x", b"{nope", content_type="application/json")
    body = _json(_ProblemView.as_view()(request))
    assert body["code"] == "malformed_request"


def test_anonymous_gets_not_authenticated_with_challenge() -> None:
    """The IsAuthenticated default answers 401 not_authenticated with a Token challenge."""
    response = _PrivateView.as_view()(factory.get("/x"))
    body = _json(response)
    assert response.status_code == 401
    assert body["code"] == "not_authenticated"
    assert response["WWW-Authenticate"] == "Token"


def test_method_not_allowed() -> None:
    """405 method_not_allowed keeps the Allow header."""
    response = _ProblemView.as_view()(factory.delete("/x"))
    body = _json(response)
    assert response.status_code == 405
    assert body["code"] == "method_not_allowed"
    assert "POST" in response["Allow"]


@pytest.mark.django_db
def test_unknown_api_path_is_problem_json() -> None:
    """A 404 under /api/ answers problem+json, not an HTML page."""
    response = APIClient().get("/api/v1/no-such-thing")
    assert response.status_code == 404
    assert response["Content-Type"] == PROBLEM_CONTENT_TYPE
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "twin"),
    [
        ("get", "/api/v1/games/", "/api/v1/games"),
        ("post", "/api/v1/games/", "/api/v1/games"),  # named, not redirected
        ("get", "/api/v1/races//", "/api/v1/races"),
        (
            "get",
            "/api/v1/games/00000000-0000-0000-0000-000000000001/moves/",
            "/api/v1/games/00000000-0000-0000-0000-000000000001/moves",
        ),
        ("get", "/api/v1/schem", None),  # no address one slash away
        ("get", "/api/v1/no-such-thing/", None),
        ("get", "/api/v1/", None),  # /api/v1 is no endpoint either
    ],
)
def test_a_404_names_the_address_one_trailing_slash_away(
    method: str, path: str, twin: str | None
) -> None:
    """An /api/ path that is no endpoint but would be without its trailing slash (or with
    one) answers 404 naming that address; it is never redirected."""
    response = getattr(APIClient(), method)(path, {}, format="json")
    assert (response.status_code, response["Content-Type"]) == (404, PROBLEM_CONTENT_TYPE)
    assert "Location" not in response
    expected = "No API resource at this address."
    if twin is not None:
        expected = f"No API resource at this address; did you mean {twin}?"
    assert (response.json()["code"], response.json()["detail"]) == ("not_found", expected)


def test_reserved_members_are_refused() -> None:
    """Extension members may not overwrite the standard ones."""
    with pytest.raises(ValueError, match="reserved"):
        ProblemError("x", "y", status=400, title="t", **{"instance": "/elsewhere"})
    with pytest.raises(ValueError, match="reserved"):
        problem_body(status=400, code="x", detail="y", extra={"status": 1})


def test_every_problem_detail_is_a_full_sentence(player: Any) -> None:
    """Details mixed "expected move number 0, but the game is at 1" with full sentences:
    the API writes each as a sentence (a capital, a full stop); the code is unchanged."""
    game = player.post("/api/v1/games", {"seed": "1"}, format="json").json()
    stale = player.post(
        f"/api/v1/games/{game['id']}/moves", {"move": "draw", "expected_move_number": 1}
    ).json()
    assert (stale["code"], stale["detail"]) == (
        "stale_move_number",
        "Expected move number 1, but the game is at 0.",
    )
    missing = player.get("/api/v1/games/00000000-0000-4000-8000-000000000000").json()
    assert (missing["code"], missing["detail"]) == ("not_found", "No such game.")


def test_a_detail_opening_with_a_name_or_notation_keeps_it() -> None:
    from api.errors import as_sentence

    assert as_sentence("9C cannot go on 5S: needs a red T") == "9C cannot go on 5S: needs a red T."
    assert as_sentence("ends_at is in the past") == "ends_at is in the past."
    assert as_sentence("Already a sentence.") == "Already a sentence."
