"""Tournaments index, tournament page and player page."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.core.paginator import Page, Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from games.models import Game
from games.permissions import may_see_drafts
from games.rating_model import PROVISIONAL_RACES
from games.selectors.games import deal_revealed, recent_games
from games.selectors.players import (
    entry_cancelled_status,
    entry_cards_home,
    player_race_entries,
)
from games.selectors.races import race_list
from games.selectors.ratings import player_profile, pools_list
from games.selectors.tournaments import (
    standing_row,
    tournament_get,
    tournament_list,
    tournament_player_results,
    tournament_public,
    tournament_standings,
)
from games.services.errors import NotFound
from web.board import pool_words, tournament_rules_words
from web.middleware import reads_query
from web.views.common import get_or_head_only, not_found
from web.views.lobby import race_rows

#: The sections of the tournaments index, in order (drafts only for organisers).
TOURNAMENT_SECTIONS = ("open", "finished", "cancelled", "draft")

#: The sections that grow for ever, shown a page at a time (``?finished_page=N``,
#: ``?cancelled_page=N``), and how many tournaments a page holds (newest first).
PAGED_SECTIONS = ("finished", "cancelled")
TOURNAMENTS_PER_PAGE = 20


@reads_query("finished_page", "cancelled_page")
@get_or_head_only
def tournaments(request: HttpRequest) -> HttpResponse:
    """``GET /tournaments/``: the tournaments the viewer may see (through
    ``tournament_list``: drafts only for organisers), newest first in a section per
    status, each with its race count and a link to its page.  Open tournaments and drafts
    are all listed; finished and cancelled ones :data:`TOURNAMENTS_PER_PAGE` at a time,
    the page of each given by ``?finished_page=N`` / ``?cancelled_page=N`` (1 when
    absent; a number that is no page, or no number, shows the nearest page: the first,
    or the last when past the end), with links to the newer and older pages that keep
    the other section's page.  The lobby shows only the ten newest."""
    asked = {
        "finished": request.GET.get("finished_page"),
        "cancelled": request.GET.get("cancelled_page"),
    }
    sections: dict[str, Any] = {}
    pages: dict[str, Page[Any]] = {}
    for status in TOURNAMENT_SECTIONS:
        listed = tournament_list(viewer=request.user, status=status)
        if status in PAGED_SECTIONS:
            pages[status] = Paginator(listed, TOURNAMENTS_PER_PAGE).get_page(asked[status])
            sections[status] = list(pages[status])
        else:
            sections[status] = list(listed)
    numbers = {status: page.number for status, page in pages.items()}

    def link(status: str, number: int) -> str:
        query = {f"{s}_page": n for s, n in {**numbers, status: number}.items() if n > 1}
        return f"?{urlencode(query)}#t-{status}-h" if query else f"#t-{status}-h"

    pagers = {
        status: {
            "number": page.number,
            "count": page.paginator.num_pages,
            "newer": link(status, page.previous_page_number()) if page.has_previous() else None,
            "older": link(status, page.next_page_number()) if page.has_next() else None,
        }
        for status, page in pages.items()
        if page.paginator.num_pages > 1
    }
    return render(request, "web/tournaments.html", {"sections": sections, "pagers": pagers})


@get_or_head_only
def tournament(request: HttpRequest, tournament_id: Any) -> HttpResponse:
    """``GET /tournaments/<id>/``: description, scoring rule, races, standings, my results."""
    try:
        t = tournament_get(tournament_id=tournament_id, viewer=request.user)
    except NotFound:
        raise not_found() from None
    public = tournament_public(t, viewer=request.user, with_races=True)
    mine = (
        tournament_player_results(tournament=t, player=request.user)
        if request.user.is_authenticated
        else None
    )
    races = public["races"]
    scoring_words, standings_words = tournament_rules_words(public)
    # The races still to run, as the lobby shows them (Join, Play, "See your game").
    now = timezone.now()
    staff = may_see_drafts(request.user)
    rows = race_rows(
        request,
        {
            phase: list(race_list(phase=phase, tournament_id=t.id, include_drafts=staff, now=now))
            for phase in ("running", "open", "upcoming")
        },
        now,
    )
    return render(
        request,
        "web/tournament.html",
        {
            **rows,
            "t": public,
            "scoring_words": scoring_words,
            "standings_words": standings_words,
            "past": [r for r in races if r["phase"] in ("finished", "closing", "cancelled")],
            "standings": [standing_row(s) for s in tournament_standings(tournament=t, limit=200)],
            "mine": mine,
        },
    )


@get_or_head_only
def player(request: HttpRequest, username: str) -> HttpResponse:
    """``GET /players/<username>/``: the player's rating in each pool (with the place on
    its leaderboard and the provisional mark), the recent rated races (rank, rating
    before and after, change), the races (results and replays once finished); on your
    own page also your practice games."""
    person = get_object_or_404(User, username=username, is_active=True)
    own = request.user.is_authenticated and request.user.pk == person.pk
    return render(
        request,
        "web/player.html",
        {
            "person": person,
            "own": own,
            "entries": _entries(person),
            "games": _practice_games(person) if own else [],
            **_ratings(person),
        },
    )


def _entries(person: User) -> list[Any]:
    """The player's race entries (:func:`player_race_entries`), each with ``home``: the
    cards home its row shows (:func:`entry_cards_home`: a finished race's result, the
    count a cancelled race's game reached, else ``None``) and, in a cancelled race,
    ``ending``: its status (:func:`entry_cancelled_status`: the game's own ending when it
    ended before the cancellation, else ``cancelled``)."""
    now = timezone.now()
    entries = list(player_race_entries(player=person))
    for e in entries:
        e.home = entry_cards_home(e, now=now)  # type: ignore[attr-defined]
        if e.race.status == "cancelled":
            e.ending = entry_cancelled_status(e, now=now)  # type: ignore[attr-defined]
    return entries


def _practice_games(person: User) -> list[Game]:
    """The player's last 50 practice games, each with ``revealed`` (its deal may be shown:
    a replay link; else it is continued, as a blocked game whose last move may still be
    taken back is: :func:`games.selectors.games.deal_revealed`)."""
    games = recent_games(player=person, kind="practice", limit=50)
    for g in games:
        g.revealed = deal_revealed(g)  # type: ignore[attr-defined]
    return games


def _ratings(person: User) -> dict[str, Any]:
    """``ratings`` (one per pool, best first) and ``recent`` (the last rated races,
    newest first) of :func:`player_profile`, each with its pool in words."""
    profile = player_profile(player=person)
    keys = {r["pool"] for r in profile["ratings"]} | {c["pool"] for c in profile["recent_races"]}
    words = {p.key: pool_words(p.variant, p.options) for p in pools_list(keys=keys)}
    return {
        "ratings": [{**r, "words": words[r["pool"]]} for r in profile["ratings"]],
        "recent": [{**c, "words": words[c["pool"]]} for c in profile["recent_races"]],
        "provisional_races": PROVISIONAL_RACES,
    }
