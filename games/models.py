"""Domain models: deals, games and their moves (DESIGN.md "Persistence").

* :class:`Deal` is a dealt deck shared by every game played on it; it holds the
  seed (secret while a race runs), its commitment and the variant options.
* :class:`Game` is one player's play of one deal: the engine snapshot, the move
  count, the status and the clocks.
* :class:`Move` is one accepted move.  Undone moves keep their row with
  ``undone_at`` set, so nothing accepted is ever lost; among live moves the
  number is unique per game.

* :class:`Race` is a timed race on one deal; :class:`RaceEntry` is one player's
  entry in it with its result (DESIGN.md "Races and deadlines").
* :class:`Tournament` is a series of races scored by a configurable scheme;
  :class:`TournamentEntrant` is a player admitted to it and
  :class:`TournamentStanding` a row of its standings, recomputed from race
  results (``games.services.tournaments``).
"""

from __future__ import annotations

import uuid
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.engine import PRESETS, GameState, Rules, layout, make_rules, parse_deck


class Deal(models.Model):
    """A deck in deal order plus the rules it is played under (RULES.md 2, 4).

    ``deck`` is the list of 52 card names in deal order (hidden information:
    never serialise it to a player before :func:`games.selectors.games.deal_revealed`).
    ``commitment`` is ``hex(SHA-256(seed))`` for a seeded deal (RULES.md 7) and
    ``hex(SHA-256("AC 2C ..."))`` of the space-joined deck for an explicit deck.
    """

    seed = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001 - null: no seed
    deck = models.JSONField(help_text="52 card names in deal order (hidden information)")
    commitment = models.CharField(max_length=64, db_index=True)
    deck_digest = models.CharField(
        max_length=64, db_index=True, help_text='hex(SHA-256("AC 2C ...")) of the deck'
    )
    opening_digest = models.CharField(
        max_length=64,
        db_index=True,
        default="",
        help_text="hex(SHA-256) of the cards every player sees at the start "
        "(games.services.deal_guard)",
    )
    variant = models.CharField(max_length=32, help_text="preset name, or 'custom'")
    preset = models.CharField(
        max_length=32,
        default="custom",
        help_text="the preset the rules were built from, options overriding it "
        "(variant 'custom' from preset 'classic': classic with changes); 'custom' when "
        "unknown (a deal stored before it was recorded, its options no preset's)",
    )
    options = models.JSONField(help_text="all nine rule options (RULES.md 4)")
    created_at = models.DateTimeField(default=timezone.now)
    # The solver's verdict on the dealt position, cached (hidden while the deal is).
    solver_result = models.CharField(
        max_length=8, blank=True, help_text="won, lost or unknown; blank: not solved yet"
    )
    solver_moves = models.JSONField(
        default=list, blank=True, help_text="a winning line from the deal (canonical notation)"
    )
    solver_nodes = models.PositiveBigIntegerField(default=0)
    solver_seconds = models.FloatField(default=0.0)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Deal {self.pk} ({self.variant}, {self.commitment[:12]}…)"

    @property
    def rules(self) -> Rules:
        """The engine :class:`~games.engine.Rules` of this deal."""
        return make_rules("classic", **self.options)

    def new_state(self) -> GameState:
        """The dealt position (RULES.md 2.2)."""
        return layout(parse_deck(self.deck), self.rules)


