"""Card names inside sentences carry their article in every language (web.board,
web.refusals).

A French page said "six de carreau est dessus" and "Refusé : As de trèfle ne va pas sur
neuf de trèfle": the card's name without "le", "la", "l'", as Spanish lacked "el" and
"la" and German "der", "die", "das".  Every sentence that names a card now takes the
card with its article, in the case its place asks for (German "passt nicht auf *den*
Kreuz-König").  A refusal across the wrap of ranks said "only on a red card of rank
ace"; it says "only on a red ace" and that ranks wrap round.

The first test lists the sentences of every kind for every rank, in every language,
and checks each card name in them; the others give whole sentences as a person reads
them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation

from games.services.errors import IllegalMove
from web.board import (
    RANK_NAMES,
    SUIT_NAMES,
    autofill_words,
    draw_words,
    move_words,
    rules_words,
    undo_words,
)
from web.refusals import refusal_words

NNBSP = "\u202f"
RANKS = "A23456789TJQK"

#: Each card refusal the engine gives, with facts naming cards of ``rank`` (games/engine
#: state.py): every placeholder that names a card, a rank and a colour.
REFUSALS: list[tuple[str, dict[str, Any]]] = [
    ("already_home", {"card": "{r}S"}),
    ("already_there", {"card": "{r}S", "pile": 2}),
    ("not_top", {"card": "{r}S", "pile": 2}),
    ("part_of_pile", {"card": "{r}S", "pile": 2}),
    ("whole_piles_only", {"card": "{r}S", "pile": 2}),
    ("foundation_start", {"card": "{r}S", "rank": "{r}"}),
    ("foundation_next", {"card": "{r}S", "need": "{r}H"}),
    ("build_colour", {"card": "{r}S", "top": "{r}C", "colour": "red", "rank": "{r}"}),
    ("build_colour", {"card": "{r}H", "top": "{r}D", "colour": "black", "rank": "{r}"}),
    ("build_suit", {"card": "{r}S", "top": "{r}C", "need": "{r}D"}),
    ("build_rank", {"card": "{r}S", "top": "{r}C", "rank": "{r}"}),
    ("build_base", {"card": "{r}S", "top": "{r}C", "rank": "{r}"}),
]


def _refusal(why: str, facts: dict[str, Any], rank: str) -> str:
    filled = {k: v.format(r=rank) if isinstance(v, str) else v for k, v in facts.items()}
    return refusal_words(IllegalMove("an English reason").because(why, filled))


def sentences(rank: str) -> Iterator[str]:
    """Every sentence of the pages that names a card, for cards of ``rank``."""
    yield move_words(f"{rank}S>f")
    yield move_words(f"{rank}S>t2")
    yield autofill_words(move_words(f"{rank}S>t2"), 1, f"{rank}C")
    yield draw_words([f"{rank}S"])
    yield draw_words(["2C", "3D", f"{rank}S"])
    yield undo_words(f"{rank}S>f")
    yield undo_words(f"{rank}S>t3")
    for why, facts in REFUSALS:
        yield _refusal(why, facts, rank)


#: A card's name with the articles it may take in a sentence, per language; the article
#: must agree with the rank (French "la dame", "l'as", "le huit": "huit" takes "le").
def _article_pattern(lang: str, rank: str, suit: str) -> str:
    rank_name, suit_name = str(RANK_NAMES[rank]), str(SUIT_NAMES[suit])
    if lang == "fr":
        article = {"A": "l\u2019", "Q": "la "}.get(rank, "le ")
        return rf"(?i:{article})\b{rank_name} de {suit_name}"
    if lang == "es":
        article = "la " if rank in "JQ" else "el "
        return rf"(?i:{article})\b{rank_name} de {suit_name}"
    if lang == "de":
        # Nominative or accusative by the card's gender (Ass: das; Bube, König: der/den;
        # numbers and Dame: die); "Buben" in the accusative.
        article = {"A": "das", "J": "der|den", "K": "der|den"}.get(rank, "die")
        noun = "Buben?" if rank == "J" else rank_name
        return rf"(?i:{article}) {suit_name}-{noun}"
    return rf"(?i:the ){rank_name} of {suit_name}"


def _bare(lang: str, rank: str, suit: str) -> str:
    """A card's name as it shows anywhere, with or without its article."""
    rank_name, suit_name = str(RANK_NAMES[rank]), str(SUIT_NAMES[suit])
    if lang == "de":
        return rf"{suit_name}-{'Buben?' if rank == 'J' else rank_name}"
    return rf"\b(?i:{rank_name}) (?:de|of) {suit_name}"


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
@pytest.mark.parametrize("rank", list(RANKS))
def test_every_card_in_a_sentence_has_its_article(lang: str, rank: str) -> None:
    with translation.override(lang):
        said = list(sentences(rank))
        for text in said:
            names = 0
            for suit in "CDHS":
                bare = len(re.findall(_bare(lang, rank, suit), text))
                with_article = len(re.findall(_article_pattern(lang, rank, suit), text))
                assert bare == with_article, (lang, text)
                names += bare
            assert names, (lang, text)  # each sentence names a card of this rank


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "the six of diamonds to its foundation",
                "Drew the six of diamonds to the waste.",
                "Drew 3 cards to the waste; the six of diamonds is on top.",
                "Took back moving the queen of hearts to pile 2.",
                "the queen of hearts to pile 2; the ace of spades from the reserve fills pile 1.",
                "The foundations start with the eight.",
            ],
        ),
        (
            "fr",
            [
                "le six de carreau sur sa fondation",
                f"Carte tirée sur la défausse{NNBSP}: le six de carreau.",
                f"3 cartes tirées sur la défausse{NNBSP}; le six de carreau est dessus.",
                f"Coup annulé{NNBSP}: la dame de cœur sur la colonne 2.",
                f"la dame de cœur sur la colonne 2{NNBSP}; l\u2019as de pique, de la réserve, "
                "remplit la colonne 1.",
                "Les fondations commencent par le huit.",
            ],
        ),
        (
            "es",
            [
                "el seis de diamantes a su fundación",
                "Carta robada al descarte: el seis de diamantes.",
                "3 cartas robadas al descarte; el seis de diamantes queda encima.",
                "Jugada deshecha: la reina de corazones a la columna 2.",
                "la reina de corazones a la columna 2; el as de picas, de la reserva, ocupa la "
                "columna 1.",
                "Las fundaciones empiezan por el ocho.",
            ],
        ),
        (
            "de",
            [
                "die Karo-Sechs auf den Ablagestapel",
                "Die Karo-Sechs auf den Abwurf gezogen.",
                "3 Karten auf den Abwurf gezogen; oben liegt die Karo-Sechs.",
                "Die Herz-Dame von Stapel 2 zurückgenommen.",
                "die Herz-Dame auf Stapel 2; das Pik-Ass aus der Reserve füllt Stapel 1.",
                "Die Ablagestapel beginnen mit der Acht.",
            ],
        ),
    ],
)
def test_moves_draws_and_undos_read_as_sentences(lang: str, expected: list[str]) -> None:
    with translation.override(lang):
        said = [
            move_words("6D>f"),
            draw_words(["6D"]),
            draw_words(["4C", "9D", "6D"]),
            undo_words("QH>t2"),
            autofill_words(move_words("QH>t2"), 1, "AS"),
            rules_words("custom", {"draw": 1, "base": "8"})[-1],
        ]
    assert said == expected


