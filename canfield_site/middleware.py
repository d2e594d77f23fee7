"""Project middleware: WhiteNoise without a thread hop per request, 411 for bodies of
unknown length, 413 for a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``, 400 for a NUL
character in the path or the query, 415 for a form body in a charset other than
UTF-8, an ``Accept`` parameter in RFC 2231 notation ignored (:data:`readable_accept_middleware`),
405 before the CSRF check for a method a page never accepts
(:data:`method_not_allowed_middleware`, :func:`methods_only`), and ``Cache-Control:
private`` on every page answered to one client (:func:`private_pages_middleware`).

WhiteNoise usable on both the ASGI and the WSGI path without a thread hop per request.

WhiteNoise's middleware is synchronous only, so under ASGI Django would run it
in a worker thread and switch back to the event loop for the rest of the chain
on *every* request (two thread hops before the view's own).  This subclass is
async-capable: static files are still served by WhiteNoise (in a thread), and
every other request goes straight on down the chain.
"""

from __future__ import annotations

import codecs
import json
import logging
import re
from collections.abc import Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpResponse, HttpResponseNotAllowed
from django.template.loader import render_to_string
from django.urls import Resolver404, get_resolver
from django.utils.cache import patch_cache_control
from django.utils.decorators import sync_and_async_middleware
from django.utils.deprecation import MiddlewareMixin
from django.utils.http import parse_header_parameters
from django.utils.log import log_response
from django.views.decorators.http import require_http_methods
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

from api.parsers import capped_decimal
from api.refusals import is_api, problem_json

logger = logging.getLogger(__name__)


class StaticFilesMiddleware(WhiteNoiseMiddleware):  # type: ignore[misc]
    """:class:`whitenoise.middleware.WhiteNoiseMiddleware` that is also async-capable."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Any = None) -> None:
        super().__init__(get_response)
        self._async = iscoroutinefunction(get_response)
        if self._async:
            markcoroutinefunction(self)

    def __call__(self, request: Any) -> Any:
        if self._async:
            return self.__acall__(request)
        return super().__call__(request)

    async def __acall__(self, request: Any) -> Any:
        """The async path: a static file in a thread, anything else straight through."""
        if self.autorefresh:
            static_file = self.find_file(request.path_info)
        else:
            static_file = self.files.get(request.path_info)
        if static_file is not None:
            return await sync_to_async(self._serve_whole, thread_sensitive=False)(
                static_file, request
            )
        return await self.get_response(request)

    def _serve_whole(self, static_file: Any, request: Any) -> Any:
        """WhiteNoise's answer, with a file's body read here, in the thread: its
        ``FileResponse`` iterates the file synchronously, which Django's ASGI handler
        can only do by warning ("StreamingHttpResponse must consume synchronous
        iterators") and buffering it on the event loop.  Static files are small (the
        largest, htmx, is about 50 KB)."""
        response = self.serve(static_file, request)
        if not response.streaming:  # 304, 405, HEAD
            return response
        try:
            body = b"".join(response.streaming_content)
        finally:
            response.close()
        whole = HttpResponse(body, status=response.status_code)
        for header, value in response.items():
            whole[header] = value
        return whole


#: Methods whose body a view reads.
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _length_unknown(request: Any) -> bool:
    """A body sent with ``Transfer-Encoding`` (chunks), whatever ``Content-Length`` says:
    Django reads as many bytes as ``Content-Length`` gives (none without it), so a
    chunked body would be read short or as empty; with both headers the length is not
    the body's (RFC 9112 6.3 treats such a request as an error)."""
    return request.method in _BODY_METHODS and bool(request.META.get("HTTP_TRANSFER_ENCODING"))


