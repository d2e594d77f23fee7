"""The stable problem ``code``s of the API and their meaning (re-exported by ``api.errors``).

A plain dictionary with no imports, so ``canfield_site/settings.py`` can render it
into the OpenAPI description.  Every code the API can answer with must be listed
here (``tests/api/test_schema.py`` checks the code base against it).
"""

from __future__ import annotations

PROBLEM_CODES: dict[str, str] = {
    # Request shape and HTTP (400, 401, 403, 404, 405, 406, 413, 415, 429, 500, 503).
    "validation_error": "400: a field is missing or invalid; see `errors` (field -> messages).",
    "malformed_request": "400: the body is not valid JSON (or names a key twice) or not a "
    "JSON object.",
    "unknown_field": "400: the body has fields the endpoint does not declare; see `fields`.",
    "unknown_query_parameter": "400: the query has parameters the endpoint does not declare "
    "(each operation lists its own; `format` is not one: send `Accept`); see `parameters` "
    "(the unknown names) and `accepted` (the declared ones).",
    "repeated_query_parameter": "400: a query parameter is given more than once; send each "
    "once (a list filter takes one comma-separated value: `phase=open,running`); see "
    "`parameters` and `accepted`.",
    "invalid_filter": "400: an unknown or empty value for a list filter (`phase`, `mode`, "
    "`status`, `provisional`, a `pool` that names no pool).",
    "bad_request": "400: the server refused the request (e.g. a `Host` it does not serve).",
    "csrf_failed": "403: a session request without a valid CSRF token (send `X-CSRFToken`, or "
    "use a token in `Authorization`).",
    "nul_character": "400: the path or the query holds a NUL character (`%00`).",
    "invalid_cursor": "400: the `cursor` is not one the list gave out; start without it.",
    "not_paginated": "400: `cursor` or `page_size` sent to a list that comes whole (a race's "
    "standings or results, your tournament results, the rating pools); leave them out.",
    "authentication_failed": "401: the token or session is invalid.",
    "not_authenticated": "401: the endpoint needs a token or a session.",
    "invalid_credentials": "400: unknown username or wrong password (the same for both).",
    "login_locked_out": "429: too many failed logins of this username from this address, "
    "or from this address in all (`detail` says which); "
    "retry after `retry_after` seconds (`Retry-After`).",
    "username_taken": "409: the username is taken (compared case-insensitively).",
    "permission_denied": "403: you may not do this (e.g. organiser-only endpoints).",
    "not_found": "404: no such resource, or it is not yours (ids leak nothing).",
    "method_not_allowed": "405: the HTTP method is not allowed here; `allowed` (and `Allow`) "
    "lists the methods the endpoint takes.",
    "not_acceptable": "406: no response format matches the `Accept` header.",
    "length_required": "411: a request body needs a `Content-Length` header; a chunked body "
    "(`Transfer-Encoding: chunked`) is not read.",
    "payload_too_large": "413: the body is larger than the server accepts.",
    "unsupported_media_type": "415: send `application/json`.",
    "throttled": "429: too many requests; retry after `retry_after` seconds (`Retry-After`).",
    "internal_error": "500: the server failed; the request may not have been applied.",
    "service_unavailable": "503: the database, the broker or the cache is down (health "
    "check; the members say which).",
    "database_unavailable": "503: the database could not be reached; retry after "
    "`retry_after` seconds (`Retry-After`; a move resent with the same "
    "`expected_move_number` is answered `replayed` if the first one was applied).",
    "live_unavailable": "503: event streams are unavailable (Redis down, or the WSGI server); "
    "poll the REST endpoints; with Redis down, retry after `retry_after` seconds "
    "(`Retry-After`); the WSGI server never serves streams, so it sends neither.",
    "too_many_streams": "429: you have `LIVE_STREAMS_PER_USER` event streams open; close one, "
    "or retry after `retry_after` seconds (`Retry-After`).",
    # Games.
    "invalid_options": "400: unknown variant or option, or a bad option value.",
    "invalid_deal": "400: a bad seed or explicit deck, or both given.",
    "malformed_move": "400: the move is not in the notation (`draw`, `redeal`, `QH>t2`, `5S>f`).",
    "illegal_move": "422: the rules do not allow the move here; `detail` gives the reason.",
    "stale_move_number": "409: `expected_move_number` is not the game's; see "
    "`current_move_number`.",
    "game_over": "409: the game has ended and takes no more moves (a blocked game whose "
    "last move may still be undone takes none either: undo or resign it; a game its race's "
    "cancellation ended says so: 'the organisers cancelled this race: the game is over').",
    "undo_not_allowed": "403: this game does not allow undo.",
    "hint_not_allowed": "403: hints are for practice games only; a race game never gets one "
    "(RULES.md 7).",
    "nothing_to_undo": "409: there is no move to take back.",
    "move_limit_reached": "409: the game has accepted `GAME_MOVE_LIMIT` moves (`limit`), "
    "undone ones included, and takes no more; resign it (the rules set no limit: this is "
    "the server's, so that no game grows without end).",
    "deal_secret": "409: the deal (seed, deck, record) and the solution stay secret until the "
    "game is over for good (a race game's: until the race is finished or cancelled). A "
    "`blocked` game whose last move may still be undone (`undo_allowed` true) is not over: "
    "`detail` says so (undo takes back the blocking move, or resign ends it).",
    "deal_in_race": "409: this seed or deck opens with the same visible cards as a race that "
    "has started and is not over (only the cards every entrant sees at the start are compared: "
    "the top reserve card, the cards on the foundations and the four tableau cards), up to "
    "renaming: tableau "
    "piles in another order, suits renamed throughout or every rank moved by one step deal the "
    "same game.",
    # Races.
    "invalid_race": "400: bad race parameters (times out of order, missing time limit, ...).",
    "race_closed": "409: the race is closed for you: your deadline has passed.",
    "disqualified": "403: the organisers disqualified your entry in this race (`reason`: their "
    "words); its game takes no moves, undo or resignation unless they lift it.",
    "race_not_open": "409: joining or starting outside the race's window.",
    "race_not_started": "409: the race has not started yet (its deal stays hidden); retry "
    "after `retry_after` seconds (`Retry-After`): the seconds until the start, rounded up, "
    "at least 1.",
    "race_not_finished": "409: results are published once the race is finished for everyone, "
    "at the latest at its end (`ends_at`); retry after `retry_after` seconds (`Retry-After`).",
    "race_cancelled": "409: the race was cancelled: it has no results, ranks or rating, and "
    "never will (do not retry).",
    "not_entered": "403: you are not entered in this race and it takes no more entrants "
    "(joining has closed).",
    "no_winnable_deal": "503: no proven-winnable deal is ready for these rules yet: a "
    "practice game with `winnable`, or a race (or a batch of tournament races) with "
    "`require_winnable`, found the share of the rules' pool it may draw from empty (a "
    "practice game: the players' pool; a race: the races' reserve, then the players' pool; "
    "for a batch, short). Nothing was "
    "created; a refill of the pool is queued on the solver queue (the solver never runs in "
    "the request): retry after `retry_after` seconds (`Retry-After`).",
    "no_winnable_deal_found": "422: the pool's fills proved the last `tried` fresh deals of "
    "these rules lost, in a row (`WINNABLE_GIVE_UP_AFTER` or more): a winnable deal of these "
    "rules is not to be expected; start a game without `winnable` (a race without "
    "`require_winnable`).",
    "too_many_solves": "429: you already have the most solves waiting that a player may; retry "
    "after `retry_after` seconds (`Retry-After`).",
    # Tournaments.
    "invalid_tournament": "400: bad tournament parameters (scoring, points table, entry rules, "
    "race schedule).",
    "tournament_not_open": "409: the tournament takes no new entrants or races (draft, finished "
    "or cancelled).",
    "tournament_invite_only": "403: the race belongs to an invite-only tournament you are not "
    "invited to.",
    "tournament_full": "409: the tournament has admitted its `max_entrants` players.",
}


def problem_codes_markdown() -> str:
    """The codes as a Markdown list, ``- `code`: meaning`` a line (for the OpenAPI
    description).  Not a table: ReDoc squeezed a table's code column beside the long
    meanings and broke every code mid-word over several lines."""
    return "\n".join(f"- `{code}`: {meaning}" for code, meaning in PROBLEM_CODES.items())
