"""Words shared by the pages (``web/``) and the admin (``games.admin``): a deal's rules
in words, a preset's name, a duration, a sentence after a colon, the username rules.

They live here, below both (DESIGN.md: data flows down, never back up; ``games`` never
imports ``web`` or ``api``).  Their messages are in the project's catalogue
(``LOCALE_PATHS``: ``web/locale``), as before; ``web.board`` and ``web.refusals``
import them from here.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.engine.rules import CLASSIC, OPTION_NAMES, PRESETS

#: The username rules in a sentence, said before the player types one: the sign-up
#: page's and the admin's user forms (Django's help said "Letters, digits and @/./+/-/_
#: only", and ``chloé`` was then refused for its accent): the rules of
#: :func:`games.services.accounts.username_validate`.
USERNAME_HELP = gettext_lazy(
    "Required. 150 characters or fewer: unaccented letters (a-z, A-Z), digits and the "
    "characters @ . + - _ only, not dots alone."
)


#: A rank with its article after "with" ("foundations start with *the seven*"; German
#: dative: "mit *der Sieben*", "mit *dem Ass*").
RANK_WITH = {
    "A": pgettext_lazy("rank, after with", "the ace"),
    "2": pgettext_lazy("rank, after with", "the two"),
    "3": pgettext_lazy("rank, after with", "the three"),
    "4": pgettext_lazy("rank, after with", "the four"),
    "5": pgettext_lazy("rank, after with", "the five"),
    "6": pgettext_lazy("rank, after with", "the six"),
    "7": pgettext_lazy("rank, after with", "the seven"),
    "8": pgettext_lazy("rank, after with", "the eight"),
    "9": pgettext_lazy("rank, after with", "the nine"),
    "T": pgettext_lazy("rank, after with", "the ten"),
    "J": pgettext_lazy("rank, after with", "the jack"),
    "Q": pgettext_lazy("rank, after with", "the queen"),
    "K": pgettext_lazy("rank, after with", "the king"),
}

PRESET_TEXT = {
    "classic": gettext_lazy(
        "Classic Canfield: draw three cards at a time, unlimited redeals, build down in "
        "alternate colours."
    ),
    "draw-one": gettext_lazy("Classic Canfield, drawing one card at a time."),
    "superior": gettext_lazy(
        "The whole reserve is face up; empty tableau piles are not filled automatically: "
        "any available card may fill a space."
    ),
    "rainbow": gettext_lazy(
        "Build down by rank regardless of colour; draw one card at a time; no redeal."
    ),
    "storehouse": gettext_lazy(
        "The four twos start the foundations; build down in suit; draw one card at a time; "
        "two redeals."
    ),
    "one-pass": gettext_lazy("Classic Canfield with no redeal (strict or Acey Canfield)."),
    "custom": gettext_lazy("A custom set of rules."),
}


#: The options each preset's sentence in :data:`PRESET_TEXT` already states, which
#: :func:`rules_words` does not say a second time ("draw three cards at a time" and then
#: "Draw 3 cards at a time.").
PRESET_STATES: dict[str, frozenset[str]] = {
    "classic": frozenset({"draw", "redeals", "build"}),
    "draw-one": frozenset({"draw"}),
    "superior": frozenset({"reserve_face_up", "autofill"}),
    "rainbow": frozenset({"build", "draw", "redeals"}),
    "storehouse": frozenset({"base", "build", "draw", "redeals"}),
    "one-pass": frozenset({"redeals"}),
}


def rules_words(
    variant: str, options: dict[str, Any], *, repeat: bool = False, preset: str | None = None
) -> list[str]:
    """The variant and its options in words, one phrase each (RULES.md 4): the preset's
    sentence, then a phrase for each option it does not state (every option when
    ``repeat``, as :func:`pool_words` compares them).

    Other rules (``variant`` ``"custom"``) built from a ``preset`` (``Deal.preset``) are
    that preset's sentence, ``"Changes: 2 redeals."`` (what differs from it), then a
    phrase for each other option the preset does not state; without a preset, "A custom
    set of rules." and a phrase for every option."""
    if variant not in PRESETS and preset is not None and preset in PRESETS and not repeat:
        changes = pool_words(preset, options)["changes"]
        rest = [p for p in rules_words(preset, options)[1:] if p not in changes]
        said = [_("Changes: %(changes)s") % {"changes": " ".join(changes)}] if changes else []
        return [str(PRESET_TEXT[preset]), *said, *rest]
    stated = frozenset() if repeat else PRESET_STATES.get(variant, frozenset())
    phrases: list[tuple[str, str]] = []
    draw = options["draw"]
    phrases.append(
        (
            "draw",
            ngettext("Draw %(n)d card at a time.", "Draw %(n)d cards at a time.", draw)
            % {"n": draw},
        )
    )
    redeals = options.get("redeals")
    if redeals is None:
        phrases.append(("redeals", _("Unlimited redeals.")))
    elif redeals == 0:
        phrases.append(("redeals", _("No redeal.")))
    else:
        phrases.append(
            ("redeals", ngettext("%(n)d redeal.", "%(n)d redeals.", redeals) % {"n": redeals})
        )
    build = {
        "alternate-colour": _("Build down in alternate colours."),
        "any-suit": _("Build down regardless of suit."),
        "same-suit": _("Build down in suit."),
    }
    phrases.append(("build", build.get(options.get("build", ""), str(options.get("build")))))
    if options.get("reserve_face_up"):
        phrases.append(("reserve_face_up", _("The whole reserve is face up.")))
    if not options.get("autofill", True):
        phrases.append(
            ("autofill", _("Empty piles are not filled from the reserve automatically."))
        )
    moves = {
        "whole-pile": _("Only whole piles move between tableau piles."),
        "any-run": _("Any card of a tableau pile may move, with the cards on it."),
    }
    if options.get("tableau_moves") in moves:
        phrases.append(("tableau_moves", moves[options["tableau_moves"]]))
    if options.get("empty_pile") == "waste-only":
        phrases.append(
            ("empty_pile", _("Once the reserve is empty, only the waste may fill an empty pile."))
        )
    if options.get("tableau_wrap") == "base-relative":
        phrases.append(("tableau_wrap", _("No building across the base rank.")))
    base = options.get("base", "dealt")
    if base != "dealt":
        phrases.append(
            (
                "base",
                # Translators: %(rank)s is the rank with its article after "with" ("the
                # two"; German dative: "mit der Zwei").
                _("The foundations start with %(rank)s.") % {"rank": RANK_WITH[str(base)]},
            )
        )
    out = [str(PRESET_TEXT.get(variant, PRESET_TEXT["custom"]))]
    out.extend(phrase for option, phrase in phrases if option not in stated)
    return out


