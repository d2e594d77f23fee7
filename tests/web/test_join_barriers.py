# mypy: disable-error-code="no-untyped-call, arg-type"
"""A Join button only where a join would be taken: not for a race of an invite-only
tournament the viewer was not invited to, nor of a full tournament; the page says why
(games.selectors.races.race_join_barriers, the rules of race_join and tournament_admit)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User

from games.models import Tournament, TournamentEntrant
from games.selectors.races import race_join_barriers
from games.services.races import race_join
from games.services.standings import tournament_admit
from tests.tournaments.factories import TournamentFactory, running_race
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

JOIN_LOBBY = "Join Club night"
JOIN_RACE = "Join the race"


def _race(**tournament: Any) -> Any:
    cup = TournamentFactory(name="Club", **tournament)
    return running_race(cup, name="Club night")


def _pages(pages: PageClient, race: Any) -> tuple[str, str]:
    return (
        pages.get("/").content.decode(),
        pages.get(f"/races/{race.id}/").content.decode(),
    )


def test_no_join_for_a_race_of_an_invite_only_tournament(pages: PageClient, player: Any) -> None:
    race = _race(entry=Tournament.Entry.INVITE)
    lobby, page = _pages(pages, race)
    assert JOIN_LOBBY not in lobby
    assert 'data-join-barrier="invite_only">Invited players only<' in lobby
    assert JOIN_RACE not in page
    assert "Invited players only: this race" in page
    # Invited, the same player is offered the race.
    boss = User.objects.create_user("boss")
    tournament_admit(tournament_id=race.tournament_id, player=player, invited_by=boss)
    lobby, page = _pages(pages, race)
    assert JOIN_LOBBY in lobby
    assert JOIN_RACE in page


def test_no_join_for_a_race_of_a_full_tournament(pages: PageClient, player: Any) -> None:
    race = _race(max_entrants=1)
    race_join(race_id=race.id, player=User.objects.create_user("first"))
    lobby, page = _pages(pages, race)
    assert JOIN_LOBBY not in lobby
    assert 'data-join-barrier="full">Tournament full<' in lobby
    assert JOIN_RACE not in page
    assert "Tournament full: this race" in page


def test_the_french_page_says_why(player: Any) -> None:
    race = _race(entry=Tournament.Entry.INVITE)
    html = PageClient(player).get(f"/races/{race.id}/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Réservé aux joueurs invités\u202f:" in html


def test_barriers_follow_the_join_rules(player: Any) -> None:
    """Each reason is a refusal race_join would give; None is a join it would take."""
    open_race = running_race(None, name="free")
    invite = _race(entry=Tournament.Entry.INVITE)
    full = running_race(TournamentFactory(max_entrants=0), name="full")
    over = running_race(
        TournamentFactory(status=Tournament.Status.FINISHED),
        name="over",
    )
    got = race_join_barriers([open_race, invite, full, over], viewer=player)
    assert got == {open_race.id: None, invite.id: "invite_only", full.id: "full", over.id: "closed"}
    assert TournamentEntrant.objects.count() == 0


def test_an_invitation_redraws_the_join_buttons(pages: PageClient, player: Any) -> None:
    """The lobby's and the race page's polled parts answer 304 while nothing changed;
    an invitation changes them (their ETag reads the tournament's admissions)."""
    race = _race(entry=Tournament.Entry.INVITE)
    urls = ("/lobby/races", f"/races/{race.id}/live")
    tags = {u: pages.get(u)["ETag"] for u in urls}
    for u in urls:
        assert pages.get(u, HTTP_IF_NONE_MATCH=tags[u]).status_code == 304
    boss = User.objects.create_user("boss")
    tournament_admit(tournament_id=race.tournament_id, player=player, invited_by=boss)
    for u in urls:
        again = pages.get(u, HTTP_IF_NONE_MATCH=tags[u])
        assert again.status_code == 200
    assert JOIN_LOBBY in pages.get("/lobby/races").content.decode()
    assert JOIN_RACE in pages.get(f"/races/{race.id}/live").content.decode()