def test_a_german_object_takes_the_accusative() -> None:
    """German "auf den Kreuz-König", "den Pik-Buben ... zurückgenommen": the object form;
    the subject stays in the nominative ("Der Pik-Bube passt nicht ...")."""
    with translation.override("de"):
        assert _refusal(
            "build_colour", {"card": "JS", "top": "KC", "colour": "red", "rank": "Q"}, ""
        ) == ("Der Pik-Bube passt nicht auf den Kreuz-König, nur auf eine rote Dame.")
        assert undo_words("JS>t1") == "Den Pik-Buben von Stapel 1 zurückgenommen."
        assert _refusal("build_rank", {"card": "QS", "top": "2C", "rank": "K"}, "") == (
            "Die Pik-Dame passt nicht auf die Kreuz-Zwei, nur auf einen König."
        )


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "en",
            [
                "The king of spades cannot go on the ace of clubs, only on a red ace (ranks "
                "wrap round: a king goes on an ace).",
                "The king of hearts cannot go on the nine of clubs, only on a black ace (ranks "
                "wrap round: a king goes on an ace).",
                "The queen of hearts cannot go on the eight of clubs, only on a black king.",
                "The two of hearts cannot go to its foundation yet: it needs the ace of hearts "
                "next (ranks wrap round: the ace follows the king).",
                "The three of hearts cannot go to its foundation yet: it needs the two of "
                "hearts next.",
                "The king of spades cannot go on the ace of hearts: in this game ranks do not "
                "wrap round, and no king goes on an ace, the base rank.",
                "The six of spades cannot go on the seven of hearts: in this game no card goes "
                "on a seven, the base rank.",
                "The two of hearts cannot start a foundation: foundations start with the seven, "
                "the base rank.",
            ],
        ),
        (
            "fr",
            [
                "Le roi de pique ne va pas sur l\u2019as de trèfle, seulement sur un as rouge "
                f"(les rangs bouclent{NNBSP}: un roi va sur un as).",
                "Le roi de cœur ne va pas sur le neuf de trèfle, seulement sur un as noir "
                f"(les rangs bouclent{NNBSP}: un roi va sur un as).",
                "La dame de cœur ne va pas sur le huit de trèfle, seulement sur un roi noir.",
                f"Le deux de cœur ne va pas encore sur sa fondation{NNBSP}: il lui faut "
                f"d\u2019abord l\u2019as de cœur (les rangs bouclent{NNBSP}: l\u2019as suit le "
                "roi).",
                f"Le trois de cœur ne va pas encore sur sa fondation{NNBSP}: il lui faut "
                "d\u2019abord le deux de cœur.",
                f"Le roi de pique ne va pas sur l\u2019as de cœur{NNBSP}: dans cette partie, "
                "les rangs ne bouclent pas et aucun roi ne va sur un as, le rang de base.",
                f"Le six de pique ne va pas sur le sept de cœur{NNBSP}: dans cette partie, "
                "aucune carte ne va sur un sept, le rang de base.",
                f"Le deux de cœur ne peut pas commencer une fondation{NNBSP}: les fondations "
                "commencent par le sept, le rang de base.",
            ],
        ),
        (
            "es",
            [
                "El rey de picas no va sobre el as de tréboles, solo sobre un as rojo (los "
                "rangos dan la vuelta: un rey va sobre un as).",
                "El rey de corazones no va sobre el nueve de tréboles, solo sobre un as negro "
                "(los rangos dan la vuelta: un rey va sobre un as).",
                "La reina de corazones no va sobre el ocho de tréboles, solo sobre un rey negro.",
                "El dos de corazones aún no va a su fundación: esta necesita antes el as de "
                "corazones (los rangos dan la vuelta: el as sigue al rey).",
                "El tres de corazones aún no va a su fundación: esta necesita antes el dos de "
                "corazones.",
                "El rey de picas no va sobre el as de corazones: en esta partida los rangos no "
                "dan la vuelta y ningún rey va sobre un as, el rango base.",
                "El seis de picas no va sobre el siete de corazones: en esta partida ninguna "
                "carta va sobre un siete, el rango base.",
                "El dos de corazones no puede empezar una fundación: las fundaciones empiezan "
                "por el siete, el rango base.",
            ],
        ),
        (
            "de",
            [
                "Der Pik-König passt nicht auf das Kreuz-Ass, nur auf ein rotes Ass (die Ränge "
                "laufen im Kreis: Ein König passt auf ein Ass).",
                "Der Herz-König passt nicht auf die Kreuz-Neun, nur auf ein schwarzes Ass (die "
                "Ränge laufen im Kreis: Ein König passt auf ein Ass).",
                "Die Herz-Dame passt nicht auf die Kreuz-Acht, nur auf einen schwarzen König.",
                "Die Herz-Zwei darf noch nicht auf den Ablagestapel: Er braucht zuerst das "
                "Herz-Ass (die Ränge laufen im Kreis: Auf den König folgt das Ass).",
                "Die Herz-Drei darf noch nicht auf den Ablagestapel: Er braucht zuerst die "
                "Herz-Zwei.",
                "Der Pik-König passt nicht auf das Herz-Ass: In diesem Spiel laufen die Ränge "
                "nicht im Kreis, und kein König passt auf ein Ass, den Grundrang.",
                "Die Pik-Sechs passt nicht auf die Herz-Sieben: In diesem Spiel kommt keine "
                "Karte auf eine Sieben, den Grundrang.",
                "Die Herz-Zwei kann keinen Ablagestapel eröffnen, denn jeder beginnt mit der "
                "Sieben, dem Grundrang.",
            ],
        ),
    ],
)
def test_a_refusal_across_the_wrap_of_ranks_says_so(lang: str, expected: list[str]) -> None:
    """ "King of spades cannot go on ace of clubs, only on a red card of rank ace." read
    oddly: a king goes on a red ace, and the ace is above the king because ranks wrap
    (RULES.md 1, 3.3); where the wrap is what allows a move or forbids it, the refusal
    says so, and only there."""
    cases = [
        ("build_colour", {"card": "KS", "top": "AC", "colour": "red", "rank": "A"}),
        ("build_colour", {"card": "KH", "top": "9C", "colour": "black", "rank": "A"}),
        ("build_colour", {"card": "QH", "top": "8C", "colour": "black", "rank": "K"}),
        ("foundation_next", {"card": "2H", "need": "AH"}),
        ("foundation_next", {"card": "3H", "need": "2H"}),
        ("build_base", {"card": "KS", "top": "AH", "rank": "A"}),
        ("build_base", {"card": "6S", "top": "7H", "rank": "7"}),
        ("foundation_start", {"card": "2H", "rank": "7"}),
    ]
    with translation.override(lang):
        said = [_refusal(why, facts, "") for why, facts in cases]
    assert said == expected


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_wrap_note_comes_with_a_king_or_an_ace_only(lang: str) -> None:
    """Same-suit and any-suit building name the king's ace and the wrap as well."""
    with translation.override(lang):
        wrap = _refusal(
            "build_colour", {"card": "KS", "top": "AC", "colour": "red", "rank": "A"}, ""
        )
        note = wrap[wrap.index("(") :]
        assert _refusal("build_suit", {"card": "KS", "top": "2C", "need": "AS"}, "").endswith(note)
        assert _refusal("build_rank", {"card": "KS", "top": "2C", "rank": "A"}, "").endswith(note)
        assert "(" not in _refusal("build_rank", {"card": "QS", "top": "2C", "rank": "K"}, "")


