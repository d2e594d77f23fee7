"""Django's WSGI and ASGI handlers with requests that decode nothing while they are built.

Django builds a request before any middleware runs and outside its handler's exception
handling, so whatever raises while the request object is constructed escapes as the
server's bare ``500`` (gunicorn's sync workers) or an exception out of the ASGI
application (uvicorn's ``500``).  Django's constructor sets the request's encoding from
the ``Content-Type`` charset through its ``encoding`` property, whose setter asks
``hasattr(self, "GET")`` to drop a stale ``request.GET``; ``GET`` is a cached property,
so that question decodes the query string there and then.  With any charset
(``text/plain; charset=utf-8``), a query of more than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``
fields raised ``TooManyFieldsSent`` from the constructor (a bare 500, where the same
request without a charset is Django's 400), and a codec that raises while decoding
(``idna``, ``punycode``, ``undefined``) did the same.

The requests here set the encoding without building ``GET``; it is decoded when first
read, inside the handler, where Django turns ``TooManyFieldsSent`` into its 400 (under
``/api/`` problem+json, :class:`api.refusals.ProblemJsonMiddleware`).  Which charsets
reach Django at all is decided before it, by
:func:`canfield_site.middleware.unreadable_content_type`.
"""

from __future__ import annotations

import codecs
from typing import Any

from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
from django.core.handlers.asgi import ASGIRequest as DjangoASGIRequest
from django.core.handlers.wsgi import WSGIHandler as DjangoWSGIHandler
from django.core.handlers.wsgi import WSGIRequest as DjangoWSGIRequest
from django.core.handlers.wsgi import get_bytes_from_wsgi
from django.http import QueryDict
from django.utils.functional import cached_property
from django.utils.http import parse_header_parameters


def _set_content_type_params(request: Any, meta: dict[str, Any]) -> None:
    """Django's ``HttpRequest._set_content_type_params`` (``content_type``,
    ``content_params``, and the ``encoding`` named by a charset Python knows), assigning
    the encoding without the property setter, so the query string is not decoded here."""
    request.content_type, request.content_params = parse_header_parameters(
        meta.get("CONTENT_TYPE", "")
    )
    if "charset" in request.content_params:
        try:
            codecs.lookup(request.content_params["charset"])
        except LookupError:
            pass
        else:
            # Nothing has read GET or POST yet (this runs in the constructor), so there
            # is nothing for the setter to drop.
            request._encoding = request.content_params["charset"]


class WSGIRequest(DjangoWSGIRequest):
    """Django's WSGI request, whose constructor leaves the query string undecoded, and
    whose query is read as UTF-8 whatever charset the ``Content-Type`` names."""

    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        _set_content_type_params(self, meta)

    @cached_property
    def GET(self) -> QueryDict:  # type: ignore[override]
        """The query string's parameters, ``%``-escapes decoded as UTF-8 (a byte sequence
        that is not UTF-8 is U+FFFD), as :class:`ASGIRequest` reads them.

        Django's WSGI request decodes them in the request's encoding, the ``Content-Type``
        charset, and its ASGI request in ``DEFAULT_CHARSET``: with ``charset=latin-1``
        (any ISO-8859-1 alias, :data:`canfield_site.middleware.READABLE_CHARSETS`)
        ``?next=/%E9`` was ``/é`` on the WSGI server and ``/\ufffd`` on the ASGI server.
        The charset is the body's (RFC 9110 8.3); a URL's query is UTF-8 (RFC 3986 3.4,
        the WHATWG URL standard; every page here is UTF-8, and so is every form), so both
        servers read it the ASGI way.
        """
        return QueryDict(get_bytes_from_wsgi(self.environ, "QUERY_STRING", ""))


class ASGIRequest(DjangoASGIRequest):
    """Django's ASGI request, whose constructor leaves the query string undecoded."""

    def _set_content_type_params(self, meta: dict[str, Any]) -> None:
        _set_content_type_params(self, meta)


class WSGIHandler(DjangoWSGIHandler):
    """Django's WSGI handler building :class:`WSGIRequest` (``canfield_site.wsgi``)."""

    request_class = WSGIRequest


class ASGIHandler(DjangoASGIHandler):
    """Django's ASGI handler building :class:`ASGIRequest` (``canfield_site.asgi``)."""

    request_class = ASGIRequest
