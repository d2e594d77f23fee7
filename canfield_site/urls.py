"""Root URL configuration: the admin, version 1 of the API, the language switch and the pages."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("web.urls")),
]

handler404 = "api.errors.api_not_found"
handler500 = "api.errors.api_server_error"
handler400 = "api.refusals.api_bad_request"
handler403 = "api.refusals.api_permission_denied"
