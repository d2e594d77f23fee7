"""The answer to a post that failed Django's CSRF check (``CSRF_FAILURE_VIEW``).

Under ``/api/`` it is the API's ``403 csrf_failed`` problem document
(:func:`api.refusals.csrf_failure`). Elsewhere it was Django's own page: unstyled, with
no way back to the site, marked ``lang="en"`` whatever language its words were in (so a
screen reader read the German words with an English voice), and ending "More
information is available with DEBUG=True." A player meets it after logging in or out in
another window (the token changes) and sending a form of a page still open from before.
It is now a page of the site, in the page's language, that says what happened and what
to do.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from api.refusals import csrf_failure as api_csrf_failure
from api.refusals import is_api


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: ``403``, problem+json under ``/api/``, else the site's page
    (``web/repeated_field.html``: the title, the message, a link to the lobby).

    ``reason`` is Django's (``"CSRF token incorrect."``, ...); it is not shown to a player.
    """
    if is_api(request):
        return api_csrf_failure(request, reason=reason)
    message = _(
        "This form was out of date (you logged in or out in another window, or the page "
        "was open for a long time) or came without the cookie this site needs, so nothing "
        "was done. Go back, reload the page and send the form again; if this happens "
        "every time, allow cookies for this site."
    )
    context = {"title": _("Form not accepted"), "message": message}
    return render(request, "web/repeated_field.html", context, status=403)
