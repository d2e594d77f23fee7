"""RFC 9457 problem details (``application/problem+json``) for every API error.

Every error body has ``type``, ``title``, ``status``, ``detail``, ``instance`` and a
stable snake_case ``code`` that clients switch on. Extra members (``errors`` for
validation failures, ``current_move_number`` for a stale move, ...) sit beside them.

How to use it from a view or a service-calling view::

    from api.errors import ProblemError

    raise ProblemError("illegal_move", "5S cannot go on t2: 6H is needed.", status=422)
    raise ProblemError("stale_move_number", "Expected move 12.", status=409,
                       current_move_number=12)

or, to return instead of raise, ``problem_response(status=..., code=..., detail=...)``.
DRF's own exceptions (validation, authentication, permission, not found, throttling,
...) are turned into the same shape by :func:`problem_exception_handler`, which is
installed as ``REST_FRAMEWORK["EXCEPTION_HANDLER"]``.
"""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt
from django.views.defaults import page_not_found, server_error
from rest_framework import exceptions, serializers, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.problem_codes import PROBLEM_CODES as PROBLEM_CODES
from games.services.errors import ServiceError

PROBLEM_CONTENT_TYPE = "application/problem+json"

# Reserved members that extensions may not overwrite.
_RESERVED = frozenset({"type", "title", "status", "detail", "instance", "code"})

# DRF exception class -> our stable code (DRF's own default_code is the fallback).
_DRF_CODES: dict[type[exceptions.APIException], str] = {
    exceptions.ValidationError: "validation_error",
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "permission_denied",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
}


#: HTTP status of each service error code (games.services.errors); services know no HTTP.
SERVICE_ERROR_STATUS: dict[str, int] = {
    "not_found": 404,
    "invalid_credentials": 400,
    "invalid_options": 400,
    "invalid_deal": 400,
    "malformed_move": 400,
    "illegal_move": 422,
    "stale_move_number": 409,
    "game_over": 409,
    "undo_not_allowed": 403,
    "hint_not_allowed": 403,
    "nothing_to_undo": 409,
    "move_limit_reached": 409,
    "race_closed": 409,
    "disqualified": 403,
    "deal_secret": 409,
    "deal_in_race": 409,
    "invalid_race": 400,
    "race_not_open": 409,
    "race_not_started": 409,
    "race_not_finished": 409,
    "race_cancelled": 409,
    "not_entered": 403,
    "no_winnable_deal": 503,
    "no_winnable_deal_found": 422,
    "too_many_solves": 429,
    "invalid_tournament": 400,
    "tournament_not_open": 409,
    "tournament_invite_only": 403,
    "tournament_full": 409,
}


_PLAIN_WORD = re.compile(r"[a-z][a-z'\u2019-]*")


def as_sentence(detail: str) -> str:
    """``detail`` as the API writes every problem's ``detail``: a full sentence, with a
    capital first letter and a final full stop (or ``?``/``!``).  The first word is
    capitalised only when it is a plain word: a detail that opens with a field or
    parameter name (``ends_at``, ``points_table``) or with move notation (``9C``) keeps
    it as written, since clients may match it.  The services word their details in
    lower case, for logs and for the pages' own wording; the API's consistency is kept
    here, in one place."""
    text = detail.strip()
    if not text:
        return text
    first = re.split(r"[\s:;,(]", text, maxsplit=1)[0]
    if _PLAIN_WORD.fullmatch(first):
        text = text[0].upper() + text[1:]
    if text[-1] not in ".?!":
        text += "."
    return text


def problem_type(code: str) -> str:
    """Return the RFC 9457 ``type`` URI for ``code``."""
    return f"{settings.PROBLEM_TYPE_BASE}{code}"