class Game(models.Model):
    """One player's game on a :class:`Deal`.

    ``state`` is the engine snapshot (:meth:`GameState.to_dict`, holds hidden
    cards); ``move_number`` counts live moves; ``cards_home_at`` is when
    ``cards_home`` last reached its current value (race ranking, RULES.md 6);
    ``moves_accepted`` counts every move ever accepted, undone ones included (the
    game's :class:`Move` rows), which ``GAME_MOVE_LIMIT`` caps;
    ``deadline`` (race games) is the first instant at which moves are refused.
    """

    class Kind(models.TextChoices):
        PRACTICE = "practice"
        RACE = "race"

    class Status(models.TextChoices):
        PLAYING = "playing"
        WON = "won"
        BLOCKED = "blocked"
        RESIGNED = "resigned"
        TIMED_OUT = "timed_out"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="games"
    )
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="games")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PRACTICE)
    state = models.JSONField()
    move_number = models.PositiveIntegerField(default=0)
    moves_accepted = models.PositiveIntegerField(
        default=0,
        help_text="moves ever accepted, undone ones included (its Move rows; capped by "
        "GAME_MOVE_LIMIT)",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING)
    cards_home = models.PositiveSmallIntegerField(default=1)
    cards_home_at = models.DateTimeField(default=timezone.now)
    cards_home_ms = models.PositiveBigIntegerField(
        default=0, help_text="ms from started_at to cards_home_at (race ranking key)"
    )
    undo_allowed = models.BooleanField(default=True)
    deadline = models.DateTimeField(null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    hints = models.JSONField(
        default=list,
        blank=True,
        help_text='hints given (practice games only): [{"move_number": n, "move": "QH>t2"}]',
    )

    class Meta:
        ordering = ["-started_at"]
        indexes = [models.Index(fields=["player", "-started_at"], name="game_player_started")]

    def __str__(self) -> str:
        return f"Game {self.id} ({self.status}, {self.cards_home} home)"

    @property
    def is_over(self) -> bool:
        """True once the game cannot take another move."""
        return self.status != self.Status.PLAYING

    def engine_state(self) -> GameState:
        """The engine position rebuilt from the snapshot."""
        return GameState.from_dict(self.state)


class Move(models.Model):
    """One accepted move, in canonical notation (RULES.md 5).

    ``cards_home`` is the count after the move; ``undone_at`` is set when an
    undo took the move back (the row stays).
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    number = models.PositiveIntegerField()
    notation = models.CharField(max_length=16)
    played_at = models.DateTimeField(default=timezone.now)
    cards_home = models.PositiveSmallIntegerField()
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number", "played_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=Q(undone_at__isnull=True),
                name="move_live_number_unique",
            )
        ]
        indexes = [models.Index(fields=["game", "number"], name="move_game_number")]

    def __str__(self) -> str:
        return f"{self.number}. {self.notation}"


class Tournament(models.Model):
    """A series of races with standings (issue 5; scoring in ``games.services.tournaments``).

    ``scoring`` names the scheme; its parameters are ``points_table`` (points by
    place: the points of rank 1, 2, ...; ranks past the table score 0),
    ``points_per_card`` and ``win_bonus`` (cards home plus win bonus).
    ``entry`` is ``open`` (any player joining one of its races is admitted, up
    to ``max_entrants``) or ``invite`` (only players an organiser admitted).
    ``draft`` tournaments are visible to staff only.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", pgettext_lazy("tournament status", "Draft")
        OPEN = "open", pgettext_lazy("tournament status", "Open")
        FINISHED = "finished", pgettext_lazy("tournament status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("tournament status", "Cancelled")

    class Scoring(models.TextChoices):
        PLACE_POINTS = "place_points", _("Points by place")
        CARDS_HOME = "cards_home", _("Cards home plus win bonus")

    class Entry(models.TextChoices):
        OPEN = "open", _("Open to every player")
        INVITE = "invite", _("Invited players only")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True
    )
    scoring = models.CharField(max_length=16, choices=Scoring.choices, default=Scoring.PLACE_POINTS)
    points_table = models.JSONField(
        default=list,
        blank=True,
        help_text=_("points by place: points of rank 1, 2, ... (e.g. [10, 8, 6, 5, 4, 3, 2, 1])"),
    )
    # An integer column, as win_bonus: the services take 0 to 100,000 for both
    # (games.services.tournaments.scoring_validate); a smallint stopped at 32,767.
    points_per_card = models.PositiveIntegerField(
        default=1, help_text=_("cards home scheme: points per card home")
    )
    win_bonus = models.PositiveIntegerField(
        default=20, help_text=_("cards home scheme: extra points for a won game")
    )
    entry = models.CharField(max_length=16, choices=Entry.choices, default=Entry.OPEN)
    max_entrants = models.PositiveIntegerField(
        null=True, blank=True, help_text=_("most players admitted (empty: no limit)")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    scored_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    @property
    def takes_entries(self) -> bool:
        """Whether its races may still be joined: not finished or cancelled (a finished
        tournament's standings are final)."""
        return self.status not in (self.Status.FINISHED, self.Status.CANCELLED)


class TournamentEntrant(models.Model):
    """A player admitted to a tournament (invited by an organiser, or joined an open one)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_entrant_unique_player"
            )
        ]

    def __str__(self) -> str:
        return gettext("%(player)s in %(tournament)s") % {
            "player": self.player,
            "tournament": self.tournament,
        }


class TournamentStanding(models.Model):
    """One player's line of a tournament's standings: a recomputation, never edited.

    Totals cover the player's ranked entries in the tournament's finished
    races; ``rank`` is shared by exact ties (see ``games.services.tournaments``).
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standings")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_standings"
    )
    rank = models.PositiveIntegerField()
    points = models.BigIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    races_played = models.PositiveIntegerField(default=0)
    disqualifications = models.PositiveIntegerField(default=0)
    cards_home_total = models.PositiveIntegerField(default=0)
    time_ms_total = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["tournament", "rank", "player_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="tournament_standing_unique_player"
            )
        ]
        indexes = [models.Index(fields=["tournament", "rank"], name="tournament_standing_rank")]

    def __str__(self) -> str:
        return gettext("%(rank)s. %(player)s (%(points)s pts)") % {
            "rank": self.rank,
            "player": self.player,
            "points": self.points,
        }


