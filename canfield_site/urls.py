"""Root URL configuration: the admin, version 1 of the API, the language switch and the pages."""

from django.contrib import admin
from django.http import HttpRequest, HttpResponseBase
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView
from django.views.i18n import set_language

from web.middleware import reads_query
from web.throttling import throttled


class FaviconRedirect(RedirectView):
    """``/favicon.ico`` -> the site's icon (resolved per request: with the hashed static
    files storage the name is only known once ``collectstatic`` has run)."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("web/favicon.svg")


@reads_query("next")
def language_switch(request: HttpRequest) -> HttpResponseBase:
    """``POST /i18n/setlang/``: Django's language switch (``django.conf.urls.i18n``, the
    same address and name), which reads ``next`` from the form or else from the query;
    declared here so that a repeated ``next`` is refused (:mod:`web.middleware`)."""
    return set_language(request)


urlpatterns = [
    # The admin's login checks passwords as the pages' and the API's do: the same
    # "auth" budget per client address (web.throttling), besides the lockout.
    path("admin/login/", throttled("auth")(admin.site.login)),
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("i18n/setlang/", language_switch, name="set_language"),
    # Browsers and tools that ask for /favicon.ico without reading the page's <link>.
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    path("", include("web.urls")),
]

handler404 = "api.errors.api_not_found"
handler500 = "api.errors.api_server_error"
handler400 = "api.refusals.api_bad_request"
handler403 = "api.refusals.api_permission_denied"
