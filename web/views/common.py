"""Helpers shared by the views: service errors to pages, the server clock, ETag polling."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotModified,
    HttpResponsePermanentRedirect,
)
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import require_POST
from django_htmx.middleware import HtmxDetails

from canfield_site.middleware import methods_only

#: A page answering ``GET`` and ``HEAD`` only (Django's ``require_safe``: ``HEAD`` is
#: ``GET``'s headers, as RFC 9110 9.3.2 asks of every resource that answers ``GET``), whose
#: other methods, ``POST`` included, are ``405`` before the CSRF check
#: (:func:`canfield_site.middleware.methods_only`).
get_or_head_only = methods_only("GET", "HEAD")


def server_now_ms() -> int:
    """The server clock in milliseconds since the epoch (pages count down from it)."""
    return int(timezone.now().timestamp() * 1000)


def not_found() -> Http404:
    """The 404 every missing or foreign object gets (ids leak nothing)."""
    return Http404("not found")


def account_gone(request: HttpRequest) -> HttpResponse:
    """The answer to a request whose account was deleted while it ran (a service raised
    :class:`~games.services.errors.AccountDeleted`; the API answers 404 ``not_found``).

    What Django answers the session's next request: its account gone,
    ``django.contrib.auth.get_user`` finds nobody, the request is anonymous and
    ``login_required`` sends it to the login page with ``next`` this address (302).  An
    htmx request gets the same address in ``HX-Redirect`` (204: a full page load, not
    the login page inside the board).
    """
    to_login = redirect_to_login(request.get_full_path())
    if not is_htmx(request):
        return to_login
    response = HttpResponse(status=204)
    response["HX-Redirect"] = to_login["Location"]
    return response


def moved_to(request: HttpRequest, url: str) -> HttpResponse:
    """``301`` to ``url`` with the request's query string, unread (a page's address
    typed with a trailing slash it does not have: ``/races/<id>/results/``,
    ``/play/<id>/solution/``)."""
    query = request.META.get("QUERY_STRING", "")
    return HttpResponsePermanentRedirect(f"{url}?{query}" if query else url)


def page_or_fragment(
    request: HttpRequest,
    page: str,
    fragment: str,
    context: dict[str, Any],
    *,
    status: int = 200,
    fragment_status: int | None = None,
) -> HttpResponse:
    """One address, two answers: template ``fragment`` for htmx (:func:`is_htmx`; status
    ``fragment_status``, default ``status``), else the whole ``page`` (``status``).
    Both say ``Vary: HX-Request``, so a browser's cache keeps them apart: without it,
    Back after an htmx request to the same address (a poll, a pushed replay step) showed
    the bare fragment as the page."""
    if is_htmx(request):
        status = status if fragment_status is None else fragment_status
        response = render(request, fragment, context, status=status)
    else:
        response = render(request, page, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def etag_of(*parts: Any) -> str:
    """A strong ETag (quoted) of the parts' text."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:32]
    return f'"{digest}"'


def polled(request: HttpRequest, etag: str, render: Callable[[], HttpResponse]) -> HttpResponse:
    """Answer a poll: ``304 Not Modified`` when ``If-None-Match`` is ``etag`` (nothing is
    rendered), else ``render()`` with the ETag.  Never cached by the browser itself."""
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = render()
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    return response


def post_or_page(
    page: str, arg: str | None = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A POST-only action whose address, opened with ``GET`` (a bookmark, the history,
    a reload after a plain form's answer, the language switch's return), goes to the
    page ``page`` (a URL name taking the keyword ``arg``, or none) instead of an empty
    ``405``; other methods stay ``405``."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        post_only = require_POST(view)

        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            if request.method in ("GET", "HEAD"):
                return redirect(page, **({arg: kwargs[arg]} if arg else {}))
            return post_only(request, *args, **kwargs)

        return wrapper

    return decorate


def is_htmx(request: HttpRequest) -> bool:
    """Whether htmx sent ``request`` (django-htmx's ``request.htmx``, set by its middleware)."""
    details: HtmxDetails = request.htmx  # type: ignore[attr-defined]
    return bool(details)
