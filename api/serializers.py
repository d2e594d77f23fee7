"""Input and output serializers of the API (HackSoft style: each view owns its shapes).

Input serializers are strict: an unknown field is ``400 unknown_field`` and a
value of the wrong JSON type is a validation error (no silent coercion of
``"17"`` to ``17``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.validators import RegexValidator
from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema_field
from rest_framework import serializers
from rest_framework.fields import empty

from api.errors import ProblemError, ProblemSerializer
from api.rules_doc import options_schema
from games.engine import OPTION_NAMES, PRESETS
from games.models import Game
from games.selectors.games import SEEN_GAME_STATUSES, SOLUTION_FROM, game_status_seen


class StrictSerializer(serializers.Serializer[Any]):
    """Refuses a body that is not a JSON object or that has fields it does not declare."""

    def run_validation(self, data: Any = empty) -> Any:
        """DRF's validation of ``data`` (the parsed body); raises :class:`ProblemError`
        400 ``malformed_request`` for a JSON ``null`` body, then as
        :meth:`to_internal_value` and DRF (400 ``validation_error``)."""
        # A JSON ``null`` body is not an object either (DRF's own answer was a
        # validation_error "No data provided", unlike ``[]`` or ``"draw"``).
        if data is None:
            raise ProblemError(
                "malformed_request", "The request body must be a JSON object.", status=400
            )
        return super().run_validation(data)

    def to_internal_value(self, data: Any) -> Any:
        """The validated fields of ``data`` as a dict (DRF's ``validated_data``).

        Raises :class:`ProblemError` 400 ``malformed_request`` when ``data`` is not a
        JSON object (a list, a string, a number), 400 ``unknown_field`` (extension
        member ``fields``: the unknown names, sorted) when it has a key the serializer
        does not declare, and DRF's ``ValidationError`` (400 ``validation_error``, with
        ``errors`` per field) for a bad value.
        """
        if not isinstance(data, dict):
            raise ProblemError(
                "malformed_request", "The request body must be a JSON object.", status=400
            )
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            allowed = (
                "Allowed: " + ", ".join(sorted(self.fields)) + "."
                if self.fields
                else "This endpoint takes no body fields: send no body, or {}."
            )
            raise ProblemError(
                "unknown_field",
                "Unknown field(s): " + ", ".join(unknown) + ". " + allowed,
                status=400,
                fields=unknown,
            )
        return super().to_internal_value(data)


#: Largest integer an input field accepts unless it says otherwise (a PostgreSQL integer).
MAX_INPUT_INT = 2**31 - 1


class StrictIntegerField(serializers.IntegerField):
    """An integer that must be a JSON number (not a string, not a boolean).

    Bounded by ``MAX_INPUT_INT`` unless ``max_value`` is given.
    """

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_value", MAX_INPUT_INT)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(super().to_internal_value(data))


class StrictBooleanField(serializers.BooleanField):
    """A boolean that must be JSON ``true`` or ``false`` (no ``"no"``, no ``0``)."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictDateTimeField(serializers.DateTimeField):
    """An ISO 8601 date-time with an explicit offset (``Z`` or ``+02:00``), years 2000-2099.

    A date-time without an offset is refused rather than guessed.
    """

    default_error_messages = {
        **serializers.DateTimeField.default_error_messages,
        "naive": "Give the time zone: end with Z or an offset such as +02:00.",
        "range": "Use a date between 2000 and 2099.",
    }

    def to_internal_value(self, value: Any) -> Any:
        if not isinstance(value, str):
            self.fail("invalid", format="ISO 8601")
        parsed = super().to_internal_value(value)
        text = value.strip()
        if not (text.endswith(("Z", "z")) or "+" in text[10:] or "-" in text[10:]):
            self.fail("naive")
        if not 2000 <= parsed.year <= 2099:
            self.fail("range")
        return parsed


