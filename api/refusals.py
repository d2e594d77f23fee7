"""problem+json for every refusal under ``/api/`` that happens outside a DRF view.

DRF views answer problem+json through :func:`api.errors.problem_exception_handler`.
Some refusals happen before any view runs, in Django itself: the CSRF check of
a view that is not DRF's (``CSRF_FAILURE_VIEW``), a ``Host`` header that is not
in ``ALLOWED_HOSTS`` (``DisallowedHost``, answered through ``handler400``), other
suspicious requests (``handler400``), ``PermissionDenied`` (``handler403``), and
Django's debug pages when ``DEBUG`` is on.  Under ``/api/`` each of these answers
an RFC 9457 problem document too:

* :func:`csrf_failure` and :func:`api_bad_request` / :func:`api_permission_denied`
  are the Django handlers (``403 csrf_failed``, ``400 bad_request``,
  ``403 permission_denied``); elsewhere they answer Django's own pages.
* :class:`ProblemJsonMiddleware`, the outermost middleware, is the safety net:
  an error response (status >= 400) under ``/api/`` that is not already
  ``application/problem+json`` is replaced by a problem document of the same
  status (its code from :data:`STATUS_CODES`), keeping ``Allow``,
  ``Retry-After`` and ``WWW-Authenticate``.  It also marks every answer under
  ``/api/`` ``Content-Language: en`` (:data:`API_LANGUAGE`).
* :func:`english_api_middleware`, right after Django's ``LocaleMiddleware``, makes the
  API speak English whatever ``Accept-Language`` asks: its texts are English, with
  stable ``code`` values that clients key on (README, "API"), so DRF's own messages ("This
  field is required.") are not translated either, and no answer claims a language
  it is not in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus
from typing import Any

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.decorators import sync_and_async_middleware
from django.views import csrf, defaults

from api.errors import (
    PROBLEM_CONTENT_TYPE,
    ProblemJsonResponse,
    method_not_allowed,
    problem_body,
)

logger = logging.getLogger(__name__)

#: Code of a problem made from a bare HTTP status (:class:`ProblemJsonMiddleware`).
STATUS_CODES: dict[int, str] = {
    400: "bad_request",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    411: "length_required",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "internal_error",
    503: "service_unavailable",
}

_KEPT_HEADERS = ("Allow", "Retry-After", "WWW-Authenticate")

#: The language of every answer under ``/api/`` (its ``Content-Language``).
API_LANGUAGE = "en"


def is_api(request: HttpRequest) -> bool:
    """Whether ``request`` is under ``/api/`` (its errors are problem+json)."""
    return request.path.startswith("/api/")


def problem_json(
    request: HttpRequest,
    *,
    status: int,
    code: str,
    detail: str,
    extra: dict[str, Any] | None = None,
    **headers: str,
) -> ProblemJsonResponse:
    """A problem+json answer (RFC 9457; :func:`api.errors.problem_body`) with ``status``,
    the stable ``code`` (:data:`api.problem_codes.PROBLEM_CODES`) and ``detail``, its
    ``instance`` the request's path, and the extension members ``extra``; ``headers``
    are set on it, ``_`` read as ``-`` (``Retry_After="5"``)."""
    body = problem_body(
        status=status, code=code, detail=detail, instance=request.get_full_path(), extra=extra
    )
    response = ProblemJsonResponse(body, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


def csrf_failed_detail(reason: str) -> str:
    """The ``detail`` of ``403 csrf_failed``, one sentence for Django's check and DRF's.

    ``reason`` is Django's (``"CSRF token missing."``) or DRF's message around it
    (``"CSRF Failed: CSRF token missing."``): its prefix and final stop are dropped, so the
    sentence reads "CSRF check failed (CSRF token missing): send a token ...", never
    "...missing.: send"."""
    why = reason.removeprefix("CSRF Failed:").strip().rstrip(".") or "no reason given"
    return (
        f"CSRF check failed ({why}): send a token in the Authorization header, or the "
        "X-CSRFToken header with a session."
    )


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``403 csrf_failed`` under ``/api/``, Django's page elsewhere (the site's
    ``CSRF_FAILURE_VIEW`` is :func:`web.csrf.csrf_failure`, which answers the pages' own
    403 page elsewhere and calls this one under ``/api/``).

    API clients should send ``Authorization: Token ...`` (no CSRF check); a
    browser session must send the ``X-CSRFToken`` header.
    """
    if not is_api(request):
        return csrf.csrf_failure(request, reason=reason)
    return problem_json(
        request,
        status=403,
        code="csrf_failed",
        detail=csrf_failed_detail(reason),
    )


def api_bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django ``handler400`` (``DisallowedHost``, other ``SuspiciousOperation``):
    ``400 bad_request`` under ``/api/``, Django's page elsewhere."""
    if not is_api(request):
        return defaults.bad_request(request, exception)
    return problem_json(
        request, status=400, code="bad_request", detail="The server refused this request."
    )


def api_permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    """Django ``handler403``: ``403 permission_denied`` under ``/api/``."""
    if not is_api(request):
        return defaults.permission_denied(request, exception)
    return problem_json(
        request, status=403, code="permission_denied", detail="You may not do this."
    )


class ProblemJsonMiddleware:
    """Outermost middleware: every error answer under ``/api/`` is problem+json (module doc)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        """Wrap the rest of the middleware chain."""
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        """Pass the request on; rewrite a non-problem error response under ``/api/``;
        mark every answer under ``/api/`` that names no language ``Content-Language: en``
        (the schema and its pages name the language of their ``?lang=``, ``api.docs``)."""
        response = self.get_response(request)
        if not is_api(request):
            return response
        if "Content-Language" not in response:
            response["Content-Language"] = API_LANGUAGE
        if response.status_code < 400 or response.get("Content-Type", "").startswith(
            PROBLEM_CONTENT_TYPE
        ):
            return response
        status = response.status_code
        code = STATUS_CODES.get(status, "bad_request" if status < 500 else "internal_error")
        try:
            phrase = HTTPStatus(status).phrase
        except ValueError:
            phrase = "Error"
        logger.info("problem+json for a bare %s on %s", status, request.path)
        detail, extra = f"{phrase}.", None
        if status == 405:  # named as the REST views name it (api.errors.method_not_allowed)
            detail, extra = method_not_allowed(request, response.get("Allow", ""))
        problem = problem_json(request, status=status, code=code, detail=detail, extra=extra)
        for header in _KEPT_HEADERS:
            if header in response:
                problem[header] = response[header]
        problem["Content-Language"] = API_LANGUAGE
        # Django logged the answer it replaces (a 500 with its traceback): not again.
        if getattr(response, "_has_been_logged", False):
            problem._has_been_logged = True  # type: ignore[attr-defined]
        return problem


@sync_and_async_middleware
def english_api_middleware(get_response: Any) -> Any:
    """Placed right after ``LocaleMiddleware``: a request under ``/api/`` is answered in
    English (:data:`API_LANGUAGE`) whatever its ``Accept-Language``, its views, DRF's
    messages and the streams alike; the pages keep the visitor's language."""

    def english(request: HttpRequest) -> None:
        if is_api(request):
            translation.activate(API_LANGUAGE)
            request.LANGUAGE_CODE = API_LANGUAGE

    if iscoroutinefunction(get_response):

        async def middleware_async(request: HttpRequest) -> Any:
            english(request)
            return await get_response(request)

        return middleware_async

    def middleware(request: HttpRequest) -> Any:
        english(request)
        return get_response(request)

    return middleware
