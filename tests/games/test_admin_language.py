# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The organisers' admin in the organiser's language (French, Spanish, German).

A walkthrough in French saw Django's own admin in French and every word of this
project's in English: column headers, filters, actions, form labels, help texts and the
"Add races" form.  These tests read the pages as an organiser whose browser asks for
another language, and check that the English words are gone.  The names shown for the
models and fields stay the words Django derives in English, so that no migration is
needed (``games.models._names``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib import admin
from django.core.management import call_command
from django.db import models
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.text import camel_case_to_spaces

from games.admin.race import RANKING_RULE_WORDS
from games.models import Race, Tournament
from games.ranking import RANKING_RULE
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

#: A year always ahead of the clock (a fixed one fails once it has passed).
YEAR = timezone.now().year + 3

#: French puts a narrow no-break space before a colon or a semicolon.
NNBSP = "\u202f"

pytestmark = pytest.mark.django_db


def text_of(page: str) -> str:
    """A page's text as a reader sees it: no scripts, no tags, one space between words
    (the no-break spaces of French typography are kept)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"</?(?:a|b|code|em|i|small|span|strong)\b[^>]*>", "", page)
    return re.sub(r"[ \t\r\n]+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


def get(c: Client, url: str, language: str) -> tuple[str, str]:
    """The page at ``url`` asked for in ``language``: its HTML and its text."""
    resp = c.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 200, url
    page = resp.content.decode()
    assert f'<html lang="{language}"' in page
    return page, text_of(page)


def absent(text: str, english: list[str]) -> list[str]:
    """The English words of ``english`` still on the page, as words (none is wanted)."""
    return [w for w in english if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", text)]


@pytest.fixture
def cup() -> dict[str, Any]:
    """A tournament with a finished race and a running one, each with two entrants."""
    t = TournamentFactory(name="Evening Cup")
    done = finished_race(t, Result("ann", 30, 4000, moves=70), Result("bob", 12, 2500), name="R1")
    live = running_race(t, name="R2")
    play(live, Result("ann", 20, 3000, moves=50))
    play(live, Result("bob", 9, 1000, moves=30))
    return {"tournament": t, "finished": done, "running": live, "client": client_for(organiser())}


def test_the_race_list_in_french(cup: dict[str, Any]) -> None:
    page, text = get(cup["client"], reverse("admin:games_race_changelist"), "fr")
    assert f"Serveur de courses Canfield{NNBSP}: organisateurs" in text
    assert "Accueil \u203a Parties et courses de Canfield \u203a Courses" in text
    headers = re.findall(r'<th scope="col"[^>]*>.*?</th>', page, flags=re.S)
    assert [text_of(h) for h in headers][1:] == [
        "Nom",
        "Tournoi",
        # Two columns that French named alike ("État", "Phase"): what the server has
        # recorded (scheduled until the race is closed) and where the race is by the clock.
        "État enregistré",
        "Phase actuelle",
        # The mode is a filter (below) and on the race's page: with the rules' column
        # the list no longer fitted 1,280 px in French, German and Spanish.
        "Variante",
        "Départ",
        "Fin",
        "Participants",
        "Engagement",
    ]
    for words in ("Par état enregistré", "Par mode", "Par tournoi", "Par départ"):
        assert words in text
    for words in ("Programmée", "En clôture", "Terminée", "Annulée", "Horaire fixe", "Fenêtre"):
        assert f">{words}</a>" in page  # the filters' choices
    assert re.search(r'field-phase_now">En cours<', page)  # the running race
    assert re.search(r'field-phase_now">Terminée<', page)
    actions = re.findall(r"<option value=\"\w+\">([^<]+)</option>", page)
    assert actions == [
        "Ouvrir les inscriptions maintenant",
        "Clore maintenant (fin, temps écoulé, décompte\u202f; demande d\u2019abord)",
        "Annuler la course (demande d\u2019abord)",
        "Recalculer avec la règle de classement actuelle (demande d\u2019abord)",
        "Exporter le classement en CSV",
    ]
    assert (
        absent(
            text,
            [
                "Canfield race server",
                "Canfield games and races",
                "Tournament",
                "Status",
                "Starts",
                "Ends",
                "Entrants",
                "Commitment",
                "By status",
                "Scheduled",
                "Window",
                "Closing",
                "Finished",
                "running",
                "Open joining now",
                "Close now",
                "Cancel",
                "Re-score",
                "Export standings",
            ],
        )
        == []
    )


def test_a_race_page_in_french(cup: dict[str, Any]) -> None:
    race = cup["running"]
    page, text = get(cup["client"], reverse("admin:games_race_change", args=[race.pk]), "fr")
    labels = [text_of(label) for label in re.findall(r"<label[^>]*>.*?</label>", page, re.S)]
    assert labels[:22] == [
        f"{label}\xa0:"  # Django's French label suffix
        for label in (
            "Nom",
            "Tournoi",
            "Mode",
            "État enregistré",
            "Phase actuelle",
            "Variante",
            "Ouverture des inscriptions",
            "Départ",
            "Fin",
            "Temps imparti (secondes)",
            "Inscription tardive (secondes)",
            "Annulation de coups autorisée",
            "Donne gagnable exigée",
            "Cotée",
            "Engagement",
            "Graine",
            "Auteur",
            "Création",
            "Clôture",
            "Dernier décompte",
            "Export (CSV)",
            "Classement (en direct jusqu\u2019à la fin)",
        )
    ]
    for words in (
        "le tournoi pour lequel cette course compte (un au plus)",
        f"combien de temps chaque participant peut jouer{NNBSP}: dans une course en fenêtre, "
        f"à partir de son propre départ{NNBSP}; à horaire fixe, du départ à la fin",
        "compte pour les cotes des joueurs (les organisateurs peuvent marquer une course non "
        "cotée)",
        "cachée jusqu\u2019à ce que la course soit terminée ou annulée",  # the seed
        f"Classement (en direct{NNBSP}; la graine est ajoutée une fois la course terminée ou "
        "annulée)",
        "rang joueur cartes posées coups temps état",  # the live standings' header
        "1 ann 20 50 3,000\xa0s En cours",
        "Participations aux courses",
        "ann dans R2",
    ):
        assert words in text, words
    assert re.search(r'class="readonly">Horaire fixe<', page)
    assert re.search(r'class="readonly">Programmée<', page)
    assert re.search(r'class="readonly">En cours<', page)
    inline = text[text.index("Participations aux courses") :]
    assert inline.startswith(
        "Participations aux courses Joueur Rang État Cartes posées Coups Temps "
        "Partie gagnée Disqualifiée Motif de disqualification"
    )
    assert "1 (en direct) En cours 20 50 3,000\xa0s" in inline
    assert "2 (en direct) En cours 9 30 1,000\xa0s" in inline
    assert (
        absent(
            text,
            [
                "Name",
                "Tournament",
                "Status",
                "Variant",
                "Joining opens",
                "Starts",
                "Ends",
                "Time limit",
                "Late join",
                "Allow undo",
                "Require winnable",
                "Rated",
                "Commitment",
                "Seed",
                "Created",
                "Closed",
                "Scored",
                "Standings",
                "hidden until",
                "how long each entrant",
                "the tournament this race counts for",
                "counts for player ratings",
                "Scheduled",
                "running",
                "(live)",
                "ards home",
                "Race entries",
                "Disqualified reason",
                " in R2",
            ],
        )
        == []
    )


def test_a_finished_race_page_in_french_shows_words_for_statuses(cup: dict[str, Any]) -> None:
    race = cup["finished"]
    _, text = get(cup["client"], reverse("admin:games_race_change", args=[race.pk]), "fr")
    assert "Classement (avec la graine et l\u2019engagement)" in text
    assert "1 ann 30 70 4,000\xa0s Temps écoulé" in text
    assert "2 bob 12 100 2,500\xa0s Temps écoulé" in text
    assert absent(text, ["timed_out", "Timed out", "with the seed"]) == []


def test_the_tournament_page_in_french(cup: dict[str, Any]) -> None:
    t = cup["tournament"]
    page, text = get(cup["client"], reverse("admin:games_tournament_change", args=[t.pk]), "fr")
    labels = [text_of(label) for label in re.findall(r"<label[^>]*>.*?</label>", page, re.S)]
    assert labels[:14] == [
        f"{label}\xa0:"
        for label in (
            "Nom",
            "Description",
            "État",
            "Décompte",
            "Barème de points",
            "Points par carte",
            "Bonus de victoire",
            "Inscription",
            "Nombre max. de participants",
            "Ajouter des courses",
            "Exports (CSV)",
            "Auteur",
            "Création",
            "Dernier décompte",
        )
    ]
    for words in (
        f"décompte «\u202fpoints par place\u202f»{NNBSP}: les points des rangs 1, 2, ... "
        "en liste JSON"
        f"{NNBSP}; les rangs au-delà de la liste rapportent 0. Vide ([]){NNBSP}: la liste par "
        "défaut 10, 8, 6, 5, 4, 3, 2, 1. Inutilisé par le décompte «\u202fcartes posées\u202f».",
        f"décompte «\u202fcartes posées\u202f»{NNBSP}: points par carte posée",
        f"nombre maximal de joueurs admis (vide{NNBSP}: pas de limite)",
        "Ajouter des courses programmées…",
        "Classement Courses, avec les graines des courses terminées",  # the CSV buttons
        f"public{NNBSP}: les joueurs le voient, ainsi que ses courses{NNBSP}; une fois ses "
        "courses terminées, terminez-le avec l\u2019action «\u202fTerminer\u202f» de la liste",
        "Classement Rang Joueur Points Victoires Courses jouées Disqualifications "
        "Total de cartes posées Temps total",
        "1. ann (10 pts)",
        "Courses Nom Phase actuelle Mode Départ Fin Engagement Graine",
        "Participants Joueur Invité par Admission",
        "ann dans Evening Cup",
    ):
        assert words in text, words
    assert '<option value="place_points" selected>Points par place</option>' in page
    assert '<option value="cards_home">Cartes posées plus bonus de victoire</option>' in page
    assert '<option value="open" selected>Ouvert à tous les joueurs</option>' in page
    assert '<option value="invite">Réservé aux joueurs invités</option>' in page
    assert re.search(r'class="readonly">Ouvert<', page)
    assert (
        absent(
            text,
            [
                "Name",
                "Scoring",
                "Points table",
                "Points per card",
                "Win bonus",
                "Max entrants",
                "Add races",
                "Add scheduled races",
                "Standings",
                "Races",
                "Created",
                "Scored",
                "Status",
                "points by place",
                "Points by place",
                "cards home",
                "Open to every player",
                "Invited players only",
                "most players admitted",
                "draft:",
                "Races played",
                "Cards home total",
                "Time ms total",
                "Invited by",
                "Admitted",
                "Tournament entrants",
                "Entrants",
                " in Evening Cup",
                "Scheduled",
                "running",
                "hidden until",
            ],
        )
        == []
    )


def test_the_add_races_form_in_french(cup: dict[str, Any]) -> None:
    t = cup["tournament"]
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    page, text = get(cup["client"], url, "fr")
    assert "<title>Ajouter des courses à Evening Cup | Organisateurs Canfield</title>" in page
    assert "Tournois \u203a Evening Cup \u203a Ajouter des courses" in text
    assert "Chaque course reçoit une nouvelle graine secrète" in text
    assert "La course n part au premier départ plus (n\u22121) \u00d7 (durée + intervalle)." in text
    labels = [text_of(label) for label in re.findall(r"<label[^>]*>.*?</label>", page, re.S)]
    assert labels == [
        f"{label}\xa0:"
        for label in (
            "Nombre",
            "Premier départ",
            "Durée",
            "Intervalle",
            "Ouverture des inscriptions avant le départ",
            "Variante",
            "Mode",
            "Temps imparti",
            "Inscription tardive",
            "Autoriser l\u2019annulation de coups",
            "Exiger une donne gagnable",
        )
    ]
    for words in (
        "AAAA-MM-JJ HH:MM, UTC",
        "la durée de chaque course, en minutes:secondes (7:30), H:MM:SS ou minutes entières",
        "entre la fin d\u2019une course et le départ de la suivante, en minutes:secondes (5:00)",
        "combien de temps avant chaque départ les inscriptions ouvrent, en minutes:secondes",
        f"mode fenêtre{NNBSP}: le temps dont dispose chaque joueur à partir de son propre départ, "
        "en minutes:secondes (7:30), H:MM:SS ou secondes entières (450)",
        "combien de temps après chaque départ les inscriptions restent ouvertes, en "
        f"minutes:secondes (2:30), H:MM:SS ou minutes entières (0:00{NNBSP}: elles ferment au "
        f"départ{NNBSP}; la durée de la course ou plus{NNBSP}: "
        f"jusqu\u2019à la fin). Vide{NNBSP}: la valeur par défaut du mode",
        "chaque course prend une donne que le solveur a déjà prouvée gagnable",
    ):
        assert words in text, words
    assert 'placeholder="AAAA-MM-JJ HH:MM"' in page
    assert '<option value="classic" selected>Classique</option>' in page
    assert '<option value="draw-one">Une carte</option>' in page
    assert '<option value="scheduled" selected>Horaire fixe</option>' in page
    assert '<option value="window">Fenêtre</option>' in page
    assert 'value="Ajouter des courses"' in page
    assert (
        absent(
            text,
            [
                "Add races",
                "Count",
                "First starts at",
                "Duration",
                "Gap",
                "Opens before",
                "Joining lead time",
                "Variant",
                "Time limit",
                "Late join",
                "Allow undo",
                "Require winnable",
                "YYYY",
                "minutes:seconds",
                "between one race",
                "joining opens",
                "window mode",
                "how long after",
                "draw seeds",
                "Each race gets",
                "Classic",
                "Draw one",
                "Scheduled",
                "Window",
            ],
        )
        == []
    )


def test_the_add_races_form_answers_in_french(cup: dict[str, Any]) -> None:
    t = cup["tournament"]
    c = cup["client"]
    url = reverse("admin:games_tournament_add_races", args=[t.pk])
    form = {
        "count": 1,
        "first_starts_at": "2020-05-01 18:00",
        "duration": "7:75",
        "gap": "0:00",
        "opens_before": "1:00",
        "variant": "classic",
        "mode": "scheduled",
    }
    bad = text_of(c.post(url, form, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "Saisissez minutes:secondes (par ex. 7:30), H:MM:SS ou des minutes entières." in bad
    past = text_of(
        c.post(url, {**form, "duration": "10:00"}, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    )
    assert (
        "La première course serait finie avant d\u2019être ajoutée (elle se termine à "
        f"2020-05-01 18:10:00 UTC){NNBSP}: choisissez un départ plus tardif." in past
    )
    done = c.post(
        url,
        {**form, "duration": "10:00", "first_starts_at": f"{YEAR}-05-01 18:00"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    (message,) = [str(m) for m in done.context["messages"]]
    assert message == f"1 course ajoutée{NNBSP}: «{NNBSP}Evening Cup #3{NNBSP}»."  # after R1 and R2


#: What the four pages say in Spanish and German (the French is checked in full above).
ELSEWHERE = {
    "es": {
        "race list": [
            "Torneo",
            "Estado registrado",
            "Fase actual",
            "Inicio",
            "Compromiso",
            "Horario fijo",
            "Por estado registrado",
        ],
        "race": [
            "Tiempo límite (segundos)",
            "Apertura de la inscripción",
            "oculta hasta que la carrera termine o se cancele",
            "Participaciones en carreras",
            "1 (en directo)",
            "ann en R2",
        ],
        "tournament": [
            "Puntuación",
            "Tabla de puntos",
            "Bonificación por victoria",
            "Añadir carreras programadas…",
            "Carreras jugadas",
            "Participantes",
        ],
        "add races": [
            "Número",
            "Primer inicio",
            "Duración",
            "Intervalo",
            "Inscripción tardía",
            "Exigir un reparto ganable",
            "AAAA-MM-DD HH:MM, UTC",
            "Cada carrera recibe una semilla secreta nueva",
        ],
    },
    "de": {
        "race list": [
            "Turnier",
            "Status (gespeichert)",
            "Aktuelle Phase",
            "Beginn",
            "Festlegung",
            "Feste Zeit",
            "Nach Status (gespeichert)",
        ],
        "race": [
            "Zeitlimit (Sekunden)",
            "Teilnahme ab",
            "verborgen, bis das Rennen beendet oder abgesagt ist",
            "Rennteilnahmen",
            "1 (live)",
            "ann in R2",
        ],
        "tournament": [
            "Punktevergabe",
            "Punktetabelle",
            "Siegbonus",
            "Geplante Rennen hinzufügen …",
            "Gespielte Rennen",
            "Teilnehmer",
        ],
        "add races": [
            "Anzahl",
            "Erster Start",
            "Dauer",
            "Pause",
            "Später Einstieg",
            "Gewinnbares Blatt verlangen",
            "JJJJ-MM-TT HH:MM, UTC",
            "Jedes Rennen erhält einen neuen geheimen Startwert",
        ],
    },
}

#: English words of the four pages that no other language uses.
ENGLISH = {
    "race list": ["Tournament", "Starts", "Commitment", "Scheduled", "By status"],
    "race": ["Time limit", "Joining opens", "hidden until", "Race entries", "Seed"],
    "tournament": ["Scoring", "Points table", "Win bonus", "Add scheduled races", "Races played"],
    "add races": ["Count", "First starts at", "Duration", "Late join", "YYYY", "Each race gets"],
}


@pytest.mark.parametrize("language", ["es", "de"])
def test_the_four_pages_in_spanish_and_german(cup: dict[str, Any], language: str) -> None:
    t = cup["tournament"]
    urls = {
        "race list": reverse("admin:games_race_changelist"),
        "race": reverse("admin:games_race_change", args=[cup["running"].pk]),
        "tournament": reverse("admin:games_tournament_change", args=[t.pk]),
        "add races": reverse("admin:games_tournament_add_races", args=[t.pk]),
    }
    for page_name, url in urls.items():
        _, text = get(cup["client"], url, language)
        missing = [w for w in ELSEWHERE[language][page_name] if w not in text]
        assert missing == [], (page_name, missing)
        assert absent(text, ENGLISH[page_name]) == [], page_name


def test_messages_count_in_the_organisers_language(cup: dict[str, Any]) -> None:
    c = cup["client"]
    url = reverse("admin:games_tournament_changelist")
    t = cup["tournament"]
    resp = c.post(
        url,
        {"action": "rescore", "_selected_action": [str(t.pk)]},
        HTTP_ACCEPT_LANGUAGE="de",
        follow=True,
    )
    assert [str(m) for m in resp.context["messages"]] == ["1 Turnier neu berechnet."]
    races = reverse("admin:games_race_changelist")
    both = [str(cup["finished"].pk), str(cup["running"].pk)]
    ask = c.post(races, {"action": "rescore", "_selected_action": both}, HTTP_ACCEPT_LANGUAGE="fr")
    text = text_of(ask.content.decode())
    assert f"Recalculer ces 2 courses avec la règle de classement actuelle{NNBSP}?" in text
    assert f"1 de ces courses est déjà terminée{NNBSP}: ses rangs publiés" in text
    assert f"R1 (Evening Cup){NNBSP}: terminée, résultat publié" in text
    assert f"R2 (Evening Cup){NNBSP}: programmée" in text
    assert "Les joueurs qui ont gagné passent d\u2019abord" in text
    assert (
        absent(text, ["Re-scor", "already finished", "Players who won", "No, take me back"]) == []
    )
    done = c.post(
        races,
        {"action": "rescore", "_selected_action": both, "apply": "1"},
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    assert [str(m) for m in done.context["messages"]] == [
        f"Recalculées avec la règle de classement actuelle{NNBSP}: 2 courses."
    ]


def test_the_ranking_rule_in_words_is_the_engines() -> None:
    """The re-score page shows a translatable copy of the rule the API serves."""
    with translation.override("en"):
        assert str(RANKING_RULE_WORDS) == RANKING_RULE
    with translation.override("fr"):
        assert str(RANKING_RULE_WORDS).startswith("Les joueurs qui ont gagné")


#: Field names chosen rather than derived: the race's stored status, beside its phase by
#: the clock (both "status" and "phase" read alike in French: "État", "Phase").
CHOSEN_NAMES = {(Race, "status"): "stored status"}


def test_english_names_are_the_ones_django_derives() -> None:
    """The translated names of the models and fields the admin shows are set at run time
    (``games.models._names``); in English they are exactly Django's own, so the admin in
    English reads as before and the migration state is untouched."""
    shown = [m for m in admin.site._registry if m._meta.app_label == "games"]
    assert {m.__name__ for m in shown} >= {"Race", "RaceEntry", "Tournament", "RatingPool"}
    with translation.override("en"):
        for model in shown:
            opts = model._meta
            derived = camel_case_to_spaces(opts.object_name)
            assert str(opts.verbose_name) == derived
            plural = opts.original_attrs.get("verbose_name_plural", f"{derived}s")
            assert str(opts.verbose_name_plural) == plural
            for field in opts.get_fields():
                if isinstance(field, models.Field) and field._verbose_name is None:
                    derived = field.name.replace("_", " ")
                    wanted = CHOSEN_NAMES.get((model, field.name), derived)
                    assert str(field.verbose_name) == wanted, field
    with translation.override("fr"):
        assert str(Race._meta.verbose_name_plural) == "courses"
        assert str(Tournament._meta.get_field("points_table").verbose_name) == "barème de points"
    with translation.override("en"):
        assert str(apps.get_app_config("games").verbose_name) == "Canfield games and races"


def test_no_migration_is_needed() -> None:
    """Translating names, help texts and choice labels changed no migration state."""
    call_command("makemigrations", "games", check_changes=True, dry_run=True, verbosity=0)
