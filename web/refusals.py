"""Refusals in the page's language: a refused move or action, worded from data.

The engine says why a move is refused in English (the API's ``detail``) and, as
data, which kind of refusal it is (``why``) and what it names (``facts``: card
codes, pile numbers, a rank letter, a count; ``games.engine.moves.MoveError``).
A page words it here with ``gettext``, cards by their names ("queen of hearts",
as everywhere on the pages), so a French page no longer says
"Refusé : 9H cannot go to its foundation: it needs 8H next".  The facts hold
nothing the English reason does not (no hidden card, RULES.md 7).

Service refusals that are not moves (a race closed, no undo in this game, ...)
are worded by their stable ``code`` (their ``why``).  Anything else keeps the
service's English detail, so a new refusal is never lost, only untranslated.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.services.errors import ServiceError
from web.board import RANK_NAMES, card_label

#: Colours as in "only on a *red* card of rank six".
COLOURS = {
    "red": pgettext_lazy("colour of a card", "red"),
    "black": pgettext_lazy("colour of a card", "black"),
}

#: By ``why``: the engine's key for a refused move (games/engine/state.py, moves.py), or
#: for any other service refusal its ``code`` (``ServiceError.why`` defaults to it).
REFUSAL_TEXT: dict[str, Promise] = {
    "nothing_to_draw": gettext_lazy("The stock and the waste are empty: nothing to draw."),
    "redeal_first": gettext_lazy("The stock is empty: redeal first."),
    "stock_done": gettext_lazy("The stock is empty and no redeal is left."),
    "stock_not_empty": gettext_lazy("The stock is not empty: redeal only once it is."),
    "waste_empty": gettext_lazy("The waste is empty: nothing to redeal."),
    "no_redeals": gettext_lazy("No redeal is left (this game allows %(allowed)s)."),
    "already_home": gettext_lazy("%(card)s: already on its foundation."),
    "not_available": gettext_lazy(
        "That card is not available: only the top cards of the reserve, the waste and the "
        "tableau piles can move."
    ),
    "already_there": gettext_lazy("%(card)s: already on pile %(pile)s."),
    "not_top": gettext_lazy(
        "%(card)s: not the top card of pile %(pile)s; only a pile's top card goes to a foundation."
    ),
    "part_of_pile": gettext_lazy(
        "%(card)s: neither the top nor the bottom card of pile %(pile)s; part of a pile never "
        "moves."
    ),
    "whole_piles_only": gettext_lazy(
        "%(card)s: not the bottom card of pile %(pile)s; only whole piles move between "
        "tableau piles."
    ),
    "foundation_start": gettext_lazy("%(card)s: a foundation starts with the base rank, %(rank)s."),
    "foundation_next": gettext_lazy("%(card)s: its foundation needs %(need)s next."),
    # Worded without "it" ("only a red six takes it" was read as the top card taking it).
    "build_colour": gettext_lazy(
        "%(card)s cannot go on %(top)s, only on a %(colour)s card of rank %(rank)s."
    ),
    "build_suit": gettext_lazy("%(card)s cannot go on %(top)s, only on %(need)s."),
    "build_rank": gettext_lazy("%(card)s cannot go on %(top)s, only on a card of rank %(rank)s."),
    "build_base": gettext_lazy("%(card)s on %(top)s: no building across the base rank, %(rank)s."),
    "reserve_fills": gettext_lazy("Pile %(pile)s is empty: the reserve fills it."),
    "waste_only": gettext_lazy("Pile %(pile)s is empty: only the waste's top card may fill it."),
    "nothing_to_undo": gettext_lazy("There is nothing to take back."),
    "malformed_move": gettext_lazy("That is not a move: write one as QH>t2, 5S>f, draw or redeal."),
    "game_over": gettext_lazy("The game is over."),
    "undo_not_allowed": gettext_lazy("This game does not allow taking moves back."),
    "race_closed": gettext_lazy("The race is closed for you: your time is up."),
    "race_not_started": gettext_lazy("The race has not started yet."),
    "disqualified": gettext_lazy("The organisers have disqualified you from this race."),
    "race_not_open": gettext_lazy("This race cannot be joined or started now."),
    "tournament_not_open": gettext_lazy("This tournament is not open for entries."),
    "tournament_invite_only": gettext_lazy("This tournament is for invited players only."),
    "tournament_full": gettext_lazy("This tournament is full."),
    # The practice form (web.views.play.practice).
    "invalid_seed": gettext_lazy(
        "A seed is 1 to 64 characters: letters A-Z and a-z, digits, '_' and '-'."
    ),
    "winnable_with_seed": gettext_lazy("A winnable deal is drawn for you: leave the seed empty."),
    "invalid_options": gettext_lazy("These rules cannot be played."),
    "deal_in_race": gettext_lazy(
        "This deal opens like a race that is not over: practise it once the race is finished."
    ),
    "no_winnable_deal": gettext_lazy(
        "No winnable deal of these rules is ready yet; try again in a few seconds."
    ),
    "no_winnable_deal_found": gettext_lazy(
        "The solver proved every recent deal of these rules lost: a winnable deal of them is "
        "not to be expected. Start the game without the winnable option."
    ),
    "hint_not_allowed": gettext_lazy("A race game gets no hint."),
    "too_many_solves": gettext_lazy(
        "You have too many solutions being worked out; try again in a moment."
    ),
}

_CARDS = ("card", "top", "need")


def _words(facts: dict[str, Any]) -> dict[str, Any]:
    """The facts as the templates name them: cards and ranks in words, colours translated."""
    out = dict(facts)
    for key in _CARDS:
        if key in out:
            out[key] = card_label(str(out[key]))
    if "rank" in out:
        out["rank"] = RANK_NAMES[str(out["rank"])]
    if "colour" in out:
        out["colour"] = COLOURS[str(out["colour"])]
    return out


def refusal_words(exc: ServiceError) -> str:
    """What a page says for ``exc`` in the active language (module doc), as a sentence
    (:func:`sentence`).

    The template of ``exc.why`` filled with ``exc.facts`` in words, else
    ``exc.detail`` (English: a refusal with no template yet, or a fact missing).
    """
    template = REFUSAL_TEXT.get(exc.why)
    if template is None:
        return sentence(exc.detail)
    try:
        return sentence(str(template) % _words(exc.facts))
    except (KeyError, TypeError, ValueError):
        return sentence(exc.detail)


#: What may end a sentence already (a full stop, a question, an ellipsis).
_ENDS = (".", "!", "?", "\u2026")


def sentence(text: str) -> str:
    """``text`` in sentence case, as every refusal on the pages reads: its first letter a
    capital and a full stop at the end (``"queen of hearts: already on its foundation"``
    -> ``"Queen of hearts: already on its foundation."``).  A template that starts with a
    card's name ("%(card)s cannot go on ...") otherwise began in lower case in English,
    French and Spanish while the others began with a capital; the API's English
    ``detail`` (a refusal with no template) has no full stop.  Only the first letter
    changes: card names and the rest keep their case."""
    text = text.strip()
    if not text:
        return text
    if not text.endswith(_ENDS):
        text += "."
    return text[0].upper() + text[1:]