def _guard(refusal: Callable[[Any], HttpResponse | None]) -> Callable[[Any], Any]:
    """A sync and async middleware that answers ``refusal(request)`` when it gives a
    response, before any view runs, and passes the request on otherwise (no thread hop
    under ASGI)."""

    @sync_and_async_middleware
    def middleware_factory(get_response: Any) -> Any:
        if iscoroutinefunction(get_response):

            async def middleware_async(request: Any) -> Any:
                refused = refusal(request)
                return refused if refused is not None else await get_response(request)

            return middleware_async

        def middleware(request: Any) -> Any:
            refused = refusal(request)
            return refused if refused is not None else get_response(request)

        return middleware

    return middleware_factory


#: Why a body sent in chunks is refused (the API's ``detail``, the pages' plain text).
LENGTH_REQUIRED_DETAIL = (
    "A request body needs a Content-Length header and no Transfer-Encoding "
    "(chunked bodies are not read)."
)


def _refuse_unknown_length(request: Any) -> HttpResponse | None:
    if not _length_unknown(request):
        return None
    if is_api(request):
        # Said here: rewritten from the bare 411 it read only "Length Required."
        return problem_json(
            request, status=411, code="length_required", detail=LENGTH_REQUIRED_DETAIL
        )
    return HttpResponse(
        LENGTH_REQUIRED_DETAIL, status=411, content_type="text/plain; charset=utf-8"
    )


#: ``411 Length Required`` for a request body sent with ``Transfer-Encoding``.
#:
#: Django and DRF read a body as long as ``Content-Length`` says, so a chunked body
#: (``Transfer-Encoding: chunked``, no length) was read as empty: a game started
#: without its seed, a move refused as missing, the size limit never applied.  Such a
#: request is refused before any view runs; under ``/api/`` the answer is
#: problem+json (``length_required``, :class:`api.refusals.ProblemJsonMiddleware`).
length_required_middleware = _guard(_refuse_unknown_length)


def _has_nul(request: Any) -> bool:
    """A NUL character (``%00``) in the path or in a query parameter's name or value."""
    if "\x00" in request.path:
        return True
    return any("\x00" in k or any("\x00" in v for v in vs) for k, vs in request.GET.lists())


def _refuse_nul(request: Any) -> HttpResponse | None:
    if not _has_nul(request):
        return None
    detail = "The path or the query holds a NUL character (%00), which nothing here has."
    if is_api(request):
        return problem_json(request, status=400, code="nul_character", detail=detail)
    return HttpResponse(detail, status=400, content_type="text/plain; charset=utf-8")


#: ``400`` for a NUL character (``%00``) in the path or the query string.
#:
#: No name, id, pool or filter of this service contains one, and PostgreSQL's text
#: columns refuse it: an attack's ``/api/v1/players/a%00b`` was a 500 there (a 404 on
#: SQLite).  Under ``/api/`` the answer is problem+json ``nul_character``, elsewhere a
#: plain-text 400.  Bodies need nothing: Django's and DRF's text fields refuse a NUL
#: with a validation error.
nul_character_middleware = _guard(_refuse_nul)


#: Form bodies, which Django decodes itself (with the charset the Content-Type names).
_FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})


def _form_charset_unread(request: Any) -> bool:
    """A ``POST`` form body (``application/x-www-form-urlencoded`` or
    ``multipart/form-data``) that names a charset other than UTF-8: Django refuses to read
    the first (RFC 1866: such a form is UTF-8) and decodes the second's fields with it,
    which for a codec that is no text encoding (``rot13``, ``zlib``) raised
    ``LookupError``.  Browsers send neither with a charset."""
    if request.method != "POST" or request.content_type not in _FORM_TYPES:
        return False
    charset = request.content_params.get("charset")
    return charset is not None and charset.lower() != "utf-8"


def _refuse_form_charset(request: Any) -> HttpResponse | None:
    if not _form_charset_unread(request):
        return None
    detail = (
        "A form body (application/x-www-form-urlencoded, multipart/form-data) is read as "
        "UTF-8 only: send it without a charset or with charset=utf-8."
    )
    if is_api(request):
        return problem_json(request, status=415, code="unsupported_media_type", detail=detail)
    return HttpResponse(detail, status=415, content_type="text/plain; charset=utf-8")