@pytest.mark.parametrize(
    ("kw", "move", "expected"),
    [
        # Classic: the king of hearts on the nine of clubs wants a black ace, by the wrap.
        (
            {"reserve": ["KH"], "base": "7C", "tableau": ["9C", "2D"]},
            "KH>t1",
            "The king of hearts cannot go on the nine of clubs, only on a black ace (ranks "
            "wrap round: a king goes on an ace).",
        ),
        # Base-relative with base ace: no king goes on any card, not only on an ace (the
        # engine asked for "a red A", refused as well).
        (
            {
                "reserve": ["KS"],
                "base": "AC",
                "tableau": ["2H", "2C"],
                "tableau_wrap": "base-relative",
            },
            "KS>t1",
            "The king of spades cannot go on the two of hearts: in this game ranks do not "
            "wrap round, and no king goes on an ace, the base rank.",
        ),
    ],
)
def test_the_engine_s_refusals_across_the_wrap_in_words(
    kw: dict[str, Any], move: str, expected: str
) -> None:
    from games.engine.moves import IllegalMoveError
    from tests.engine.helpers import deal

    state = deal(**kw)
    with pytest.raises(IllegalMoveError) as refused:
        state.play(move)
    exc = IllegalMove(refused.value.reason).because(refused.value.why, refused.value.facts)
    with translation.override("en"):
        assert refusal_words(exc) == expected
