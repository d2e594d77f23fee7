"""OpenAPI post-processing: every error an operation can answer, as problem+json.

drf-spectacular documents the responses each view declares.  The framework adds more
(an invalid token is 401 on any authenticated view, a throttle is 429, an id that
matches no row is 404, a body that is not JSON is 400/415/413, a query parameter the
operation does not declare is 400 ``unknown_query_parameter`` (``api.query``), an
``Accept`` the API cannot serve is 406), and every error body is an RFC 9457
``application/problem+json`` document.  :func:`document_problems`
(``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``) adds those responses to each
operation, from the view that serves it, and moves every 4xx/5xx body to
``application/problem+json``; each description names the codes (``api.problem_codes``)
that status can carry there.  UUID path parameters get the
pattern the URL converter matches (lower-case hex).
"""

from __future__ import annotations

import re
from typing import Any

from django.urls import Resolver404, resolve

PROBLEM_MEDIA_TYPE = "application/problem+json"
PROBLEM_REF = {"$ref": "#/components/schemas/Problem"}
_PATH_PARAM = re.compile(r"\{[^}]+\}")
_ANY_UUID = "00000000-0000-4000-8000-000000000000"
#: Django's ``<uuid:...>`` converter: lower-case hex only (other spellings are no route).
UUID_PATTERN = "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"


#: The extension members of a problem document (RFC 9457 section 3.2), each present
#: only with the codes it names: OpenAPI properties of ``Problem`` (and the problems
#: built on it), added by :func:`document_problems`.
PROBLEM_EXTENSIONS: dict[str, dict[str, Any]] = {
    "errors": {
        "type": "object",
        "additionalProperties": {},
        "description": "`validation_error` only: each invalid field's name -> its messages "
        '(`{"page_size": ["A positive integer is required."]}`).',
    },
    "fields": {
        "type": "array",
        "items": {"type": "string"},
        "description": "`unknown_field` only: the body's fields the endpoint does not declare.",
    },
    "parameters": {
        "type": "array",
        "items": {"type": "string"},
        "description": "`unknown_query_parameter`, `repeated_query_parameter` only: the "
        "query parameters refused.",
    },
    "accepted": {
        "type": "array",
        "items": {"type": "string"},
        "description": "`unknown_query_parameter`, `repeated_query_parameter` only: the query "
        "parameters the operation declares.",
    },
    "retry_after": {
        "type": "integer",
        "description": "Seconds to wait before retrying, as the `Retry-After` header: "
        "`throttled`, `login_locked_out`, `race_not_started`, `race_not_finished`, "
        "`no_winnable_deal`, `too_many_solves`, `too_many_streams`, `database_unavailable`, "
        "and `live_unavailable` when the broker is down (not from the WSGI server, which "
        "never serves streams).",
    },
    "current_move_number": {
        "type": "integer",
        "description": "`stale_move_number` only: the moves the game has played (send it as "
        "`expected_move_number`).",
    },
    "reason": {
        "type": "string",
        "description": "`disqualified` only: the organisers' reason.",
    },
    "limit": {
        "type": "integer",
        "description": "`move_limit_reached` only: the moves one game accepts in all, undone "
        "ones included (the server's `GAME_MOVE_LIMIT`).",
    },
    "tried": {
        "type": "integer",
        "description": "`no_winnable_deal_found` only: the fresh deals of these rules proved "
        "lost in a row.",
    },
}


def _add_problem_extensions(schemas: dict[str, Any]) -> None:
    """Give ``Problem`` and every schema built on it the :data:`PROBLEM_EXTENSIONS` it
    does not declare itself (``ResultsProblem`` keeps its own ``retry_after``)."""
    base = set(schemas.get("Problem", {}).get("properties", {}))
    if not base:
        return
    for schema in schemas.values():
        props = schema.get("properties")
        if isinstance(props, dict) and base <= set(props):
            for name, spec in PROBLEM_EXTENSIONS.items():
                props.setdefault(name, dict(spec))


def _view_class(path: str) -> Any:
    try:
        match = resolve(_PATH_PARAM.sub(_ANY_UUID, path))
    except Resolver404:
        return None
    return getattr(match.func, "cls", None)


