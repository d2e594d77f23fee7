"""Query parameters: every API endpoint takes exactly the ones it declares, each once.

A query parameter an endpoint does not declare was ignored (``GET /races?phse=running``
listed every race) and a repeated one was read as one of its values (which one depended
on the code reading it).  Both are refused now, before the endpoint does anything, with
a problem+json ``400``:

* ``unknown_query_parameter``: a parameter the endpoint does not declare (``parameters``:
  the unknown names, sorted; ``accepted``: the names it declares, sorted, maybe none);
* ``repeated_query_parameter``: a declared parameter given more than once (``phase=open&
  phase=running``; a list filter takes one comma-separated value, ``phase=open,running``).

A list that comes whole (:attr:`ApiView.whole_list`) keeps its more precise
``400 not_paginated`` for ``cursor`` and ``page_size`` (``api.pagination.refuse_paging``).

The declaration is made once, with :func:`accepts_query` on the view's method: the same
parameters go into the OpenAPI schema (drf-spectacular's ``extend_schema(parameters=)``)
and into the check, so the schema lists exactly the accepted parameters
(``tests/api/test_query_parameters.py`` walks the schema to hold that).  ``?format=`` is
no exception: the data endpoints negotiate their format with the ``Accept`` header only
(:class:`AcceptHeaderNegotiation`), so ``format`` is refused like any undeclared name;
the schema endpoint declares it (``format=json``).

The event streams (plain async views, ``api.streams``) call :func:`check_query` with
their one parameter, ``last_event_id``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, TypeVar

from django.http import QueryDict
from django.utils.cache import patch_cache_control, patch_vary_headers
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.negotiation import BaseContentNegotiation, DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from api.errors import ProblemError
from api.pagination import refuse_paging

F = TypeVar("F", bound=Callable[..., Any])

#: The attribute :func:`accepts_query` sets on a view method: its parameters' names.
ACCEPTED_ATTRIBUTE = "query_parameters"


def parameter_names(params: Iterable[Any]) -> tuple[str, ...]:
    """The query parameter names of drf-spectacular ``parameters``: each
    ``OpenApiParameter`` in the query, and each field of a serializer class given whole
    (as drf-spectacular expands it)."""
    names: list[str] = []
    for param in params:
        if isinstance(param, OpenApiParameter):
            if param.location == OpenApiParameter.QUERY:
                names.append(param.name)
        elif isinstance(param, type):
            names.extend(param().fields)
        else:
            raise TypeError(f"not a query parameter declaration: {param!r}")
    return tuple(names)


def accepts_query(*params: Any) -> Callable[[F], F]:
    """Decorator for a view method: its query parameters, for the schema and the check.

    ``params``: ``OpenApiParameter`` objects (query ones) or serializer classes, as
    ``extend_schema(parameters=...)`` takes them.  The method then accepts exactly those
    names, each once; any other is ``400 unknown_query_parameter``.
    """
    names = parameter_names(params)

    def decorate(method: F) -> F:
        method = extend_schema(parameters=list(params))(method)
        setattr(method, ACCEPTED_ATTRIBUTE, names)
        return method

    return decorate


def check_query(query: QueryDict, accepted: Collection[str]) -> None:
    """Refuse a query that names a parameter outside ``accepted``, or one twice.

    Raises :class:`api.errors.ProblemError` ``400 unknown_query_parameter`` (extension
    members ``parameters`` and ``accepted``) or ``400 repeated_query_parameter`` (the
    same members); an unknown name wins over a repeated one.
    """
    allowed = sorted(set(accepted))
    takes = (
        "It accepts " + ", ".join(allowed) + "." if allowed else "It accepts no query parameters."
    )
    unknown = sorted(name for name in query if name not in allowed)
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        raise ProblemError(
            "unknown_query_parameter",
            f"Unknown query parameter(s) {listed}: this endpoint does not declare "
            f"{'it' if len(unknown) == 1 else 'them'}. {takes}",
            status=400,
            parameters=unknown,
            accepted=allowed,
        )
    repeated = sorted(name for name, values in query.lists() if len(values) > 1)
    if repeated:
        listed = ", ".join(repr(name) for name in repeated)
        raise ProblemError(
            "repeated_query_parameter",
            f"Query parameter(s) {listed} given more than once: send each once (a list "
            f"filter takes one comma-separated value). {takes}",
            status=400,
            parameters=repeated,
            accepted=allowed,
        )


class _NoFormatOverride:
    """DRF's settings with ``URL_FORMAT_OVERRIDE`` off (``?format=`` chooses nothing)."""

    URL_FORMAT_OVERRIDE = None

    def __getattr__(self, name: str) -> Any:
        return getattr(api_settings, name)


class AcceptHeaderNegotiation(DefaultContentNegotiation):
    """DRF's content negotiation on the ``Accept`` header alone: ``?format=`` is not read
    (it was an undeclared override: ``?format=bogus`` answered 404), so it is refused as
    any undeclared query parameter."""

    settings: Any = _NoFormatOverride()


class ApiView(APIView):
    """Base of every API view: the query check (module doc) runs after authentication,
    permissions and throttles, before the method.  A method not allowed is still
    ``405`` (it has no declaration to check against).

    Every answer says that it depends on ``Authorization`` (``Vary``), and an answer to
    an authenticated request (a token, or a session) is ``Cache-Control: private``
    (:meth:`finalize_response`): a shared cache never hands one player's answer to
    another, nor an anonymous copy to a player."""

    content_negotiation_class: type[BaseContentNegotiation] = AcceptHeaderNegotiation
    #: A list answered whole: ``cursor``/``page_size`` are ``400 not_paginated``.
    whole_list: bool = False

    def accepted_query_parameters(self, handler: Callable[..., Any]) -> tuple[str, ...]:
        """The query parameters ``handler`` (a bound view method) accepts."""
        return tuple(getattr(handler, ACCEPTED_ATTRIBUTE, ()))

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """DRF's answer with ``Vary: Authorization`` and, when the request carried
        credentials (an ``Authorization`` header, or a logged-in session), ``Cache-Control:
        private`` merged into what the view set (a token's ``no-store`` stays).  Refusals
        too: a 409's ``current_move_number`` is the player's."""
        response = super().finalize_response(request, response, *args, **kwargs)
        patch_vary_headers(response, ("Authorization",))
        user = getattr(request._request, "user", None)  # set by DRF once authenticated
        if "HTTP_AUTHORIZATION" in request.META or (user is not None and user.is_authenticated):
            patch_cache_control(response, private=True)
        return response

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        """DRF's checks, then the query's (400 ``not_paginated``,
        ``unknown_query_parameter``, ``repeated_query_parameter``)."""
        super().initial(request, *args, **kwargs)
        method = (request.method or "").lower()
        handler = getattr(self, method, None) if method in self.http_method_names else None
        if handler is None:
            return  # 405 follows
        if self.whole_list:
            refuse_paging(request)
        check_query(request.query_params, self.accepted_query_parameters(handler))
