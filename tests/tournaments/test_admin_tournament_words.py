# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""Words of a tournament's admin pages seen in an organiser session.

- The tournament list capitalised its status ("Open", as Django shows a choice's label)
  but not its scoring or entry ("points by place", "open to every player"): every
  choice's label is capitalised now, as the statuses, race modes and rating statuses are,
  in the columns, the filters and the form's lists.
- A tournament's entrants were headed "Tournament entrants" ("Participants aux
  tournois"), the model's name, as if every tournament's were listed: "Entrants".
- A tournament without standings yet (a draft, or one whose races are not finished)
  showed a table of headers only: a note says there are none yet, and why."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.models import Tournament
from tests.games.test_admin_language import get, text_of
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db

#: Each language's words in the list: a status, then (for each tournament) its scoring
#: and its entry.
LIST_WORDS = {
    "en": (
        "Open",
        "Points by place",
        "Open to every player",
        "Cards home plus win bonus",
        "Invited players only",
    ),
    "fr": (
        "Ouvert",
        "Points par place",
        "Ouvert à tous les joueurs",
        "Cartes posées plus bonus de victoire",
        "Réservé aux joueurs invités",
    ),
    "es": (
        "Abierto",
        "Puntos por puesto",
        "Abierto a todos los jugadores",
        "Cartas en fundaciones más bonificación por victoria",
        "Solo jugadores invitados",
    ),
    "de": (
        "Offen",
        "Punkte nach Platz",
        "Offen für alle Spieler",
        "Abgelegte Karten plus Siegbonus",
        "Nur für eingeladene Spieler",
    ),
}


def _cells(page: str, column: str) -> list[str]:
    return [text_of(c) for c in re.findall(rf'class="field-{column}[^"]*">(.*?)</td>', page, re.S)]


@pytest.mark.parametrize("language", list(LIST_WORDS))
def test_the_list_capitalises_scoring_and_entry_as_status(language: str) -> None:
    TournamentFactory(name="Place Cup")
    TournamentFactory(
        name="Cards Cup",
        scoring=Tournament.Scoring.CARDS_HOME,
        entry=Tournament.Entry.INVITE,
    )
    status, place, open_entry, cards, invite = LIST_WORDS[language]
    page, _ = get(client_for(organiser()), reverse("admin:games_tournament_changelist"), language)
    assert sorted(_cells(page, "status")) == [status, status]
    assert sorted(_cells(page, "scoring")) == sorted([place, cards])
    assert sorted(_cells(page, "entry")) == sorted([open_entry, invite])
    # The filters say them as the columns do.
    filters = [
        text_of(a) for a in re.findall(r'<li[^>]*>\s*<a href="\?[^"]*">(.*?)</a>', page, re.S)
    ]
    for words in (place, cards, open_entry, invite):
        assert words in filters, words
    for word in _cells(page, "status") + _cells(page, "scoring") + _cells(page, "entry"):
        assert word[0].isupper(), word


def test_the_add_form_lists_the_choices_capitalised() -> None:
    page, _ = get(client_for(organiser()), reverse("admin:games_tournament_add"), "en")
    options = re.findall(r'<option value="(\w+)"[^>]*>([^<]*)</option>', page)
    for value, words in [
        ("draft", "Draft"),
        ("open", "Open"),
        ("place_points", "Points by place"),
        ("cards_home", "Cards home plus win bonus"),
        ("invite", "Invited players only"),
    ]:
        assert (value, words) in options
    assert ("open", "Open to every player") in options


#: The entrants' heading on a tournament's page, by language.
ENTRANTS = {"en": "Entrants", "fr": "Participants", "es": "Participantes", "de": "Teilnehmer"}


@pytest.mark.parametrize("language", list(ENTRANTS))
def test_the_entrants_are_headed_as_this_tournaments(language: str) -> None:
    t = TournamentFactory(name="Evening Cup")
    page, _ = get(
        client_for(organiser()), reverse("admin:games_tournament_change", args=[t.pk]), language
    )
    heading = re.search(r'<h2 id="entrants-heading" class="inline-heading">(.*?)</h2>', page, re.S)
    assert heading is not None
    assert text_of(heading.group(1)) == ENTRANTS[language]


def _standings(page: str) -> str:
    """The standings' group: from its id to the races' group's opening tag."""
    start = page.index('id="standings-group"')
    return page[start : page.rindex("<div", start, page.index('id="races-group"'))]


#: The note instead of the standings, before any (``yet``) and for a tournament over
#: without any (``none``), in English and French.
NOTES = {
    "en": {
        "yet": "None yet: the standings fill in once a race of this tournament is finished.",
        "none": "None: no race of this tournament finished with an entrant.",
    },
    "fr": {
        "yet": "Pas encore de classement\u202f: il se remplit dès qu\u2019une course du "
        "tournoi est terminée.",
        "none": "Pas de classement\u202f: aucune course du tournoi ne s\u2019est terminée "
        "avec des participants.",
    },
}


@pytest.mark.parametrize("language", list(NOTES))
@pytest.mark.parametrize(
    ("status", "note"),
    [
        (Tournament.Status.DRAFT, "yet"),
        (Tournament.Status.OPEN, "yet"),
        (Tournament.Status.CANCELLED, "none"),
    ],
)
def test_standings_without_rows_say_so(status: str, note: str, language: str) -> None:
    t = TournamentFactory(name="Evening Cup", status=status)
    if status == Tournament.Status.OPEN:  # running: a race under way, none finished
        play(running_race(t, name="R1"), Result("ann", 20, 3000))
    page, _ = get(
        client_for(organiser()), reverse("admin:games_tournament_change", args=[t.pk]), language
    )
    standings = _standings(page)
    assert "<table" not in standings
    assert text_of(standings).endswith(NOTES[language][note]), text_of(standings)
    # The (empty) formset's management form is still posted with the page.
    assert 'name="standings-TOTAL_FORMS" value="0"' in standings


def test_standings_with_rows_are_a_table_without_the_note() -> None:
    t = TournamentFactory(name="Evening Cup")
    finished_race(t, Result("ann", 30, 4000), Result("bob", 12, 2500), name="R1")
    page, _ = get(
        client_for(organiser()), reverse("admin:games_tournament_change", args=[t.pk]), "en"
    )
    standings = _standings(page)
    assert "<table" in standings
    assert "None yet" not in standings
    assert [
        text_of(c) for c in re.findall(r'class="field-player">(.*?)</td>', standings, re.S)
    ] == [
        "ann",
        "bob",
    ]