class Race(models.Model):
    """A timed race: every entrant plays their own game on the same :class:`Deal`.

    Modes: ``scheduled`` (everyone plays from ``starts_at`` to ``ends_at``) and
    ``window`` (each entrant gets ``time_limit_s`` seconds from their own
    start, any time between ``opens_at`` and ``ends_at``).  ``status`` moves
    ``scheduled -> closing -> finished`` (or ``cancelled``) through guarded
    services; whether a race is open or running is read off the clock;
    ``closed_at``, ``scored_at`` and ``cancelled_at`` record when those steps happened.
    ``commitment`` is ``hex(SHA-256(seed))``, public from the announcement;
    the seed stays secret until ``finished`` (RULES.md 7).
    """

    class Mode(models.TextChoices):
        SCHEDULED = "scheduled", pgettext_lazy("race mode", "Scheduled")
        WINDOW = "window", pgettext_lazy("race mode", "Window")

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", pgettext_lazy("race status", "Scheduled")
        CLOSING = "closing", pgettext_lazy("race status", "Closing")
        FINISHED = "finished", pgettext_lazy("race status", "Finished")
        CANCELLED = "cancelled", pgettext_lazy("race status", "Cancelled")

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=120)
    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="races")
    mode = models.CharField(max_length=16, choices=Mode.choices, default=Mode.SCHEDULED)
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.SCHEDULED, db_index=True
    )
    time_limit_s = models.PositiveIntegerField(
        _("time limit (seconds)"),
        help_text=_("seconds each entrant may play (window mode; scheduled: ends_at - starts_at)"),
    )
    opens_at = models.DateTimeField(help_text=_("joining opens"))
    starts_at = models.DateTimeField(help_text=_("play may start"))
    ends_at = models.DateTimeField(db_index=True, help_text=_("no move is accepted from here on"))
    allow_undo = models.BooleanField(default=False)
    late_join_s = models.PositiveIntegerField(
        _("late join (seconds)"),
        null=True,
        blank=True,
        default=0,
        help_text=_(
            "seconds after starts_at that joining stays open (0: joining closes at the "
            "start; empty: until ends_at)"
        ),
    )
    require_winnable = models.BooleanField(
        default=False, help_text=_("the deal was proven winnable by the solver")
    )
    commitment = models.CharField(max_length=64)
    tournament = models.ForeignKey(
        Tournament,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="races",
        help_text=_("the tournament this race counts for (at most one)"),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)
    scored_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "when the organisers cancelled it (games.services.races.races_cancel); empty "
            "for a race not cancelled, or cancelled before this was recorded"
        ),
    )
    rated = models.BooleanField(
        default=True, help_text=_("counts for player ratings (organisers may mark a race unrated)")
    )
    rating_stale = models.BooleanField(
        default=False,
        help_text=_(
            "its results or rated flag changed since it was rated: the ratings sweep "
            "re-rates it (games.services.ratings)"
        ),
    )

    class Meta:
        ordering = ["-starts_at"]
        indexes = [
            models.Index(fields=["status", "ends_at"], name="race_status_ends"),
            # The ratings sweep's few stale races, in race order.
            models.Index(
                fields=["ends_at", "id"], condition=Q(rating_stale=True), name="race_rating_stale"
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(opens_at__lte=models.F("starts_at"))
                & Q(starts_at__lt=models.F("ends_at")),
                name="race_times_ordered",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_finished(self) -> bool:
        """True once the race is closed and scored for everyone (seed revealed)."""
        return self.status == self.Status.FINISHED

    @property
    def join_closes_at(self) -> Any:
        """When joining closes: ``starts_at + late_join_s``, at most ``ends_at``
        (``ends_at`` when ``late_join_s`` is empty)."""
        if self.late_join_s is None:
            return self.ends_at
        return min(self.starts_at + timedelta(seconds=self.late_join_s), self.ends_at)

    def joining_open(self, now: Any = None) -> bool:
        """Whether a new entrant may join at ``now``: from ``opens_at`` until
        :attr:`join_closes_at` (exclusive), while the race is scheduled (not closed)."""
        now = now or timezone.now()
        return bool(
            self.status == self.Status.SCHEDULED
            and self.opens_at <= now
            and now < self.join_closes_at
            and now < self.ends_at
        )

    def seed_revealed(self) -> bool:
        """Whether the seed may be shown: once the race is finished or cancelled, never
        while it can still be played (RULES.md 7)."""
        return self.status in (self.Status.FINISHED, self.Status.CANCELLED)

    def phase(self, now: Any = None) -> str:
        """The phase by the clock.

        ``upcoming``, ``open``, ``running``, ``closing``, ``finished`` or ``cancelled``.
        """
        now = now or timezone.now()
        if self.status in (self.Status.FINISHED, self.Status.CANCELLED, self.Status.CLOSING):
            return str(self.status)
        if now >= self.ends_at:
            return "closing"
        if now >= self.starts_at:
            return "running"
        if now >= self.opens_at:
            return "open"
        return "upcoming"


class RaceEntry(models.Model):
    """One player's entry in a race, with the result stored at close.

    ``elapsed_ms`` is the time from the player's start to reaching
    ``cards_home`` (the win time for winners); ``rank`` is shared by ties
    (RULES.md 6).  A disqualified entry keeps its facts but gets no rank.
    """

    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="race_entries"
    )
    game = models.OneToOneField(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="race_entry"
    )
    joined_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(max_length=16, blank=True, help_text=_("final game status"))
    cards_home = models.PositiveSmallIntegerField(null=True, blank=True)
    moves = models.PositiveIntegerField(null=True, blank=True)
    elapsed_ms = models.PositiveBigIntegerField(null=True, blank=True)
    won = models.BooleanField(default=False)
    rank = models.PositiveIntegerField(null=True, blank=True)
    disqualified = models.BooleanField(default=False)
    disqualified_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["race", "rank", "joined_at"]
        verbose_name_plural = _("race entries")
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="race_entry_unique_player")
        ]
        indexes = [models.Index(fields=["race", "rank"], name="race_entry_rank")]

    def __str__(self) -> str:
        return gettext("%(player)s in %(race)s") % {"player": self.player, "race": self.race.name}


