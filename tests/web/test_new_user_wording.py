"""What a new user reported about the pages' words: a draw did not say which card it
turned ("draw from the stock"), Undo did not say what it took back ("Move taken back."),
"Last card home at (s)" read as a riddle, the replay's pile headings looked like
buttons, and refusals began now with a capital ("The stock is not empty: ..."), now
without ("ace of clubs cannot go on ...").  What a person sees in a browser is in
tests/browser/test_web_new_user_wording.py."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from games.engine import new_game
from games.models import Game
from games.services.errors import IllegalMove, ServiceError
from games.services.games import game_end, game_start, move_play
from tests.tournaments.factories import Result, finished_race
from tests.web.conftest import PageClient
from tests.web.test_hidden_information import assert_hides
from web.refusals import refusal_words

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"
APP_CSS = Path(__file__).resolve().parents[2] / "web" / "static" / "web" / "app.css"


def said(resp: Any) -> str:
    """The board's message in an answer, as a person reads it."""
    found = re.search(r'id="board-message"[^>]*>(.*?)</div>', resp.content.decode(), re.S)
    assert found is not None, "no board message"
    text = unescape(re.sub(r"<[^>]+>", "", found.group(1)))
    return re.sub(r"[ \t\n]+", " ", text).strip()  # keeps French no-break spaces


def post(
    pages: PageClient, game: Any, action: str, number: int, move: str = "", lang: str = "en"
) -> Any:
    """An htmx post of the board (``move`` or ``undo``) at move ``number``, in ``lang``."""
    data = {"expected_move_number": number, **({"move": move} if move else {})}
    return pages.post(f"/play/{game.id}/{action}", data, htmx=True, HTTP_ACCEPT_LANGUAGE=lang)


@pytest.mark.parametrize(
    ("variant", "lang", "words"),
    [
        # Seed 7 turns 7H 5D JS first (tests/engine/test_scenarios.py).
        ("classic", "en", "Drew 3 cards to the waste; the jack of spades is on top."),
        ("draw-one", "en", "Drew the seven of hearts to the waste."),
        ("draw-one", "fr", f"Carte tirée sur la défausse{NNBSP}: le sept de cœur."),
        ("classic", "es", "3 cartas robadas al descarte; la jota de picas queda encima."),
        ("draw-one", "de", "Die Herz-Sieben auf den Abwurf gezogen."),
    ],
)
def test_a_draw_names_the_card_it_left_on_the_waste(
    pages: PageClient, player: Any, variant: str, lang: str, words: str
) -> None:
    game = game_start(player=player, variant=variant, seed="7")
    resp = post(pages, game, "move", 0, move="draw", lang=lang)
    assert resp.status_code == 200
    assert said(resp) == words
    assert_hides(game.id, resp.content.decode())  # the cards named are on the waste now


def test_the_last_single_card_of_a_draw_three_stock_is_named_alone(
    pages: PageClient, player: Any
) -> None:
    game = game_start(player=player, seed="7")
    for n in range(11):
        move_play(game_id=game.id, player=player, move="draw", expected_move_number=n)
    resp = post(pages, game, "move", 11, move="draw")
    assert said(resp) == "Drew the king of spades to the waste."


def test_undo_names_the_move_it_took_back(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="7")
    post(pages, game, "move", 0, move="KH>t2")
    resp = post(pages, game, "undo", 1)
    assert resp.status_code == 200
    assert said(resp) == "Took back moving the king of hearts to pile 2."
    # 9C home empties pile 4, which the reserve's 5C fills (RULES.md 3.7); both go back.
    post(pages, game, "move", 0, move="9C>f")
    fr = post(pages, game, "undo", 1, lang="fr")
    assert said(fr) == f"Coup annulé{NNBSP}: le neuf de trèfle sur sa fondation."
    back = Game.objects.get(id=game.id).engine_state().to_dict()
    assert back == new_game("classic", seed="7").to_dict()  # 5C back on the reserve
    # Without htmx (no script) the words come after the redirect, among the messages.
    post(pages, game, "move", 0, move="KH>t2")
    plain = pages.post(f"/play/{game.id}/undo", {"expected_move_number": 1}, follow=True)
    assert "Took back moving the king of hearts to pile 2." in unescape(plain.content.decode())


