"""A JSON parser that refuses bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (413).

DRF's own parser reads the whole stream whatever its size; this one stops
reading one byte past the limit, so an oversized body costs no memory.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.parsers import JSONParser


class PayloadTooLarge(exceptions.APIException):
    """413: the request body is larger than the server accepts."""

    status_code = 413
    default_code = "payload_too_large"
    default_detail = "The request body is too large."


class LimitedJSONParser(JSONParser):
    """JSON bodies up to ``settings.DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes; larger is 413."""

    def parse(
        self,
        stream: IO[Any],
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        context = parser_context or {}
        request = context.get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        too_large = PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        if declared and str(declared).isdigit() and int(declared) > limit:
            raise too_large
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise too_large
        encoding = context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.decode(raw, encoding)
            return json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
