"""The browsable API of development builds, with problem documents kept as JSON."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import renderers


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API (added to the renderers when ``DEBUG`` is on), except for a
    problem document: that is rendered as JSON, as its ``Content-Type``
    (``application/problem+json``) says.  A browser's ``Accept: text/html`` got the
    browsable page's HTML under that type (an attack saw it on ``?phase=bogus``)."""

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> Any:
        from api.errors import PROBLEM_CONTENT_TYPE  # api.errors loads the renderers

        response = (renderer_context or {}).get("response")
        if response is not None and response.content_type == PROBLEM_CONTENT_TYPE:
            return renderers.JSONRenderer().render(data, "application/json", renderer_context)
        return super().render(data, accepted_media_type, renderer_context)
