"""Template filters of the pages."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from django import template
from django.contrib.humanize.templatetags.humanize import NaturalTimeFormatter
from django.utils import dateformat, timezone
from django.utils.formats import number_format
from django.utils.html import format_html
from django.utils.timesince import timesince, timeuntil

from games.selectors.games import game_base_rank
from games.selectors.races import race_ended_at
from games.words import duration, rules_label, variant_label
from web.board import RANK_NAMES

register = template.Library()
register.filter("duration", duration)  # games.words.duration, also the admin's
#: ``{{ race|ended_at }}``: when a race that is over ended (games.selectors.races).
register.filter("ended_at", race_ended_at)


@register.filter
def since(value: Any) -> Any:
    """How long ago (or from now) the aware datetime ``value`` is, in the page's language,
    as Django's ``naturaltime`` words it ("5 minutes ago", "3 minutes from now", "now", "2 days,
    3 hours ago"), measured from :func:`django.utils.timezone.now`: the clock the views,
    services and selectors read, which tests set.  ``naturaltime`` read the system clock
    itself (``datetime.now``), so a page's "started 5 minutes ago" depended on the wall
    clock whatever time a test gave the rest of the page.  Anything not a datetime is
    returned as is.  Some of Django's words are worded again in our catalogue (Spanish
    "dentro de 5 minutos", German "in 2 Tagen"): see :mod:`web.django_words`."""
    if not isinstance(value, datetime):
        return value
    words = NaturalTimeFormatter.time_strings
    now = timezone.now()
    past = value < now
    delta = now - value if past else value - now
    if delta.days:
        if past:
            ago = timesince(value, now, time_strings=NaturalTimeFormatter.past_substrings)
            return words["past-day"] % {"delta": ago}
        ahead = timeuntil(value, now, time_strings=NaturalTimeFormatter.future_substrings)
        return words["future-day"] % {"delta": ahead}
    tense = "past" if past else "future"
    if delta.seconds == 0:
        return words["now"]
    if delta.seconds < 60:
        return words[f"{tense}-second"] % {"count": delta.seconds}
    if delta.seconds < 3600:
        return words[f"{tense}-minute"] % {"count": delta.seconds // 60}
    return words[f"{tense}-hour"] % {"count": delta.seconds // 3600}


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping[key]`` in a template (``None`` when absent)."""
    return mapping.get(key)


@register.filter
def seconds(ms: int | None, places: int = 3) -> str:
    """Milliseconds as seconds to the millisecond in the page's number format (``83412``
    -> ``"83.412"``, ``"83,412"`` in French or German); ``""`` for None.  The ranking
    breaks ties on this time to the millisecond (RULES.md 6): in tenths two entries
    29 ms apart read the same and were ranked 1 and 2.  ``places``: decimals (1 for a
    time that ranks nothing beside it, as the win message's: ``"83.4"``).
    """
    if ms is None:
        return ""
    # Rounded first: number_format cuts the digits past decimal_pos off (83.46 -> "83.4").
    return str(number_format(round(Decimal(ms) / 1000, places), decimal_pos=places, use_l10n=True))


@register.filter
def rules(deal: Any) -> str:
    """A deal (a model or a :func:`~games.selectors.games.deal_public` dict) as its rules
    in a few words: ``"Classic"``, or ``"Draw one (changed: 2 redeals.)"`` (the preset it
    was built from, and what differs); see
    :func:`games.words.rules_label`."""
    if isinstance(deal, dict):
        return rules_label(deal["variant"], deal["options"], deal.get("preset"))
    return rules_label(deal.variant, deal.options, deal.preset)


@register.filter
def base_rank(game: Any) -> str:
    """A game's base rank in words in the page's language (``"queen"``, ``"dame"`` in
    French), named as the board names it (:data:`web.board.RANK_NAMES`), or ``""`` for a
    race game before its start (:func:`games.selectors.games.game_base_rank`: its deal,
    base card included, is hidden until then; RULES.md 2.2, 7)."""
    rank = game_base_rank(game)
    return "" if rank is None else str(RANK_NAMES[rank])


@register.filter
def variant(code: str) -> str:
    """A variant's code as its name in the page's language (``"classic"`` -> ``"Classic"``,
    ``"Classique"`` in French); see :data:`web.board.PRESET_NAMES`."""
    return variant_label(code)


@register.filter
def signed(n: int | None) -> str:
    """A rating change with its sign: ``12`` -> ``"+12"``, ``-5`` -> ``"\\u22125"`` (a minus
    sign), ``0`` -> ``"0"``; ``""`` for None."""
    if n is None:
        return ""
    if n > 0:
        return f"+{n}"
    return f"\u2212{-n}" if n < 0 else "0"


@register.simple_tag
def local_time(at: Any) -> str:
    """``<time datetime="..." data-local>2026-12-05 12:36 UTC</time>`` for a datetime, as
    the pages write a time: ``app.js`` rewrites the text as a date and time (hours and
    minutes) in the page's language and the viewer's time zone; ``""`` for None.  Use
    ``{% local_time at as when %}`` to put it in a translated sentence."""
    if at is None:
        return ""
    at = timezone.localtime(at)
    return format_html(
        '<time datetime="{}" data-local>{} UTC</time>',
        dateformat.format(at, "c"),
        dateformat.format(at, "Y-m-d H:i"),
    )


@register.simple_tag
def card(c: Any, source: str = "", interactive: Any = False) -> str:
    """One face-up card (a :class:`web.board.Card`): a button named like "queen of hearts"
    (:attr:`web.board.Card.name`: "jack of diamonds, under 3 cards" for a covered tableau
    card) when it can be played (``data-card``, ``data-from``; ``data-run``, a covered
    card's cards that move with it), else an image-like span named alike.
    The rank and the suit symbol are drawn; the colour is only a second cue."""
    inner = format_html(
        '<span class="rank" aria-hidden="true">{}</span>'
        '<span class="suit" aria-hidden="true">{}</span>',
        c.rank,
        c.symbol,
    )
    cls = "card red" if c.red else "card"
    if c.rank == "10":  # two digits: a fan shows more of it (app.css, .fan > .ten + *)
        cls += " ten"
    if interactive:
        # data-run (a covered tableau card: web.board.run_words) is what selecting it names,
        # the cards that move with it; its own name (with the cards on it counted) stays the
        # button's (app.js select()).
        run = format_html(' data-run="{}"', c.run) if getattr(c, "run", "") else ""
        return format_html(
            '<button type="button" class="{}" data-card="{}" data-from="{}" data-key="{}-{}" '
            'aria-label="{}"{} aria-pressed="false">{}</button>',
            cls,
            c.code,
            source,
            source,
            c.code,
            c.name,
            run,
            inner,
        )
    return format_html('<span class="{}" role="img" aria-label="{}">{}</span>', cls, c.name, inner)