def paginated(item: type[serializers.Serializer[Any]], name: str) -> Any:
    """OpenAPI shape of a cursor page of ``item``: ``{"next", "previous", "results"}``."""
    from drf_spectacular.utils import inline_serializer

    return inline_serializer(
        name=name,
        fields={
            "next": serializers.URLField(allow_null=True, help_text="the next page, or null"),
            "previous": serializers.URLField(allow_null=True, help_text="the previous page"),
            "results": item(many=True),
        },
    )


class StrictCharField(serializers.CharField):
    """A string that must be a JSON string.

    Unless ``allow_blank``, the schema says what the server enforces: at least one
    character (``minLength: 1``) and, when surrounding whitespace is trimmed (the
    default), at least one that is not whitespace (``pattern: \\S``).
    """

    def __init__(self, **kwargs: Any) -> None:
        """As ``CharField``; see the class docstring for the schema of a non-blank field."""
        if not kwargs.get("allow_blank", False):
            kwargs.setdefault("min_length", 1)
            if kwargs.get("trim_whitespace", True):
                validators = list(kwargs.pop("validators", []))
                validators.append(RegexValidator(r"\S", message="This field may not be blank."))
                kwargs["validators"] = validators
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


# ---------------------------------------------------------------- accounts


class RegisterInput(StrictSerializer):
    """``{"username": ..., "password": ..., "email": optional}``."""

    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)
    email = serializers.EmailField(required=False, allow_blank=True)


class TokenInput(StrictSerializer):
    """``{"username": ..., "password": ...}``."""

    username = StrictCharField(max_length=150)
    password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)


class TokenOutput(serializers.Serializer[Any]):
    """The API token to send as ``Authorization: Token <token>``.

    Every login issues a new token (64 hex characters); it works until logged out,
    revoked by a password change or deactivation, or ``expiry`` (null: no expiry).
    """

    username = serializers.CharField()
    token = serializers.CharField()
    expiry = serializers.DateTimeField(allow_null=True, help_text="when the token expires")


class PasswordChangeInput(StrictSerializer):
    """``{"current_password": ..., "new_password": ...}``."""

    current_password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)
    new_password = StrictCharField(max_length=128, write_only=True, trim_whitespace=False)


# ---------------------------------------------------------------- variants


class OptionDoc(serializers.Serializer[Any]):
    """One rule option: its name, meaning and allowed values."""

    name = serializers.CharField()
    help = serializers.CharField()
    values = serializers.ListField(child=serializers.JSONField())
    classic = serializers.JSONField()


@extend_schema_field(options_schema(overrides=True))
class OptionOverridesField(serializers.DictField):
    """A request's ``options``: overrides of its preset, checked by the engine
    (``make_rules``; a bad name or value is 400 ``invalid_options``)."""


@extend_schema_field(options_schema(overrides=False))
class OptionsField(serializers.DictField):
    """An answer's ``options``: the full option set of the rules (RULES.md 4)."""

    def __init__(self, **kwargs: Any) -> None:
        """Any value per option (JSON); ``kwargs`` as :class:`~rest_framework.fields.DictField`."""
        super().__init__(child=serializers.JSONField(), **kwargs)


class PresetDoc(serializers.Serializer[Any]):
    """One preset: its name, what it changes and the full option set."""

    name = serializers.CharField()
    help = serializers.CharField()
    options = OptionsField()


class VariantsOutput(serializers.Serializer[Any]):
    """Presets and options (RULES.md 4)."""

    presets = PresetDoc(many=True)
    options = OptionDoc(many=True)


# ---------------------------------------------------------------- games


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "maxLength": 3, "example": "QH"},
        "minItems": 52,
        "maxItems": 52,
    }
)
class DeckField(serializers.ListField):
    """An explicit deck: the schema asks for exactly 52 card names (RULES.md 2.2).

    The field itself takes 1 to 60 so that a wrong count reaches the engine's check and
    comes back as ``invalid_deal`` with its reason ("a deck has 52 cards, got 53;
    repeated: AC"), not as a bare length error; beyond 60 it is ``validation_error``.
    """


