"""Every page form's fields are sent once each, and every query parameter a page reads.

A form post naming a field twice does nothing.

Django reads a form field with ``QueryDict.get``, which gives its *last* value, so
``confirmed=0&confirmed=1`` resigned a game and ``variant=classic&variant=one-pass``
started a one-pass game, where a reader of the body taking the first value (a log, a
proxy, another framework) would see the opposite; the API refuses a JSON object naming
a key twice the same way (``api.parsers``).  One middleware refuses such a post on every
page (the play page's moves and buttons, practice, joining and starting a race, sign up,
log in, log out, the password change, Django's language switch ``/i18n/setlang/``, and
any page form added later) before its view runs.

The query string likewise: ``QueryDict.get`` reads the last of ``?provisional=false&
provisional=true``, so the leaderboard showed everyone where a reader taking the first
value would have hidden the provisional players; the API refuses a repeated query
parameter (``api.query``, ``400 repeated_query_parameter``).  A page declares the query
parameters it reads with :func:`reads_query` on its view (the leaderboard ``cursor`` and
``provisional``, the replay ``step``, sign up, log in, log out and the language switch
``next``), and the same middleware answers a ``400`` page naming a declared parameter
given more than once, before the view runs.

A parameter a page does not read is ignored, once or repeated, unlike the API's
``unknown_query_parameter``: pages' addresses are shared, bookmarked and tagged by
others (``utm_source``, ``fbclid``, ``gclid``, a newsletter's or a shortener's tags, tagged
twice when a link is tagged again), and a parameter nobody reads changes nothing, so
refusing it would only break links.  ``tests/web/test_repeated_query.py`` walks every
page that reads a query parameter, and fails when a page's code reads one it does not
declare.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.shortcuts import render
from django.urls import Resolver404, get_resolver
from django.utils.translation import gettext as _

#: Form bodies, whose fields Django reads into ``request.POST`` (and ``request.FILES``).
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})

#: Paths whose posts are not pages' forms: the API (JSON bodies, refusing a repeated key
#: itself) and Django's admin, out of this rule (its list actions send
#: ``_selected_action`` once per row chosen, its many-to-many fields once per value).
UNCHECKED_PREFIXES = ("/api/", "/admin/")

#: The attribute :func:`reads_query` sets on a page's view: the query parameters it reads.
QUERY_ATTRIBUTE = "query_parameters"

V = TypeVar("V", bound=Callable[..., Any])

#: The most field names a refusal page lists, and of how many characters each.
_NAMES_SHOWN = 5
_NAME_LENGTH = 40


def repeated_fields(request: HttpRequest) -> list[str]:
    """The names of the fields a page's form post sends more than once, sorted; ``[]`` for
    anything else (another method, no form body, a path under :data:`UNCHECKED_PREFIXES`,
    a body the client stopped sending).

    Every field counts, ``csrfmiddlewaretoken`` too: no page sends one twice, and Django's
    CSRF check would read only the last.  A file part counts with the fields of its name.
    """
    if request.method != "POST" or request.content_type not in _FORM_TYPES:
        return []
    if request.path_info.startswith(UNCHECKED_PREFIXES):
        return []
    counts: Counter[str] = Counter()
    try:
        for name, values in request.POST.lists():
            counts[name] += len(values)
        for name, files in request.FILES.lists():
            counts[name] += len(files)
    except UnreadablePostError:  # left to the CSRF check, which then finds no token
        return []
    return sorted(name for name, count in counts.items() if count > 1)


def reads_query(*names: str) -> Callable[[V], V]:
    """Decorator for a page's view: the query parameters it reads (``names``), each of
    which :class:`RepeatedFieldMiddleware` refuses when given more than once.  Put it
    outermost (decorators applied over it with ``functools.wraps`` keep it)."""

    def decorate(view: V) -> V:
        setattr(view, QUERY_ATTRIBUTE, tuple(names))
        return view

    return decorate


def page_query_parameters(request: HttpRequest) -> tuple[str, ...]:
    """The query parameters the page at ``request.path_info`` reads (its view's
    :func:`reads_query`), ``()`` for an address no page answers."""
    try:
        match = get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
    except Resolver404:
        return ()
    return tuple(getattr(match.func, QUERY_ATTRIBUTE, ()))


def repeated_query_parameters(request: HttpRequest) -> list[str]:
    """The query parameters the page reads (:func:`page_query_parameters`) that the query
    string gives more than once, sorted; ``[]`` under :data:`UNCHECKED_PREFIXES` (the API
    refuses them itself) and when no name is repeated (the path is then not resolved).
    Any method: sign up and log out read ``next`` from the query on a post too."""
    if request.path_info.startswith(UNCHECKED_PREFIXES):
        return []
    repeated = {name for name, values in request.GET.lists() if len(values) > 1}
    if not repeated:
        return []
    return sorted(repeated.intersection(page_query_parameters(request)))


def _shown(names: list[str]) -> str:
    """``names`` as a refusal page lists them: the first :data:`_NAMES_SHOWN`, each cut to
    :data:`_NAME_LENGTH` characters."""
    shown = [n if len(n) <= _NAME_LENGTH else n[:_NAME_LENGTH] + "…" for n in names[:_NAMES_SHOWN]]
    if len(names) > _NAMES_SHOWN:
        shown.append("…")
    return ", ".join(shown)


def refusal_page(request: HttpRequest, names: list[str]) -> HttpResponse:
    """The ``400`` page of a form post that sent the fields ``names`` more than once:
    nothing was done, and it says which fields (the first :data:`_NAMES_SHOWN`, each cut
    to :data:`_NAME_LENGTH` characters)."""
    message = _(
        "The form was sent with a field more than once (%(names)s), so nothing was done. "
        "Go back, reload the page and send the form again."
    ) % {"names": _shown(names)}
    context = {"title": _("Form not accepted"), "message": message}
    return render(request, "web/repeated_field.html", context, status=400)


def query_refusal_page(request: HttpRequest, names: list[str]) -> HttpResponse:
    """The ``400`` page of an address giving the query parameters ``names`` (ones the
    page reads) more than once: the page is not shown, nothing was done, and it says which
    parameters (as :func:`refusal_page` lists fields)."""
    message = _(
        "The address gives a query parameter more than once (%(names)s), so the page "
        "cannot tell which value you meant and nothing was done. Give each parameter once, "
        "or open the page from its link."
    ) % {"names": _shown(names)}
    context = {"title": _("Address not accepted"), "message": message}
    return render(request, "web/repeated_field.html", context, status=400)


def _refusal(request: HttpRequest) -> Callable[[], HttpResponse] | None:
    """The refusal page to draw for ``request``, or ``None`` to let it through: a repeated
    query parameter first, then a repeated form field."""
    query = repeated_query_parameters(request)
    if query:
        return lambda: query_refusal_page(request, query)
    fields = repeated_fields(request)
    if fields:
        return lambda: refusal_page(request, fields)
    return None


class RepeatedFieldMiddleware:
    """Answers :func:`query_refusal_page` to a page address giving a query parameter the
    page reads twice (:func:`repeated_query_parameters`), and :func:`refusal_page` to a
    page's form post naming a field twice (:func:`repeated_fields`), before its view runs.

    Placed after the session, locale, authentication, message and CSP middleware (the
    page is drawn as any other, in the visitor's language).  It answers before the
    views' hooks, the CSRF check among them: a forged post naming a field twice gets
    this 400 rather than the CSRF 403, and changes nothing either way.  Sync and async: under ASGI
    the body is already read, so the check needs no thread; only a refusal's page is
    drawn in one (it reads the session).
    """

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self._async:
            return self.__acall__(request)
        refusal = _refusal(request)
        if refusal is not None:
            return refusal()
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> Any:
        refusal = _refusal(request)
        if refusal is not None:
            return await sync_to_async(refusal)()
        return await self.get_response(request)