#: Short names of the presets (RULES.md 4), as pools and lists name them.
PRESET_NAMES = {
    "classic": gettext_lazy("Classic"),
    "draw-one": gettext_lazy("Draw one"),
    "superior": gettext_lazy("Superior"),
    "rainbow": gettext_lazy("Rainbow"),
    "storehouse": gettext_lazy("Storehouse"),
    "one-pass": gettext_lazy("One pass"),
    "custom": gettext_lazy("Custom rules"),
}


def variant_label(code: str) -> str:
    """A variant's name as pages show it, in the page's language (``"draw-one"`` ->
    ``"Draw one"``; the API and the CLI use the codes, RULES.md 4); a code with no name is
    shown as it is."""
    name = PRESET_NAMES.get(code)
    return str(name) if name is not None else code


def rules_label(variant: str, options: dict[str, Any], preset: str | None = None) -> str:
    """A deal's rules in a few words: a preset's name, or for other rules the preset they
    were built from (``preset``, ``Deal.preset``) and what differs, ``"Draw one (changed:
    2 redeals.)"``.  Without a recorded preset (``None`` or ``"custom"``: a deal stored
    before presets were recorded) the nearest preset stands in (fewest options differing,
    the first in :data:`PRESETS` order on a tie)."""
    if variant in PRESETS:
        return variant_label(variant)
    if preset is not None and preset in PRESETS:
        nearest = preset
    else:
        nearest = min(
            PRESETS,
            key=lambda name: sum(
                PRESETS[name].to_dict().get(option) != options.get(option)
                for option in OPTION_NAMES
            ),
        )
    changes = pool_words(nearest, options)["changes"]
    if not changes:
        return variant_label(nearest)
    return f"{variant_label(nearest)} ({_('changed:')} {' '.join(changes)})"