class GameStartInput(StrictSerializer):
    """Start a practice game: ``variant``, optional ``options`` overrides, ``seed`` or ``deck``."""

    variant = StrictCharField(
        default="classic",
        max_length=32,
        help_text="A preset: " + ", ".join(PRESETS) + " (unknown: 400 invalid_options).",
    )
    options = OptionOverridesField(
        required=False,
        help_text="Option overrides (RULES.md 4), names among: "
        + ", ".join(OPTION_NAMES)
        + "; an option left out keeps the preset's value; an unknown name or value is 400 "
        "invalid_options.",
    )
    seed = StrictCharField(
        required=False,
        max_length=64,
        help_text="Game number or seed: 1-64 characters of [A-Za-z0-9_-], dealt as asked (even "
        "blocked at the deal). Omit (with no deck) for a random deal, never blocked at the deal "
        "(RULES.md 3.9). A seed that is not a string, blank or longer than 64 characters is 400 "
        "validation_error; one with another character is 400 invalid_deal.",
    )
    winnable = StrictBooleanField(
        default=False,
        help_text="Ask for a deal the solver proved winnable (drawn at once from the players' "
        "pool filled ahead of time, never from the reserve kept for races; not with seed or "
        "deck). 503 no_winnable_deal with Retry-After while the players' pool of these rules "
        "is empty.",
    )
    deck = DeckField(
        child=StrictCharField(max_length=3),
        required=False,
        min_length=1,
        max_length=60,
        help_text="Explicit deck: 52 distinct card names in deal order (RULES.md 2.2). Any "
        "other count up to 60 is 400 invalid_deal naming the count and any repeated card; "
        "more is 400 validation_error.",
    )


class MoveInput(StrictSerializer):
    """``{"move": "QH>t2", "expected_move_number": 17}`` (RULES.md 5 notation)."""

    move = StrictCharField(
        max_length=200,
        allow_blank=True,
        trim_whitespace=False,
        help_text="RULES.md 5 notation; anything else is 400 malformed_move with the reason",
    )
    expected_move_number = StrictIntegerField(
        required=False,
        min_value=0,
        help_text="Moves already played as the client believes; a mismatch is 409 "
        "stale_move_number. Send it: it makes retries safe.",
    )


class NoInput(StrictSerializer):
    """No fields: the body of resign, join, start and rescore is empty or ``{}``.  Anything
    else (malformed JSON, a field, another type) is a 4xx and changes nothing."""


#: The 400 of an operation whose body is :class:`NoInput` (drf-spectacular shows no
#: request body for it), for ``extend_schema(responses=...)``.
NO_INPUT_400 = OpenApiResponse(
    ProblemSerializer,
    description="malformed_request, unknown_field: send no body, or `{}`",
)


class ExpectedMoveInput(StrictSerializer):
    """Optional ``{"expected_move_number": N}`` for undo."""

    expected_move_number = StrictIntegerField(
        required=False,
        min_value=0,
        help_text="Moves played as the client believes (the move number before this undo); "
        "a mismatch is 409 stale_move_number and nothing is undone. Send it: a retried undo "
        "then takes back one move, not two.",
    )


class ReserveView(serializers.Serializer[Any]):
    """The reserve: card count, face-down count, visible cards bottom to top."""

    count = serializers.IntegerField()
    face_down = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())


class StockView(serializers.Serializer[Any]):
    """The stock: its card count only (its cards and order are hidden)."""

    count = serializers.IntegerField()


class WasteView(serializers.Serializer[Any]):
    """The waste: every card, bottom to top (the last one is available)."""

    count = serializers.IntegerField()
    cards = serializers.ListField(child=serializers.CharField())


#: The OpenAPI text of a race's ``seed`` (``Race.seed_revealed``; RULES.md 7), wherever
#: a race is shown (the race itself, a tournament's list of races).
RACE_SEED_HELP = (
    "revealed once the race is finished or cancelled (as its entrants' games show it); null before"
)


