"""Hidden information through the pages (RULES.md 7): whole games on every preset are
played through the play page (board fragments, full pages, refusals, undo, resign), and
every HTML response is scanned for face-down reserve cards and stock cards, written as
codes ("QH") or as names ("queen of hearts"); race pages never carry a running race's seed.
"""

from __future__ import annotations

import html as html_lib
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.engine import PRESETS
from games.models import Game
from games.services.races import race_create, race_join
from tests.factories import make_user
from tests.web.conftest import PageClient
from web.board import card_label

pytestmark = pytest.mark.django_db

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK]|10)[CDHS](?![A-Za-z0-9])")
# Refusals that name a card the player did not send name one that public information
# determines (the next card of a foundation; the card one above under same-suit building).
NEEDS = re.compile(r"it needs ([A2-9TJQK][CDHS]) next")
NEEDS_SAME_SUIT = re.compile(r"needs the ([A2-9TJQK][CDHS])")
# The same on the pages, in words (web.refusals): "it needs the eight of hearts next",
# "only on the seven of spades".
NEEDS_WORDS = re.compile(r"it needs the [a-z]+ of [a-z]+ next")
NEEDS_SAME_SUIT_WORDS = re.compile(r"only on the [a-z]+ of [a-z]+")
RANKS = "A23456789TJQK"
# The fixed notation example of the "type a move" form: the same whatever the deal.
# (and of the engine's notation errors).
EXAMPLES = re.compile(r"(for example|such as|write one as) QH(&gt;|>)t2(,| or) 5S(&gt;|>)f")


def hidden_cards(game_id: Any) -> set[str]:
    """Face-down reserve cards and stock cards in the stored snapshot right now."""
    state = Game.objects.get(id=game_id).state
    reserve = list(state["reserve"])
    face_down = [] if state["rules"]["reserve_face_up"] else reserve[:-1]
    return set(face_down) | set(state["stock"])


def assert_hides(game_id: Any, html: str, *, seed: str | None = None) -> None:
    """No hidden card of the game (code or English name) and no secret seed in ``html``."""
    hidden = hidden_cards(game_id)
    scrubbed = NEEDS_SAME_SUIT.sub("needs the <card>", NEEDS.sub("it needs <next> next", html))
    scrubbed = EXAMPLES.sub("for example <examples>", scrubbed)
    scrubbed = NEEDS_WORDS.sub("it needs <next> next", scrubbed)
    scrubbed = NEEDS_SAME_SUIT_WORDS.sub("only on <card>", scrubbed)
    leaked = set(CARD.findall(scrubbed)) & hidden
    assert not leaked, [
        scrubbed[max(0, m.start() - 80) : m.end() + 40]
        for m in CARD.finditer(scrubbed)
        if m.group(0) in leaked
    ]
    # In any case: a refusal's first word is a capital ("Queen of hearts cannot go ...").
    names = {card_label(c).lower() for c in hidden}
    lowered = scrubbed.lower()
    assert not [n for n in names if n in lowered]
    if seed is not None:
        assert seed not in html


def legal_of(html: str) -> list[str]:
    match = re.search(r'data-legal="([^"]*)"', html)
    return html_lib.unescape(match.group(1)).split() if match else []


def number_of(html: str) -> int:
    match = re.search(r'data-move-number="(\d+)"', html)
    assert match, "no board"
    return int(match.group(1))


def pick(legal: list[str], rng: random.Random) -> str:
    """Foundation moves first, then tableau and reserve moves, then draw/redeal."""
    home = [m for m in legal if m.endswith(">f")]
    if home:
        return home[0]
    others = [m for m in legal if ">" in m]
    if others and rng.random() < 0.6:
        return rng.choice(others)
    return "draw" if "draw" in legal else rng.choice(legal)