#: ``415`` for a ``POST`` form body with a charset other than UTF-8.
#:
#: A multipart body with ``charset=rot13`` was a 500 (``LookupError`` decoding its fields).
#: Django raises ``BadRequest`` on reading such a body, and raises it again on every
#: later read: the CSRF check of its own 400 and 500 pages read it too, so any page's
#: form post (``/accounts/login/``, ``/practice``, ``/play/<id>/move``) sent with
#: ``charset=utf-16`` and a CSRF cookie was a 500.  Refused here before anything reads
#: the body; under ``/api/`` problem+json ``unsupported_media_type``, as the API
#: answers a JSON body in another charset.
form_charset_middleware = _guard(_refuse_form_charset)


def _is_extended(parameter: str) -> bool:
    """Whether a media range's parameter (``name=value``) has a name in RFC 2231's
    extended notation (ending in ``*``: ``x*=bogus''a``, ``q*=utf-8''%ff``)."""
    return parameter.split("=", 1)[0].strip().endswith("*")


def readable_media_range(media_range: str) -> str | None:
    """One media range of an ``Accept`` header without its parameters in RFC 2231's
    extended notation (``text/html; x*=bogus''a`` is ``text/html``), or ``None`` when what
    is left still cannot be parsed."""
    kept = [p for i, p in enumerate(media_range.split(";")) if i == 0 or not _is_extended(p)]
    cleaned = ";".join(kept).strip()
    try:
        parse_header_parameters(cleaned)
    except Exception:  # ValueError, UnicodeError: whatever stops Django's parse
        return None
    return cleaned


def readable_accept(header: str) -> str | None:
    """The ``Accept`` header as negotiation reads it: each media range by
    :func:`readable_media_range`, unreadable ones left out; ``None`` when none is left
    (the header is then disregarded, as RFC 9110 12.5.1 allows: any type)."""
    ranges = [readable_media_range(r) for r in header.split(",") if r.strip()]
    kept = [r for r in ranges if r is not None]
    return ", ".join(kept) if kept else None


#: A parameter whose name ends in ``*`` (``; x*=``, ``;q*=``, ``; x*0*=``, ``; x *=``:
#: Django strips the name before looking at its end): what :func:`readable_accept` drops.
#: A ``*`` elsewhere (``*/*;q=0.8``) is no such parameter.
_EXTENDED_PARAMETER = re.compile(r";[^=;,]*\*\s*=")


def _read_accept(request: Any) -> None:
    """Make the request's ``Accept`` header one Django's parser reads (:func:`readable_accept`),
    when it names a parameter in RFC 2231's extended notation (:data:`_EXTENDED_PARAMETER`);
    any other header (a browser's ``...;q=0.9,*/*;q=0.8``) is left byte for byte."""
    header = request.META.get("HTTP_ACCEPT")
    if not header or not _EXTENDED_PARAMETER.search(header):
        return
    readable = readable_accept(header)
    if readable == header:
        return
    if readable is None:
        del request.META["HTTP_ACCEPT"]
    else:
        request.META["HTTP_ACCEPT"] = readable
    request.__dict__.pop("headers", None)  # HttpHeaders cached from META
    request.__dict__.pop("accepted_types", None)


def _accept_read(request: Any) -> HttpResponse | None:
    """:func:`_read_accept`, refusing nothing (the form :func:`_guard` takes)."""
    _read_accept(request)
    return None