def problem_body(
    *,
    status: int,
    code: str,
    detail: str,
    title: str | None = None,
    instance: str | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Build a problem-details dictionary (without sending it)."""
    body: dict[str, Any] = {
        "type": problem_type(code),
        "title": title or HTTPStatus(status).phrase,
        "status": status,
        "detail": as_sentence(detail),
        "code": code,
    }
    if instance:
        body["instance"] = instance
    for key, value in (extra or {}).items():
        if key in _RESERVED:
            raise ValueError(f"problem extension member {key!r} is reserved")
        body[key] = value
    return body


class ProblemJsonResponse(JsonResponse):
    """A problem document answered outside DRF (Django's handlers, the middleware, the
    streams, the login lockout), serialised exactly as DRF's ``JSONRenderer`` writes the
    others: compact (no spaces after ``,`` and ``:``) and UTF-8, not ``\\u`` escapes."""

    def __init__(self, body: dict[str, Any], *, status: int) -> None:
        """``body``: a :func:`problem_body`; ``status``: its HTTP status."""
        super().__init__(
            body,
            status=status,
            content_type=PROBLEM_CONTENT_TYPE,
            json_dumps_params={"separators": (",", ":"), "ensure_ascii": False},
        )


class ProblemResponse(Response):
    """A DRF ``Response`` whose body is a problem document: always rendered as JSON,
    whatever renderer the request's content negotiation chose, under
    ``application/problem+json``.

    Views with other renderers answered their errors in those: the schema endpoint's
    YAML renderer, or the browsable API's HTML page in ``DEBUG`` (an attack saw both
    under the problem+json type, on ``Accept: text/html`` and ``?format=bogus``).
    """

    @property
    def rendered_content(self) -> Any:
        self.accepted_renderer = JSONRenderer()
        self.accepted_media_type = JSONRenderer.media_type
        return super().rendered_content


def problem_response(
    *,
    status: int,
    code: str,
    detail: str,
    title: str | None = None,
    instance: str | None = None,
    extra: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """Return a :class:`ProblemResponse` carrying an ``application/problem+json`` body."""
    response = ProblemResponse(
        problem_body(
            status=status, code=code, detail=detail, title=title, instance=instance, extra=extra
        ),
        status=status,
        headers=headers,
    )
    response.content_type = PROBLEM_CONTENT_TYPE
    return response


class ProblemError(exceptions.APIException):
    """An API error with a stable ``code``; raise it anywhere under a DRF view.

    ``ProblemError(code, detail, *, status=400, title=None, **extra)``: ``extra``
    keyword arguments become extension members of the problem document.
    """

    status_code: int = status.HTTP_400_BAD_REQUEST
    default_code = "bad_request"
    default_detail = "The request could not be processed."

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        status: int = status.HTTP_400_BAD_REQUEST,
        title: str | None = None,
        **extra: Any,
    ) -> None:
        """Record the code, human detail, HTTP status, title and extension members."""
        super().__init__(detail=detail, code=code)
        self.status_code = status
        self.problem_code = code
        self.problem_detail = detail
        self.title = title
        self.extra = extra
        bad = _RESERVED.intersection(extra)
        if bad:
            raise ValueError(f"problem extension members {sorted(bad)} are reserved")


def _code_for(exc: exceptions.APIException) -> str:
    for klass in type(exc).__mro__:
        if klass in _DRF_CODES:
            return _DRF_CODES[klass]
    return str(exc.default_code)


def _detail_text(exc: exceptions.APIException) -> str:
    detail = exc.detail
    if isinstance(detail, str):
        return str(detail)
    return str(exc.default_detail)


_ROUTE_PARAM = re.compile(r"<(?:[^:>]+:)?([^>]+)>")


def endpoint_address(request: HttpRequest) -> str:
    """The address of the endpoint ``request`` reached, its path parameters named as the
    README names them (``/api/v1/games/{id}/hint``, ``/api/v1/players/{username}``), so
    the same answer is given for every id (a draft's race answers as a missing one); the
    request's own path when its route is a regular expression (``/api/v1/schema/``) or
    it matched none."""
    match = getattr(request, "resolver_match", None)
    route = getattr(match, "route", "") or ""
    if not route or any(c in route for c in "^$?*+()[]\\"):
        return request.path
    named = _ROUTE_PARAM.sub(
        lambda m: "{id}" if m.group(1).endswith("_id") else "{" + m.group(1) + "}", route
    )
    return "/" + named


def method_not_allowed(request: HttpRequest, allow: str) -> tuple[str, dict[str, Any]]:
    """The ``detail`` and extension members of ``405 method_not_allowed`` for
    ``request``, whose endpoint's ``Allow`` header is ``allow`` (``"GET, HEAD,
    OPTIONS"``): ``("POST is not allowed on /api/v1/games/{id}/hint; allowed: GET, HEAD,
    OPTIONS.", {"allowed": ["GET", "HEAD", "OPTIONS"]})``.  DRF's own words (``Method
    "POST" not allowed.``) left a client guessing which method the endpoint takes."""
    allowed = [name.strip() for name in allow.split(",") if name.strip()]
    listed = ", ".join(allowed) or "none"
    detail = f"{request.method} is not allowed on {endpoint_address(request)}; allowed: {listed}."
    return detail, {"allowed": allowed}


def service_error_headers(exc: ServiceError) -> dict[str, str]:
    """The headers of the problem answering ``exc``: ``Retry-After`` (whole seconds) when
    it has a ``retry_after`` member (``no_winnable_deal``, ``too_many_solves``,
    ``race_not_started``: the seconds until the start), else none."""
    retry = exc.extra.get("retry_after")
    return {"Retry-After": str(int(retry))} if retry is not None else {}


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF exception handler that renders every handled error as problem+json.

    Unhandled exceptions (bugs) return ``None`` so Django logs them and answers 500.
    """
    request = context.get("request")
    instance = request.get_full_path() if request is not None else None

    if isinstance(exc, ServiceError):
        return problem_response(
            status=SERVICE_ERROR_STATUS.get(exc.code, 400),
            code=exc.code,
            detail=exc.detail,
            instance=instance,
            extra=exc.extra,
            headers=service_error_headers(exc) or None,
        )
    if isinstance(exc, RequestDataTooBig):  # a body read through Django, not our parser
        return problem_response(
            status=413,
            code="payload_too_large",
            detail=f"The request body is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes.",
            instance=instance,
        )

    if isinstance(exc, ProblemError):
        return problem_response(
            status=exc.status_code,
            code=exc.problem_code,
            detail=exc.problem_detail,
            title=exc.title,
            instance=instance,
            extra=exc.extra,
        )

    # Let DRF translate Http404 / Django PermissionDenied and set auth headers
    # (WWW-Authenticate, Retry-After), then rewrite the body.
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if not isinstance(exc, exceptions.APIException):
        return response

    extra: dict[str, Any] = {}
    detail = _detail_text(exc)
    if isinstance(exc, exceptions.ValidationError):
        detail = "The request has invalid fields; see 'errors'."
        errors = exc.detail
        extra["errors"] = errors if isinstance(errors, dict) else {"non_field_errors": errors}
    elif isinstance(exc, exceptions.Throttled) and getattr(exc, "wait", None) is not None:
        extra["retry_after"] = int(exc.wait)  # type: ignore[attr-defined]
    elif isinstance(exc, exceptions.NotAuthenticated) and request is not None:
        from api.authentication import unaccepted_scheme_hint  # imports DRF settings

        detail = unaccepted_scheme_hint(request.META.get("HTTP_AUTHORIZATION", "")) or detail
    elif isinstance(exc, exceptions.MethodNotAllowed) and request is not None:
        # DRF sets the view's ``Allow`` header after this handler: read the view itself.
        view = context.get("view")
        allow = ", ".join(view.allowed_methods) if view is not None else ""
        detail, allowed = method_not_allowed(request, allow)
        extra |= allowed  # a dict of the body, not a row (tests/test_layers.py)

    headers = {
        key: response[key]
        for key in ("WWW-Authenticate", "Retry-After", "Allow")
        if key in response
    }
    return problem_response(
        status=response.status_code,
        code=_code_for(exc),
        detail=detail,
        instance=instance,
        extra=extra,
        headers=headers,
    )