__all__: list[Any] = [
    "Deal",
    "Game",
    "Move",
    "Race",
    "RaceEntry",
    "Tournament",
    "TournamentEntrant",
    "TournamentStanding",
]


# ------------------------------------------------------------------ ratings (issue 16)


class RatingPool(models.Model):
    """A rating pool: one per distinct set of rule options (``games.services.ratings``).

    ``key`` is the preset name when the options are exactly a preset's
    (``classic``), else the nearest preset plus the options that differ
    (``classic.draw-1.redeals-2``).  ``options`` holds all nine options.
    """

    key = models.CharField(max_length=200, unique=True)
    variant = models.CharField(max_length=32, help_text=_("the preset the key starts with"))
    options = models.JSONField(help_text=_("all nine rule options (RULES.md 4)"))
    races_rated = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    recomputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["key"]

    def __str__(self) -> str:
        """The pool's rules in the active language, as the admin's lists and filters name
        it ("Classique"; other rules name the preset and what differs,
        ``games.words.rules_label``), not its stored ``key`` ("classic")."""
        from games.words import rules_label

        exact = self.key if self.key in PRESETS else "custom"
        return str(rules_label(exact, self.options, self.variant))


class PlayerRating(models.Model):
    """A player's rating in one pool: OpenSkill ``mu``/``sigma`` and the display rating.

    ``ordinal`` is ``mu - 3 sigma``; ``rating`` is the display rating
    ``round(1000 + 20 * ordinal)``; ``provisional`` until
    ``games.rating_model.PROVISIONAL_RACES`` rated races.  A recomputation, never
    edited by hand.
    """

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(help_text=_("mu - 3 sigma (leaderboard order)"))
    rating = models.IntegerField(help_text=_("display rating: round(1000 + 20 * (mu - 3 sigma))"))
    games_rated = models.PositiveIntegerField(default=0)
    provisional = models.BooleanField(default=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pool", "-ordinal", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="player_rating_unique")
        ]
        indexes = [
            models.Index(fields=["pool", "-ordinal", "player"], name="player_rating_board"),
        ]

    def __str__(self) -> str:
        return gettext("%(player)s %(rating)s in %(pool)s") % {
            "player": self.player,
            "rating": self.rating,
            "pool": self.pool.key,
        }


