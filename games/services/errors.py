"""Errors raised by the services: a stable ``code``, a human ``detail`` and extra members.

The API maps each code to an HTTP status (``api.errors``); services know nothing of HTTP.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any, Final, Self

from django.core.exceptions import ValidationError

#: What a lookup by a malformed id raises: ``ValueError`` for an integer key given
#: ``"x"``, Django's ``ValidationError`` for a UUID key given ``"not-a-uuid"``.  Every
#: service and selector lookup catches these with the model's ``DoesNotExist`` and
#: raises :class:`NotFound`, so a bad id reads as a missing object, never a crash.
MALFORMED_ID: Final = (ValueError, ValidationError)


def utc_text(moment: datetime) -> str:
    """``moment`` as the API writes date-times: ISO 8601 in UTC with a ``Z``
    (``2026-11-30T20:57:51.102674Z``, as DRF renders the JSON fields), for the
    ``detail`` texts that name a time."""
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


class ServiceError(Exception):
    """Base class: ``code`` (stable snake_case), ``detail`` (human text), ``extra`` (dict).

    ``why`` and ``facts``: the engine's key and data for a refused move
    (``games.engine.moves.MoveError``), so that a page can word the refusal in its
    own language; ``why`` is ``code`` and ``facts`` empty otherwise.  Not part of
    the API's problem body (``extra`` is).
    """

    code = "service_error"

    def __init__(self, detail: str, **extra: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra
        self.why: str = self.code
        self.facts: dict[str, Any] = {}

    def because(self, why: str, facts: dict[str, Any]) -> Self:
        """Set :attr:`why` and :attr:`facts` (from an engine ``MoveError``); returns self."""
        self.why = why
        self.facts = dict(facts)
        return self


class NotFound(ServiceError):
    """The object does not exist or the caller may not see it (ids leak nothing)."""

    code = "not_found"


class AccountDeleted(NotFound):
    """The account a write is for was deleted meanwhile: the request read it before the
    deletion committed (:func:`games.services.accounts.player_lock`).  ``not_found`` as
    any missing object (the API answers 404); a page answers what Django answers a
    session whose account is gone, the login page (``web.views.common.account_gone``)."""


class CredentialsChanged(ServiceError):
    """The account's password changed, or the account was deactivated, after the caller
    read it and checked its password (hashing takes a while): a token issued now would
    outlive the change that revoked every token (``games.services.tokens.token_issue``).
    The API answers a login ``400 invalid_credentials``, as for a wrong password."""

    code = "invalid_credentials"


class InvalidOptions(ServiceError):
    """Unknown variant, unknown option or bad option value (RULES.md 4)."""

    code = "invalid_options"


class InvalidDeal(ServiceError):
    """A bad seed or explicit deck (RULES.md 2)."""

    code = "invalid_deal"


class MalformedMove(ServiceError):
    """The move text is not in the notation of RULES.md 5."""

    code = "malformed_move"


class IllegalMove(ServiceError):
    """The rules do not allow the move here (the engine's reason is the detail)."""

    code = "illegal_move"


class StaleMoveNumber(ServiceError):
    """``expected_move_number`` is not the game's current move number (``current_move_number``)."""

    code = "stale_move_number"


class GameOver(ServiceError):
    """The game has ended; it takes no more moves."""

    code = "game_over"


class MoveLimitReached(ServiceError):
    """The game has accepted ``GAME_MOVE_LIMIT`` moves (undone ones count: each stays
    stored); it takes no more, and may still be resigned.  ``limit`` is the limit."""

    code = "move_limit_reached"


class HintNotAllowed(ServiceError):
    """A race game never gets a hint (RULES.md 7): hints use the whole deal."""

    code = "hint_not_allowed"


class UndoNotAllowed(ServiceError):
    """This game does not allow undo (race games unless the race allows it)."""

    code = "undo_not_allowed"


class NothingToUndo(ServiceError):
    """No live move to take back."""

    code = "nothing_to_undo"


class RaceClosed(ServiceError):
    """The player's race deadline has passed (the server clock decides)."""

    code = "race_closed"


class EntryDisqualified(ServiceError):
    """The organisers disqualified the player's race entry: the game takes no moves,
    undo or resignation until they lift it (``reason``: their words; RULES.md 6)."""

    code = "disqualified"

    @classmethod
    def with_reason(cls, reason: str) -> EntryDisqualified:
        """The refusal for an entry disqualified for ``reason`` (the organisers' words)."""
        return cls(f"you are disqualified from this race: {reason}", reason=reason).because(
            "disqualified", {"reason": reason}
        )


class DealSecret(ServiceError):
    """The deal is still secret (the game or its race is not over)."""

    code = "deal_secret"


class DealInRace(ServiceError):
    """A practice game asked for the deal of a race that is not over."""

    code = "deal_in_race"


class RaceError(ServiceError):
    """A race request that does not fit the race's state."""

    code = "race_error"


class InvalidRace(ServiceError):
    """Bad race parameters (times out of order, missing time limit, ...)."""

    code = "invalid_race"


class RaceNotOpen(RaceError):
    """Joining or starting outside the race's window."""

    code = "race_not_open"


class RaceNotStarted(RaceError):
    """The race has not started yet: its deal stays hidden.

    Raised by :meth:`until`, which adds ``retry_after``: the seconds until the start,
    rounded up, at least 1 (the API also sends it as the ``Retry-After`` header)."""

    code = "race_not_started"

    @classmethod
    def until(cls, starts_at: datetime, *, now: datetime) -> RaceNotStarted:
        """The refusal of a request made at ``now``, before the race's start ``starts_at``
        (a race game's ``started_at``): ``retry_after`` = ``ceil(starts_at - now)`` in
        seconds, at least 1."""
        wait = max(1, math.ceil((starts_at - now).total_seconds()))
        return cls(f"the race starts at {utc_text(starts_at)}", retry_after=wait)


class RaceNotFinished(RaceError):
    """Results are published only once the race is finished for everyone.

    Raised by :meth:`until`, which adds ``ends_at`` (the race's end, the latest it is
    finished, ISO 8601 UTC) and ``retry_after`` (the seconds until then, rounded up, at
    least 1: a race past its end is being closed; the API also sends it as the
    ``Retry-After`` header), as :class:`RaceNotStarted` does for the start."""

    code = "race_not_finished"

    @classmethod
    def until(cls, ends_at: datetime, *, now: datetime) -> RaceNotFinished:
        """The refusal of a results request made at ``now`` for a race ending at ``ends_at``
        (it may finish earlier, once every entrant's game is over)."""
        wait = max(1, math.ceil((ends_at - now).total_seconds()))
        return cls(
            "results are published when the race is finished for everyone, at the latest "
            f"at its end ({utc_text(ends_at)})",
            ends_at=utc_text(ends_at),
            retry_after=wait,
        )


class RaceCancelled(RaceError):
    """The race was cancelled: it has no results, no ranks and no rating, and never will."""

    code = "race_cancelled"


class NotEntered(RaceError):
    """The player is not entered in the race and it takes no more entrants (joining has
    closed): only its entrants may start or play it."""

    code = "not_entered"


class NoWinnableDeal(ServiceError):
    """No proven-winnable deal is ready for these rules (the pool is empty; a refill
    is on its way): retry after ``retry_after`` seconds."""

    code = "no_winnable_deal"


class WinnableNotFound(ServiceError):
    """The winnable pool's fills proved the last ``tried`` fresh deals of these rules lost,
    in a row (at least ``WINNABLE_GIVE_UP_AFTER``): a winnable deal is not to be
    expected (one-pass deals are almost never won; docs/winnability.md), so the caller
    is told so instead of "retry"."""

    code = "no_winnable_deal_found"


class TooManySolves(ServiceError):
    """The player already has ``SOLVER_MAX_PENDING_PER_USER`` solves waiting; retry
    after ``retry_after`` seconds."""

    code = "too_many_solves"


class InvalidTournament(ServiceError):
    """Bad tournament parameters (scoring scheme, points table, entry rules, race schedule)."""

    code = "invalid_tournament"


class TournamentNotOpen(ServiceError):
    """The tournament takes no new entrants or races (draft, finished or cancelled)."""

    code = "tournament_not_open"


class TournamentInviteOnly(ServiceError):
    """An invite-only tournament's race: only players an organiser admitted may join."""

    code = "tournament_invite_only"


class TournamentFull(ServiceError):
    """The tournament has admitted its ``max_entrants`` players."""

    code = "tournament_full"


class UsernameTaken(ServiceError):
    """Another account has this username, compared case-insensitively."""

    code = "username_taken"
