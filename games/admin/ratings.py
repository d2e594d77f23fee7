"""Admin for player ratings (issue 16): pools, ratings per player with history, race ratings.

Registered by importing :mod:`games.admin`.  Everything here is a
recomputation from race results, so it is read-only; the actions call the
rating services:

* Rating pools: *Recompute pool* (queues ``games.rating_pool_recompute``; it
  rebuilds the pool from all its finished races in race order).
* Player ratings: one line per player and pool, searchable by username; the
  page of a rating shows the player's history in that pool, race by race.
* Race ratings: how each processed race counted; *Mark unrated* / *Mark rated*
  (the race's pool is recomputed from that race on).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games.admin.common import SelectionGuardAdmin, quoted_names, say_task_failures, when_cell
from games.models import PlayerRating, RaceRating, RatingChange, RatingPool
from games.services.enqueue import task_failures_here, tasks_run_here
from games.services.ratings import (
    REASON_DRAFT,
    REASON_TOO_FEW,
    REASON_UNRATED,
    pool_recompute_enqueue,
    race_set_rated,
)

#: History rows shown on a rating's page (newest first).
HISTORY_ROWS = 200


class ReadOnlyAdmin(SelectionGuardAdmin):
    """Rows are recomputed from race results: view only."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(RatingPool)
class RatingPoolAdmin(ReadOnlyAdmin):
    """Rating pools, with the *Recompute pool* action."""

    list_display = ("key", "variant_name", "races_rated", "players", "recomputed")
    search_fields = ("key",)
    readonly_fields = (
        "key",
        "variant_name",
        "options",
        "races_rated",
        "created_at",
        "recomputed_at",
    )
    actions = ["recompute"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingPool]:
        qs: QuerySet[RatingPool] = super().get_queryset(request)
        return qs.annotate(player_count=Count("ratings"))

    @admin.display(description=_("players"), ordering="player_count")
    def players(self, obj: RatingPool) -> int:
        return int(getattr(obj, "player_count", 0))

    @admin.display(description=_("recomputed at"), ordering="recomputed_at")
    def recomputed(self, obj: RatingPool) -> str:
        """When the pool was last rebuilt, ``YYYY-MM-DD HH:MM:SS UTC`` (:func:`when_cell`),
        as the admin's other lists give times; "-" if never.  The column showed Django's
        localised date without seconds or zone ("5. Dezember 2026 12:35")."""
        return when_cell(obj.recomputed_at)

    @admin.display(description=_("variant"))
    def variant_name(self, obj: RatingPool) -> str:
        """The pool's rules as the race list's *Variant* column names a race's: the
        preset's name in the page's language ("Classique"), never its code ("classic");
        other rules name the preset they differ from and what differs
        (``games.words.rules_label``).  (Not named ``variant``: the model's field of that
        name would win over it.)"""
        return str(obj)

    def has_recompute_permission(self, request: HttpRequest) -> bool:
        """Staff allowed to change pools (superusers) may recompute them."""
        return bool(request.user.has_perm("games.change_ratingpool"))

    @admin.action(
        description=_("Recompute pool (all its races, in race order)"), permissions=["recompute"]
    )
    def recompute(self, request: HttpRequest, queryset: QuerySet[RatingPool]) -> None:
        """Queue each selected pool's recomputation (:func:`pool_recompute_enqueue`), log
        it, and say so, counting the pools.

        On a worker (the embedded default and production) the task runs after this
        response: the message says the ratings update when it finishes.  With tasks run
        in the web process (``CELERY_TASK_ALWAYS_EAGER=true``, :func:`tasks_run_here`)
        each pool was recomputed when the action's changes committed, before the list
        it returns to is drawn, and the message says so, as *Mark rated* does; a pool
        whose recomputation raised is not counted but named in an error message with
        the reason (its ratings as they were: the task is one transaction)."""
        count = 0
        for pool in queryset:
            with task_failures_here() as failed:
                pool_recompute_enqueue(pool_id=pool.pk)
            self.log_change(
                request,
                pool,
                f"Recompute failed: {failed[0].reason}" if failed else "Recompute queued",
            )
            say_task_failures(self, request, pool, failed)
            count += 0 if failed else 1
        if not count:
            return
        if tasks_run_here():
            said = ngettext(
                "%(n)d pool recomputed from all its races; its ratings are up to date.",
                "%(n)d pools recomputed from all their races; their ratings are up to date.",
                count,
            )
        else:
            said = ngettext(
                "Recomputing %(n)d pool; ratings update when the task finishes.",
                "Recomputing %(n)d pools; ratings update when the task finishes.",
                count,
            )
        self.message_user(request, said % {"n": count}, messages.SUCCESS)


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    """Ratings per player and pool; the page shows the player's history in the pool."""

    list_display = ("player", "pool", "rating", "mu", "sigma", "games_rated", "provisional")
    list_filter = ("pool", "provisional")
    search_fields = ("player__username",)
    list_select_related = ("player", "pool")
    ordering = ("pool", "-ordinal", "player_id")
    readonly_fields = (
        "player",
        "pool",
        "rating",
        "mu",
        "sigma",
        "ordinal",
        "games_rated",
        "provisional",
        "updated_at",
        "history",
    )

    @admin.display(description=_("history (newest first)"))
    def history(self, obj: PlayerRating) -> str:
        """The player's rating history in this pool as an HTML table, newest race first.

        At most :data:`HISTORY_ROWS` :class:`RatingChange` rows (ordered by the race's
        ``ends_at``, then id, descending), one per rated race: its scheduled end
        (``YYYY-MM-DD HH:MM``, UTC), its name, the rank rated "r of n" (RULES.md 6, ``n``
        the ranked entries rated), the display rating before and after
        (``round(1000 + 20 * (mu - 3 sigma))``, :mod:`games.rating_model`), the signed
        change, and ``mu`` and ``sigma`` after (3 decimals).  Text is escaped
        (``format_html``).  Raises nothing; no row gives an empty table body.
        """
        rows = (
            RatingChange.objects.filter(player_id=obj.player_id, pool_id=obj.pool_id)
            .select_related("race")
            .order_by("-race_ends_at", "-id")[:HISTORY_ROWS]
        )
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
            "<td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    c.race_ends_at.strftime("%Y-%m-%d %H:%M"),
                    c.race.name,
                    gettext("%(rank)s of %(n)s") % {"rank": c.rank, "n": c.entrants_rated},
                    c.rating_before,
                    c.rating_after,
                    f"{c.change:+d}",
                    f"{c.mu_after:.3f}",
                    f"{c.sigma_after:.3f}",
                )
                for c in rows
            ),
        )
        return format_html(
            '<table class="rating-history"><thead><tr><th>{}</th><th>{}</th>'
            "<th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>mu</th>"
            "<th>sigma</th></tr></thead><tbody>{}</tbody></table>",
            gettext("scheduled end"),
            gettext("race"),
            gettext("rank"),
            gettext("before"),
            gettext("after"),
            gettext("change"),
            body,
        )


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    """Every rating history row, by race."""

    list_display = (
        "race_ends_at",
        "race",
        "player",
        "pool",
        "rank",
        "rating_before",
        "rating_after",
        "games_rated",
    )
    list_filter = ("pool",)
    search_fields = ("player__username", "race__name")
    list_select_related = ("race", "player", "pool")
    ordering = ("-race_ends_at", "race_id", "rank")


