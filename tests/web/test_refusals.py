"""Refused moves in the page's language (web.refusals), from the engine's data.

A user saw "Refusé : 9H cannot go to its foundation: it needs 8H next" on a
French page: the engine's English reason with card codes.  The engine now also
says which refusal it is (``why``) and what it names (``facts``); these tests
check every refusal the engine can give, on random positions of every rule set,
and the words a person reads.
"""

from __future__ import annotations

import html as html_lib
import random
import re
from typing import Any

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games.engine import CARD_NAMES, GameState, MoveParseError, new_game
from games.engine.moves import IllegalMoveError
from games.models import Tournament
from games.services.errors import IllegalMove
from games.services.games import game_start
from tests.engine.strategies import ENGINE_SETTINGS, random_game, random_walk
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from web.refusals import REFUSAL_TEXT, refusal_words

CARD = re.compile(r"\b(?:[A2-9TJQK])[CDHS]\b")
MOVES = ["draw", "redeal", *(f"{c}>{d}" for c in CARD_NAMES for d in ("f", "t1", "t2", "t3", "t4"))]


def _refusals(state: GameState) -> list[tuple[str, IllegalMoveError]]:
    """Every move of :data:`MOVES` the engine refuses at ``state``, with its error."""
    out = []
    for move in MOVES:
        try:
            state.copy().play(move)
        except IllegalMoveError as exc:
            out.append((move, exc))
    return out


@ENGINE_SETTINGS
@given(st.integers(0, 2**32 - 1), st.integers(0, 60))
def test_every_refusal_has_words_and_names_no_more_than_the_reason(seed: int, steps: int) -> None:
    rng = random.Random(seed)  # noqa: S311 - a position, not a secret
    state = random_game(rng)
    random_walk(state, rng, steps)
    refusals = _refusals(state)
    assert refusals  # some move of 262 is always refused
    for move, exc in refusals:
        assert exc.why in REFUSAL_TEXT, (move, exc.reason)
        # Every card the facts name is in the English reason (no hidden card).
        for key in ("card", "top", "need"):
            if key in exc.facts:
                assert str(exc.facts[key]) in exc.reason, (move, exc.reason, exc.facts)
        for lang in ("en", "fr", "es", "de"):
            with translation.override(lang):
                words = refusal_words(IllegalMove(exc.reason).because(exc.why, exc.facts))
            assert words != exc.reason, (lang, move, exc.reason)  # a template was used
            assert not CARD.findall(words), (lang, words)  # cards in words, not codes
            # A sentence, as every other refusal: a capital first, a full stop last.
            assert words[0].isupper(), (lang, words)
            assert words.endswith("."), (lang, words)


