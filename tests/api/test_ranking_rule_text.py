# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined"
"""The published ranking rule says precisely who is left out (RULES.md 6).

It said "entrants who never started are not ranked", which a scheduled race seems to
contradict: there every game starts with the race, and an entrant who never moved is
ranked (as timed out; how a game ended does not change its place).  Now: disqualified
entries, and a window race's entrants who never started; in a scheduled race, nobody else.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from games.admin.race import RANKING_RULE_WORDS
from games.models import Race
from games.ranking import RANKING_RULE
from games.selectors.ratings import RATING_RULE
from games.services.race_admin import race_close_now
from tests.tournaments.factories import Result, play, running_race

pytestmark = pytest.mark.django_db

LEFT_OUT = (
    "Disqualified entries are not ranked, nor, in a window race, is an entrant who never "
    "started; in a scheduled race every game starts with the race, so every entrant not "
    "disqualified is ranked (one who never moved as timed out)."
)


def test_a_scheduled_race_ranks_its_no_show_and_the_rule_says_so(
    make_client: Callable[..., APIClient],
) -> None:
    race = running_race(name="Scheduled")
    assert race.mode == Race.Mode.SCHEDULED
    play(race, Result("ann", 30, 1000))
    bot = make_client("bot")
    bot.post(reverse("api:race-join", args=[race.id]))  # and never moves
    race_close_now(race_id=race.id)

    results = bot.get(reverse("api:race-results", args=[race.id])).json()

    assert results["ranking_rule"].endswith(LEFT_OUT)
    ranks = {e["player"]: (e["rank"], e["status"]) for e in results["entries"]}
    assert ranks["bot"] == (2, "timed_out")  # ranked, though it never moved


def test_the_rule_texts_name_window_races_in_every_language() -> None:
    assert RANKING_RULE.endswith(LEFT_OUT)
    assert "entrants of a window race who never started" in RATING_RULE
    with translation.override("en"):
        assert str(RANKING_RULE_WORDS) == RANKING_RULE
    words = {
        "fr": "dans une course à fenêtre, un participant qui n\u2019a jamais commencé",
        "es": "en una carrera de ventana, un participante que nunca empezó",
        "de": "in einem Rennen mit Zeitfenster ein Teilnehmer, der nie begonnen hat",
    }
    for language, phrase in words.items():
        with translation.override(language):
            assert phrase in str(RANKING_RULE_WORDS), language


@pytest.mark.parametrize(
    ("language", "phrase"),
    [
        ("en", "and so are entrants of a window race who never started"),
        ("fr", "ainsi que ceux d\u2019une course à fenêtre qui n\u2019ont jamais commencé"),
        ("es", "y también los de una carrera de ventana que nunca empezaron"),
        ("de", "ebenso Teilnehmer eines Rennens mit Zeitfenster, die nie begonnen haben"),
    ],
)
def test_the_rating_rule_on_the_leaderboards_page(language: str, phrase: str) -> None:
    page = Client().get(reverse("web:leaderboards"), HTTP_ACCEPT_LANGUAGE=language)
    assert page.status_code == 200
    assert phrase in page.content.decode().replace("&#x27;", "'")