#: The ``Accept`` header read as HTTP defines it, for every page and endpoint.
#:
#: HTTP's ``Accept`` has no RFC 2231 notation (RFC 9110 12.5.1: a parameter is a token,
#: ``=``, a token or a quoted string; RFC 8187's extended values are only for the header
#: fields that adopt them, such as ``Content-Disposition``), so ``text/html; x*=bogus''a``
#: is ``text/html`` with an extension parameter named ``x*``, and negotiation ignores
#: extension parameters (``application/json; x=1`` is answered JSON).  Django's parser,
#: which DRF's content negotiation and ``HttpRequest.accepts`` use, decodes such a
#: parameter as MIME does and raised ``ValueError`` (``x*=bogus''a``, ``q*=utf-8''%ff``
#: under a charset it does not know) or ``UnicodeError`` (``x*=idna''a``): a 500 on every
#: API endpoint and on the language switch (``set_language`` asks
#: ``request.accepts("text/html")``).  Such parameters are dropped from the header before
#: anything reads it (:func:`readable_accept`), so the request is negotiated as it would
#: be without them.
readable_accept_middleware = _guard(_accept_read)


def _declared_length(request: Any) -> int:
    """The request's ``Content-Length`` as a number (0 without one; a malformed one is
    left to Django, which reads it as 0)."""
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE or 0
    return capped_decimal(str(request.META.get("CONTENT_LENGTH") or ""), limit + 1) or 0


def _refuse_too_large(request: Any) -> HttpResponse | None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is None or request.method not in _BODY_METHODS or _declared_length(request) <= limit:
        return None
    detail = f"The request body is larger than {limit} bytes."
    if is_api(request):
        return problem_json(request, status=413, code="payload_too_large", detail=detail)
    return HttpResponse(detail, status=413, content_type="text/plain; charset=utf-8")


#: ``413`` for a request body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``, refused on its
#: ``Content-Length`` before anything reads it.
#:
#: Nothing here takes a body that large (JSON is capped at it, forms hold a few fields, no
#: form takes a file), but Django counts only a form's fields against the limit, not the
#: files of a ``multipart/form-data`` body: a 5 MB file posted to ``/accounts/login/`` was
#: read whole (to a temporary file) by the CSRF check and answered 200.  Under ``/api/``
#: problem+json ``payload_too_large``, as the JSON parser answers.
body_size_middleware = _guard(_refuse_too_large)


#: The codecs (by :func:`codecs.lookup` name) a request's ``charset`` may name: UTF-8 and
#: ISO-8859-1, under any of their aliases (``UTF8``, ``latin-1``, ``l1``, ``cp819``...).
#:
#: An allow-list, not a list of codecs known to break: Django decoded the query string
#: with the charset on the WSGI server (it reads it as UTF-8 on both servers now, whatever
#: the charset: :class:`canfield_site.handlers.WSGIRequest`; the list stays, as no body
#: here is read in another charset either), while it builds the request (strictly, falling
#: back to ISO-8859-1, then each ``%``-escape with ``errors="replace"``) and
#: ``QueryDict.urlencode`` encodes the values back with it (strictly: the leaderboard
#: pages' links), and each step broke for some codec Python counts as text:
#: ``idna``, ``punycode`` and ``undefined`` raise on any decode (the server's bare 500,
#: every page and endpoint); ``ascii``, ``cp1253``, ``iso8859-7`` and the CJK codecs
#: cannot encode the U+FFFD they decoded (a 500 on a leaderboard page); ``utf-7`` decodes
#: lone surrogates no page can be written in (a 500 on the login page).  UTF-8 and
#: ISO-8859-1 decode any bytes and encode whatever they decoded.  The rest are refused
#: too: ``utf-16``, ``utf-32`` and the EBCDIC codecs (``cp500``) read even an ASCII query
#: (``mode=window``) as other characters on the WSGI server while the ASGI server reads
#: it as UTF-8, and the single-byte code pages only differ from ISO-8859-1 on
#: ``%``-escapes no URL of this service holds; no body here is read in any of them
#: (forms and JSON are UTF-8 only).
#: ``tests/web/test_request_building_attacks.py`` walks every codec Python knows through both
#: servers.
READABLE_CHARSETS = frozenset({"utf-8", "iso8859-1"})


