"""OpenAPI for the event streams (plain async views drf-spectacular cannot see).

:func:`add_stream_paths` is a drf-spectacular post-processing hook
(``SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]``): it adds the three
``text/event-stream`` endpoints with their events and problem responses.
"""

from __future__ import annotations

from typing import Any

_COMMON = (
    "Server-Sent Events (`text/event-stream`), served by the ASGI server only (under the WSGI "
    "entry point: `503 live_unavailable`). The first event is always `snapshot` (the current "
    "state, on every connect and reconnect, so nothing is missed); each event has an `id` "
    "(the topic's sequence number, which events may share; send it back as `Last-Event-ID` "
    "when reconnecting). The last event of a stream that ends because its subject is over "
    "has an id ending in `.end` (`82.end`): a reconnect sending such an id answers 204 "
    "(nothing more will come), any other id gets a fresh `snapshot`; "
    "`: heartbeat` comments come every `LIVE_HEARTBEAT_SECONDS` (15 s). Each `data` is one "
    "line of JSON. When Redis goes away the stream sends `unavailable` and ends: poll the REST "
    "endpoints and reconnect later (a reconnect answers `503 live_unavailable` until it is "
    "back). A stream that falls behind gets `lagging` and ends; reconnect. Authentication: "
    "session cookie or `Authorization: Token <key>`; a stream ends, with no further event, "
    "once the token or session it was opened with is revoked (a game stream checks before "
    "every event, every stream at every heartbeat; the reconnect answers 401). At most "
    "`LIVE_STREAMS_PER_USER` open "
    "streams per user (per address when anonymous). Responses carry `Cache-Control: "
    "private, no-cache, no-transform`, `Vary: Authorization` and `X-Accel-Buffering: no` so "
    "proxies neither keep nor buffer them. The stream ignores `Accept` (it never answers "
    "406). `last_event_id` in a `snapshot` is the number of the `Last-Event-ID` the client "
    "sent (without its `.end`), or null when none (or no number) was sent."
)

_STREAMS: dict[str, dict[str, Any]] = {
    "/api/v1/races/{race_id}/events": {
        "param": "race_id",
        "tag": "races",
        "operationId": "races_events",
        "summary": "Live race events",
        "auth_optional": True,
        "events": (
            "Events: `snapshot` {race (as `GET /races/{id}`), standings: the first 100 lines, "
            "count, url, ranking_rule, server_time, last_event_id}; `countdown` {race, phase, "
            "server_time, starts_at, ms_to_start} every 5 s before the start; `phase` {race, "
            "phase (`open`, `running` = started, `closing`, `finished`, `cancelled`), status, "
            "server_time, opens_at, starts_at, ends_at, results_url (null until `finished`)}; "
            "`standings` (the standings endpoint's body for `?limit=100` read anonymously: "
            "race, phase, ranking_rule, count, standings: the first 100 lines; plus url, "
            "server_time, oldest_change_ms and latest_change_ms: the server times of the "
            "oldest and newest change it reflects, in milliseconds since the Unix epoch) at "
            "most once per second while entrants play, at each window entrant's own "
            "deadline (their line then reads timed out; both change times are that "
            "deadline), and the final "
            "standings (without the change times) after `finished`. `count` is how many lines "
            "the whole standings has and `url` the standings endpoint "
            "(`/api/v1/races/{id}/standings`): every line there, and yours with `?limit=0` "
            "(the events carry no viewer's own line: every stream of a race gets the same "
            "ones). The "
            "stream ends after the final standings of a finished or cancelled race (that "
            "`phase` and those standings have ids ending in `.end`); a reconnect with such a "
            "`Last-Event-ID` answers 204, one with an older id (or none) gets the race's final "
            "`snapshot` (id ending in `.end`) and the stream ends. "
            "`gone` {reason: `not_found`, detail, server_time} "
            "(id ending in `.end`) ends the stream once the viewer may no longer see the race "
            "(moved into a draft tournament: only organisers' streams go on; deleted), checked "
            "before each event and at every heartbeat; the reconnect answers 404. Counts only: "
            "never a card or the running race's seed."
        ),
        "problems": {404: "not_found (no such race, or a draft tournament's)"},
    },
    "/api/v1/tournaments/{tournament_id}/events": {
        "param": "tournament_id",
        "tag": "tournaments",
        "operationId": "tournaments_events",
        "summary": "Live tournament events",
        "auth_optional": True,
        "events": (
            "Events: `snapshot` {tournament (as `GET /tournaments/{id}`), standings, "
            "server_time, last_event_id}; `race_added` {tournament, races: [race summaries]} "
            "(added, or moved in); `race_removed` {tournament, race (id), server_time} (moved "
            "to another tournament); "
            "`race_finished` {tournament, race, results_url}; `standings` {tournament, "
            "scored_at, count, standings: the first 100 rows, url} after each re-scoring; "
            "`status` {tournament, status, server_time} when the tournament is published, "
            "finished or cancelled. A finished or cancelled tournament's `status` is followed "
            "by its final `standings`, both with an id ending in `.end`, and the stream ends; "
            "a reconnect with `Last-Event-ID` to such an id answers 204. `gone` {reason: "
            "`not_found`, detail, server_time} (id ending in `.end`) ends the stream once the "
            "viewer may no longer see the tournament (deleted), checked before each event and "
            "at every heartbeat; the reconnect answers 404."
        ),
        "problems": {404: "not_found (no such tournament, or a draft)"},
    },
    "/api/v1/games/{game_id}/events": {
        "param": "game_id",
        "tag": "games",
        "operationId": "games_events",
        "summary": "Live game view (owner only)",
        "auth_optional": False,
        "events": (
            "Events: `snapshot` {game, last_event_id}; `game`: the game view (as `GET "
            "/games/{id}`) after each accepted move, undo, resignation or time-out, so a second "
            "device or tab stays in step. Hidden cards appear only as counts, exactly as in "
            "the REST view. The stream ends after the view of a game that is over."
        ),
        "problems": {
            404: "not_found (no such game, or not yours)",
            409: "race_not_started (a race game before its start)",
        },
    },
}


