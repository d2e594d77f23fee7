"""The ReDoc page, served without any request leaving this server (issue 13 item 5).

drf-spectacular's ReDoc template links Google Fonts, and ReDoc's bundle (served from
``drf-spectacular-sidecar``) loads the Redocly logo from Redocly's CDN.
:class:`OfflineRedocView` uses a template without the fonts
(``api/templates/api/redoc.html``; ReDoc falls back to the system's sans-serif) and the
sidecar's bundle with the logo's CDN address replaced by an inline SVG
(:func:`redoc_bundle`), and sends a Content-Security-Policy that allows this origin only
(plus ``data:``/``blob:``, which ReDoc uses for its worker and inline images), in case a
later ReDoc release adds another outside request.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import drf_spectacular_sidecar
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.query import ApiView
from api.refusals import API_LANGUAGE

#: The sidecar's ReDoc bundle, and the CDN address of the logo inside it.
SIDECAR_REDOC = (
    Path(drf_spectacular_sidecar.__file__).parent
    / "static/drf_spectacular_sidecar/redoc/bundles/redoc.standalone.js"
)
CDN_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"
#: A plain document icon in its place (inline: no request at all).
LOCAL_LOGO = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
    "%3Cpath fill='%23666' d='M3 1h7l3 3v11H3z'/%3E%3C/svg%3E"
)

#: This origin only; ReDoc needs inline styles (styled-components), its inline start-up
#: script and a ``blob:`` web worker.
REDOC_CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' blob:",
        "worker-src 'self' blob:",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "font-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "frame-ancestors 'self'",
    ]
)


def schema_language(request: HttpRequest) -> str:
    """The language drf-spectacular writes the schema in for this request: its ``?lang=``
    as one of ``settings.LANGUAGES`` (``fr-ca`` is ``fr``), else English
    (:data:`~api.refusals.API_LANGUAGE`: an unknown language falls back to it)."""
    lang = request.GET.get("lang")
    if not settings.USE_I18N or not lang:
        return API_LANGUAGE
    try:
        return translation.get_supported_language_variant(lang)
    except LookupError:
        return API_LANGUAGE


class _SchemaLanguage:
    """A schema view or page whose answer says its language (``Content-Language``), the
    one of its ``?lang=`` (:func:`schema_language`), not the API's English."""

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """The view's answer; a successful ``GET`` marked with :func:`schema_language`
        (not :meth:`get`: drf-spectacular's decorated ``get`` documents these views)."""
        response = super().finalize_response(  # type: ignore[misc]
            request, response, *args, **kwargs
        )
        if request.method in ("GET", "HEAD") and response.status_code < 400:
            response["Content-Language"] = schema_language(request)
        return response


class SchemaView(_SchemaLanguage, ApiView, SpectacularAPIView):
    """``GET /api/v1/schema/``: the OpenAPI schema, YAML by default; ``?format=json`` (or
    ``yaml``) chooses, as ``Accept`` does; ``?lang=`` translates it.  Any other query
    parameter, or one of these twice, is refused (``api.query``)."""

    content_negotiation_class = DefaultContentNegotiation  # ?format= is declared here

    def accepted_query_parameters(self, handler: Any) -> tuple[str, ...]:
        """``format`` and ``lang``."""
        return ("format", "lang")


class _DocsPage(ApiView):
    """A documentation page (an HTML template of the schema): ``OPTIONS`` answers DRF's
    description of the view in JSON, as every other endpoint does.  The page's template
    renderer drew that description with the page's template, which lacks its context:
    Swagger UI's was a 500 (no template to include), ReDoc's a broken page."""

    def get_renderers(self) -> list[BaseRenderer]:
        """The page's renderers, or JSON alone for ``OPTIONS``."""
        request = getattr(self, "request", None)
        if request is not None and request.method == "OPTIONS":
            return [JSONRenderer()]
        return list(super().get_renderers())


class SwaggerView(_SchemaLanguage, _DocsPage, SpectacularSwaggerView):
    """``GET /api/v1/docs/``: Swagger UI on the schema; ``?lang=`` as the schema's."""

    def accepted_query_parameters(self, handler: Any) -> tuple[str, ...]:
        """``lang``."""
        return ("lang",)


class OfflineRedocView(_SchemaLanguage, _DocsPage, SpectacularRedocView):
    """``GET /api/v1/redoc/``: ReDoc on the OpenAPI schema, with nothing loaded from a CDN;
    ``?lang=`` as the schema's."""

    template_name = "api/redoc.html"

    def accepted_query_parameters(self, handler: Any) -> tuple[str, ...]:
        """``lang``."""
        return ("lang",)

    @staticmethod
    def _redoc_standalone() -> str:
        return reverse("api:redoc-bundle")

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """Add :data:`REDOC_CSP` as the page's Content-Security-Policy."""
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = REDOC_CSP
        return response


@functools.cache
def _bundle() -> bytes:
    return SIDECAR_REDOC.read_bytes().replace(CDN_LOGO.encode(), LOCAL_LOGO.encode())


@require_safe
def redoc_bundle(request: HttpRequest) -> HttpResponse:
    """``GET /api/v1/redoc/redoc.standalone.js``: the sidecar's ReDoc bundle, logo inlined.

    Read once per process; cached by browsers for a day.  ``GET`` and ``HEAD`` only: any
    other method is ``405 method_not_allowed`` (problem+json, ``allowed``; it answered
    ``POST`` with the script).
    """
    response = HttpResponse(_bundle(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response