def unreadable_content_type(content_type: str) -> str | None:
    """Why Django cannot build a request with this ``Content-Type``, or ``None``.

    Django reads the header while it builds the request, before any middleware runs, and
    what broke there was an exception out of the handler: the server's bare 500, on every
    page and endpoint.  Refused: a header Django's parser raises on (a parameter in RFC
    2231 form naming an encoding Python does not know, ``x*=bogus''a``: ``ValueError``;
    or one that raises decoding it, ``x*=idna''a``: ``UnicodeError``), and a ``charset``
    naming a codec outside :data:`READABLE_CHARSETS` (``rot13``, ``idna``, ``ascii``,
    ``utf-16``), or a name the codec registry raises on (``charset*=utf-8''%00``:
    ``ValueError``).  A plain ``charset`` naming no codec is no reason (Django ignores
    it), nor is a header without one.
    """
    try:
        _type, params = parse_header_parameters(content_type)
    except Exception:  # ValueError, UnicodeError: whatever stops Django's own parse
        return "The Content-Type header cannot be read (a parameter names an unknown encoding)."
    charset = params.get("charset")
    if not charset:
        return None
    try:
        name = codecs.lookup(charset).name
    except LookupError:
        return None
    except Exception:  # ValueError for an embedded NUL: Django's lookup raised it too
        name = ""
    if name in READABLE_CHARSETS:
        return None
    return (
        "The Content-Type names a charset this server does not read: "
        "send utf-8 (or iso-8859-1), or no charset."
    )


def unreadable_query(raw: bytes) -> str | None:
    """Why Django's servers would read the query string ``raw`` (its bytes as the client
    sent them) differently, or ``None``: bytes outside ``%``-escapes that are not UTF-8.

    RFC 3986 allows no such byte in a URL (browsers ``%``-escape them).  Django's ASGI
    request decodes the query as UTF-8 while it is built and answers a bare ``400``
    (``UnicodeDecodeError``, plain HTML even under ``/api/``); its WSGI request fell back
    to ISO-8859-1 (``?next=/\xe9`` was ``/é``, a ``200``).  Both servers refuse it the
    same way now, before Django.
    """
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "The query string holds bytes that are not UTF-8: %-escape them."
    return None


#: Status line, ``code`` and status of each refusal answered before Django.
_STATUS = {415: "415 Unsupported Media Type", 400: "400 Bad Request"}
_CODES = {415: "unsupported_media_type", 400: "bad_request"}


def _refusal_body(path: str, detail: str, status: int = 415) -> tuple[bytes, list[tuple[str, str]]]:
    """The body and headers of a refusal (``status``: 415 or 400) answered before Django:
    problem+json (``unsupported_media_type``, ``bad_request``) under ``/api/``, with
    ``Content-Language: en`` as every API answer; plain text elsewhere."""
    if path.startswith("/api/"):
        from api.errors import problem_body

        body = problem_body(status=status, code=_CODES[status], detail=detail, instance=path)
        data = json.dumps(body).encode()
        return data, [
            ("Content-Type", "application/problem+json"),
            ("Content-Language", "en"),
            ("Content-Length", str(len(data))),
        ]
    data = detail.encode()
    return data, [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(data)))]


