"""Every page form's fields are sent once each: a form post naming a field twice does nothing.

Django reads a form field with ``QueryDict.get``, which gives its *last* value, so
``confirmed=0&confirmed=1`` resigned a game and ``variant=classic&variant=one-pass``
started a one-pass game, where a reader of the body taking the first value (a log, a
proxy, another framework) would see the opposite; the API refuses a JSON object naming
a key twice the same way (``api.parsers``).  One middleware refuses such a post on every
page (the play page's moves and buttons, practice, joining and starting a race, sign up,
log in, log out, the password change, Django's language switch ``/i18n/setlang/``, and
any page form added later) before its view runs.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.http import HttpRequest, HttpResponse, UnreadablePostError
from django.shortcuts import render
from django.utils.translation import gettext as _

#: Form bodies, whose fields Django reads into ``request.POST`` (and ``request.FILES``).
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})

#: Paths whose posts are not pages' forms: the API (JSON bodies, refusing a repeated key
#: itself) and Django's admin, out of this rule (its list actions send
#: ``_selected_action`` once per row chosen, its many-to-many fields once per value).
UNCHECKED_PREFIXES = ("/api/", "/admin/")

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


def refusal_page(request: HttpRequest, names: list[str]) -> HttpResponse:
    """The ``400`` page of a form post that sent the fields ``names`` more than once:
    nothing was done, and it says which fields (the first :data:`_NAMES_SHOWN`, each cut
    to :data:`_NAME_LENGTH` characters)."""
    shown = [n if len(n) <= _NAME_LENGTH else n[:_NAME_LENGTH] + "…" for n in names[:_NAMES_SHOWN]]
    if len(names) > _NAMES_SHOWN:
        shown.append("…")
    message = _(
        "The form was sent with a field more than once (%(names)s), so nothing was done. "
        "Go back, reload the page and send the form again."
    ) % {"names": ", ".join(shown)}
    return render(request, "web/repeated_field.html", {"message": message}, status=400)


class RepeatedFieldMiddleware:
    """Answers :func:`refusal_page` to a page's form post naming a field twice
    (:func:`repeated_fields`), before its view runs.

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
        names = repeated_fields(request)
        if names:
            return refusal_page(request, names)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> Any:
        names = repeated_fields(request)
        if names:
            return await sync_to_async(refusal_page)(request, names)
        return await self.get_response(request)