@pytest.mark.parametrize("variant", sorted(PRESETS))
def test_whole_games_on_every_preset_hide_the_stock_and_reserve(variant: str) -> None:
    player = make_user(username=f"p-{variant}")
    pages = PageClient(player)
    pages.get("/")
    start = pages.post("/practice", {"variant": variant, "seed": f"web-{variant}"})
    game = Game.objects.get(player=player)
    assert start["Location"] == f"/play/{game.id}/"
    html = pages.get(start["Location"]).content.decode()
    assert_hides(game.id, html)
    rng = random.Random(variant)  # noqa: S311 - deterministic test moves
    checked = 1
    homes = 1
    for i in range(400):
        legal = legal_of(html)
        if not legal:
            break
        mv = pick(legal, rng)
        html = pages.post(
            f"/play/{game.id}/move",
            {"move": mv, "expected_move_number": number_of(html)},
            htmx=True,
        ).content.decode()
        assert_hides(game.id, html)
        checked += 1
        if i % 25 == 0:
            # Refusals, the page itself, the fragment, an undo: all scanned too.
            # Refused moves of cards the player sees (a hidden card the player names
            # would be echoed back, which tells them nothing), and a malformed one.
            seen = re.findall(r'data-card="([^"]+)"', html)[:3]
            for bad in [f"{c}>t{n % 4 + 1}" for n, c in enumerate(seen)] + ["zz"]:
                refused = pages.post(
                    f"/play/{game.id}/move",
                    {"move": bad, "expected_move_number": number_of(html)},
                    htmx=True,
                ).content.decode()
                assert_hides(game.id, refused)
            assert_hides(game.id, pages.get(f"/play/{game.id}/").content.decode())
            assert_hides(game.id, pages.get(f"/play/{game.id}/board").content.decode())
            undone = pages.post(
                f"/play/{game.id}/undo", {"expected_move_number": number_of(html)}, htmx=True
            ).content.decode()
            assert_hides(game.id, undone)
            html = undone
            checked += 7
        homes = Game.objects.get(id=game.id).cards_home
    final = Game.objects.get(id=game.id)
    # Whole games: played until the engine says it is over, or 400 moves.
    assert final.status in ("won", "blocked") or final.move_number >= 300, final.status
    assert checked > 20
    # The deals were played for real: cards reached the foundations (these seeds
    # give at least two beyond the dealt base card with this strategy).
    assert homes >= 3, homes
    if Game.objects.get(id=game.id).status == "playing":
        resigned = pages.post(f"/play/{game.id}/resign", {"confirmed": "1"}, htmx=True)
        assert "You resigned: " in resigned.content.decode()


def test_race_pages_never_carry_the_running_race_seed() -> None:
    now = timezone.now()
    race = race_create(
        name="Secret seed race",
        opens_at=now - timedelta(minutes=1),
        starts_at=now - timedelta(seconds=1),
        ends_at=now + timedelta(minutes=30),
        late_join_s=None,  # running already: joining stays open
    )
    seed = race.deal.seed
    assert seed is not None
    player = make_user(username="racer")
    rival = make_user(username="rival")
    race_join(race_id=race.id, player=rival)
    pages = PageClient(player)
    pages.get("/")
    pages.post(f"/races/{race.id}/join", {})
    game = Game.objects.get(player=player)
    html = pages.get(f"/play/{game.id}/").content.decode()
    for _ in range(30):
        legal = legal_of(html)
        html = pages.post(
            f"/play/{game.id}/move",
            {
                "move": pick(legal, random.Random(len(legal))),  # noqa: S311
                "expected_move_number": number_of(html),
            },
            htmx=True,
        ).content.decode()
        assert_hides(game.id, html, seed=seed)
    for url in (
        "/",
        "/lobby/races",
        f"/races/{race.id}/",
        f"/races/{race.id}/live",
        f"/races/{race.id}/results",
        "/players/racer/",
        "/players/rival/",
        f"/play/{game.id}/",
        f"/play/{game.id}/solution",
        f"/replay/{game.id}/",
    ):
        resp = pages.get(url, follow=True)
        assert_hides(game.id, resp.content.decode(), seed=seed)
    assert pages.get(f"/replay/{game.id}/").status_code == 404
    assert pages.get(f"/play/{game.id}/solution").status_code == 403