class ProblemSerializer(serializers.Serializer[dict[str, Any]]):
    """An RFC 9457 problem document: every 4xx/5xx answer of the API.

    (Views name it in ``extend_schema(responses=...)``; the extension members some
    codes add are documented by ``api.schema.PROBLEM_EXTENSIONS``.)
    """

    type = serializers.CharField(help_text="URI naming the problem type; ends with `code`.")
    title = serializers.CharField(
        help_text="The HTTP status's reason phrase (`Conflict`, `Unprocessable Entity`), the "
        "same for every problem of that status: `code` names the problem."
    )
    status = serializers.IntegerField(help_text="The HTTP status code.")
    detail = serializers.CharField(
        help_text="Human explanation of this occurrence: a full sentence (a capital, unless it "
        "opens with a field name or move notation, and a full stop); match `code`, not this."
    )
    # "instance" shadows BaseSerializer.instance for type checkers only; DRF declares it.
    instance = serializers.CharField(  # type: ignore[assignment]
        required=False, help_text="The request's path with its query string."
    )
    code = serializers.ChoiceField(
        choices=list(PROBLEM_CODES),
        help_text="Stable snake_case code for clients to switch on (see the API description).",
    )
    allowed = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text="`405 method_not_allowed` only: the methods the endpoint accepts, as in "
        'its `Allow` header (`["GET", "HEAD", "OPTIONS"]`).',
    )


