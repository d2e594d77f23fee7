"""Race pages: the race (live standings by polling), join/start, results, replays.

Standings and phase are polled with ``If-None-Match`` (:func:`race_live`): an
unchanged race answers ``304`` after one small query.  A running race's seed is
never on a page; results (seed, deck, every entrant's moves) only once finished.
"""

from __future__ import annotations

import json
import shlex
from typing import Any

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from games.engine import OPTION_NAMES, PRESETS
from games.models import Game, Race
from games.permissions import may_see_drafts
from games.selectors.games import (
    NOT_OVER,
    game_over_for_good,
    game_race,
    game_replay_get,
    game_view,
    move_notations,
    own_deadline,
)
from games.selectors.races import (
    join_barriers_key,
    race_change_key,
    race_entry_game,
    race_get,
    race_join_barriers,
    race_public,
    race_results,
    race_standings,
)
from games.selectors.ratings import pool_get
from games.services.errors import AccountDeleted, NotFound, ServiceError
from games.services.races import race_join, race_start
from web.board import RANK_SHORT, board_context, card, move_words, pool_words, rules_words
from web.middleware import reads_query
from web.refusals import refusal_words
from web.throttling import throttled
from web.views.common import (
    account_gone,
    etag_of,
    get_or_head_only,
    is_htmx,
    moved_to,
    not_found,
    page_or_fragment,
    polled,
    post_or_page,
    server_now_ms,
)


def _race(request: HttpRequest, race_id: Any) -> Race:
    try:
        return race_get(race_id=race_id, include_drafts=may_see_drafts(request.user))
    except NotFound:
        raise not_found() from None


def race_etag(race: Race) -> str:
    """ETag of what a race page shows to anyone: status, clock phase, whether joining is
    open (it closes ``late_join_s`` into a running race: the Join button goes), entries,
    their games' progress, disqualifications and the games whose own deadline has passed
    (shown timed out before the sweeper records it); and the race's facts the live part
    shows (name, times, time limit, late joining, undo), which an organiser may change
    before the start."""
    now = timezone.now()
    return etag_of(
        race.id,
        race.status,
        race.phase(now),
        race.joining_open(now),
        race.name,
        race.opens_at,
        race.starts_at,
        race.ends_at,
        race.time_limit_s,
        race.late_join_s,
        race.allow_undo,
        *race_change_key(race=race, now=now),
        # An invitation or the tournament filling up changes the Join button.
        join_barriers_key(tournament_id=race.tournament_id) if race.tournament_id else "",
    )


#: Rows of the standings a race page shows: the first ones, then the viewer's own (the
#: whole list is the standings CSV).  A 10,000-entrant race's full table took 5 s to
#: render on every poll of the live part (benchmarks/public_reads.py).
PAGE_STANDINGS_ROWS = 100


def _race_context(request: HttpRequest, race: Race, error: str = "") -> dict[str, Any]:
    now = timezone.now()
    public = race_public(race, viewer=request.user, now=now)
    # A game the race's cancellation ended reads "race cancelled", not "timed out".
    standings = race_standings(race=race, now=now, limit=PAGE_STANDINGS_ROWS, viewer=request.user)
    return {
        "race": race,
        "public": public,
        "rules": rules_words(public["variant"], public["options"], preset=public["preset"]),
        "standings": standings,
        # More entrants than the first rows shown: the page says so and links the CSV.
        "standings_cut": public["entrants"] > PAGE_STANDINGS_ROWS,
        "standings_shown": PAGE_STANDINGS_ROWS,
        # The viewer's game is over for good (won, blocked, resigned, timed out; not a
        # blocked game whose last move may be taken back): the standings' "finished".
        "my_game_over": _my_game_over(request, race, public, now),
        # A window race: when the viewer's own clock stops (None: not started, or over).
        "my_deadline": _my_deadline(request, race, public),
        "error": error,
        # None, or why the viewer may not join: "closed", "invite_only", "full".
        "join_barrier": race_join_barriers([race], viewer=request.user, now=now)[race.id],
        "server_now": server_now_ms(),
    }


def _my_game_over(request: HttpRequest, race: Race, public: dict[str, Any], now: Any) -> bool:
    """Whether the viewer's game of ``race`` is over for good at ``now``
    (:func:`games.selectors.games.game_over_for_good`); ``public``: :func:`race_public`'s
    view for the viewer (no query unless its status says over)."""
    if public["game_status"] is None or public["game_status"] in NOT_OVER:
        return False
    game = race_entry_game(race=race, player=request.user)  # its entry at hand
    if game is None:
        return False
    return game_over_for_good(game, now=now, race_status=race.status)


