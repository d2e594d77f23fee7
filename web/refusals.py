"""Refusals in the page's language: a refused move or action, worded from data.

The engine says why a move is refused in English (the API's ``detail``) and, as
data, which kind of refusal it is (``why``) and what it names (``facts``: card
codes, pile numbers, a rank letter, a count; ``games.engine.moves.MoveError``).
A page words it here with ``gettext``, cards by their names with their article
("the queen of hearts", French "la dame de cœur", :mod:`web.board`), so a French
page no longer says "Refusé : 9H cannot go to its foundation: it needs 8H next".
The facts hold nothing the English reason does not (no hidden card, RULES.md 7).

Service refusals that are not moves (a race closed, no undo in this game, ...)
are worded by their stable ``code`` (their ``why``).  Anything else keeps the
service's English detail, so a new refusal is never lost, only untranslated.
"""

from __future__ import annotations

from typing import Any

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, ngettext_lazy

from games.services.errors import ServiceError
from games.words import LOWER_AFTER_COLON as LOWER_AFTER_COLON
from games.words import RANK_WITH
from games.words import after_colon as after_colon
from web.board import RANK_ANY, RANK_COLOUR, card_object, card_subject

#: By ``why``: the engine's key for a refused move (games/engine/state.py, moves.py), or
#: for any other service refusal its ``code`` (``ServiceError.why`` defaults to it).
REFUSAL_TEXT: dict[str, Promise] = {
    "nothing_to_draw": gettext_lazy("The stock and the waste are empty: nothing to draw."),
    "redeal_first": gettext_lazy("The stock is empty: redeal first."),
    "stock_done": gettext_lazy("The stock is empty and no redeal is left."),
    "stock_not_empty": gettext_lazy("The stock is not empty: redeal only once it is."),
    "waste_empty": gettext_lazy("The waste is empty: nothing to redeal."),
    "no_redeals": gettext_lazy("No redeal is left (this game allows %(allowed)s)."),
    # Translators: in the refusals below, %(card)s is the card with its article as the
    # subject ("the queen of hearts"; German nominative), %(top)s and %(need)s a card
    # with its article as an object ("the king of clubs", "a red ace"; German
    # accusative), %(rank)s as each sentence says.
    "already_home": gettext_lazy("%(card)s is already on its foundation."),
    "not_available": gettext_lazy(
        "That card is not available: only the top cards of the reserve, the waste and the "
        "tableau piles can move."
    ),
    "already_there": gettext_lazy("%(card)s is already on pile %(pile)s."),
    "not_top": gettext_lazy(
        "%(card)s is not the top card of pile %(pile)s; only a pile's top card goes to a "
        "foundation."
    ),
    "part_of_pile": gettext_lazy(
        "%(card)s is neither the top nor the bottom card of pile %(pile)s; part of a pile "
        "never moves."
    ),
    "whole_piles_only": gettext_lazy(
        "%(card)s is not the bottom card of pile %(pile)s; only whole piles move between "
        "tableau piles."
    ),
    # Translators: %(rank)s is the base rank with its article after "with" ("the seven";
    # German dative).
    "foundation_start": gettext_lazy(
        "%(card)s cannot start a foundation: foundations start with %(rank)s, the base rank."
    ),
    "foundation_next": gettext_lazy(
        "%(card)s cannot go to its foundation yet: it needs %(need)s next."
    ),
    # The foundation needs an ace, after its king: ranks wrap (RULES.md 1, 3.2).
    "foundation_next_wrap": gettext_lazy(
        "%(card)s cannot go to its foundation yet: it needs %(need)s next (ranks wrap round: "
        "the ace follows the king)."
    ),
    # Worded without "it" ("only a red six takes it" was read as the top card taking it);
    # %(need)s is "a red six", "a six" or "the six of hearts" as the building rule asks.
    "build_colour": gettext_lazy("%(card)s cannot go on %(top)s, only on %(need)s."),
    "build_suit": gettext_lazy("%(card)s cannot go on %(top)s, only on %(need)s."),
    "build_rank": gettext_lazy("%(card)s cannot go on %(top)s, only on %(need)s."),
    # A king: the rank above it is the ace, by the wrap (RULES.md 1, 3.3).
    "build_wrap": gettext_lazy(
        "%(card)s cannot go on %(top)s, only on %(need)s (ranks wrap round: a king goes on an ace)."
    ),
    # Translators: %(rank)s is any card of the base rank, as an object ("a seven"; German
    # accusative).
    "build_base": gettext_lazy(
        "%(card)s cannot go on %(top)s: in this game no card goes on %(rank)s, the base rank."
    ),
    # The base rank is the ace: the wrap from ace to king is what this game forbids.
    "build_base_wrap": gettext_lazy(
        "%(card)s cannot go on %(top)s: in this game ranks do not wrap round, and no king goes "
        "on an ace, the base rank."
    ),
    "reserve_fills": gettext_lazy("Pile %(pile)s is empty: the reserve fills it."),
    "waste_only": gettext_lazy("Pile %(pile)s is empty: only the waste's top card may fill it."),
    "nothing_to_undo": gettext_lazy("There is nothing to take back."),
    # The server's limit on the moves of one game (GAME_MOVE_LIMIT), not a rule.
    # Translators: %(limit)s is a number with its thousands separator ("10,000").
    "move_limit_reached": ngettext_lazy(
        "This game has reached its limit of %(limit)s move (taken-back moves count too) "
        "and takes no more: resign it and start another.",
        "This game has reached its limit of %(limit)s moves (taken-back moves count too) "
        "and takes no more: resign it and start another.",
        "count",
    ),
    "malformed_move": gettext_lazy("That is not a move: write one as QH>t2, 5S>f, draw or redeal."),
    # The typed move's mistakes, as the engine's parser names them (games.engine.moves
    # parse_move, cards.parse_card: the API's detail says the same in English).
    # Translators: the notation (draw, redeal, QH>t2, 5S>f, f, t1 to t4, the rank and
    # suit letters) is the same in every language.
    "move_empty": gettext_lazy(
        "Write a move: draw, redeal, or a card, > and where it goes, such as QH>t2 or 5S>f."
    ),
    "move_too_long": gettext_lazy("A move is at most %(most)s characters long."),
    "move_form": gettext_lazy(
        "'%(text)s' is not a move: write draw, redeal, or a card, > and where it "
        "goes, such as QH>t2 or 5S>f."
    ),
    "card_form": gettext_lazy(
        "'%(text)s' is not a card: write its rank then its suit, such as QH, TD or 10D."
    ),
    "card_rank": gettext_lazy(
        "'%(text)s' is not a card: %(letter)s is not a rank (the ranks are A, 2 to 9, T, J, Q, K)."
    ),
    "card_suit": gettext_lazy(
        "'%(text)s' is not a card: %(letter)s is not a suit (the suits are S, H, D, C)."
    ),
    "move_destination": gettext_lazy(
        "'%(dest)s' is not a destination: use f (foundation) or t1, t2, t3, t4."
    ),
    "game_over": gettext_lazy("The game is over."),
    "game_over_race_cancelled": gettext_lazy(
        "The organisers cancelled this race: the game is over."
    ),
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
    # Why the solution page shows no solution yet (as the API's 409 deal_secret says:
    # games.selectors.games.deal_secret_error).
    "blocked_not_over_solution": gettext_lazy(
        "The game is blocked, not over: no move is left, but undo takes back the move that "
        "blocked it, or resign ends it; the solution is shown once the game is over for good."
    ),
    "blocked_not_over_race_solution": gettext_lazy(
        "The game is blocked, not over: no move is left, but undo takes back the move that "
        "blocked it, or resign ends it; the solution is shown when the race is finished or "
        "cancelled."
    ),
    "race_secret_solution": gettext_lazy(
        "The solution of a race game is shown when the race is finished or cancelled."
    ),
    "game_secret_solution": gettext_lazy("The solution is shown once the game is over."),
    "too_many_solves": gettext_lazy(
        "You have too many solutions being worked out; try again in a moment."
    ),
}