def api_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django ``handler404``: problem+json under ``/api/``, Django's page elsewhere."""
    if not request.path.startswith("/api/"):
        return page_not_found(request, exception)
    detail = "No API resource at this address."
    twin = _slash_twin(request)
    if twin is not None:
        detail = f"No API resource at this address; did you mean {twin}?"
    body = problem_body(
        status=404,
        code="not_found",
        detail=detail,
        instance=request.get_full_path(),
    )
    return ProblemJsonResponse(body, status=404)


def _api_endpoint(path_info: str) -> bool:
    """Whether ``path_info`` resolves to an API endpoint (not the catch-all 404)."""
    try:
        match = resolve(path_info)
    except Resolver404:
        return False
    return match.view_name != "api:unknown"


def _slash_twin(request: HttpRequest) -> str | None:
    """The request's path without its trailing slash(es), or with one added, when that
    addresses an API endpoint and the path itself does not (no redirect: a client that
    sent a POST must send it again, to the right address)."""
    path_info = request.path_info
    twin = path_info.rstrip("/") if path_info.endswith("/") else f"{path_info}/"
    if not twin or _api_endpoint(path_info) or not _api_endpoint(twin):
        return None
    return request.path[: len(request.path) - len(path_info)] + twin


@csrf_exempt  # a 404 changes nothing: no CSRF refusal (HTML 403) before it
def api_unknown_path(request: HttpRequest) -> HttpResponse:
    """The last URL pattern under ``/api/v1/``: problem+json 404 even with ``DEBUG`` on
    (an id that is not a UUID, a mistyped path)."""
    return api_not_found(request, Http404())


def api_server_error(request: HttpRequest) -> HttpResponse:
    """Django ``handler500``: problem+json under ``/api/``, Django's page elsewhere."""
    if not request.path.startswith("/api/"):
        return server_error(request)
    body = problem_body(
        status=500,
        code="internal_error",
        detail="The server failed to process the request.",
        instance=request.get_full_path(),
    )
    return ProblemJsonResponse(body, status=500)