class DealView(serializers.Serializer[Any]):
    """The deal: variant, the preset it was built from, options, commitment; the seed only
    once revealed."""

    variant = serializers.CharField(
        help_text="the preset the rules equal exactly, or 'custom' (see preset)"
    )
    preset = serializers.CharField(
        help_text="the preset the rules were built from, the options overriding it "
        "(RULES.md 4): variant 'custom' with preset 'classic' is classic with changes "
        "(see options); equal to variant when the rules are exactly a preset's; 'custom' "
        "for a deal stored before presets were recorded whose options are no preset's"
    )
    options = OptionsField()
    commitment = serializers.CharField(help_text="hex(SHA-256(seed)) (RULES.md 7)")
    seed = serializers.CharField(
        allow_null=True,
        help_text="null until revealed (see revealed): a practice game's once it is over for "
        "good, a race game's once its race is finished or cancelled (RULES.md 7)",
    )
    revealed = serializers.BooleanField(
        help_text="a practice game's deal once it is over for good (a blocked game whose "
        "last move may still be undone is not: undo, or resign it), a race game's once "
        "its race is finished or cancelled (RULES.md 7)"
    )


class GameView(serializers.Serializer[Any]):
    """What a player sees of a game (RULES.md 7: hidden cards only as counts)."""

    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=["practice", "race"])
    status = serializers.ChoiceField(choices=["playing", "won", "blocked", "resigned", "timed_out"])
    move_number = serializers.IntegerField(
        help_text="moves played and not taken back: send it as the next move's expected_move_number"
    )
    moves_left = serializers.IntegerField(
        min_value=0,
        help_text="moves the server will still accept in this game before its limit "
        "(GAME_MOVE_LIMIT, 10,000 by default; undone moves count too, as each stays stored); "
        "at 0 a move is 409 move_limit_reached and the game can only be resigned. Not a "
        "rule of the game (RULES.md sets no limit)",
    )
    cards_home = serializers.IntegerField(
        help_text="cards on the foundations, 1..52 (at least 4 with a fixed base: RULES.md 6)"
    )
    casino_score = serializers.IntegerField(help_text="5 x cards_home - 52 (RULES.md 6)")
    base_rank = serializers.CharField(
        help_text="the rank every foundation starts with (RULES.md 1, 2): the dealt base "
        "card's, or the variant's fixed base"
    )
    reserve = ReserveView()
    foundations = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="the four foundations keyed by suit (`C`, `D`, `H`, `S`), each its cards "
        "bottom to top (the base-rank card first, the last one on top); an empty list for a "
        "foundation not started. A move to the foundations names `f` and goes to its card's "
        "suit (RULES.md 3.2, 5)",
    )
    tableau = serializers.ListField(
        child=serializers.ListField(child=serializers.CharField()),
        help_text="the four tableau piles in order `t1` to `t4`, each its cards bottom to top: "
        "the first is the pile's bottom card (the one a whole-pile move names), the last its "
        "top card (RULES.md 1, 3.4); an empty list is an empty pile",
    )
    stock = StockView()
    waste = WasteView()
    redeals_used = serializers.IntegerField(help_text="redeals played so far (RULES.md 3.6)")
    redeals_left = serializers.IntegerField(allow_null=True, help_text="null: unlimited")
    legal_moves = serializers.ListField(
        child=serializers.CharField(),
        help_text="every move the rules allow now, in canonical notation (RULES.md 5), "
        "each once: moves to the foundations, then to the tableau (whole-pile moves "
        "named by the pile's bottom card), then `draw` or `redeal`; exactly the moves "
        "POST /moves accepts. Empty once the game is not playing (won, blocked, resigned, "
        "timed out), its entry is disqualified, or moves_left is 0",
    )
    deal = DealView()
    undo_allowed = serializers.BooleanField(
        help_text="whether POST /undo would take back the last move now: the game allows "
        "undo (practice games; race games of a race with allow_undo), has a move to take "
        "back, is playing or blocked (a blocked game's blocking move may be taken back; "
        "never a won, resigned or timed-out game), and, for a race game, its deadline has "
        "not passed and its race is still running; false otherwise"
    )
    started_at = serializers.DateTimeField(
        help_text="when the game's clock started (UTC): a practice game's creation, a "
        "scheduled race's starts_at, a window race entrant's own POST /races/{id}/start"
    )
    finished_at = serializers.DateTimeField(
        allow_null=True,
        help_text="when the game ended (UTC): won, blocked or resigned at that move; timed "
        "out at its deadline; null while it is playing (an undo of a blocked game makes it "
        "null again)",
    )
    deadline = serializers.DateTimeField(
        allow_null=True,
        help_text="a race game's deadline (UTC): from this instant on no move, undo or "
        "resignation is accepted (409 race_closed) and the game is timed out. A scheduled "
        "race's ends_at; in a window race your start + time_limit_s, but never after the "
        "race's ends_at (a start less than time_limit_s before ends_at gets fewer seconds); "
        "the moment of a cancellation that ended it; null for a practice game",
    )
    cards_home_at = serializers.DateTimeField(
        help_text="when the game reached its count of cards home (UTC; started_at when the "
        "deal put them home): the race ranking's tie-break; its time (elapsed_ms) runs from "
        "started_at to it, in whole milliseconds (RULES.md 6)"
    )
    disqualified_reason = serializers.CharField(
        allow_null=True,
        help_text="a race game whose entry the organisers disqualified: their reason (the game "
        "then takes no moves, undo or resignation: 403 disqualified; legal_moves is empty); "
        "null otherwise",
    )