#: Why a race is not rated (``RaceRating.reason``, the API's codes) in the admin's words.
REASON_WORDS = {
    REASON_UNRATED: _("marked unrated by an organiser"),
    REASON_TOO_FEW: _("fewer than two ranked entries"),
    REASON_DRAFT: _("tournament still a draft"),
}


class ReasonFilter(admin.SimpleListFilter):
    """Filter by ``RaceRating.reason``, each reason named in words (:data:`REASON_WORDS`)."""

    title = _("reason")
    parameter_name = "reason"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(REASON_WORDS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        return queryset.filter(reason=value) if value else queryset


@admin.register(RaceRating)
class RaceRatingAdmin(ReadOnlyAdmin):
    """How each processed race counted; mark races unrated or rated again.

    The list names the status and the reason in the admin's language (never the stored
    codes) and the race's end with its time zone, as the admin's other times."""

    list_display = (
        "race",
        "pool",
        "status_words",
        "reason_words",
        "entries_rated",
        "race_end",
    )
    list_filter = ("pool", "status", ReasonFilter)
    search_fields = ("race__name",)
    list_select_related = ("race", "pool")
    ordering = ("-race_ends_at",)
    actions = ["mark_unrated", "mark_rated"]

    @admin.display(description=_("status"), ordering="status")
    def status_words(self, obj: RaceRating) -> str:
        """*Rated* or *Not rated*, in the admin's language."""
        return str(obj.get_status_display())

    @admin.display(description=_("reason"), ordering="reason")
    def reason_words(self, obj: RaceRating) -> str:
        """Why the race is not rated, in words (:data:`REASON_WORDS`); "-" when rated."""
        if not obj.reason:
            return "-"
        return str(REASON_WORDS.get(obj.reason, obj.reason))

    @admin.display(description=_("scheduled end"), ordering="race_ends_at")
    def race_end(self, obj: RaceRating) -> str:
        """The race's scheduled end (``ends_at``, the pool's race order), ``YYYY-MM-DD
        HH:MM:SS UTC`` (:func:`when_cell`); a race every player finished early closed
        before it."""
        return when_cell(obj.race_ends_at)

    def has_rate_permission(self, request: HttpRequest) -> bool:
        """Staff who may change races (organisers) may switch their rating."""
        return bool(request.user.has_perm("games.change_race"))

    def _switch(self, request: HttpRequest, queryset: QuerySet[RaceRating], rated: bool) -> None:
        """Mark each selected race rated (or unrated) through :func:`race_set_rated` and
        log it; the message counts them.  A race already so is left alone (no call, no
        history line) and named in a second message.

        The re-rating is a task (``games.race_rate``, queued when each change commits).
        On a worker (the embedded default and production: README "Set up in detail")
        it runs after this response, so the list it returns to still shows the old
        status: the message says it is queued and shows once done.  With tasks run in
        the web process (``CELERY_TASK_ALWAYS_EAGER=true``, :func:`tasks_run_here`) it
        has run already, and the message says so."""
        records = list(queryset.select_related("race").order_by("race_ends_at", "race_id"))
        already = [r for r in records if r.race.rated == rated]
        count = 0
        for record in records:
            if record.race.rated == rated:
                continue
            with task_failures_here() as failed:
                race_set_rated(race_id=record.race_id, rated=rated, by=request.user)  # type: ignore[arg-type]
            self.log_change(request, record, "Marked rated" if rated else "Marked unrated")
            # The flag is saved (and the race marked stale); a re-rating that raised in
            # this process is an error message, not counted as re-rated.
            say_task_failures(self, request, record.race, failed)
            count += 0 if failed else 1
        if already:
            names = quoted_names(r.race.name for r in already)
            left = (
                gettext("Rated already, left alone: %(names)s.")
                if rated
                else gettext("Unrated already, left alone: %(names)s.")
            )
            if not count:
                self.message_user(request, left % {"names": names}, messages.WARNING)
                return
        if not count:
            return
        if tasks_run_here():
            # Re-rated before this response (each race's task ran when its change was
            # committed): the list shows the new status.
            if rated:
                done = ngettext(
                    "%(n)d race marked rated; its pool was re-rated from it on.",
                    "%(n)d races marked rated; their pools were re-rated from them on.",
                    count,
                )
            else:
                done = ngettext(
                    "%(n)d race marked unrated; its pool was re-rated from it on.",
                    "%(n)d races marked unrated; their pools were re-rated from them on.",
                    count,
                )
        elif rated:
            done = ngettext(
                "%(n)d race marked rated; re-rating its pool from it on is queued: its status "
                "here changes when the task finishes (reload the list).",
                "%(n)d races marked rated; re-rating their pools from them on is queued: "
                "their status here changes when the task finishes (reload the list).",
                count,
            )
        else:
            done = ngettext(
                "%(n)d race marked unrated; re-rating its pool from it on is queued: its "
                "status here changes when the task finishes (reload the list).",
                "%(n)d races marked unrated; re-rating their pools from them on is queued: "
                "their status here changes when the task finishes (reload the list).",
                count,
            )
        self.message_user(request, done % {"n": count})
        if already:
            self.message_user(request, left % {"names": names}, messages.WARNING)

    @admin.action(description=_("Mark unrated (leave out of ratings)"), permissions=["rate"])
    def mark_unrated(self, request: HttpRequest, queryset: QuerySet[RaceRating]) -> None:
        self._switch(request, queryset, False)

    @admin.action(description=_("Mark rated (count again)"), permissions=["rate"])
    def mark_rated(self, request: HttpRequest, queryset: QuerySet[RaceRating]) -> None:
        self._switch(request, queryset, True)