class RaceRating(models.Model):
    """How a finished race counted for ratings: ``rated`` or ``not_rated`` (with a reason).

    ``fingerprint`` is a digest of what was rated (the rated flag and each
    ranked entry's player and rank): the same fingerprint again means nothing to
    do.  ``race_ends_at`` (a copy) and the race id give the race order of the pool.
    """

    class Status(models.TextChoices):
        RATED = "rated", _("Rated")
        NOT_RATED = "not_rated", _("Not rated")

    race = models.OneToOneField(
        Race, primary_key=True, on_delete=models.CASCADE, related_name="rating"
    )
    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="races")
    race_ends_at = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices)
    reason = models.CharField(
        max_length=32,
        blank=True,
        help_text=_("not rated: unrated (by an organiser), too_few_entries, draft_tournament"),
    )
    entries_rated = models.PositiveIntegerField(default=0)
    fingerprint = models.CharField(max_length=64)
    rated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["pool", "race_ends_at", "race_id"]
        indexes = [models.Index(fields=["pool", "race_ends_at", "race"], name="race_rating_order")]

    def __str__(self) -> str:
        return gettext("%(race)s %(status)s in %(pool)s") % {
            "race": self.race_id,
            "status": self.status,
            "pool": self.pool_id,
        }


class RatingChange(models.Model):
    """One row of a player's rating history: their rating before and after one race."""

    pool = models.ForeignKey(RatingPool, on_delete=models.CASCADE, related_name="changes")
    race = models.ForeignKey(Race, on_delete=models.CASCADE, related_name="rating_changes")
    race_ends_at = models.DateTimeField(help_text=_("copy of race.ends_at (race order)"))
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    rank = models.PositiveIntegerField(help_text=_("the race rank that was rated (RULES.md 6)"))
    entrants_rated = models.PositiveIntegerField(help_text=_("ranked entries rated in the race"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    games_rated = models.PositiveIntegerField(
        help_text=_("rated races in the pool, this one included")
    )

    class Meta:
        ordering = ["pool", "race_ends_at", "race_id", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["race", "player"], name="rating_change_unique")
        ]
        indexes = [
            models.Index(fields=["pool", "race_ends_at", "race"], name="rating_change_order"),
            models.Index(fields=["player", "-race_ends_at"], name="rating_change_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.rating_before} -> {self.rating_after} ({self.race_id})"

    @property
    def change(self) -> int:
        """Display rating gained (negative: lost) in this race."""
        return self.rating_after - self.rating_before


__all__ += ["PlayerRating", "RaceRating", "RatingChange", "RatingPool"]


class Solve(models.Model):
    """One solver job on one position of a deal, run by a worker of the ``solver`` queue.

    The position is the deal's dealt position followed by ``moves`` (canonical
    notation; empty: the dealt position), identified by ``position_key``
    (``hex(SHA-256(" ".join(moves)))``).  ``status`` goes ``pending`` (waiting
    for a worker) -> ``running`` -> ``done``; a done job holds the verdict
    (``result``: won, lost or unknown when ``budget_seconds`` ran out) and, when
    won, one winning line from the position (``solution``).  Hidden information:
    only shown once the deal is revealed (``games.selectors.solver``).
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="solves")
    position_key = models.CharField(max_length=64)
    moves = models.JSONField(default=list, blank=True, help_text="moves from the dealt position")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    result = models.CharField(max_length=8, blank=True, help_text="won, lost or unknown")
    solution = models.JSONField(default=list, blank=True)
    nodes = models.PositiveBigIntegerField(default=0)
    seconds = models.FloatField(default=0.0, help_text="solver time, seconds")
    budget_seconds = models.FloatField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    enqueued_at = models.DateTimeField(null=True, blank=True, help_text="last sent to a worker")
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["deal", "position_key"], name="solve_unique_position")
        ]
        indexes = [models.Index(fields=["status", "enqueued_at"], name="solve_status_enqueued")]

    def __str__(self) -> str:
        return f"Solve {self.id} ({self.status} {self.result})"


class WinnableDeal(models.Model):
    """A secret seed the solver proved winnable, waiting in the pool of its rules.

    ``rules_key`` is ``hex(SHA-256)`` of the rules' canonical JSON
    (``games.services.winnable_pool``); ``purpose`` says whose share it is: the races'
    reserve (``race``: only a race with ``require_winnable`` takes it) or the players'
    pool (``practice``: a practice game asking for a winnable deal, and a race once the
    reserve is empty).  A draw takes (and deletes) the oldest row of its share, so each
    row is dealt once.  The seed is hidden information: it never leaves the server
    before its game is over.
    """

    class Purpose(models.TextChoices):
        RACE = "race"
        PRACTICE = "practice"

    rules_key = models.CharField(max_length=64, db_index=True)
    purpose = models.CharField(
        max_length=16,
        choices=Purpose.choices,
        default=Purpose.PRACTICE,
        help_text="race: the races' reserve; practice: the players' pool",
    )
    variant = models.CharField(max_length=32, help_text="preset name, or 'custom'")
    options = models.JSONField(help_text="all nine rule options (RULES.md 4)")
    seed = models.CharField(max_length=64)
    moves = models.JSONField(help_text="the solver's winning line (canonical notation)")
    nodes = models.PositiveBigIntegerField(default=0)
    seconds = models.FloatField(default=0.0)
    created_at = models.DateTimeField(default=timezone.now)
    tidied_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="when moves was shortened (games.engine.tidy); empty: the solver's line "
        "as found (pooled before lines were shortened: manage.py winnable_tidy)",
    )

    class Meta:
        ordering = ["rules_key", "created_at"]

    def __str__(self) -> str:
        return f"Winnable {self.variant} deal {self.pk}"


class WinnableStreak(models.Model):
    """How many fresh deals of one rule set the winnable pool's fills have proved lost in
    a row (``games.services.winnable_pool``): at ``WINNABLE_GIVE_UP_AFTER`` a draw from
    an empty pool answers ``no_winnable_deal_found`` instead of "retry".  A won deal, or
    one the solver could not decide, starts the count again.  Kept in the database, so
    every web process and worker reads the same count."""

    rules_key = models.CharField(max_length=64, primary_key=True)
    lost_in_a_row = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.rules_key[:12]}: {self.lost_in_a_row} lost in a row"


# ------------------------------------------------------- the admin's names, translated


def _names(model: type[models.Model], singular: Any, plural: Any, **fields: Any) -> None:
    """Give ``model`` and its ``fields`` their translated names (lazy, ``gettext_lazy``).

    They are set on the model's options rather than as ``Meta.verbose_name`` or a
    field's ``verbose_name``: those are migration state, and writing one out, even with
    the words Django derives from the class and field names, would need a migration.
    The English words are the derived ones (``race entry``, ``starts at``), so English
    pages do not change (``tests/games/test_admin_language.py`` checks it), but for a
    name chosen to tell two columns apart (a race's ``stored status``).
    """
    if singular is not None:
        model._meta.verbose_name = singular
    if plural is not None:
        model._meta.verbose_name_plural = plural
    for name, words in fields.items():
        field = model._meta.get_field(name)
        assert isinstance(field, models.Field)
        field.verbose_name = words


_names(
    Tournament,
    _("tournament"),
    _("tournaments"),
    name=_("name"),
    description=_("description"),
    status=_("status"),
    scoring=_("scoring"),
    points_table=_("points table"),
    points_per_card=_("points per card"),
    win_bonus=_("win bonus"),
    entry=_("entry"),
    max_entrants=_("max entrants"),
    created_by=_("created by"),
    created_at=_("created at"),
)
_names(
    TournamentEntrant,
    _("tournament entrant"),
    _("tournament entrants"),
    tournament=_("tournament"),
    player=_("player"),
    invited_by=_("invited by"),
    created_at=_("created at"),
)
_names(
    TournamentStanding,
    _("tournament standing"),
    _("tournament standings"),
    tournament=_("tournament"),
    player=_("player"),
    rank=_("rank"),
    points=_("points"),
    wins=_("wins"),
    races_played=_("races played"),
    disqualifications=_("disqualifications"),
    cards_home_total=_("cards home total"),
    time_ms_total=_("time ms total"),
)
_names(
    Race,
    _("race"),
    _("races"),
    name=_("name"),
    mode=_("mode"),
    # Not "status" alone: beside it the admin shows the phase by the clock (a running race
    # is "scheduled" here until it is closed), and French read "État" beside "Phase".
    status=_("stored status"),
    starts_at=_("starts at"),
    allow_undo=_("allow undo"),
    require_winnable=_("require winnable"),
    commitment=_("commitment"),
    tournament=_("tournament"),
    created_by=_("created by"),
    rated=_("rated"),
)
_names(
    RaceEntry,
    _("race entry"),
    None,  # Meta.verbose_name_plural
    race=_("race"),
    player=_("player"),
    won=pgettext_lazy("an entry", "won"),
    disqualified=_("disqualified"),
    disqualified_reason=_("disqualified reason"),
)
_names(
    RatingPool,
    _("rating pool"),
    _("rating pools"),
    key=_("key"),
    variant=_("variant"),
    options=_("options"),
    races_rated=_("races rated"),
    created_at=_("created at"),
    recomputed_at=_("recomputed at"),
)
_names(
    PlayerRating,
    _("player rating"),
    _("player ratings"),
    pool=_("pool"),
    player=_("player"),
    ordinal=_("ordinal"),
    rating=_("rating"),
    games_rated=_("games rated"),
    provisional=_("provisional"),
    updated_at=_("updated at"),
)
_names(
    RaceRating,
    _("race rating"),
    _("race ratings"),
    race=_("race"),
    pool=_("pool"),
    race_ends_at=_("race ends at"),
    status=_("status"),
    reason=_("reason"),
    entries_rated=_("entries rated"),
)
_names(
    RatingChange,
    _("rating change"),
    _("rating changes"),
    pool=_("pool"),
    race=_("race"),
    race_ends_at=_("race ends at"),
    player=_("player"),
    rank=_("rank"),
    rating_before=_("rating before"),
    rating_after=_("rating after"),
    games_rated=_("games rated"),
)
# The models with no admin of their own still have names: the confirmation of a deletion
# counts them ("Games: 3", "Moves: 240" when deleting an account).
_names(Deal, _("deal"), _("deals"))
_names(Game, _("game"), _("games"))
_names(Move, _("move"), _("moves"))
_names(Solve, _("solve"), _("solves"))
_names(WinnableDeal, _("winnable deal"), _("winnable deals"))
_names(WinnableStreak, _("winnable streak"), _("winnable streaks"))
