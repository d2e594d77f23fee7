"""Turn what a player may see into what a page draws: cards with names, piles, words.

Every board is built from the dict :func:`games.selectors.games.game_view` returns
(or, in a replay of a revealed deal, from the same function given a replayed
position): nothing here reads a deal, a stock or a face-down reserve card.
Card names, suit names and rule texts are translated (``gettext``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.services.standings import DEFAULT_POINTS_TABLE

# Re-exported: the pages take them from here; they live in games.words, the admin's too.
from games.words import PRESET_NAMES as PRESET_NAMES
from games.words import PRESET_STATES as PRESET_STATES
from games.words import PRESET_TEXT as PRESET_TEXT
from games.words import RANK_WITH as RANK_WITH
from games.words import pool_words as pool_words
from games.words import rules_label as rules_label
from games.words import rules_words as rules_words
from games.words import variant_label as variant_label

RANK_NAMES = {
    "A": pgettext_lazy("rank", "ace"),
    "2": pgettext_lazy("rank", "two"),
    "3": pgettext_lazy("rank", "three"),
    "4": pgettext_lazy("rank", "four"),
    "5": pgettext_lazy("rank", "five"),
    "6": pgettext_lazy("rank", "six"),
    "7": pgettext_lazy("rank", "seven"),
    "8": pgettext_lazy("rank", "eight"),
    "9": pgettext_lazy("rank", "nine"),
    "T": pgettext_lazy("rank", "ten"),
    "J": pgettext_lazy("rank", "jack"),
    "Q": pgettext_lazy("rank", "queen"),
    "K": pgettext_lazy("rank", "king"),
}
#: Suit names as they appear in a card's name ("queen of *hearts*").
SUIT_NAMES = {
    "C": pgettext_lazy("card", "clubs"),
    "D": pgettext_lazy("card", "diamonds"),
    "H": pgettext_lazy("card", "hearts"),
    "S": pgettext_lazy("card", "spades"),
}
# The forms a card or a rank takes inside a sentence, each with its article and in the
# case its place in the sentence asks for, as each language writes it (French
# "la dame de cœur", "l\u2019as de pique"; Spanish "la reina de corazones"; German
# "die Herz-Dame", "den Pik-König").  A sentence's msgid says, in a "Translators:"
# comment, which form each of its placeholders holds; msgfmt makes a translation use
# every placeholder of its msgid, so the form cannot be chosen by the translation.
#: A card as the subject of a sentence ("*the queen of hearts* is on top"; German
#: nominative).  ``%(suit)s`` is the suit's name as in :data:`SUIT_NAMES`.
CARD_SUBJECT = {
    "A": pgettext_lazy("card, subject", "the ace of %(suit)s"),
    "2": pgettext_lazy("card, subject", "the two of %(suit)s"),
    "3": pgettext_lazy("card, subject", "the three of %(suit)s"),
    "4": pgettext_lazy("card, subject", "the four of %(suit)s"),
    "5": pgettext_lazy("card, subject", "the five of %(suit)s"),
    "6": pgettext_lazy("card, subject", "the six of %(suit)s"),
    "7": pgettext_lazy("card, subject", "the seven of %(suit)s"),
    "8": pgettext_lazy("card, subject", "the eight of %(suit)s"),
    "9": pgettext_lazy("card, subject", "the nine of %(suit)s"),
    "T": pgettext_lazy("card, subject", "the ten of %(suit)s"),
    "J": pgettext_lazy("card, subject", "the jack of %(suit)s"),
    "Q": pgettext_lazy("card, subject", "the queen of %(suit)s"),
    "K": pgettext_lazy("card, subject", "the king of %(suit)s"),
}
#: A card as an object, of a verb or after "on", "to" ("drew *the queen of hearts*", "only
#: on *the ten of clubs*"; German accusative).
CARD_OBJECT = {
    "A": pgettext_lazy("card, object", "the ace of %(suit)s"),
    "2": pgettext_lazy("card, object", "the two of %(suit)s"),
    "3": pgettext_lazy("card, object", "the three of %(suit)s"),
    "4": pgettext_lazy("card, object", "the four of %(suit)s"),
    "5": pgettext_lazy("card, object", "the five of %(suit)s"),
    "6": pgettext_lazy("card, object", "the six of %(suit)s"),
    "7": pgettext_lazy("card, object", "the seven of %(suit)s"),
    "8": pgettext_lazy("card, object", "the eight of %(suit)s"),
    "9": pgettext_lazy("card, object", "the nine of %(suit)s"),
    "T": pgettext_lazy("card, object", "the ten of %(suit)s"),
    "J": pgettext_lazy("card, object", "the jack of %(suit)s"),
    "Q": pgettext_lazy("card, object", "the queen of %(suit)s"),
    "K": pgettext_lazy("card, object", "the king of %(suit)s"),
}
#: Any card of a rank, as an object ("only on *an ace*"; German accusative).
RANK_ANY = {
    "A": pgettext_lazy("any card of a rank, object", "an ace"),
    "2": pgettext_lazy("any card of a rank, object", "a two"),
    "3": pgettext_lazy("any card of a rank, object", "a three"),
    "4": pgettext_lazy("any card of a rank, object", "a four"),
    "5": pgettext_lazy("any card of a rank, object", "a five"),
    "6": pgettext_lazy("any card of a rank, object", "a six"),
    "7": pgettext_lazy("any card of a rank, object", "a seven"),
    "8": pgettext_lazy("any card of a rank, object", "an eight"),
    "9": pgettext_lazy("any card of a rank, object", "a nine"),
    "T": pgettext_lazy("any card of a rank, object", "a ten"),
    "J": pgettext_lazy("any card of a rank, object", "a jack"),
    "Q": pgettext_lazy("any card of a rank, object", "a queen"),
    "K": pgettext_lazy("any card of a rank, object", "a king"),
}
#: Any card of a rank and a colour, as an object ("only on *a red ace*"; the colour
#: agrees with the rank's gender: French "une dame noire", "un roi noir").
RANK_COLOUR = {
    ("A", "red"): pgettext_lazy("any card of a rank and colour, object", "a red ace"),
    ("A", "black"): pgettext_lazy("any card of a rank and colour, object", "a black ace"),
    ("2", "red"): pgettext_lazy("any card of a rank and colour, object", "a red two"),
    ("2", "black"): pgettext_lazy("any card of a rank and colour, object", "a black two"),
    ("3", "red"): pgettext_lazy("any card of a rank and colour, object", "a red three"),
    ("3", "black"): pgettext_lazy("any card of a rank and colour, object", "a black three"),
    ("4", "red"): pgettext_lazy("any card of a rank and colour, object", "a red four"),
    ("4", "black"): pgettext_lazy("any card of a rank and colour, object", "a black four"),
    ("5", "red"): pgettext_lazy("any card of a rank and colour, object", "a red five"),
    ("5", "black"): pgettext_lazy("any card of a rank and colour, object", "a black five"),
    ("6", "red"): pgettext_lazy("any card of a rank and colour, object", "a red six"),
    ("6", "black"): pgettext_lazy("any card of a rank and colour, object", "a black six"),
    ("7", "red"): pgettext_lazy("any card of a rank and colour, object", "a red seven"),
    ("7", "black"): pgettext_lazy("any card of a rank and colour, object", "a black seven"),
    ("8", "red"): pgettext_lazy("any card of a rank and colour, object", "a red eight"),
    ("8", "black"): pgettext_lazy("any card of a rank and colour, object", "a black eight"),
    ("9", "red"): pgettext_lazy("any card of a rank and colour, object", "a red nine"),
    ("9", "black"): pgettext_lazy("any card of a rank and colour, object", "a black nine"),
    ("T", "red"): pgettext_lazy("any card of a rank and colour, object", "a red ten"),
    ("T", "black"): pgettext_lazy("any card of a rank and colour, object", "a black ten"),
    ("J", "red"): pgettext_lazy("any card of a rank and colour, object", "a red jack"),
    ("J", "black"): pgettext_lazy("any card of a rank and colour, object", "a black jack"),
    ("Q", "red"): pgettext_lazy("any card of a rank and colour, object", "a red queen"),
    ("Q", "black"): pgettext_lazy("any card of a rank and colour, object", "a black queen"),
    ("K", "red"): pgettext_lazy("any card of a rank and colour, object", "a red king"),
    ("K", "black"): pgettext_lazy("any card of a rank and colour, object", "a black king"),
}
#: Suits as symbols: the suit is always drawn as a symbol (never by colour alone).
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
RANK_SHORT = {"T": "10"}


def rules_text(options: dict[str, Any]) -> list[str]:
    """The rules of a game in a few sentences, as its options make them (RULES.md 3 and
    4): foundations, tableau, reserve, stock and waste, the end, the counts.  The
    building rule itself is one of :func:`rules_words`'s phrases, shown above these.  A
    game without redeal never says "redeal", nor a game without auto-fill that the
    reserve fills a pile (a new user read both on a rainbow game)."""
    lines = [
        _(
            "Build the four foundations up in suit from the base rank, wrapping from king to "
            "ace, until each holds 13 cards."
        ),
        _("On the tableau, place a card on a card one rank higher, by the building rule above."),
    ]
    if options.get("tableau_moves", "top-or-whole") == "top-or-whole":
        lines.append(_("Move the top card of a pile, or a whole pile at once."))
    if options.get("autofill", True):
        lines.append(
            _(
                "The top card of the reserve may go to a foundation or the tableau. An empty "
                "tableau pile is filled from the reserve at once."
            )
        )
    else:
        lines.append(
            _(
                "The top card of the reserve may go to a foundation or the tableau. An empty "
                "tableau pile stays empty until you put a card there."
            )
        )
    if options.get("redeals") == 0:
        lines.append(
            _(
                "Draw turns cards from the stock onto the waste; only the waste's top card may "
                "be played. There is no redeal: once the stock is empty, only the waste's top "
                "card is left to play from it."
            )
        )
    else:
        lines.append(
            _(
                "Draw turns cards from the stock onto the waste; only the waste's top card may "
                "be played. When the stock is empty, redeal turns the waste over as the new "
                "stock."
            )
        )
    lines.append(
        _(
            "The game is won when all 52 cards are home. It ends as blocked when drawing and "
            "redealing alone can never bring a card that may be played."
        )
    )
    lines.append(
        _("Cards home: cards on the foundations. Casino score: 5 for each card home, minus 52.")
    )
    return lines


@dataclass(frozen=True)
class Card:
    """One face-up card as a page draws it: ``code`` ("QH"), ``label`` ("queen of hearts"),
    ``rank`` ("Q", "10"), ``symbol`` ("♥"), ``red`` (hearts and diamonds); ``run``: for
    a covered tableau card that moves with the cards on it (RULES.md 3.4: the bottom
    card under ``top-or-whole`` and ``whole-pile``, any card under ``any-run``), it with
    those cards (:func:`run_words`), else ""; ``covered``: how many cards lie on a tableau
    card (all face up, RULES.md 7), 0 for a top card and any other card."""

    code: str
    label: str
    rank: str
    symbol: str
    red: bool
    run: str = ""
    covered: int = 0

    @property
    def name(self) -> str:
        """The card's accessible name (its button's, or its image's): :attr:`label`, and
        for a covered tableau card how many cards lie on it (``"jack of diamonds, under 3
        cards"``): focused on its own, it was named as a top card is."""
        if not self.covered:
            return self.label
        # Translators: a tableau card with other cards on it, as a screen reader names it
        # when it is in focus; %(card)s is a card name as "%(rank)s of %(suit)s" gives it,
        # without an article ("jack of diamonds").
        return ngettext(
            "%(card)s, under %(n)s card", "%(card)s, under %(n)s cards", self.covered
        ) % {"card": self.label, "n": self.covered}


def card_label(code: str) -> str:
    """The card's name in the active language: ``"QH"`` -> ``"queen of hearts"``."""
    return _("%(rank)s of %(suit)s") % {
        "rank": RANK_NAMES[code[0]],
        "suit": SUIT_NAMES[code[1]],
    }


def card_subject(code: str) -> str:
    """The card with its article as a sentence's subject (:data:`CARD_SUBJECT`): ``"QH"``
    -> ``"the queen of hearts"`` (French ``"la dame de cœur"``, German ``"die Herz-Dame"``)."""
    return str(CARD_SUBJECT[code[0]]) % {"suit": SUIT_NAMES[code[1]]}


def card_object(code: str) -> str:
    """The card with its article as an object (:data:`CARD_OBJECT`): ``"KS"`` -> ``"the
    king of spades"`` (German ``"den Pik-König"``)."""
    return str(CARD_OBJECT[code[0]]) % {"suit": SUIT_NAMES[code[1]]}


def _capital(text: str) -> str:
    """``text`` with its first letter a capital: a sentence that begins with a card's name
    (German "Den Pik-Buben von Stapel 2 zurückgenommen.")."""
    return text[:1].upper() + text[1:]


def card(code: str) -> Card:
    """A :class:`Card` for a visible card's code (``"QH"``)."""
    return Card(
        code=code,
        label=card_label(code),
        rank=RANK_SHORT.get(code[0], code[0]),
        symbol=SUIT_SYMBOLS[code[1]],
        red=code[1] in "DH",
    )


def run_words(codes: list[str]) -> str:
    """A covered tableau card with the cards on it, as its selection names them (RULES.md
    3.4: a whole pile moves from its bottom card; under ``any-run`` any card moves with
    the cards on it): ``["7H", "6C", "5D", "4C"]`` -> ``"seven of hearts to four of
    clubs, 4 cards"``.  ``codes``: the card and the cards on it, bottom first (all face
    up: a tableau card is never hidden, RULES.md 7); one card is its name alone."""
    if len(codes) == 1:
        return card_label(codes[0])
    # Translators: a run of tableau cards as a selection names it, before "now choose a
    # destination"; %(first)s and %(last)s are card names as "%(rank)s of %(suit)s" gives
    # them, without an article ("seven of hearts").
    return ngettext(
        "%(first)s to %(last)s, %(n)s card",
        "%(first)s to %(last)s, %(n)s cards",
        len(codes),
    ) % {"first": card_label(codes[0]), "last": card_label(codes[-1]), "n": len(codes)}


def move_words(notation: str) -> str:
    """A move in words: ``"QH>t2"`` -> ``"the queen of hearts to pile 2"`` (French ``"la
    dame de cœur sur la colonne 2"``); ``draw``, ``redeal``."""
    if notation == "draw":
        return _("draw from the stock")
    if notation == "redeal":
        return _("redeal")
    code, _sep, dest = notation.partition(">")
    if dest == "f":
        # Translators: %(card)s is the card with its article, as a subject ("the six of
        # spades"; German nominative).
        return _("%(card)s to its foundation") % {"card": card_subject(code)}
    # Translators: %(card)s is the card with its article, as a subject ("the queen of
    # hearts"; German nominative).
    return _("%(card)s to pile %(pile)s") % {"card": card_subject(code), "pile": dest[1:]}


def draws_words(count: int, *, draw: int) -> str:
    """``count`` draws in a row, as one step of a list of moves (a fragment, like
    :func:`move_words`): one is ``"draw from the stock"``; under draw one (``draw`` 1)
    ``"draw 7 cards from the stock"``; under draw three ``"draw from the stock 7 times"``
    (a draw turns up to three cards, fewer near the stock's end: RULES.md 3.6)."""
    if count == 1:
        return move_words("draw")
    if draw == 1:
        return ngettext(
            "draw %(n)s card from the stock", "draw %(n)s cards from the stock", count
        ) % {"n": count}
    return ngettext("draw from the stock %(n)s time", "draw from the stock %(n)s times", count) % {
        "n": count
    }


@dataclass(frozen=True)
class Step:
    """One step of a winning line as the solution page lists it: one move, or draws in a
    row taken together.  ``first`` and ``last``: the game's move numbers of its first
    and last move (1-based; equal for one move); ``home``: cards on the foundations
    after it (1..52, RULES.md 6)."""

    words: str
    first: int
    last: int
    home: int


def solution_steps(
    moves: list[str], homes: list[int], *, first: int = 1, draw: int = 3
) -> list[Step]:
    """A winning line's moves (notations, RULES.md 5) as steps a player can follow:
    consecutive ``draw`` moves become one step (:func:`draws_words`), every other move
    is a step of its own (:func:`move_words`).

    ``homes[i]``: cards home after ``moves[i]`` (same length as ``moves``); ``first``:
    the game's number of the line's first move (1 from the deal; after_moves + 1 from
    where a game ended); ``draw``: cards per draw (1 or 3).  The steps' moves add up to
    ``len(moves)``: every draw and redeal stays counted.
    """
    if len(homes) != len(moves):
        raise ValueError("homes must give the cards home after each move")
    steps: list[Step] = []
    i = 0
    while i < len(moves):
        j = i + 1
        if moves[i] == "draw":
            while j < len(moves) and moves[j] == "draw":
                j += 1
            words = draws_words(j - i, draw=draw)
        else:
            words = move_words(moves[i])
        steps.append(Step(words, first + i, first + j - 1, homes[j - 1]))
        i = j
    return steps


def draw_words(turned: list[str]) -> str:
    """What a draw did, naming the card it left on top of the waste (RULES.md 3.6):
    ``["7H"]`` -> ``"Drew the seven of hearts to the waste."``, ``["4C", "9D", "7H"]``
    -> ``"Drew 3 cards to the waste; the seven of hearts is on top."``.

    ``turned``: the codes of the cards the draw turned, in order
    (:meth:`games.engine.GameState.last_draw`); they lie face up on the waste, so
    naming them shows nothing hidden (RULES.md 7).  Empty: ``"Drew from the stock."``.
    """
    if not turned:
        return _("Drew from the stock.")
    if len(turned) == 1:
        # Translators: %(card)s is the card with its article, as the object of "drew"
        # ("the seven of hearts"; German accusative).
        return _capital(_("Drew %(card)s to the waste.") % {"card": card_object(turned[-1])})
    # Two or three cards (draw three): "one card" is the sentence above.
    # Translators: %(card)s is the card with its article, as a subject ("the seven of
    # hearts"; German nominative).
    return ngettext(
        "Drew %(n)s card to the waste; %(card)s is on top.",
        "Drew %(n)s cards to the waste; %(card)s is on top.",
        len(turned),
    ) % {"n": len(turned), "card": card_subject(turned[-1])}


def autofill_words(move: str, pile: int, code: str) -> str:
    """A move that emptied a tableau pile, with the auto-fill that came with it (RULES.md
    3.7): ``move`` is :func:`move_words`'s phrase, ``pile`` the pile filled (1-4),
    ``code`` the reserve card that filled it, face up now -> ``"the king of hearts to
    pile 2; the five of clubs from the reserve fills pile 1."``."""
    # Translators: %(card)s is the card with its article, as a subject ("the five of
    # clubs"; German nominative).
    return _("%(move)s; %(card)s from the reserve fills pile %(pile)s.") % {
        "move": move,
        "card": card_subject(code),
        "pile": pile,
    }


def redeal_words() -> str:
    """What a redeal did, as a sentence: ``"Redealt: the waste is turned over as the new
    stock."`` (RULES.md 3.6; it names no card: the stock's order is hidden, RULES.md 7)."""
    return _("Redealt: the waste is turned over as the new stock.")


def undo_words(notation: str | None) -> str:
    """What Undo took back, as a sentence, from the move's notation (RULES.md 5):
    ``"QH>t2"`` -> ``"Took back moving the queen of hearts to pile 2."``, ``"9C>f"`` ->
    ``"Took back moving the nine of clubs to its foundation."``; ``draw`` and ``redeal``
    are not named by card (``"Took back the draw."``): the cards go back face down into
    the stock, whose order is hidden (RULES.md 7).  ``None`` (not known):
    ``"Move taken back."``.  Each language words the whole sentence (French "Coup
    annulé : reine de cœur sur la colonne 2."), not "Took back" before a fragment."""
    if notation is None:
        return _("Move taken back.")
    if notation == "draw":
        return _("Took back the draw.")
    if notation == "redeal":
        return _("Took back the redeal.")
    code, _sep, dest = notation.partition(">")
    if dest == "f":
        # Translators: %(card)s is the card with its article, as the object of "moving"
        # ("the nine of clubs"; German accusative).
        return _capital(
            _("Took back moving %(card)s to its foundation.") % {"card": card_object(code)}
        )
    # Translators: %(card)s is the card with its article, as the object of "moving" ("the
    # king of hearts"; German accusative).
    return _capital(
        _("Took back moving %(card)s to pile %(pile)s.")
        % {"card": card_object(code), "pile": dest[1:]}
    )


def board_context(view: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    """The piles of a :func:`~games.selectors.games.game_view` dict, as cards to draw.

    Shape: ``reserve`` (``count``, ``face_down``, ``cards``: visible cards bottom to
    top, the last one playable), ``foundations`` (per suit: ``suit``, ``name``,
    ``symbol``, ``count``, ``top``), ``tableau`` (4 piles of cards, bottom first; a
    covered card's ``run`` names it with the cards on it, :func:`run_words`, and its
    ``covered`` counts them, :attr:`Card.name`),
    ``stock_count``, ``waste`` (``count``, ``fan``: the last three cards for draw
    three, else the top card), ``legal`` (the legal moves, space-separated).
    ``options``: the deal's rule options (RULES.md 4): ``draw`` sets the waste's fan
    (default 3), and under ``tableau_moves`` a covered card is named with the cards on it
    only where it moves with them, the bottom card of a pile, or any card under
    ``any-run``; another covered card is named alone.
    """
    draw = int(options.get("draw", 3))
    any_run = options.get("tableau_moves", "top-or-whole") == "any-run"
    reserve_cards = [card(c) for c in view["reserve"]["cards"]]
    foundations = []
    for suit in "CDHS":
        pile = view["foundations"][suit]
        foundations.append(
            {
                "suit": suit,
                "name": SUIT_NAMES[suit],
                "symbol": SUIT_SYMBOLS[suit],
                "red": suit in "DH",
                "count": len(pile),
                "top": card(pile[-1]) if pile else None,
            }
        )
    tableau = [
        {
            "n": i + 1,
            "key": f"t{i + 1}",
            "cards": [
                replace(
                    card(c),
                    run=run_words(pile[j:]) if j < len(pile) - 1 and (j == 0 or any_run) else "",
                    covered=len(pile) - 1 - j,
                )
                for j, c in enumerate(pile)
            ],
        }
        for i, pile in enumerate(view["tableau"])
    ]
    waste = view["waste"]["cards"]
    return {
        "reserve": {
            "count": view["reserve"]["count"],
            "face_down": view["reserve"]["face_down"],
            "cards": reserve_cards,
        },
        "foundations": foundations,
        "tableau": tableau,
        "stock_count": view["stock"]["count"],
        "waste": {"count": len(waste), "fan": [card(c) for c in waste[-max(1, min(draw, 3)) :]]},
        "legal": " ".join(view["legal_moves"]),
        "can_draw": "draw" in view["legal_moves"],
        "can_redeal": "redeal" in view["legal_moves"],
        "base_rank": RANK_NAMES[view["base_rank"]],
        "base_short": RANK_SHORT.get(view["base_rank"], view["base_rank"]),
    }


def tournament_rules_words(public: dict[str, Any]) -> tuple[str, str]:
    """The tournament's scoring scheme and standings order in the reader's language.

    ``public``: :func:`games.selectors.tournaments.tournament_public`.  Returns
    ``(scoring, standings)``; the same rules as the API's ``scoring_rule`` and
    ``standings_rule`` (README "Tournaments").
    """
    if public["scoring"] == "place_points":
        table = public["points_table"] or DEFAULT_POINTS_TABLE
        scoring = _(
            "Points by place: the places of a race earn %(table)s points in order, later "
            "places 0. Players tied in a race share the place and each earn its points."
        ) % {"table": ", ".join(str(p) for p in table)}
    else:
        scoring = _("%(per_card)s points per card home, plus %(bonus)s points for a won game.") % {
            "per_card": public["points_per_card"],
            "bonus": public["win_bonus"],
        }
    standings = _(
        "Ordered by points, then wins, then cards home (more first), then total time "
        "(less first); players equal on all four share a rank. Only finished races count; "
        "a disqualified entry earns nothing."
    )
    return scoring, standings