def _problem(ref: str, description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/problem+json": {"schema": {"$ref": ref}}},
    }


def add_stream_paths(result: dict[str, Any], generator: Any, request: Any, public: Any) -> Any:
    """Add the event-stream endpoints to the generated schema ``result``."""
    schemas = result.get("components", {}).get("schemas", {})
    ref = "#/components/schemas/Problem" if "Problem" in schemas else None
    schemes = list(result.get("components", {}).get("securitySchemes", {}))
    security: list[dict[str, list[str]]] = [{name: []} for name in schemes]
    for path, spec in _STREAMS.items():
        problems: dict[int, str] = {
            401: "not_authenticated, authentication_failed",
            429: "too_many_streams (`Retry-After`)",
            503: "live_unavailable (Redis down, or the WSGI server): poll instead",
            **spec["problems"],
        }
        responses: dict[str, Any] = {
            "200": {
                "description": spec["events"],
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            "204": {"description": "Reconnect to something already over: nothing more to send."},
        }
        for status, text in sorted(problems.items()):
            responses[str(status)] = _problem(ref, text) if ref else {"description": text}
        result.setdefault("paths", {})[path] = {
            "get": {
                "operationId": spec["operationId"],
                "summary": spec["summary"],
                "description": _COMMON,
                "tags": [spec["tag"]],
                "parameters": [
                    {
                        "in": "path",
                        "name": spec["param"],
                        "required": True,
                        "schema": {"type": "string", "format": "uuid"},
                    },
                    {
                        "in": "header",
                        "name": "Last-Event-ID",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "The last event id received, when reconnecting.",
                    },
                    {
                        "in": "query",
                        "name": "last_event_id",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "The same as the `Last-Event-ID` header, for a client "
                        "that cannot set headers (the header wins when both are sent). Any "
                        "other query parameter is 400 `unknown_query_parameter`.",
                    },
                ],
                "security": security + ([{}] if spec["auth_optional"] else []),
                "responses": responses,
            }
        }
    result["paths"] = dict(sorted(result["paths"].items()))
    return result