def test_a_malformed_move_and_the_facts_of_one_refusal() -> None:
    with pytest.raises(MoveParseError) as parse:
        new_game("classic", seed="7").play("ZZ>t9")
    # The parser names the mistake (the API's detail in English; web.refusals words it).
    assert (parse.value.why, parse.value.facts) == ("card_rank", {"text": "ZZ", "letter": "Z"})
    assert parse.value.code == "malformed_move"
    with pytest.raises(MoveParseError) as dest:
        new_game("classic", seed="7").play("QH>t9")
    assert (dest.value.why, dest.value.facts) == ("move_destination", {"dest": "t9"})
    assert dest.value.reason == "'t9' is not a destination: use f (foundation) or t1, t2, t3, t4"
    state = new_game("classic", seed="7")
    assert [p[-1] for p in state.to_dict()["tableau"]] == ["KH", "AC", "KC", "9C"]
    with pytest.raises(IllegalMoveError) as build:
        state.play("AC>t4")
    assert (build.value.why, build.value.facts) == (
        "build_colour",
        {"card": "AC", "top": "9C", "colour": "red", "rank": "2"},
    )
    assert build.value.reason == "AC cannot go on 9C: needs a red 2"  # the API's text


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "build", "redeal"),
    [
        (
            "en",
            "Refused: The ace of clubs cannot go on the nine of clubs, only on a red two.",
            "Refused: The stock is not empty: redeal only once it is.",
        ),
        (
            "fr",
            # French and Spanish: the sentence after the colon starts in lower case
            # (as their hints: "Indice : le dix de pique…").
            "Refusé : l\u2019as de trèfle ne va pas sur le neuf de trèfle, seulement sur un "
            "deux rouge.",
            "Refusé : le talon n\u2019est pas vide : on ne redonne qu\u2019une fois "
            "qu\u2019il l\u2019est.",
        ),
        (
            "es",
            "Rechazado: el as de tréboles no va sobre el nueve de tréboles, solo sobre un "
            "dos rojo.",
            "Rechazado: el mazo no está vacío: solo se redistribuye cuando lo está.",
        ),
        (
            "de",
            "Abgelehnt: Das Kreuz-Ass passt nicht auf die Kreuz-Neun, nur auf eine rote Zwei.",
            "Abgelehnt: Der Talon ist nicht leer: Neu geben ist erst möglich, wenn er leer ist.",
        ),
    ],
)
def test_the_play_page_words_a_refusal_in_its_language(
    pages: PageClient, player: Any, lang: str, build: str, redeal: str
) -> None:
    game = game_start(player=player, seed="7")
    seen = []
    for move in ("AC>t4", "redeal"):
        r = pages.post(
            f"/play/{game.id}/move",
            {"move": move, "expected_move_number": 0},
            htmx=True,
            HTTP_ACCEPT_LANGUAGE=lang,
        )
        assert r.status_code == 200
        text = re.search(r'id="board-message"[^>]*>(.*?)</div>', r.content.decode(), re.S)
        assert text is not None
        seen.append(" ".join(re.sub(r"<[^>]+>", "", text.group(1)).split()))
    assert seen == [build, redeal]


@pytest.mark.django_db
def test_a_refused_join_and_a_bad_practice_seed_in_french(pages: PageClient, player: Any) -> None:
    """A new tester saw "this tournament is for invited players only" and "invalid seed
    '!!!': ..." in English on French pages."""
    tournament = Tournament.objects.create(
        name="Invités", entry=Tournament.Entry.INVITE, status=Tournament.Status.OPEN
    )
    race = running_race(tournament=tournament)
    refused = pages.post(f"/races/{race.id}/join", {}, HTTP_ACCEPT_LANGUAGE="fr")
    assert refused.status_code == 409
    assert "Ce tournoi est réservé aux joueurs invités." in refused.content.decode()
    seed = pages.post("/practice", {"variant": "classic", "seed": "!!!"}, HTTP_ACCEPT_LANGUAGE="fr")
    assert seed.status_code == 400
    text = html_lib.unescape(seed.content.decode())
    assert "Une graine fait de 1 à 64 caractères" in text
    assert "invalid seed" not in text
    # The language switch returns to /practice with a GET: the lobby, not a blank 405.
    back = pages.get("/practice")
    assert (back.status_code, back["Location"]) == (302, "/")


def test_after_colon_lowers_the_first_letter_in_french_and_spanish_only() -> None:
    """The board's "Refused:" is followed by the refusal; French and Spanish start a
    sentence after a colon in lower case, English and German keep the capital; an
    acronym keeps its capitals."""
    from web.refusals import after_colon

    text = "Le cinq de pique ne va pas là."
    seen = {}
    for lang in ("en", "fr", "es", "de"):
        with translation.override(lang):
            seen[lang] = (after_colon(text), after_colon("API refusée."), after_colon(""))
    assert seen == {
        "en": (text, "API refusée.", ""),
        "fr": ("le cinq de pique ne va pas là.", "API refusée.", ""),
        "es": ("le cinq de pique ne va pas là.", "API refusée.", ""),
        "de": (text, "API refusée.", ""),
    }