class MoveResult(serializers.Serializer[Any]):
    """An accepted move and the game view after it."""

    move = serializers.CharField(help_text="canonical notation")
    number = serializers.IntegerField(
        help_text="the move's number, 1 for the first: the game's move_number after it (a "
        "replayed answer gives the number the move was accepted at)"
    )
    replayed = serializers.BooleanField(
        help_text="true when this request repeated a move already accepted (nothing new stored)"
    )
    game = GameView()


class MoveRow(serializers.Serializer[Any]):
    """One move of the history."""

    number = serializers.IntegerField(help_text="1 for the first move")
    notation = serializers.CharField(help_text="canonical notation (RULES.md 5)")
    played_at = serializers.DateTimeField(help_text="when the server accepted it")
    cards_home = serializers.IntegerField(help_text="cards on the foundations after it")


# The docstring below is the schema's description of GameSummary (a client reads it in
# ReDoc); the status a player may be told is games.selectors.games.game_status_seen's.
class GameSummary(serializers.Serializer[Any]):
    """A line of the player's game list.

    A race game before its race starts says ``not_started`` and no ``finished_at``:
    what was stored when the player joined was computed from the secret deal (RULES.md
    7).  A game whose race was cancelled before it started says ``timed_out`` (ended by
    the cancellation; its deal is public).
    """

    id = serializers.UUIDField()
    kind = serializers.ChoiceField(choices=["practice", "race"])
    status = serializers.SerializerMethodField()
    variant = serializers.CharField(source="deal.variant")
    preset = serializers.CharField(
        source="deal.preset", help_text="the preset the rules were built from (see a game's deal)"
    )
    move_number = serializers.IntegerField()
    cards_home = serializers.IntegerField()
    started_at = serializers.DateTimeField()
    finished_at = serializers.SerializerMethodField()

    def to_representation(self, instance: Game) -> dict[str, Any]:
        # One instant per row: its status and finished_at read the clock once, so a row
        # never says "not_started" with the finished_at of a started game (or the
        # reverse) when the race starts between two readings.
        self._now = timezone.now()
        return dict(super().to_representation(instance))

    def _row_now(self) -> datetime:
        return getattr(self, "_now", None) or timezone.now()

    @extend_schema_field(serializers.ChoiceField(choices=SEEN_GAME_STATUSES))
    def get_status(self, game: Game) -> str:
        return game_status_seen(game, now=self._row_now())

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_finished_at(self, game: Game) -> str | None:
        """As the game view gives it: the stored end, or the deadline of a game past it
        that the sweeper has not recorded yet (its status already says ``timed_out``)."""
        status = game_status_seen(game, now=self._row_now())
        if status == "not_started":
            return None
        ended = game.finished_at or (game.deadline if status == Game.Status.TIMED_OUT else None)
        return None if ended is None else str(serializers.DateTimeField().to_representation(ended))


