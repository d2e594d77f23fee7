"""The tournament page states its scoring and standings rules in the reader's language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.models import Race, Tournament
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "scoring", "standings"),
    [
        ("en", "the places of a race earn 10, 8, 6, 5, 4, 3, 2, 1 points", "Ordered by points"),
        ("fr", "rapportent 10, 8, 6, 5, 4, 3, 2, 1 points", "Par points, puis victoires"),
        (
            "de",
            "bringen der Reihe nach 10, 8, 6, 5, 4, 3, 2, 1 Punkte",
            "Nach Punkten, dann Siegen",
        ),
    ],
)
def test_place_points_rule_in_words(language: str, scoring: str, standings: str) -> None:
    t: Any = TournamentFactory(points_table=[])  # type: ignore[no-untyped-call]
    html = Client().get(f"/tournaments/{t.id}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert scoring in html.replace("\u2019", "'")
    assert standings in html
    assert "points_table" not in html


def test_cards_bonus_rule_in_words() -> None:
    t: Any = TournamentFactory(  # type: ignore[no-untyped-call]
        scoring=Tournament.Scoring.CARDS_HOME, points_per_card=2, win_bonus=30
    )
    html = Client().get(f"/tournaments/{t.id}/").content.decode()
    assert "2 points per card home, plus 30 points for a won game." in html


def test_the_tournament_page_lists_its_races_as_the_lobby_does(pages: Any, player: Any) -> None:
    """A walkthrough found races open for joining listed as "Upcoming" with no Join
    button on the tournament page, while the lobby offered one: the page now has the
    lobby's rows (Join while joining is open, then "joined", Play once running)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.races import race_create, race_join
    from tests.tournaments.factories import running_race

    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    now = timezone.now()

    def heat(name: str, opens: timedelta, starts: timedelta) -> None:
        race = race_create(
            name=name,
            opens_at=now + opens,
            starts_at=now + starts,
            ends_at=now + starts + timedelta(minutes=30),
            late_join_s=None,
        )
        Race.objects.filter(id=race.id).update(tournament=t)

    heat("Heat A", timedelta(minutes=-1), timedelta(minutes=5))
    heat("Heat B", timedelta(hours=1), timedelta(hours=2))
    live = running_race(t, name="Heat C")
    html = pages.get(f"/tournaments/{t.id}/").content.decode()
    sections = {
        h: html.index(f"<h3>{h}</h3>") for h in ("Running", "Open for joining", "Upcoming", "Past")
    }
    assert sections["Running"] < html.index("Heat C") < sections["Open for joining"]
    assert sections["Open for joining"] < html.index("Heat A") < sections["Upcoming"]
    assert sections["Upcoming"] < html.index("Heat B") < sections["Past"]
    assert "Join Heat A" in html
    assert "Join Heat C" in html
    assert "Join Heat B" not in html  # joining opens in an hour
    race_join(race_id=live.id, player=player)
    html = pages.get(f"/tournaments/{t.id}/").content.decode()
    assert "Join Heat C" not in html
    assert ">Play</a>" in html


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_a_finished_tournaments_races_take_no_entrants(
    pages: Any, player: Any, status: str
) -> None:
    """An attack: an entrant admitted earlier joined a race of a finished tournament from
    its page, and the race's close changed the final standings (10 points became 20)."""
    from games.services.errors import TournamentNotOpen
    from games.services.races import race_join
    from games.services.standings import tournament_admit
    from tests.tournaments.factories import running_race

    t: Any = TournamentFactory(status=Tournament.Status.OPEN)  # type: ignore[no-untyped-call]
    tournament_admit(tournament_id=t.id, player=player)
    race = running_race(t, name="Late heat")
    Tournament.objects.filter(id=t.id).update(status=status)
    html = pages.get(f"/tournaments/{t.id}/").content.decode()
    assert "Join Late heat" not in html
    assert "joining closed" in html
    with pytest.raises(TournamentNotOpen, match=f"the tournament is {status}"):
        race_join(race_id=race.id, player=player)
    resp = pages.post(f"/races/{race.id}/join", {})
    assert resp.status_code in (302, 409)
    assert not race.entries.exists()
