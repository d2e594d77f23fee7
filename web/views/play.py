"""The play page: the whole table, moves through :func:`games.services.games.move_play`.

A move from the board posts the API's input (``move``, ``expected_move_number``) to
the same service; htmx/fetch requests get the board fragment back (with the engine's
refusal reason when a move is refused), plain form posts get the page.  What the
board shows comes only from :func:`games.selectors.games.game_view`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from api.parsers import capped_decimal
from games.engine import GameState
from games.models import Game
from games.selectors.games import (
    cancelled_before_start,
    ended_by_cancellation,
    game_get,
    game_race,
    game_view,
    solution_cards_home,
)
from games.selectors.races import race_id_of_game
from games.services import games as game_services
from games.services import hints as hint_services
from games.services.errors import (
    AccountDeleted,
    DealSecret,
    InvalidDeal,
    InvalidOptions,
    NotFound,
    RaceNotStarted,
    ServiceError,
    StaleMoveNumber,
    TooManySolves,
)
from games.services.solver import game_solution_request
from web.board import (
    autofill_words,
    board_context,
    draw_words,
    move_words,
    redeal_words,
    rules_text,
    rules_words,
    solution_steps,
    undo_words,
)
from web.forms import ExpectedForm, MoveForm, PracticeForm
from web.refusals import after_colon, refusal_words, sentence
from web.templatetags.web_tags import seconds
from web.throttling import throttled
from web.views.common import (
    account_gone,
    get_or_head_only,
    is_htmx,
    moved_to,
    not_found,
    page_or_fragment,
    post_or_page,
    server_now_ms,
)


def _user(request: HttpRequest) -> User:
    user = request.user
    assert isinstance(user, User)
    return user


def _game(request: HttpRequest, game_id: Any) -> Game:
    try:
        return game_get(game_id=game_id, player=_user(request))
    except NotFound:
        raise not_found() from None


def _say_not_started(request: HttpRequest) -> None:
    """Keep "The race has not started yet." for the race page a race game's pages send
    their player to before the start.  Not for ``HEAD``: it changes nothing (RFC 9110
    9.3.2), and nothing shows the message after it (the player's next page did)."""
    if request.method != "HEAD":
        messages.info(request, _("The race has not started yet."))


def _until_started(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A race game before its race starts: to the race page (a message says why), never a 500."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, game_id: Any, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, game_id, *args, **kwargs)
        except RaceNotStarted:
            race_id = race_id_of_game(game_id=game_id, player=_user(request))
            if race_id is None:
                raise not_found() from None
            _say_not_started(request)
            if not is_htmx(request):
                return redirect("web:race", race_id=race_id)
            response = HttpResponse(status=204)  # htmx follows HX-Redirect: a full page load
            response["HX-Redirect"] = reverse("web:race", args=[race_id])
            return response

    return wrapped


def play_context(
    game: Game, *, state: GameState | None = None, message: str = "", error: bool = False
) -> dict[str, Any]:
    """Everything the play page and its board fragment draw, from :func:`game_view`."""
    view = game_view(game, state=state)
    options = view["deal"]["options"]
    race = game_race(game)  # None for a practice game
    # A disqualified entry's game takes nothing more (games.services.games): the
    # board is drawn as over, with the organisers' reason instead of a countdown.
    disqualified = view["disqualified_reason"]
    playing = view["status"] == Game.Status.PLAYING and disqualified is None
    cancelled = race is not None and ended_by_cancellation(game, race_status=race.status)
    if disqualified is not None and not message and not error:
        # The organisers' word, under the counts as every ended game's last word.
        message = _(
            "The organisers have disqualified you from this race (%(reason)s): your game "
            "takes no more moves."
        ) % {"reason": disqualified}
    elif view["status"] == Game.Status.WON and not message and not error:
        # A won game says so in the board's message: on the move that won and after.
        message = won_words(view)
    elif cancelled and not message and not error:
        # A game the race's cancellation ended: not "Time is up" (its clock had not run out);
        # before the race started, no game was played: no count of cards home.
        message = (
            _("The organisers cancelled this race before it started.")
            if cancelled_before_start(game)
            else cancelled_words(view)
        )
    elif view["status"] == Game.Status.TIMED_OUT and not message and not error:
        # So does a game out of time (only its status changed, the message stayed empty).
        message = timed_out_words(view)
    elif view["status"] == Game.Status.RESIGNED and not message and not error:
        # And a resigned one (its board said nothing once drawn again).
        message = resigned_words(view)
    elif view["status"] == Game.Status.BLOCKED and not error:
        # A blocked game says why under its counts, on the move that blocked it (after
        # that move's words) and when the page is opened again (it was only at the
        # board's foot, under the tableau: on a phone under the sticky Undo bar).
        blocked = blocked_words(view)
        message = f"{sentence(message)} {blocked}" if message else blocked
    # Every message of the board is a sentence, a move's words too ("King of hearts to
    # pile 2.", where a list of moves keeps "king of hearts to pile 2").
    message = sentence(message)
    if error:  # after the board's "Refused:", lower case in French and Spanish
        message = after_colon(message)
    return {
        "game": game,
        "view": view,
        "board": board_context(view, options),
        "rules": rules_words(view["deal"]["variant"], options, preset=view["deal"]["preset"]),
        "rules_text": rules_text(options),
        "race": race,
        "message": message,
        "error": error,
        "disqualified": disqualified,
        # Ended by the race's cancellation: its status reads "race cancelled".
        "cancelled": cancelled,
        "playing": playing,
        "interactive": playing,
        # Playing, or blocked with its last move still undoable (until the deadline):
        # the "Time left" countdown stays, and redraws the board when time is up.
        "live": playing or bool(view["undo_allowed"]),
        "server_now": server_now_ms(),
    }


def won_words(view: dict[str, Any]) -> str:
    """ "You won: all 52 cards are home, in 112 moves and 54.3 seconds." (from a minute:
    "in 112 moves and 4 min 14.3 s") for a won :func:`game_view`: the time from
    ``started_at`` to ``finished_at``, left out when either is unknown."""
    moves = int(view["move_number"])
    started, finished = view["started_at"], view["finished_at"]
    if started is None or finished is None:
        return ngettext(
            "You won: all 52 cards are home, in %(moves)s move.",
            "You won: all 52 cards are home, in %(moves)s moves.",
            moves,
        ) % {"moves": moves}
    # Tenths: the player's own time, beside no other (the standings give milliseconds),
    # cut as the ranking's milliseconds are cut (RULES.md 6), never rounded up: rounded,
    # 4 min 59.96 s read "4 min 60.0 s", and 54.3496 s (54.349 in the standings) "54.4".
    tenths = max(0, (finished - started) // timedelta(milliseconds=100))
    if tenths >= 600:  # "5 min 36.8 s", not "336.8 seconds"
        return ngettext(
            "You won: all 52 cards are home, in %(moves)s move and %(minutes)s min %(seconds)s s.",
            "You won: all 52 cards are home, in %(moves)s moves and %(minutes)s min %(seconds)s s.",
            moves,
        ) % {"moves": moves, "minutes": tenths // 600, "seconds": seconds(tenths % 600 * 100, 1)}
    return ngettext(
        "You won: all 52 cards are home, in %(moves)s move and %(seconds)s seconds.",
        "You won: all 52 cards are home, in %(moves)s moves and %(seconds)s seconds.",
        moves,
    ) % {"moves": moves, "seconds": seconds(tenths * 100, 1)}


def blocked_words(view: dict[str, Any]) -> str:
    """Why a blocked :func:`game_view` takes no move (RULES.md 3.9), and, where its last
    move may still be taken back (``undo_allowed``), what Undo and Resign do."""
    words = _(
        "The game is blocked: drawing and redealing alone can never bring a card that may "
        "be played, so no move is left that changes anything."
    )
    if view["undo_allowed"]:
        words += " " + _("Undo takes back the move that blocked it; Resign ends the game.")
    return str(words)


def timed_out_words(view: dict[str, Any]) -> str:
    """ "Time is up: your game has ended with 17 cards home." for a timed-out
    :func:`game_view`."""
    home = int(view["cards_home"])
    return ngettext(
        "Time is up: your game has ended with %(home)s card home.",
        "Time is up: your game has ended with %(home)s cards home.",
        home,
    ) % {"home": home}


def resigned_words(view: dict[str, Any]) -> str:
    """ "You resigned: 17 cards home." for a resigned :func:`game_view`."""
    home = int(view["cards_home"])
    return ngettext(
        "You resigned: %(home)s card home.",
        "You resigned: %(home)s cards home.",
        home,
    ) % {"home": home}


def cancelled_words(view: dict[str, Any]) -> str:
    """ "The organisers cancelled this race: your game ended with 17 cards home." for a
    :func:`game_view` of a game its race's cancellation ended
    (:func:`games.selectors.games.ended_by_cancellation`)."""
    home = int(view["cards_home"])
    return ngettext(
        "The organisers cancelled this race: your game ended with %(home)s card home.",
        "The organisers cancelled this race: your game ended with %(home)s cards home.",
        home,
    ) % {"home": home}


@login_required
@get_or_head_only
def play(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /play/<id>/``: the play page of one of your games."""
    try:
        game = game_get(game_id=game_id, player=_user(request))
    except NotFound:
        raise not_found() from None
    except RaceNotStarted:
        race_id = race_id_of_game(game_id=game_id, player=_user(request))
        if race_id is None:
            raise not_found() from None
        _say_not_started(request)
        return redirect("web:race", race_id=race_id)
    return render(request, "web/play.html", play_context(game))


@login_required
@get_or_head_only
def board(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /play/<id>/board``: the board fragment (refreshed when the deadline passes)."""
    try:
        game = game_get(game_id=game_id, player=_user(request))
    except (NotFound, RaceNotStarted):
        raise not_found() from None
    return render(request, "web/_board.html", play_context(game))


def _answer(
    request: HttpRequest,
    game_id: Any,
    *,
    game: Game | None,
    state: GameState | None = None,
    message: str = "",
    error: bool = False,
    status: int = 200,
    hint_poll: int = 0,
    hint_move: str = "",
    played: bool = False,
) -> HttpResponse:
    if game is None:
        game = _game(request, game_id)
    context = play_context(game, state=state, message=message, error=error)
    message = context["message"]  # as the board says it (a sentence)
    # The words of a move just played on a board still in play ("Drew 3 cards ..."):
    # on a phone they are not shown over the counts (app.css .message.played), which the
    # player then sees after every move; #announcer still says them.
    context["played"] = played and context["playing"] and not error
    context["hint_poll"] = hint_poll
    context["hint_poll_seconds"] = HINT_POLL_SECONDS
    context["hint_move"] = hint_move
    if is_htmx(request):
        # The board fragment (with the reason when refused) replaces the board.
        return render(request, "web/_board.html", context)
    if not error:
        # Without htmx (no script): after the redirect the page shows the words
        # (a hint, "Took back the draw.") among its messages.
        if message:
            messages.info(request, message)
        return redirect("web:play", game_id=game.id)
    return render(request, "web/play.html", context, status=status)


def _too_fast(request: HttpRequest, wait: int, game_id: Any) -> HttpResponse:
    """A board action past the API's rate (:mod:`web.throttling`): the board unchanged,
    saying how long to wait (429 without htmx)."""
    message = _("Too many moves at once: wait %(seconds)s s and play again.") % {"seconds": wait}
    return _answer(request, game_id, game=None, message=message, error=True, status=429)


def _refusal(exc: ServiceError) -> tuple[str, int]:
    if isinstance(exc, StaleMoveNumber):
        return (
            _(
                "The board was out of date (another tab or a repeated click); it now shows "
                "the current position."
            ),
            409,
        )
    if exc.code == "not_found":
        raise not_found()
    return refusal_words(exc), 400


@login_required
@post_or_page("web:play", "game_id")
@_until_started
@throttled("moves", _too_fast)
def move(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``POST /play/<id>/move``: ``move`` and ``expected_move_number``, as the API takes them.

    A refused move changes nothing; the answer shows the engine's reason.  A retried
    move (double click, resubmitted form) is recognised by its move number and not
    played twice.
    """
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _answer(
            request, game_id, game=None, message=_("Give a move."), error=True, status=400
        )
    try:
        outcome = game_services.move_play(
            game_id=game_id,
            player=_user(request),
            move=form.cleaned_data["move"],
            expected_move_number=form.cleaned_data["expected_move_number"],
        )
    except ServiceError as exc:
        text, status = _refusal(exc)
        return _answer(request, game_id, game=None, message=text, error=True, status=status)
    won = outcome.game.status == Game.Status.WON  # the board then says so (play_context)
    notation = outcome.move.notation
    if outcome.replayed or won:
        note = ""
    elif notation == "draw":
        # The card(s) turned, face up on the waste now (RULES.md 3.6, 7).
        turned = outcome.state.last_draw() if outcome.state is not None else None
        note = draw_words(turned or [])
    elif notation == "redeal":
        note = redeal_words()
    else:
        note = move_words(notation)  # a sentence on the board (play_context)
        fill = outcome.state.last_autofill() if outcome.state is not None else None
        if fill is not None:  # the move's other half (RULES.md 3.7), else seen only on the board
            note = autofill_words(note, fill[0], fill[1])
    return _answer(
        request, game_id, game=outcome.game, state=outcome.state, message=note, played=True
    )


@login_required
@post_or_page("web:play", "game_id")
@_until_started
@throttled("moves", _too_fast)
def undo(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``POST /play/<id>/undo``: take back the last move where the game allows it; the
    board's message says which (:func:`web.board.undo_words`)."""
    form = ExpectedForm(request.POST)
    if not form.is_valid():  # a garbled number must not undo blindly
        return _answer(
            request, game_id, game=None, message=_("Give the move number."), error=True, status=400
        )
    expected = form.cleaned_data["expected_move_number"]
    try:
        undone = game_services.game_undo_outcome(
            game_id=game_id, player=_user(request), expected_move_number=expected
        )
    except ServiceError as exc:
        text, status = _refusal(exc)
        return _answer(request, game_id, game=None, message=text, error=True, status=status)
    # "Took back moving the queen of hearts to pile 2."; a draw or redeal is not named
    # by card.
    message = undo_words(undone.move.notation)
    return _answer(request, game_id, game=undone.game, message=message)


@login_required
@_until_started
@throttled("moves", _too_fast)
def resign(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /play/<id>/resign``: the confirmation; ``POST`` with ``confirmed=1`` resigns."""
    game = _game(request, game_id)
    if request.method == "POST" and request.POST.get("confirmed") == "1":
        try:
            game = game_services.game_end(game_id=game_id, player=_user(request))
        except ServiceError as exc:
            text, status = _refusal(exc)
            return _answer(request, game_id, game=None, message=text, error=True, status=status)
        if game.status != Game.Status.RESIGNED:  # over before (won, blocked, out of time)
            return _answer(request, game_id, game=game, message=_("The game is already over."))
        return _answer(request, game_id, game=game)  # "You resigned: 17 cards home."
    return render(request, "web/resign.html", {"game": game})


@login_required
@post_or_page("web:lobby")
@throttled("games")
def practice(request: HttpRequest) -> HttpResponse:
    """``POST /practice``: start a practice game (preset, options, seed or random).

    A refusal is the form again with its words (400); an account deleted while the game
    was created goes to the login page (:func:`web.views.common.account_gone`)."""
    form = PracticeForm(request.POST)
    if form.is_valid():
        try:
            game = game_services.game_start(
                player=_user(request),
                variant=form.cleaned_data["variant"],
                options=form.options(),
                seed=form.cleaned_data["seed"] or None,
                winnable=form.cleaned_data["winnable"],
            )
        except AccountDeleted:  # deleted meanwhile: the API's 404, the session's next answer
            return account_gone(request)
        except (InvalidDeal, InvalidOptions) as exc:
            form.add_error("seed" if isinstance(exc, InvalidDeal) else None, refusal_words(exc))
        except ServiceError as exc:
            form.add_error(None, refusal_words(exc))
        else:
            return redirect("web:play", game_id=game.id)
    return render(request, "web/practice.html", {"form": form}, status=400)


#: A pending hint: the board asks again every this many seconds (htmx), at most
#: HINT_POLLS times (then the player asks again with the button).
HINT_POLL_SECONDS = 2
HINT_POLLS = 30


def _polls_done(request: HttpRequest) -> int:
    """How many times the board already asked again for this hint (``poll``, 0..HINT_POLLS)."""
    return capped_decimal(request.POST.get("poll", ""), HINT_POLLS) or 0


@login_required
@post_or_page("web:play", "game_id")
@_until_started
@throttled("games", _too_fast)
def hint(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``POST /play/<id>/hint``: the next move of a winning line (practice games only).

    The same service as ``GET /api/v1/games/{id}/hint`` (solved on the solver queue,
    never here; recorded on the game).  The answer is shown in the board's message;
    while the solver works, the board fragment asks again by itself (``poll``: how
    many times it has, up to ``HINT_POLLS``), so one click is enough.
    """
    try:
        answer = hint_services.game_hint(game_id=game_id, player=_user(request))
    except AccountDeleted:  # deleted meanwhile (the solve asked for names the account)
        return account_gone(request)
    except ServiceError as exc:
        text, status = _refusal(exc)
        return _answer(request, game_id, game=None, message=text, error=True, status=status)
    if answer["status"] != "done":
        # The board asks again by itself (htmx), every HINT_POLL_SECONDS, HINT_POLLS times.
        polls = _polls_done(request) + 1
        if polls <= HINT_POLLS:
            message = _("The solver is working on this position…")
            return _answer(request, game_id, game=None, message=message, hint_poll=polls)
        message = _("The solver is working on this position; ask again in a moment.")
    elif answer["result"] == "won":
        message = _("Hint: %(move)s.") % {"move": move_words(answer["move"])}
        # The board outlines the move's card and destination too (app.js, markHint).
        return _answer(request, game_id, game=None, message=message, hint_move=answer["move"])
    elif answer["result"] == "lost" and answer["move_number"] == 0:
        # Lost from the deal: "no longer" would say the player lost it by a move.
        message = _("This deal cannot be won.")
    elif answer["result"] == "lost":
        message = _("This position can no longer be won.")
    else:
        message = _("The solver could not decide this position within its time budget.")
    return _answer(request, game_id, game=None, message=message)


#: Seconds between the solution page's requests for its answers while the solver works.
SOLUTION_POLL_SECONDS = 5


def _solution_part(game: Game, start: str, user: User) -> dict[str, Any]:
    """One line of the solution page: the solver's answer from ``start`` (asked for when
    nobody has), with its moves as steps (:func:`web.board.solution_steps`: draws in a
    row taken together, each step with its move numbers and the cards home after it);
    ``busy`` when the player's solves are at their limit (``too_many_solves``).

    The cards home after each step: :func:`games.selectors.games.solution_cards_home`.
    """
    try:
        sol = game_solution_request(game=game, start=start, requested_by=user)
    except TooManySolves:
        return {"busy": True, "pending": False}
    done = sol["status"] == "done"
    steps = []
    if done and sol["moves"]:
        homes = solution_cards_home(game, sol["moves"], after_moves=sol["after_moves"])
        draw = int(game.deal.options["draw"])
        steps = solution_steps(sol["moves"], homes, first=sol["after_moves"] + 1, draw=draw)
    return {"solution": sol, "steps": steps, "pending": not done, "busy": False}


@get_or_head_only
def solution_slash(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /play/<id>/solution/``: ``301`` to the solution page's address,
    ``/play/<id>/solution`` (with the query string), as ``/races/<id>/results/`` is sent
    to the results page.  Only ``GET`` and ``HEAD``.  Neither the game nor the visitor
    is looked up here: the page itself asks to log in, and says ``404`` for a game that
    is not the player's."""
    return moved_to(request, reverse("web:solution", kwargs={"game_id": game_id}))


@login_required
@get_or_head_only
@_until_started
def solution(request: HttpRequest, game_id: Any) -> HttpResponse:
    """``GET /play/<id>/solution``: a winning line from the deal, once the deal is revealed,
    and, for a game that ended with moves played and not won, one from where it ended.

    Never solves in the request (as ``GET /api/v1/games/{id}/solution`` and its
    ``?start=end``): a known verdict is shown; otherwise a solve job is queued on the
    ``solver`` workers (or joined) and the page says so, and asks again every
    :data:`SOLUTION_POLL_SECONDS` for its answers alone (htmx: ``web/_solution.html``,
    swapped in place, so a screen reader keeps its place; the page reloaded itself).
    Without JavaScript a link loads the page again.  Both answers say ``Vary:
    HX-Request`` (one address, two answers).  An htmx request whose every part is busy
    gets ``200`` (htmx swaps only a 2xx answer), a page load ``429``.
    ``too_many_solves`` is shown as a message.  From where the game ended is not asked
    when the deal is proved lost (every position of it is lost too).
    """
    game = _game(request, game_id)
    user = _user(request)
    try:
        deal = _solution_part(game, "deal", user)
        end = None
        deal_lost = not deal["busy"] and deal["solution"]["result"] == "lost"
        if game.status != Game.Status.WON and game.move_number and not deal_lost:
            end = _solution_part(game, "end", user)
    except DealSecret as exc:
        return render(
            request,
            "web/solution.html",
            {"game": game, "secret": refusal_words(exc)},
            status=403,
        )
    except AccountDeleted:  # deleted meanwhile (a solve asked for names the account)
        return account_gone(request)
    parts = [p for p in (deal, end) if p is not None]
    if all(p["busy"] for p in parts):
        status = 429
    else:
        status = 202 if any(p["pending"] for p in parts) else 200
    context = {
        "game": game,
        "deal": deal,
        "end": end,
        "pending": any(p["pending"] for p in parts),
        "poll_seconds": SOLUTION_POLL_SECONDS,
    }
    # The poll's fragment is 200 even when every part is busy (htmx swaps only 2xx
    # answers: "too many solutions" would never be shown).
    return page_or_fragment(
        request,
        "web/solution.html",
        "web/_solution.html",
        context,
        status=status,
        fragment_status=200 if status == 429 else status,
    )