def test_undoing_a_draw_or_a_redeal_names_no_card(pages: PageClient, player: Any) -> None:
    """The cards a draw turned go back face down into the stock, whose order is hidden
    (RULES.md 7): the answer does not name them."""
    game = game_start(player=player, seed="7")
    post(pages, game, "move", 0, move="draw")
    resp = post(pages, game, "undo", 1)
    assert said(resp) == "Took back the draw."
    html = resp.content.decode()
    assert_hides(game.id, html)  # 7H, 5D and JS are stock cards again
    for name in ("seven of hearts", "five of diamonds", "jack of spades"):
        assert name not in html.lower()
    assert said(post(pages, game, "undo", 0)) == "Refused: There is nothing to take back."
    for n in range(12):
        move_play(game_id=game.id, player=player, move="draw", expected_move_number=n)
    move_play(game_id=game.id, player=player, move="redeal", expected_move_number=12)
    redeal = post(pages, game, "undo", 13, lang="de")
    assert said(redeal) == "Neugeben zurückgenommen."
    assert_hides(game.id, redeal.content.decode())
    assert said(post(pages, game, "undo", 12)) == "Took back the draw."


@pytest.mark.parametrize(
    ("lang", "moved", "filled", "undone", "redealt"),
    [
        (
            "en",
            "The ten of clubs to pile 1.",
            "The king of hearts to pile 2; the five of clubs from the reserve fills pile 1.",
            "Took back moving the king of hearts to pile 2.",
            "Redealt: the waste is turned over as the new stock.",
        ),
        (
            "fr",
            "Le dix de trèfle sur la colonne 1.",
            f"Le roi de cœur sur la colonne 2{NNBSP}; le cinq de trèfle, de la réserve, "
            "remplit la colonne 1.",
            f"Coup annulé{NNBSP}: le roi de cœur sur la colonne 2.",
            f"Redonne{NNBSP}: la défausse, retournée, devient le nouveau talon.",
        ),
        (
            "es",
            "El diez de tréboles a la columna 1.",
            "El rey de corazones a la columna 2; el cinco de tréboles, de la reserva, ocupa "
            "la columna 1.",
            "Jugada deshecha: el rey de corazones a la columna 2.",
            "Redistribuido: el descarte, vuelto del revés, es el nuevo mazo.",
        ),
        (
            "de",
            "Die Kreuz-Zehn auf Stapel 1.",
            "Der Herz-König auf Stapel 2; die Kreuz-Fünf aus der Reserve füllt Stapel 1.",
            "Den Herz-König von Stapel 2 zurückgenommen.",
            "Neu gegeben: Der Abwurf wird als neuer Talon umgedreht.",
        ),
    ],
)
def test_every_message_of_the_board_is_a_sentence(
    pages: PageClient, player: Any, lang: str, moved: str, filled: str, undone: str, redealt: str
) -> None:
    """A played move said "king of hearts to pile 2; the reserve's five of clubs fills
    pile 1" (lower case, no full stop) beside "Drew the seven of hearts to the waste."
    and "Refused: Ace of clubs cannot go on ...": every message of the board is now a
    sentence, in every language; Undo names the card with the move ("Took back moving
    the king of hearts to pile 2.", was "Took back king of hearts to pile 2."), and a
    redeal says what it did (was "redeal")."""
    reserve_move = game_start(player=player, seed="8")  # the reserve's ten of clubs to pile 1
    assert reserve_move.state["reserve"][-1] == "TC"
    assert said(post(pages, reserve_move, "move", 0, move="TC>t1", lang=lang)) == moved
    game = game_start(player=player, seed="7")
    # King of hearts (pile 1) onto the ace of clubs (pile 2): the reserve's five of clubs
    # fills pile 1 (RULES.md 3.7).
    assert said(post(pages, game, "move", 0, move="KH>t2", lang=lang)) == filled
    assert said(post(pages, game, "undo", 1, lang=lang)) == undone
    for n in range(12):  # the stock of seed 7, three cards at a time, then empty
        move_play(game_id=game.id, player=player, move="draw", expected_move_number=n)
    redeal = post(pages, game, "move", 12, move="redeal", lang=lang)
    assert said(redeal) == redealt
    assert_hides(game.id, redeal.content.decode())
    # Without htmx (no script) the same sentence comes after the redirect, in the messages.
    post(pages, reserve_move, "undo", 1)
    plain = pages.post(
        f"/play/{reserve_move.id}/move",
        {"move": "TC>t1", "expected_move_number": 0},
        follow=True,
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert f'<div role="status"><ul class="messages"><li>{moved}</li>' in unescape(
        plain.content.decode()
    )


def test_the_moves_of_a_list_stay_fragments(pages: PageClient, player: Any) -> None:
    """Where moves are items of a list (a hint, the replay's "Move 2 of 2: ..."), they keep
    their words as a fragment, each alike: only the board's message is a sentence."""
    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    move_play(game_id=game.id, player=player, move="KH>t2", expected_move_number=1)
    game_end(game_id=game.id, player=player)
    replay = unescape(pages.get(f"/replay/{game.id}/?step=2").content.decode())
    assert "Move 2 of 2: the king of hearts to pile 2</p>" in replay
    first = unescape(pages.get(f"/replay/{game.id}/?step=1").content.decode())
    assert "Move 1 of 2: draw from the stock</p>" in first


@pytest.mark.parametrize(
    ("lang", "label"),
    [
        ("en", "Last card home (seconds after the start)"),
        ("fr", "Dernière carte posée (secondes après le départ)"),
        ("es", "Última carta a la fundación (segundos desde el inicio)"),
        ("de", "Letzte Karte abgelegt (Sekunden nach dem Start)"),
    ],
)
def test_the_time_of_the_last_card_home_says_what_it_counts(
    pages: PageClient, lang: str, label: str
) -> None:
    race = finished_race(None, Result("ann", 30, 4200), name="Done")
    for url in (f"/races/{race.id}/results", f"/races/{race.id}/", f"/races/{race.id}/live"):
        page = unescape(pages.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
        head = re.search(r'<th scope="col" class="time"( data-short="([^"]*)")?>([^<]*)</th>', page)
        assert head is not None, url
        assert head.group(3) == label, url
        # "(s)" only in the short label a phone's stacked rows use (data-short, beside
        # values in seconds), never in the heading itself.
        assert "(s)" not in page.replace(head.group(0), ""), url


def test_the_pile_headings_of_a_replay_are_headings_not_buttons(
    pages: PageClient, player: Any
) -> None:
    game = game_start(player=player, seed="7")
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    game_end(game_id=game.id, player=player)
    for url in (f"/replay/{game.id}/?step=1", f"/play/{game.id}/"):  # both take no moves
        page = pages.get(url).content.decode()
        headings = re.findall(
            r'<h3 class="pilehead">Pile (\d) '
            r'<span class="pilecount">\(\d&nbsp;cards?\)</span></h3>',
            page,
        )
        assert headings == ["1", "2", "3", "4"], url
        assert "pilebtn" not in page, url
    rule = re.search(r"\.pilehead \{([^}]*)\}", APP_CSS.read_text())
    assert rule is not None
    assert "background" not in rule.group(1)
    assert "border-radius" not in rule.group(1)
    playing = game_start(player=player, seed="8")
    page = pages.get(f"/play/{playing.id}/").content.decode()
    assert page.count('<button type="button" class="pilebtn"') == 4  # a live board's piles


def test_a_refusal_is_a_sentence_in_every_language(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="7")
    for lang, refused in {
        "en": "Refused: The ace of clubs cannot go on the nine of clubs, only on a red two.",
        "fr": f"Refusé{NNBSP}: l\u2019as de trèfle ne va pas sur le neuf de trèfle, seulement "
        "sur un deux rouge.",
        "es": "Rechazado: el as de tréboles no va sobre el nueve de tréboles, solo sobre un "
        "dos rojo.",
        "de": "Abgelehnt: Das Kreuz-Ass passt nicht auf die Kreuz-Neun, nur auf eine rote Zwei.",
    }.items():
        resp = post(pages, game, "move", 0, move="AC>t4", lang=lang)
        assert said(resp) == refused, lang


def test_a_refusal_with_no_template_is_a_sentence_too() -> None:
    """The API's English ``detail`` (a refusal no template words yet) has no capital and
    no full stop; the page shows it as a sentence.  The API's problem body is not
    changed: its ``detail`` stays the engine's text."""
    from web.refusals import sentence

    assert refusal_words(ServiceError("stock is empty: redeal first")) == (
        "Stock is empty: redeal first."
    )
    assert refusal_words(IllegalMove("x").because("build_colour", {"card": "AC"})) == "X."
    assert sentence("Is it?") == "Is it?"
    assert sentence("wait\u2026") == "Wait\u2026"
    assert sentence("  ") == ""
