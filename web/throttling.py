"""The API's rate limits on the pages that do the same things.

A page that plays a move, starts a game, joins or starts a race, signs up or logs in
counts against the same scoped throttle as the API endpoint that does it (DRF's
``ScopedRateThrottle`` through :class:`api.throttling.ScopedRateThrottle`: the same
cache key, per user or per client address when anonymous).  So a player has one
budget (``THROTTLE_MOVES``, ``THROTTLE_GAMES``, ``THROTTLE_AUTH``) whichever way they
play; before this an attack posted 60 moves a second through ``/play/<id>/move`` while
the API refused all but 20.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _

from api.throttling import ScopedRateThrottle

#: Scopes of ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` that pages use.
SCOPES = ("moves", "games", "auth")


def throttle_wait(request: HttpRequest, scope: str) -> int | None:
    """Whole seconds to wait when ``request`` is past the ``scope`` rate (the request is
    then not counted), or ``None`` when it may go on (and is counted).

    Raises ``KeyError`` for a scope that is not one of :data:`SCOPES`.
    """
    if scope not in SCOPES:
        raise KeyError(scope)
    throttle = ScopedRateThrottle()
    # DRF's throttle reads only ``request.user``, the client address and the view's
    # ``throttle_scope``: a Django request and a stand-in view give it those.
    view: Any = SimpleNamespace(throttle_scope=scope)
    if throttle.allow_request(cast(Any, request), view):
        return None
    return max(1, math.ceil(throttle.wait() or 1))


def too_many(request: HttpRequest, wait: int) -> HttpResponse:
    """The page of a refused request: ``429`` with ``Retry-After`` (seconds)."""
    response = render(
        request,
        "web/too_many.html",
        {
            "wait": wait,
            "message": _("Too many requests at once: wait %(seconds)s s and try again.")
            % {"seconds": wait},
        },
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


View = TypeVar("View", bound=Callable[..., HttpResponseBase])


def throttled(
    scope: str, refused: Callable[..., HttpResponse] | None = None
) -> Callable[[View], View]:
    """Count a view's POSTs against the API's ``scope`` rate (module doc).

    Past the rate the view does nothing: ``refused(request, wait, *args, **kwargs)``
    answers (by default :func:`too_many`), with ``Retry-After``.  Other methods (a form
    shown with GET) are not counted.
    """

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method == "POST":
                wait = throttle_wait(request, scope)
                if wait is not None:
                    if refused is None:
                        return too_many(request, wait)
                    response = refused(request, wait, *args, **kwargs)
                    response["Retry-After"] = str(wait)
                    return response
            return view(request, *args, **kwargs)

        return cast(View, wrapper)

    return decorate
