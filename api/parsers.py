"""A JSON parser that refuses bodies over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` bytes (413).

DRF's own parser reads the whole stream whatever its size; this one stops
reading one byte past the limit, so an oversized body costs no memory.  An object
that names a key twice (``{"move": "draw", "move": "QH>t2"}``) is refused as
malformed (400 ``malformed_request``): Python's parser kept the last value silently, so
the move played was not the one a reader of the body (a log, a proxy, another JSON
library taking the first) would see.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import exceptions
from rest_framework.parsers import JSONParser


def capped_decimal(raw: str, cap: int) -> int | None:
    """``raw`` as a non-negative decimal integer, at most ``cap``; ``None`` unless ``raw``
    is ASCII digits.  A number longer than ``cap`` is ``cap`` without being converted
    (``int()`` refuses more than 4,300 digits: a 5,000-digit ``page_size``,
    ``Content-Length`` or hint ``poll`` was a 500)."""
    if not (raw.isascii() and raw.isdigit()):
        return None
    digits = raw.lstrip("0") or "0"
    return cap if len(digits) > len(str(cap)) else min(int(digits), cap)


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
        """The request body as the JSON value it encodes (``dict``, ``list``, ``str``,
        ``int``, ``float``, ``bool`` or ``None``; the views' serializers then refuse
        anything but an object).

        ``limit`` is ``settings.DATA_UPLOAD_MAX_MEMORY_SIZE`` (bytes); at most
        ``limit + 1`` bytes are read.  Raises :class:`PayloadTooLarge` (413
        ``payload_too_large``) when the declared ``Content-Length`` or the body read is
        over ``limit``; ``UnsupportedMediaType`` (415 ``unsupported_media_type``) for a
        ``charset`` other than UTF-8; ``ParseError`` (400 ``malformed_request``) for a
        body that is not UTF-8 or not JSON, uses ``NaN``/``Infinity``, names a key twice
        in one object, or is nested too deeply for the parser.
        """
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        context = parser_context or {}
        request = context.get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        too_large = PayloadTooLarge(f"The request body is larger than {limit} bytes.")
        length = capped_decimal(str(declared or ""), limit + 1)
        if length is not None and length > limit:
            raise too_large
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise too_large
        charset = _charset(request.META.get("CONTENT_TYPE", "") if request is not None else "")
        if charset not in (None, "utf-8", "utf8"):
            # JSON is UTF-8 (RFC 8259); any other "charset" (including codecs such as
            # bz2 that would inflate a small body past the size limit) is refused.
            raise exceptions.UnsupportedMediaType(
                f"application/json; charset={charset}",
                detail="JSON request bodies must be UTF-8 (charset=utf-8 or no charset).",
            )
        try:
            text = codecs.decode(raw, "utf-8")
            return json.loads(text, parse_constant=_refuse_constant, object_pairs_hook=_unique_keys)
        except RecursionError:
            raise exceptions.ParseError(
                "JSON parse error - the body is nested too deeply"
            ) from None
        except (ValueError, UnicodeDecodeError) as exc:
            raise exceptions.ParseError(f"JSON parse error - {exc}") from None


def _charset(content_type: str) -> str | None:
    """The lower-cased ``charset`` parameter of a Content-Type header, or ``None``."""
    for part in content_type.split(";")[1:]:
        name, _, value = part.strip().partition("=")
        if name.strip().lower() == "charset":
            return value.strip().strip('"').lower()
    return None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict; raises ``ValueError`` when it names a key twice."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r} in an object")
        out[key] = value
    return out


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
