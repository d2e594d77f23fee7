"""The lobby (``/``): races with countdowns, tournaments, my games, practice form."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import get_language

from games.engine import PRESETS
from games.models import Race
from games.permissions import may_see_drafts
from games.selectors.games import (
    deal_revealed,
    game_over_for_good,
    game_race,
    game_status_shown,
    own_deadline,
    recent_games,
)
from games.selectors.races import (
    join_barriers_key,
    lobby_change_key,
    race_join_barriers,
    race_list,
    viewer_lobby_key,
    viewer_race_entries,
)
from games.selectors.tournaments import tournament_list
from web.board import PRESET_TEXT
from web.forms import PracticeForm
from web.views.common import etag_of, get_or_head_only, polled, server_now_ms


def _races(request: HttpRequest) -> dict[str, Any]:
    now = timezone.now()
    staff = may_see_drafts(request.user)  # organisers see drafts
    lists = {
        "running": list(race_list(phase="running", include_drafts=staff, now=now, limit=20)),
        "open": list(race_list(phase="open", include_drafts=staff, now=now, limit=20)),
        "upcoming": list(race_list(phase="upcoming", include_drafts=staff, now=now, limit=20)),
        "finished": list(race_list(phase="finished", include_drafts=staff, now=now, limit=5)),
    }
    return race_rows(request, lists, now)


def race_rows(request: HttpRequest, lists: dict[str, list[Race]], now: Any) -> dict[str, Any]:
    """The context of ``web/_race_row.html`` for the races of ``lists`` (phase name to
    races of :func:`race_list`): which the viewer joined, their game in each, which of
    those games are over, their own deadline in each window race whose clock they started
    and play (:func:`own_deadline`), which races may still be joined, and the server's clock."""
    ids = [r.id for rows in lists.values() for r in rows]
    statuses = {r.id: r.status for rows in lists.values() for r in rows}
    joined: set[Any] = set()
    games: dict[Any, Any] = {}
    modes = {r.id: r.mode for rows in lists.values() for r in rows}
    over: set[Any] = set()  # races where the viewer's game has ended
    # A window race whose clock the viewer started and plays: their own end, not the
    # window's (shown to everyone else), for their row alone.
    deadlines: dict[Any, Any] = {}
    for entry in viewer_race_entries(race_ids=ids, viewer=request.user):
        joined.add(entry.race_id)
        games[entry.race_id] = entry.game_id
        # Over for good: a blocked game whose last move may be taken back is not.
        if entry.game is not None and game_over_for_good(
            entry.game, now=now, race_status=statuses[entry.race_id]
        ):
            over.add(entry.race_id)
        deadline = own_deadline(
            entry.game,
            race_mode=modes[entry.race_id],
            race_status=statuses[entry.race_id],
            now=now,
        )
        if deadline is not None:
            deadlines[entry.race_id] = deadline
    # A Join button only where a join would be taken (a running race past its late-join
    # time, an invite-only or full tournament's race offered one that was refused); else
    # the reason, "closed", "invite_only" or "full" (games.selectors.races).
    barriers = race_join_barriers(
        [r for rows in lists.values() for r in rows], viewer=request.user, now=now
    )
    joinable = {rid for rid, why in barriers.items() if why is None}
    return {
        "races": lists,
        "joined": joined,
        "race_games": games,
        "over": over,
        "my_deadlines": deadlines,
        "joinable": joinable,
        "join_barriers": barriers,
        "server_now": server_now_ms(),
    }


def lobby_etag(request: HttpRequest) -> str:
    """ETag of the lobby's race lists: every race not finished long ago, its status and
    entrant count, the clock phase of each, the tournaments' admissions, the viewer, and
    the viewer's own entries with whether each one's game is over (their "Play", "See
    your game" or "joined").  Four queries, none rendering a page."""
    now = timezone.now()
    # A draft's races must not move anyone's ETag but the organisers'.
    entries, *phases = lobby_change_key(include_drafts=may_see_drafts(request.user), now=now)
    # Invitations and tournaments filling up change the Join buttons (race_join_barriers);
    # the viewer's own game ending (or starting, in a window race) changes only their page.
    mine = viewer_lobby_key(viewer=request.user, now=now)
    return etag_of(request.user.pk, get_language(), entries, join_barriers_key(), mine, *phases)


@get_or_head_only
def lobby(request: HttpRequest) -> HttpResponse:
    """``GET /``: races (running, open, upcoming, recently finished), tournaments, my
    recent games and a practice game form."""
    context = _races(request)
    context["tournaments"] = list(tournament_list(viewer=request.user, limit=10))
    context["my_games"] = (
        recent_games(player=request.user, limit=10) if request.user.is_authenticated else []
    )
    for g in context["my_games"]:  # a replay link only once the deal is revealed
        # A race game before its start: not_started; one its race's cancellation ended:
        # cancelled ("race cancelled", not "timed out").
        race = game_race(g)
        g.status_seen = game_status_shown(g, race_status=race.status if race else None)
        g.revealed = deal_revealed(g)
    context["form"] = PracticeForm()
    # The presets the practice form offers ("custom" names other rules, not a choice).
    context["presets"] = {name: text for name, text in PRESET_TEXT.items() if name in PRESETS}
    return render(request, "web/lobby.html", context)


@get_or_head_only
def lobby_live(request: HttpRequest) -> HttpResponse:
    """``GET /lobby/races``: the race lists, polled with ``If-None-Match`` (``304`` unchanged)."""
    return polled(
        request,
        lobby_etag(request),
        lambda: render(request, "web/_lobby_races.html", _races(request)),
    )