#: Options :func:`rules_words` says in words when they differ from classic.
_WORDED = {"draw", "redeals", "build", "base", "tableau_moves", "empty_pile", "tableau_wrap"}


def pool_words(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    """A rating pool in words: ``{"name": the preset's short name, "rules": the preset's
    rules in one sentence, "changes": one phrase per option that differs from the preset}``.

    ``variant`` is the pool's preset, ``options`` all nine rule options (RULES.md 4);
    an option :func:`rules_words` does not put in words is shown as ``option: value``.
    """
    preset = PRESETS.get(variant)
    base = preset.to_dict() if preset is not None else {}
    mine = rules_words(variant, options, repeat=True)[1:]
    theirs = set(rules_words(variant, base, repeat=True)[1:]) if base else set()
    changes = [phrase for phrase in mine if phrase not in theirs]
    for option in OPTION_NAMES:
        value = options.get(option)
        if option in base and value != base[option] and option not in _WORDED:
            worded = option in ("reserve_face_up", "autofill") and value != getattr(CLASSIC, option)
            if not worded:
                changes.append(f"{option}: {value}")
    return {
        "name": str(PRESET_NAMES.get(variant, variant)),
        "rules": str(PRESET_TEXT.get(variant, PRESET_TEXT["custom"])),
        "changes": changes,
    }


#: The languages in which a sentence after a colon starts in lower case (French, Spanish):
#: "Refusé : le cinq de pique…", as their hints read ("Indice : le dix de pique…").
#: English and German keep the capital ("Refused: The five of spades…").
LOWER_AFTER_COLON = ("fr", "es")


def after_colon(text: str) -> str:
    """``text`` (a sentence, :func:`sentence`) as it reads after a colon such as the
    board's "Refused:" in the active language: its first letter lower case in French
    and Spanish (``"Le cinq de pique…"`` -> ``"le cinq de pique…"``), unchanged in English
    and German.  A word in capitals (an acronym: ``"API …"``) keeps them."""
    language = (get_language() or "en").split("-")[0]
    if language not in LOWER_AFTER_COLON or not text or text[1:2].isupper():
        return text
    return text[0].lower() + text[1:]


def duration(ms: int | None) -> str:
    """Milliseconds as a duration with its units, to the millisecond (the precision of
    the ranking's time tie-break, RULES.md 6) in the page's number format: ``303400`` ->
    ``"5 min 03.400 s"`` (``"5 min 03,400 s"`` in French), ``3723405`` ->
    ``"1 h 02 min 03.405 s"``, ``2500`` -> ``"2.500 s"``; the number and its unit are
    joined by a no-break space.  ``""`` for None.  The tournament standings' total time
    (the last tie-break, README "Tournaments"): shown in tenths, two players 5 ms apart
    read the same and were ranked 1 and 2."""
    if ms is None:
        return ""
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    secs = str(number_format(Decimal(rest) / 1000, decimal_pos=3, use_l10n=True))
    if not (hours or minutes):
        return f"{secs}\xa0s"
    secs = secs.zfill(len(secs) + max(0, 6 - len(secs)))  # two digits before the decimal
    if not hours:
        return f"{minutes}\xa0min {secs}\xa0s"
    return f"{hours}\xa0h {minutes:02d}\xa0min {secs}\xa0s"