def _words(why: str, facts: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The template's key for a refusal and its facts as the template names them: cards
    with their article in the case their place asks for (``card`` a subject, ``top``
    and ``need`` objects, :mod:`web.board`), a rank as the sentence needs it, "a red
    ace" in a building refusal.  Where the wrap of ranks (RULES.md 1) is what asks for
    an ace after a king, or forbids a king on an ace, the key is the sentence that says
    so (``build_wrap``, ``foundation_next_wrap``, ``build_base_wrap``)."""
    out = dict(facts)
    key = why
    if "card" in out:
        out["card"] = card_subject(str(out["card"]))
    if "top" in out:
        out["top"] = card_object(str(out["top"]))
    rank = str(out.get("rank", ""))
    if why == "build_colour":
        out["need"] = RANK_COLOUR[(rank, str(out.pop("colour")))]
        del out["rank"]
    elif why == "build_rank":
        out["need"] = RANK_ANY[rank]
        del out["rank"]
    elif why == "build_suit":
        rank = str(out["need"])[0]
        out["need"] = card_object(str(out["need"]))
    elif why == "foundation_next":
        if str(out["need"]).startswith("A"):
            key = "foundation_next_wrap"
        out["need"] = card_object(str(out["need"]))
    elif why == "foundation_start":
        out["rank"] = RANK_WITH[rank]
    elif why == "build_base":
        out["rank"] = RANK_ANY[rank]
        if rank == "A":
            key = "build_base_wrap"
    elif why == "move_limit_reached":
        out["count"] = int(out["limit"])
        out["limit"] = number_format(out["count"], force_grouping=True)
    if why in ("build_colour", "build_rank", "build_suit") and rank == "A":
        key = "build_wrap"
    return key, out


def refusal_words(exc: ServiceError) -> str:
    """What a page says for ``exc`` in the active language (module doc), as a sentence
    (:func:`sentence`).

    The template of ``exc.why`` filled with ``exc.facts`` in words, else
    ``exc.detail`` (English: a refusal with no template yet, or a fact missing).
    """
    if exc.why not in REFUSAL_TEXT:
        return sentence(exc.detail)
    try:
        key, facts = _words(exc.why, exc.facts)
        return sentence(str(REFUSAL_TEXT[key] % facts))
    except (KeyError, TypeError, ValueError, IndexError):
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