class RecordView(serializers.Serializer[Any]):
    """A self-contained game record (format canfield-record) for the engine's replay command."""

    format = serializers.CharField(help_text="always `canfield-record`")
    version = serializers.IntegerField(help_text="the record format's version")
    variant = serializers.CharField(
        allow_null=True,
        help_text="the preset the rules equal exactly; null when they are no preset's (the "
        "game view's deal says `custom` there): options holds the rules in every case",
    )
    options = OptionsField()
    seed = serializers.CharField(
        allow_null=True, help_text="the game's seed; null for a game dealt from an explicit deck"
    )
    deck = serializers.ListField(
        child=serializers.CharField(), help_text="the 52 cards in deal order (RULES.md 2)"
    )
    moves = serializers.ListField(
        child=serializers.CharField(),
        help_text="the moves played and not taken back, in order (RULES.md 5)",
    )
    ended = serializers.ChoiceField(
        choices=["resigned", "timed_out"],
        allow_null=True,
        help_text="how the game ended when it was not by its moves (resigned, timed_out)",
    )
    hints = serializers.ListField(
        child=serializers.DictField(child=serializers.JSONField()),
        help_text='hints the player was given: [{"move_number": n, "move": "QH>t2"}] '
        "(practice games; the engine's replay ignores them)",
    )


class HintView(serializers.Serializer[Any]):
    """A hint: the next move of a winning line from the game's current position."""

    status = serializers.ChoiceField(
        choices=["pending", "running", "done"],
        help_text="pending/running: the solver queue is working on the position, ask again "
        "after `Retry-After` seconds; done: `result` is set",
    )
    move_number = serializers.IntegerField(help_text="moves played: the position the hint is for")
    result = serializers.ChoiceField(
        choices=["won", "lost", "unknown"],
        required=False,
        help_text="won: `move` starts a winning line; lost: this position can no longer be "
        "won (proved); unknown: the solver's time budget ran out",
    )
    move = serializers.CharField(required=False, help_text="the hinted move (RULES.md 5)")


class QueryChoiceField(serializers.ChoiceField):
    """A choice read from the query string, where an empty value (``?start=``) is a wrong
    choice (400 ``validation_error``), as on every other list and filter of the API.

    DRF reads a form-encoded empty value as an absent one, so ``?start=`` silently
    meant the default."""

    def get_value(self, dictionary: Any) -> Any:
        return dictionary.get(self.field_name, empty)


class SolutionQuery(serializers.Serializer[Any]):
    """``GET /games/{id}/solution`` query: where the line starts."""

    start = QueryChoiceField(
        choices=list(SOLUTION_FROM),
        default="deal",
        help_text="deal: from the dealt position; end: from where the game ended (the deal "
        "followed by the game's moves not taken back), e.g. could a resigned game still have "
        "been won",
    )


class SolutionView(serializers.Serializer[Any]):
    """A solve job on a position of a finished game: its status and, when done, the verdict
    and a winning line from that position."""

    start = serializers.ChoiceField(choices=list(SOLUTION_FROM), help_text="as asked")
    after_moves = serializers.IntegerField(
        help_text="how many of the game's moves come before the line (0 from the deal)"
    )
    status = serializers.ChoiceField(
        choices=["pending", "running", "done"],
        help_text="pending: waiting for a solver worker; running; done: `result` is set",
    )
    result = serializers.ChoiceField(
        choices=["won", "lost", "unknown"],
        allow_null=True,
        help_text="won: winnable from the position (moves is a winning line from it); lost: "
        "proved unwinnable from it; unknown: the solver's budget ran out; null until done",
    )
    moves = serializers.ListField(child=serializers.CharField())
    nodes = serializers.IntegerField(help_text="positions the solver expanded")
    seconds = serializers.FloatField(help_text="solver time in seconds")
    requested_at = serializers.DateTimeField(help_text="when the solve was first asked for")