def wsgi_charset_guard(app: Callable[..., Any]) -> Callable[..., Any]:
    """The WSGI application ``app``, answering ``415`` itself to a request whose
    ``Content-Type`` Django cannot build a request from (:func:`unreadable_content_type`:
    ``GET /?x=1`` with ``Content-Type: text/plain; charset=rot13`` raised ``LookupError``
    out of the handler).  Under ``/api/`` problem+json ``unsupported_media_type``,
    elsewhere plain text.  Likewise ``400`` (``bad_request``) to a query string whose
    bytes are not UTF-8 (:func:`unreadable_query`), as the ASGI server answers it.
    """

    def guarded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        status = 415
        why = unreadable_content_type(str(environ.get("CONTENT_TYPE") or ""))
        if why is None:
            # PEP 3333: the query's bytes, each as the character of the same number.
            raw = str(environ.get("QUERY_STRING") or "").encode("latin-1", "replace")
            status, why = 400, unreadable_query(raw)
        if why is None:
            return app(environ, start_response)
        body, headers = _refusal_body(str(environ.get("PATH_INFO") or ""), why, status)
        start_response(_STATUS[status], headers)
        return [body]

    return guarded


def asgi_charset_guard(app: Callable[..., Any]) -> Callable[..., Any]:
    """The ASGI application ``app``, answering ``415`` itself to an HTTP request whose
    ``Content-Type`` Django cannot build a request from (:func:`unreadable_content_type`:
    ``x*=bogus''a`` raised ``ValueError`` out of Django's ASGI handler), as
    :func:`wsgi_charset_guard` does, and ``400`` to a query string whose bytes are not
    UTF-8 (:func:`unreadable_query`: Django's own answer was a bare HTML 400, even under
    ``/api/``); the body is not read."""

    async def guarded(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            # Joined as Django's ASGIRequest joins a repeated header, so both read one value.
            raw = b",".join(v for k, v in scope.get("headers", []) if k.lower() == b"content-type")
            status = 415
            why = unreadable_content_type(raw.decode("latin-1")) if raw else None
            if why is None:
                status, why = 400, unreadable_query(bytes(scope.get("query_string") or b""))
            if why is not None:
                body, headers = _refusal_body(str(scope.get("path") or ""), why, status)
                await send(
                    {
                        "type": "http.response.start",
                        "status": status,
                        "headers": [(k.lower().encode(), v.encode()) for k, v in headers],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await app(scope, receive, send)

    return guarded


# ------------------------------------------------------------------ 405 before CSRF

#: The attribute :func:`methods_only` records a view's methods in.
ALLOWED_METHODS = "allowed_methods"


def methods_only(*methods: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Django's ``require_http_methods(methods)`` that also records ``methods`` on the view
    (:data:`ALLOWED_METHODS`; decorators applied over it with ``functools.wraps``, such as
    ``login_required``, keep it), so that :data:`method_not_allowed_middleware` answers
    any other method ``405`` before the CSRF check.  ``methods``: upper-case names (``"GET"``)."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        checked = require_http_methods(list(methods))(view)
        setattr(checked, ALLOWED_METHODS, tuple(methods))
        return checked

    return decorate


def _refuse_method(request: Any) -> HttpResponse | None:
    """``405`` with ``Allow`` for a method the page never accepts (the methods
    :func:`methods_only` recorded on its view), as the view itself would answer."""
    if request.method == "GET" or is_api(request):
        return None  # every page with recorded methods takes GET; the API records none
    try:
        match = get_resolver(getattr(request, "urlconf", None)).resolve(request.path_info)
    except Resolver404:
        return None
    allowed = getattr(match.func, ALLOWED_METHODS, None)
    if allowed is None or request.method in allowed:
        return None
    response = HttpResponseNotAllowed(allowed)
    log_response(
        "Method Not Allowed (%s): %s",
        request.method,
        request.path,
        response=response,
        request=request,
    )
    return response


#: ``405`` before the CSRF check (placed before ``CsrfViewMiddleware``): a request whose
#: method the page never accepts is answered as the view would answer it, ``405`` with
#: ``Allow``.  A ``POST`` to a ``GET``-only page met the CSRF failure's 403 page first
#: (blaming a form's missing token on a page that takes no form).  Nothing else changes:
#: every method a view accepts, ``POST`` included, is CSRF-checked as before, and a view
#: without recorded methods (the API's, the admin's) always is.
method_not_allowed_middleware = _guard(_refuse_method)


def answers_someone(request: Any, response: HttpResponse) -> bool:
    """Whether ``response`` (a page's, not the API's) is one client's own: the request
    carried a session cookie (a logged-in player, or any session: what the page shows may
    come from it), the session was written, or the response sets a cookie (the CSRF
    cookie that the page's own token belongs to, the session's, the language's).
    Decided from the headers alone: no session is read here (no query, no failure)."""
    if settings.SESSION_COOKIE_NAME in request.COOKIES:
        return True
    session = getattr(request, "session", None)
    if session is not None and getattr(session, "modified", False):
        return True
    return bool(response.cookies)


def _mark_private(request: Any, response: HttpResponse) -> HttpResponse:
    if not is_api(request) and answers_someone(request, response):
        patch_cache_control(response, private=True)
    return response


@sync_and_async_middleware
def private_pages_middleware(get_response: Any) -> Any:
    """``Cache-Control: private`` merged into every page answered to one client
    (:func:`answers_someone`): a shared cache (a proxy, a CDN) never keeps one player's
    page, nor a page whose CSRF token goes with a cookie it sets, for another.  What a
    view set stays (the polled lists' ``no-cache`` and ``ETag``, so a ``304`` still
    answers an unchanged poll; the login page's ``no-store``).  The API decides its own
    (``api.query.ApiView``); static files are answered before this (WhiteNoise) and
    stay cacheable.  It sits outside the session and CSRF middleware, so it sees the
    cookies they set."""
    if iscoroutinefunction(get_response):

        async def middleware_async(request: Any) -> Any:
            return _mark_private(request, await get_response(request))

        return middleware_async

    def middleware(request: Any) -> Any:
        return _mark_private(request, get_response(request))

    return middleware


#: ``Retry-After`` (seconds) of a request answered ``503`` because the database could
#: not be reached (:class:`DatabaseUnavailableMiddleware`).
DATABASE_RETRY_AFTER_SECONDS = 5


class DatabaseUnavailableMiddleware(MiddlewareMixin):
    """A view that lost the database answers ``503`` with ``Retry-After``, not ``500``.

    PostgreSQL down, a connection refused or terminated (``pg_terminate_backend``, a
    failover), a pool timeout: Django raises ``OperationalError`` or ``InterfaceError``
    (``django.db``).  The request's transaction did not commit (a move resent with the
    same ``expected_move_number`` is answered ``replayed`` if it did), so the client is
    told to retry: under ``/api/`` ``503 database_unavailable`` problem+json, on a page
    the plain page ``503.html`` (rendered without the request: no session or user is
    read), both with ``Retry-After: 5`` (:data:`DATABASE_RETRY_AFTER_SECONDS`).  The
    exception, its traceback and the request's method and path are logged at ``ERROR``
    (logger ``canfield_site.middleware``); the answer names none of it (no host, port
    or SQL).  Any other exception is left to Django (a ``500``).
    """

    def process_exception(self, request: Any, exception: Exception) -> HttpResponse | None:
        """Answer ``503`` for the database's connection errors, ``None`` (Django's 500)
        for anything else."""
        if not isinstance(exception, OperationalError | InterfaceError):
            return None
        logger.error(
            "database unavailable on %s %s: %s",
            request.method,
            request.path,
            type(exception).__name__,
            exc_info=exception,
        )
        retry = str(DATABASE_RETRY_AFTER_SECONDS)
        if is_api(request):
            response: HttpResponse = problem_json(
                request,
                status=503,
                code="database_unavailable",
                detail="The database is unavailable; retry after Retry-After seconds.",
                extra={"retry_after": DATABASE_RETRY_AFTER_SECONDS},
                Retry_After=retry,
            )
        else:
            response = HttpResponse(render_to_string("503.html"), status=503)
            response["Retry-After"] = retry
        response._has_been_logged = True  # type: ignore[attr-defined]  # logged above
        return response
