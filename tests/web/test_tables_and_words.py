"""What a new user's walkthrough saw: a blank Status for a tournament race not started
yet, "Pile 1 (1 / card)" split on a phone, "Arc-/en-ciel" broken at its hyphen, and the
race page's standings squeezed into half the page (the browser measures are in
tests/browser/test_web_tables_fit.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from games.services.games import game_start
from games.services.races import race_create, race_join
from tests.tournaments.factories import TournamentFactory, running_race

pytestmark = pytest.mark.django_db


def _logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("language", "upcoming", "running"),
    [
        ("en", "upcoming", "running"),
        ("fr", "à venir", "en cours"),
        ("es", "próxima", "en curso"),
        ("de", "demnächst", "läuft"),
    ],
)
def test_my_tournament_says_a_race_is_upcoming_or_running(
    language: str, upcoming: str, running: str
) -> None:
    """The Status cell of a race the player joined but has no game status in was blank:
    it says the race's phase, in the reader's language."""
    alice = User.objects.create_user("alice")
    cup: Any = TournamentFactory()  # type: ignore[no-untyped-call]
    now = timezone.now()
    later = race_create(
        name="Later",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
    )
    later.tournament = cup
    later.save(update_fields=["tournament"])
    race_join(race_id=later.id, player=alice)
    race_join(race_id=running_race(cup, name="Now").id, player=alice)
    html = (
        _logged_in(alice)
        .get(f"/tournaments/{cup.id}/", HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    mine = html.split('id="tm-h"')[1]
    assert re.findall(r'<span data-phase="(\w+)">([^<]*)</span>', mine) == [
        ("running", running),
        ("open", upcoming),
    ]
    assert 'class="standings stack"' in mine


@pytest.mark.parametrize(
    ("language", "one"),
    [("en", "(1&nbsp;card)"), ("fr", "(1&nbsp;carte)"), ("de", "(1&nbsp;Karte)")],
)
def test_a_pile_count_and_the_variant_do_not_break(language: str, one: str) -> None:
    """ "Pile 1 (1 card)" broke between "1" and "card" on a phone, "Arc-en-ciel" at its
    hyphen: the count is joined by a no-break space, the variant never wraps."""
    alice = User.objects.create_user("alice")
    game = game_start(player=alice, variant="classic", seed="12345")
    html = (
        _logged_in(alice).get(f"/play/{game.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    )
    buttons = re.findall(r'<button type="button" class="pilebtn"[^>]*>(.*?)</button>', html)
    assert len(buttons) == 4
    # The count in parentheses is one piece (tests/browser/test_web_phone_pile_count_whole.py).
    assert all(b.endswith(f'<span class="pilecount">{one}</span>') for b in buttons), buttons
    assert re.search(r'<h1>[^<]*<small class="nowrap">', html)


def test_the_race_page_standings_take_the_whole_width() -> None:
    """Both sections of the race page span the grid's columns: the six-column standings
    were squeezed into its left half, scrolling sideways with "resigned" cut."""
    race = running_race(name="Wide")
    html = Client().get(f"/races/{race.id}/").content.decode()
    assert '<section aria-labelledby="live-h" class="wide">' in html
    assert '<section aria-labelledby="about-h" class="wide">' in html