def _my_deadline(request: HttpRequest, race: Race, public: dict[str, Any]) -> Any:
    """When the viewer's clock stops in a window race whose game they have started and
    which is not over for good (playing, or blocked with an undo still open: the page
    says they may take it back until their time is up), a datetime, UTC, else ``None``
    (no query then unless the game is playing or blocked): the race page's end countdown
    is the window's, which a player who started late never reaches."""
    if public["mode"] != Race.Mode.WINDOW or public["game_status"] not in ("playing", "blocked"):
        return None
    return own_deadline(
        race_entry_game(race=race, player=request.user),
        race_mode=public["mode"],
        race_status=race.status,
    )


@get_or_head_only
def race_page(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``GET /races/<id>/``: name, rules in words, commitment, times, countdown, standings."""
    race = _race(request, race_id)
    return render(request, "web/race.html", _race_context(request, race))


@get_or_head_only
def race_live(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``GET /races/<id>/live``: the live part of the race page, every part of it that
    follows the race's phase ("Now" or "Outcome", countdown, standings, and the race's
    facts: its end or "Ended early", the commitment's words, the seed once the race is
    over), polled at most once a second with ``If-None-Match`` (``304`` when unchanged)."""
    race = _race(request, race_id)
    return polled(
        request,
        # Per viewer (their own game's state shows) and per language.
        etag_of(race_etag(race), request.user.pk, get_language()),
        lambda: render(request, "web/_race_live.html", _race_context(request, race)),
    )


@login_required
@post_or_page("web:race", "race_id")
@throttled("games")
def join(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``POST /races/<id>/join``: join (idempotent); to the play page when the race runs.

    A refusal is the race page with its words (409).  An account deleted while the join
    ran (the API's 404 ``not_found``) goes to the login page, as Django sends the
    session's next request (:func:`web.views.common.account_gone`)."""
    race = _race(request, race_id)
    user = request.user
    assert isinstance(user, User)
    try:
        entry = race_join(race_id=race.id, player=user).entry
    except AccountDeleted:  # deleted meanwhile: the API's 404, the session's next answer
        return account_gone(request)
    except ServiceError as exc:
        return render(
            request, "web/race.html", _race_context(request, race, refusal_words(exc)), status=409
        )
    if entry.game_id and race.phase() == "running":
        return redirect("web:play", game_id=entry.game_id)
    return redirect("web:race", race_id=race.id)


@login_required
@post_or_page("web:race", "race_id")
@throttled("games")
def start(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``POST /races/<id>/start``: start your clock (window races) and go to the play page.

    Refusals and an account deleted meanwhile: as :func:`join`."""
    race = _race(request, race_id)
    user = request.user
    assert isinstance(user, User)
    try:
        game = race_start(race_id=race.id, player=user)
    except AccountDeleted:  # deleted meanwhile: the API's 404, the session's next answer
        return account_gone(request)
    except ServiceError as exc:
        return render(
            request, "web/race.html", _race_context(request, race, refusal_words(exc)), status=409
        )
    return redirect("web:play", game_id=game.id)


@get_or_head_only
def results_slash(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``GET /races/<id>/results/``: ``301`` to the results page's address,
    ``/races/<id>/results`` (with the query string), as typed by someone used to the
    site's other pages ending in a slash.  Only ``GET`` and ``HEAD``: any other method is
    ``405``, never turned into a ``GET``.  The race is not looked up here (the page says
    ``404`` for a race nobody may see)."""
    return moved_to(request, reverse("web:results", kwargs={"race_id": race_id}))


@get_or_head_only
def results(request: HttpRequest, race_id: Any) -> HttpResponse:
    """``GET /races/<id>/results``: ranking, seed and deck with how to verify, replays."""
    race = _race(request, race_id)
    if race.status != Race.Status.FINISHED:
        return redirect("web:race", race_id=race.id)
    # The page links replays instead of move lists; the first lines, then the viewer's.
    data = race_results(race=race, move_lists=False, limit=PAGE_STANDINGS_ROWS, viewer=request.user)
    return render(
        request,
        "web/results.html",
        {
            "race": race,
            "results": data,
            "deck": [card(c) for c in data["deck"]],
            "rules": rules_words(data["variant"], data["options"], preset=data["preset"]),
            "rating_pool": _rating_pool(data["rating"]["pool"]),
            "check_commands": check_commands(data["seed"], data["variant"], data["options"]),
            "fixed_base": fixed_base_words(data["options"]),
            "standings_shown": PAGE_STANDINGS_ROWS,
        },
    )


def fixed_base_words(options: dict[str, Any]) -> str | None:
    """The fixed base rank of a deal's ``options`` as the page writes a rank (``"2"``,
    ``"10"``), or ``None`` when the base is dealt (``base`` ``"dealt"``, or missing).

    With a fixed base the four cards of that rank are taken out and start the
    foundations, and the other 48 are laid out in order (reserve 13, tableau 4, stock
    31; RULES.md 4, storehouse), so the results page describes that deal, not the
    classic one (base card D[13], stock of 34)."""
    base = options.get("base", "dealt")
    if base in (None, "dealt"):
        return None
    return RANK_SHORT.get(str(base), str(base))


def check_commands(seed: str, variant: str, options: dict[str, Any]) -> list[str]:
    """Shell commands that check a finished race's deal: the commitment (SHA-256 of the
    seed's UTF-8 bytes, two ways) and the deal (the engine's ``show``; RULES.md 2).

    The seed is shell-quoted; rules that are no preset are given as classic with ``-o``
    overrides, which the engine's command line takes (``--variant custom`` it does not).
    """
    quoted = shlex.quote(seed)
    python_bytes = repr(seed.encode())
    show = ["python3", "-m", "games.engine", "show", "--seed", seed]
    if variant in PRESETS:
        show += ["--variant", variant]
    else:
        classic = PRESETS["classic"].to_dict()
        for name in OPTION_NAMES:
            value = options.get(name)
            if name in options and value != classic[name]:
                show += ["-o", f"{name}={json.dumps(value)}"]  # the CLI reads JSON values
    show.append("--reveal")
    return [
        f"printf %s {quoted} | sha256sum",
        shlex.join(
            ["python3", "-c", f"import hashlib; print(hashlib.sha256({python_bytes}).hexdigest())"]
        ),
        shlex.join(show),
    ]


def _rating_pool(key: str | None) -> dict[str, Any] | None:
    """The race's rating pool in words (``None`` before the race is rated)."""
    if key is None:
        return None
    pool = pool_get(key=key)
    return pool_words(pool.variant, pool.options)


def _replay_game(request: HttpRequest, game_id: Any) -> Game:
    """A game whose replay the viewer may see (:func:`games.selectors.games.game_replay_get`
    decides); anything else is 404 (ids leak nothing)."""
    try:
        return game_replay_get(game_id=game_id, viewer=request.user)
    except NotFound:
        raise not_found() from None


def moves_list_html(replay_url: str, notations: list[str]) -> str:
    """The replay page's list of every move, as ``<li>`` items (safe HTML): each a link to
    the position after it (``?step=N``, fetched by htmx into ``#replay``) named by its
    words (:func:`web.board.move_words`, once per distinct move), then its notation.

    Joined here, not by a template loop: a game of 20,000 moves (a script at the move
    throttle) took 2.7 s of a web worker in the template, a finished race's replay being
    public to anyone; the words and notations are escaped once per distinct move."""
    url = escape(replay_url)
    items: dict[str, str] = {}
    out = []
    for number, notation in enumerate(notations, 1):
        tail = items.get(notation)
        if tail is None:
            tail = f"{escape(move_words(notation))}</a> <code>{escape(notation)}</code></li>"
            items[notation] = tail
        step = f"{url}?step={number}"
        out.append(
            f'<li><a href="{step}" hx-get="{step}" hx-target="#replay" hx-push-url="true">{tail}'
        )
    return mark_safe("".join(out))  # noqa: S308 - every part escaped above


@reads_query("step")
@get_or_head_only
def replay(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /replay/<game id>/?step=N``: the position after move N of the stored history,
    stepping forwards, backwards or to a move number (htmx swaps the viewer only; both
    answers say ``Vary: HX-Request``).  Only the page lists every move, each distinct
    move worded once; the viewer htmx fetches words the last move alone."""
    game = _replay_game(request, game_id)
    notations = move_notations(game)
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    step = max(0, min(step, len(notations)))
    state = game.deal.new_state()
    for notation in notations[:step]:
        state.play(notation)
    view = game_view(game, state=state)
    # The position after ``step`` moves: its move count, and "playing" until the last step.
    view["move_number"] = step
    if step < len(notations):
        view["status"] = Game.Status.PLAYING
    context: dict[str, Any] = {
        "game": game,
        "race": game_race(game),
        "view": view,
        "board": board_context(view, game.deal.options),
        "step": step,
        "total": len(notations),
        "last": move_words(notations[step - 1]) if step else "",
        "replay_url": reverse("web:replay", args=[game.id]),
    }
    if not is_htmx(request):  # only the page lists every move, not the viewer htmx fetches
        context["moves_html"] = moves_list_html(context["replay_url"], notations)
    # The viewer alone for htmx, whose address it pushes into the history.
    return page_or_fragment(request, "web/replay.html", "web/_replay.html", context)
