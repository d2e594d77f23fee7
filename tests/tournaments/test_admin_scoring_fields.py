# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The tournament form takes only the chosen scoring scheme's fields: a new organiser saw
"Points per card" and "Win bonus" beside "points by place".  A script hides the other
scheme's rows; the server ignores them (their stored values stay, whatever was typed)
and says which changed ones were not saved."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Tournament
from tests.tournaments.factories import TournamentFactory
from tests.tournaments.test_admin import client_for, organiser, tournament_post

pytestmark = pytest.mark.django_db

#: French's narrow no-break space before ":" (as the catalogue writes it).
N = "\u202f"


def messages_of(resp: Any) -> list[str]:
    return [str(m) for m in get_messages(resp.wsgi_request)]


def test_points_by_place_ignores_points_per_card_and_win_bonus_and_says_so() -> None:
    """Text that is no number in a field the scheme does not use is no error either."""
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_add"),
        tournament_post(name="Place Cup", points_per_card="lots", win_bonus="7"),
    )
    assert resp.status_code == 302
    t = Tournament.objects.get(name="Place Cup")
    assert (t.scoring, t.points_table) == ("place_points", [10, 6, 3])
    assert (t.points_per_card, t.win_bonus) == (1, 20)  # the model's defaults
    assert messages_of(resp)[0] == (
        "The “Points by place” scheme does not use “Points per card”, “Win bonus”: the "
        "values typed were not saved."
    )


def test_fields_left_as_they_were_are_ignored_without_a_word() -> None:
    c = client_for(organiser())
    resp = c.post(reverse("admin:games_tournament_add"), tournament_post(name="Quiet Cup"))
    assert resp.status_code == 302
    assert not any("not saved" in m for m in messages_of(resp))


def test_cards_home_keeps_the_stored_points_table_whatever_is_typed() -> None:
    """A points table that is no list (``5``) under the cards home scheme was a 500
    (the scheme stored ``list(5)``); now the scheme does not read it."""
    t: Tournament = TournamentFactory(name="Cards Cup", points_table=[5, 3, 1])
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_change", args=[t.pk]),
        tournament_post(
            name="Cards Cup",
            scoring="cards_home",
            points_table="5",
            points_per_card=2,
            win_bonus=50,
        ),
        HTTP_ACCEPT_LANGUAGE="fr",
    )
    assert resp.status_code == 302
    t.refresh_from_db()
    assert (t.scoring, t.points_per_card, t.win_bonus) == ("cards_home", 2, 50)
    assert t.points_table == [5, 3, 1]
    assert messages_of(resp)[0] == (
        f"Le décompte «{N}Cartes posées plus bonus de victoire{N}» n\u2019utilise pas "
        f"«{N}Barème de points{N}»{N}: la valeur saisie n\u2019a pas été enregistrée."
    )


def test_switching_scheme_keeps_the_other_schemes_values() -> None:
    t: Tournament = TournamentFactory(
        name="Switch Cup", scoring="cards_home", points_per_card=3, win_bonus=40, points_table=[]
    )
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_change", args=[t.pk]),
        tournament_post(
            name="Switch Cup", points_table="[6, 4, 2]", points_per_card=3, win_bonus=40
        ),
    )
    assert resp.status_code == 302
    t.refresh_from_db()
    assert (t.scoring, t.points_table, t.points_per_card, t.win_bonus) == (
        "place_points",
        [6, 4, 2],
        3,
        40,
    )
    assert not any("not saved" in m for m in messages_of(resp))


def test_the_schemes_own_fields_are_still_checked() -> None:
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_add"),
        tournament_post(name="Bad Cup", scoring="cards_home", points_per_card="lots"),
    )
    assert resp.status_code == 200
    assert list(resp.context["adminform"].form.errors) == ["points_per_card"]
    assert not Tournament.objects.filter(name="Bad Cup").exists()


def test_an_unknown_scheme_checks_every_field() -> None:
    c = client_for(organiser())
    resp = c.post(
        reverse("admin:games_tournament_add"),
        tournament_post(name="Odd Cup", scoring="golf", win_bonus="lots"),
    )
    assert resp.status_code == 200
    assert set(resp.context["adminform"].form.errors) == {"scoring", "win_bonus"}


def test_the_form_marks_each_schemes_fields_for_its_script() -> None:
    c = client_for(organiser())
    html = c.get(reverse("admin:games_tournament_add")).content.decode()
    assert re.search(r'<textarea name="points_table"[^>]*data-scheme="place_points"', html)
    for name in ("points_per_card", "win_bonus"):
        assert re.search(rf'<input[^>]*name="{name}"[^>]*data-scheme="cards_home"', html) or (
            re.search(rf'<input[^>]*data-scheme="cards_home"[^>]*name="{name}"', html)
        ), name
    assert '<script src="/static/games/admin/tournament_scoring.js"></script>' in html
