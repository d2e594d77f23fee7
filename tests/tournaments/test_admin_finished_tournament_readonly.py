# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""A finished or cancelled tournament's change page shows its scheme, entry rules and
entrants read only (``tournament_update``, ``tournament_admit`` and
``tournament_entrant_remove`` refuse to change them: its standings are published), and
keeps its name and description editable; a POST of other values changes none of them."""

from __future__ import annotations

import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Tournament
from games.services.tournaments import tournament_admit
from tests.factories import UserFactory
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser, tournament_post

pytestmark = pytest.mark.django_db

RULES = ("scoring", "points_table", "points_per_card", "win_bonus", "entry", "max_entrants")


def _over(status: str) -> Tournament:
    t = TournamentFactory(
        name="Old Cup",
        description="long ago",
        points_table=[10, 8, 6],
        points_per_card=2,
        win_bonus=5,
        max_entrants=4,
    )
    tournament_admit(tournament_id=t.pk, player=UserFactory(username="ann"))
    Tournament.objects.filter(pk=t.pk).update(status=status)
    return Tournament.objects.get(pk=t.pk)


def _inputs(page: str) -> set[str]:
    """The names of the form's inputs, selects and text areas."""
    return set(re.findall(r'<(?:input|select|textarea)[^>]*\sname="([^"]+)"', page))


def _rules(t: Tournament) -> tuple[object, ...]:
    t.refresh_from_db()
    return tuple(getattr(t, f) for f in RULES)


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_an_over_tournaments_rules_and_entrants_are_read_only(status: str) -> None:
    t = _over(status)
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]))
        .content.decode()
    )
    names = _inputs(page)
    assert {"name", "description", "_save", "_continue"} <= names
    assert not names & set(RULES)
    # The entrant rows keep only Django's hidden keys: no player to change, none to delete.
    assert {n for n in names if n.startswith("entrants-0-")} == {
        "entrants-0-id",
        "entrants-0-tournament",
    }
    assert '<div class="readonly">[10, 8, 6]</div>' in page
    assert '<div class="readonly">4</div>' in page
    assert "ann" in page  # the entrant, shown
    assert 'id="entrants-empty"' not in page  # no row to add one


def test_an_open_tournaments_rules_and_entrants_stay_editable() -> None:
    t = TournamentFactory(name="New Cup")
    tournament_admit(tournament_id=t.pk, player=UserFactory(username="ann"))
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]))
        .content.decode()
    )
    names = _inputs(page)
    assert set(RULES) <= names
    assert {"entrants-0-DELETE", "entrants-__prefix__-player"} <= names


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_saving_an_over_tournament_changes_its_name_and_nothing_of_its_rules(
    status: str,
) -> None:
    t = _over(status)
    rules = _rules(t)
    bob = UserFactory(username="bob")
    data = tournament_post(
        name="Old Cup (2025)",
        description="renamed",
        scoring="cards_home",
        points_table="[1]",
        points_per_card=9,
        win_bonus=99,
        entry="invite",
        max_entrants=1,
        **{
            "entrants-TOTAL_FORMS": 1,
            "entrants-INITIAL_FORMS": 0,
            "entrants-0-player": bob.username,
        },
    )
    del data["status"]
    resp = client_for(organiser()).post(reverse("admin:games_tournament_change", args=[t.pk]), data)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    said = [(m.level_tag, str(m)) for m in get_messages(resp.wsgi_request)]
    assert [level for level, _ in said] == ["success"]
    assert _rules(t) == rules
    assert (t.name, t.description, t.status) == ("Old Cup (2025)", "renamed", status)
    assert [e.player.username for e in t.entrants.all()] == ["ann"]


def _rows(page: str) -> dict[str, str]:
    """Each form row of the tournament's fieldsets by field name: its HTML."""
    return {
        m.group(1): m.group(0)
        for m in re.finditer(
            r'<div class="form-row[^"]*field-(\w+)".*?(?=<div class="form-row|</fieldset>)',
            page,
            re.S,
        )
    }


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_an_over_tournaments_page_offers_no_add_another_and_no_typing_help(status: str) -> None:
    """It offered "Save and add another" and, under the read-only rules, how to type
    them ("(e.g. [10, 8, 6, 5, 4, 3, 2, 1])", "(empty: no limit)"), which nobody can."""
    t = _over(status)
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]))
        .content.decode()
    )
    names = _inputs(page)
    assert {"_save", "_continue"} <= names  # the name and description still change
    assert "_addanother" not in names
    rows = _rows(page)
    assert {"points_table", "max_entrants", "scoring", "entry"} <= set(rows)
    assert {name for name, row in rows.items() if 'class="help"' in row} == set()
    assert "e.g. [10, 8, 6" not in page
    assert "empty: no limit" not in page


def test_an_over_tournament_without_an_entrant_limit_says_so() -> None:
    t = _over(Tournament.Status.FINISHED)
    Tournament.objects.filter(pk=t.pk).update(max_entrants=None)
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="fr")
        .content.decode()
    )
    row = _rows(page)["max_entrants"]
    assert '<div class="readonly">-</div>' in row
    assert re.findall(r'<div class="help"[^>]*>\s*<div>(.*?)</div>', row) == ["pas de limite"]


def test_an_open_tournaments_page_keeps_add_another_and_its_help() -> None:
    t = TournamentFactory(name="New Cup")
    page = (
        client_for(organiser())
        .get(reverse("admin:games_tournament_change", args=[t.pk]))
        .content.decode()
    )
    assert {"_save", "_continue", "_addanother"} <= _inputs(page)
    assert "(empty: no limit)" in _rows(page)["max_entrants"]


@pytest.mark.parametrize("status", [Tournament.Status.FINISHED, Tournament.Status.CANCELLED])
def test_an_over_tournament_with_races_offers_no_delete(status: str) -> None:
    """ "Delete" led to a page saying the tournament is kept with its races: nothing can
    delete it (nor cancel it).  One without races may still be deleted."""
    from tests.tournaments.factories import Result, finished_race

    kept = TournamentFactory(name="Kept")
    finished_race(kept, Result("ann", 20, 4000), name="R1")
    Tournament.objects.filter(pk=kept.pk).update(status=status)
    empty = TournamentFactory(name="Empty")
    Tournament.objects.filter(pk=empty.pk).update(status=status)
    live = TournamentFactory(name="Live")
    finished_race(live, Result("ann", 20, 4000), name="L1")
    client = client_for(organiser())
    for t, offered in ((kept, False), (empty, True), (live, True)):
        page = client.get(reverse("admin:games_tournament_change", args=[t.pk])).content.decode()
        delete = reverse("admin:games_tournament_delete", args=[t.pk])
        assert (f'href="{delete}"' in page) is offered, t.name
    # Its address still says why it is kept.
    page = client.get(reverse("admin:games_tournament_delete", args=[kept.pk])).content.decode()
    assert "a finished or cancelled tournament is not deleted" in page