#: What a bad value of a query parameter answers; any other parameter is a list filter
#: (``invalid_filter``).
_QUERY_VALUE_CODES: dict[str, list[str]] = {
    "cursor": ["invalid_cursor"],
    "page_size": ["validation_error"],
    "start": ["validation_error"],  # a solution's (a serializer's field)
    "last_event_id": [],  # a stream's: an id it cannot read gets a fresh snapshot
}


def _codes_for(status: str, *, op: dict[str, Any], view: Any, method: str) -> list[str]:
    params = {p.get("name") for p in op.get("parameters", []) if p.get("in") == "query"}
    if status == "400":
        codes = []
        if "requestBody" in op:
            codes += ["validation_error", "malformed_request", "unknown_field"]
        for name in sorted(params):
            codes += _QUERY_VALUE_CODES.get(name, ["invalid_filter"])
        # Every endpoint refuses a query parameter it does not declare (api.query); a
        # declared one given twice is refused too.
        codes.append("unknown_query_parameter")
        if params:
            codes.append("repeated_query_parameter")
        return codes
    if status == "401":
        return ["not_authenticated", "authentication_failed"]
    if status == "403":
        return ["permission_denied"]
    if status == "404":
        return ["not_found"]
    if status == "406":
        return ["not_acceptable"]
    if status == "411":
        return ["length_required"]
    if status == "413":
        return ["payload_too_large"]
    if status == "415":
        return ["unsupported_media_type"]
    if status == "429":
        codes = ["throttled"]
        if view is not None and view.__name__ == "TokenView":
            codes.append("login_locked_out")
        return codes
    return []


def _needed(op: dict[str, Any], view: Any, path: str, method: str = "get") -> set[str]:
    """The error statuses the framework can answer for ``op`` whatever the view declares."""
    # 400: an undeclared query parameter is refused everywhere (api.query).
    needed = {"400", "406"}
    if method in ("post", "put", "patch"):
        # A body sent in chunks, on any method that takes one, with a body declared or
        # not (canfield_site.middleware.length_required_middleware).
        needed.add("411")
    ok = op.get("responses", {}).get("200", {}).get("content", {})
    if "text/event-stream" in ok:
        # An event stream ignores Accept (api.streams): it never answers 406.
        needed.discard("406")
    if "requestBody" in op:
        needed |= {"413", "415"}
    if "{" in path:
        needed.add("404")
    if view is not None:
        if list(getattr(view, "authentication_classes", [])):
            needed.add("401")
        if getattr(view, "throttle_scope", None):
            needed.add("429")
    return needed


def document_problems(result: dict[str, Any], generator: Any, **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular post-processing hook; returns the schema with the errors above."""
    _add_problem_extensions(result.get("components", {}).get("schemas", {}))
    for path, item in result.get("paths", {}).items():
        view = _view_class(path)
        for method, op in item.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            for param in op.get("parameters", []):
                if param.get("in") == "path" and param.get("schema", {}).get("format") == "uuid":
                    param["schema"]["pattern"] = UUID_PATTERN
            responses: dict[str, Any] = op["responses"]
            for status in sorted(_needed(op, view, path, method) - set(responses)):
                responses[status] = {"description": ""}
            for status, response in responses.items():
                if status[:1] not in ("4", "5"):
                    continue
                codes = _codes_for(status, op=op, view=view, method=method)
                described = response.get("description") or ""
                known = [c for c in dict.fromkeys(codes) if c not in described]
                if known:
                    listed = ", ".join(f"`{c}`" for c in known)
                    response["description"] = (
                        f"{described}; also {listed}" if described else f"Problem codes: {listed}"
                    )
                elif not described:
                    response["description"] = "See the problem's `code`."
                content: dict[str, Any] = response.get("content") or {}
                first: dict[str, Any] = next(iter(content.values()), {})
                schema = first.get("schema", PROBLEM_REF)
                response["content"] = {PROBLEM_MEDIA_TYPE: {"schema": schema}}
    return result
