# mypy: disable-error-code="no-untyped-call, misc, arg-type, attr-defined"
"""What a reading of the play, race, tournament and lobby pages in French, Spanish and
German found: sentences that gave the reader a gender ("Vous êtes inscrit", "le han
descalificado", "Compruébelo usted mismo"), one French word for a race's standings and
for the rating leaderboards ("Classement", "Classements", and "classée" for rated), and
wording a native speaker reads as wrong or stiff."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape
from typing import Any

import pytest
from django.utils import timezone

from games.services.errors import WinnableNotFound
from games.services.games import game_start
from games.services.race_admin import race_close_now, race_entry_disqualify
from games.services.races import race_create, race_join
from tests.ratings.helpers import Result as RatedResult
from tests.tournaments.factories import Result, TournamentFactory, play, running_race
from tests.web.conftest import PageClient
from tests.web.test_rating_pages import rated
from tests.web.test_translations import _entries

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "fr", "es", "de")


def _page(client: PageClient, url: str, lang: str) -> str:
    resp = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert resp.status_code == 200, url
    return str(unescape(resp.content.decode()))


def _open_race(name: str = "Evening race") -> Any:
    now = timezone.now()
    return race_create(
        name=name,
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=20),
    )


# 1. No sentence gives the player a gender.

JOINED = {
    "en": ("You have joined; the play button appears when the race starts.", "joined"),
    "fr": (
        "Inscription confirmée\u202f; le bouton Jouer apparaîtra au départ de la course.",
        "inscription confirmée",
    ),
    "es": (
        "Inscripción confirmada; el botón Jugar aparecerá cuando empiece la carrera.",
        "inscripción confirmada",
    ),
    "de": (
        "Sie nehmen teil; die Schaltfläche „Spielen“ erscheint beim Start des Rennens.",
        "Teilnahme bestätigt",
    ),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_joining_a_race_is_confirmed_without_a_gender(
    pages: PageClient, player: Any, lang: str
) -> None:
    """French said "Vous êtes inscrit" on the race page and "inscrit" (Spanish
    "inscrito") beside the race in the lobby: masculine, whoever joined."""
    race = _open_race()
    race_join(race_id=race.id, player=player)
    sentence, badge = JOINED[lang]
    page = _page(pages, f"/races/{race.id}/", lang)
    assert f"<p>{sentence}</p>" in page
    assert "Vous êtes inscrit" not in page
    lobby = _page(pages, "/", lang)
    assert f'<span class="badge" data-joined>{badge}</span>' in lobby
    assert ">inscrit<" not in lobby
    assert ">inscrito<" not in lobby


WINDOW_JOINED = {
    "en": "You have joined; once the race starts, a button appears here that starts your"
    " clock: your 90 seconds run from then.",
    "fr": "Inscription confirmée\u202f; au départ de la course, un bouton apparaîtra ici pour"
    " lancer votre chrono\u202f: vos 90 secondes comptent à partir de ce moment.",
    "es": "Inscripción confirmada; cuando empiece la carrera, aparecerá aquí un botón que"
    " inicia su reloj: sus 90 segundos cuentan desde ese momento.",
    "de": "Sie nehmen teil; beim Start des Rennens erscheint hier eine Schaltfläche, die Ihre"
    " Uhr startet: Ihre 90 Sekunden laufen ab dann.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_window_race_says_which_button_will_come_and_that_it_starts_the_clock(
    pages: PageClient, player: Any, lang: str
) -> None:
    """A new user joined a window race on a phone in Spanish and was told "el botón Jugar
    aparecerá" (German "die Schaltfläche „Spielen“"): at the start came "Iniciar mi reloj
    y jugar" instead, and nothing had said that the 90 seconds wait for that tap."""
    now = timezone.now()
    race = race_create(
        name="Window race",
        mode="window",
        time_limit_s=90,
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(minutes=10),
        ends_at=now + timedelta(minutes=40),
    )
    race_join(race_id=race.id, player=player)
    page = _page(pages, f"/races/{race.id}/", lang)
    assert f"<p data-window-joined>{WINDOW_JOINED[lang]}</p>" in page
    assert JOINED[lang][0] not in page


DISQUALIFIED = {
    "en": ("The organisers have disqualified you from this race (bot).", "disqualified"),
    "fr": (
        "Les organisateurs ont disqualifié votre participation à cette course (bot).",
        "disqualifiée",
    ),
    "es": (
        "Los organizadores han descalificado su participación en esta carrera (bot).",
        "descalificada",
    ),
    "de": (
        "Die Veranstalter haben Sie in diesem Rennen disqualifiziert (bot).",
        "disqualifiziert",
    ),
}
BOARD_DISQUALIFIED = {
    "en": "The organisers have disqualified you from this race (bot): your game takes no"
    " more moves.",
    "fr": "Les organisateurs ont disqualifié votre participation à cette course (bot)\u202f:"
    " votre partie n\u2019accepte plus aucun coup.",
    "es": "Los organizadores han descalificado su participación en esta carrera (bot): su"
    " partida ya no admite jugadas.",
    "de": "Die Veranstalter haben Sie in diesem Rennen disqualifiziert (bot): Ihr Spiel nimmt"
    " keine Züge mehr an.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_disqualification_is_told_without_a_gender(
    pages: PageClient, player: Any, lang: str
) -> None:
    """ "Les organisateurs vous ont disqualifié", "le han descalificado" and the status
    "disqualifié"/"descalificado" made the player a man; the status now agrees with the
    game, as "gagnée", "abandonnée" beside it do."""
    race = running_race(name="Strict race")
    entry = play(race, Result(player, 3, 9000, moves=7))
    race_entry_disqualify(entry_id=entry.id, reason="bot")
    sentence, status = DISQUALIFIED[lang]
    page = _page(pages, f"/races/{race.id}/", lang)
    assert sentence in page
    assert re.search(rf">ada</a></th>.*?<td>\s*{status}\s*</td></tr>", page, re.S)
    board = _page(pages, f"/play/{entry.game_id}/", lang)
    assert BOARD_DISQUALIFIED[lang] in board
    for gendered in ("vous ont disqualifié", "le han descalificado", ">descalificado<"):
        assert gendered not in page + board


NOT_ENTERED = {
    "en": "You are not in this tournament yet: joining one of its races enters you.",
    "fr": "Vous ne participez pas encore à ce tournoi\u202f: pour y entrer, rejoignez l\u2019une"
    " de ses courses.",
    "es": "Aún no participa en este torneo: para entrar, únase a una de sus carreras.",
    "de": "Sie nehmen noch nicht an diesem Turnier teil: Nehmen Sie an einem seiner Rennen teil,"
    " um dabei zu sein.",
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_way_into_a_tournament_reads_naturally(pages: PageClient, lang: str) -> None:
    """Spanish "unirse ... le inscribe" (a masculine object), French "rejoindre ... vous
    inscrit", and German "wer einem seiner Rennen beitritt" with no tournament named
    for "seiner" to refer to."""
    cup = TournamentFactory()
    page = _page(pages, f"/tournaments/{cup.id}/", lang)
    assert f"<p>{NOT_ENTERED[lang]}</p>" in page


def test_spanish_asks_the_reader_to_check_the_deal_without_a_gender(pages: PageClient) -> None:
    race = running_race(name="Done")
    play(race, Result("ann", 30, 4200))
    race_close_now(race_id=race.id)
    page = _page(pages, f"/races/{race.id}/results", "es")
    assert "Compruébelo por su cuenta: el compromiso es el SHA-256" in page
    assert "usted mismo" not in page


def test_spanish_logout_page_keeps_usted(pages: PageClient) -> None:
    page = _page(pages, "/accounts/logout/", "es")
    assert "Ha iniciado sesión como ada." in page
    assert "Has iniciado" not in page


#: Participles and adjectives that give the reader (or an unnamed player) a gender: said to
#: the reader, or a status word alone in a cell (a perfect tense such as "ont disqualifié
#: votre participation" agrees with nobody).
GENDERED = {
    "fr": re.compile(
        r"\bvous (êtes|ont) (inscrit|connecté|disqualifié|invité)\b|\bdisqualifié dans\b"
        r"|^(inscrit|disqualifié|non parti|pas encore commencé)$|n\u2019est encore inscrit"
    ),
    "es": re.compile(
        r"\b(le han descalificado|le inscribe|usted mismo|bienvenido|está inscrito)\b"
        r"|^(inscrito|descalificado)$|\bdescalificado en\b",
        re.I,
    ),
}


@pytest.mark.parametrize("lang", sorted(GENDERED))
def test_no_message_gives_the_reader_a_gender(lang: str) -> None:
    found = [
        (msgid, s) for _c, msgid, strs in _entries(lang) for s in strs if GENDERED[lang].search(s)
    ]
    assert found == []


# 2. A race's or a tournament's standings, and the rating leaderboards, have their own words.

TERMS = {
    # standings (a race, a tournament), leaderboards, a rated race count, the ranking rule
    "en": ("Standings", "Leaderboards", "Rated races", "Ranking:"),
    "fr": ("Classement", "Classements des joueurs", "Courses cotées", "Règle de classement\u202f:"),
    "es": (
        "Clasificación",
        "Tablas de valoración",
        "Carreras valoradas",
        "Criterio de clasificación:",
    ),
    "de": ("Stand", "Ranglisten", "Gewertete Rennen", "Rangfolge:"),
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_standings_and_leaderboards_have_their_own_words(
    pages: PageClient, player: Any, lang: str
) -> None:
    """French said "Classement" for a tournament's standings and "Classements" for the
    rating leaderboards, "Classement général" for one leaderboard, and "classée" both
    for a ranked entrant and for a race that counts for the ratings."""
    standings, leaderboards, rated_races, ranking = TERMS[lang]
    rated(RatedResult("ann", 40, 1000), RatedResult("bob", 30, 1000))
    cup = TournamentFactory()
    race = running_race(cup, name="Heat")
    play(race, Result(player, 3, 9000))
    tournament = _page(pages, f"/tournaments/{cup.id}/", lang)
    assert f'<h2 id="ts-h">{standings}</h2>' in tournament
    assert f'<a href="/leaderboards/">{leaderboards}</a>' in tournament  # the menu
    race_page = _page(pages, f"/races/{race.id}/", lang)
    assert re.search(rf"<h3>{standings} <small>", race_page)
    assert f"<small>{ranking} " in race_page
    board = _page(pages, "/leaderboards/", lang)
    assert f"<h1>{leaderboards}</h1>" in board
    assert f'<th scope="col">{rated_races}</th>' in board
    if lang == "fr":
        pool = _page(pages, "/leaderboards/classic/", lang)
        assert "<h1>Classement des joueurs\u202f: Classique</h1>" in pool
        assert "Classement général" not in pool + board
        assert not re.search(r"\bclassées?\b", board)  # rated is "cotée", ranked "classé"


#: msgids that name a leaderboard (rating pool), the standings, or a rated race.
LEADERBOARD = re.compile(r"\b(leaderboards?|pools?)\b", re.I)
STANDINGS = re.compile(r"\bstandings?\b", re.I)
RATED = re.compile(r"\b(un)?rated\b", re.I)


def test_french_keeps_the_leaderboards_apart_from_the_standings() -> None:
    for _ctx, msgid, strs in _entries("fr"):
        for s in strs:
            if LEADERBOARD.search(msgid) and re.search(r"classements?\b", s, re.I):
                assert re.search(r"classements? des joueurs", s, re.I), (msgid, s)
            if STANDINGS.search(msgid):
                assert "des joueurs" not in s, (msgid, s)
            if RATED.search(msgid) and "rank" not in msgid:
                assert not re.search(r"\bclassée?s?\b", s, re.I), (msgid, s)


def test_spanish_rates_and_german_scores_with_their_own_words() -> None:
    """Spanish said "puntuar" (to score, as a tournament does) for rating a race; German
    "gewertet" (rated) for a tournament race being scored."""
    for _ctx, msgid, strs in _entries("es"):
        if RATED.search(msgid) or re.search(r"\brating\b", msgid):
            assert not [s for s in strs if re.search(r"punt[uú]", s, re.I)], msgid
    for _ctx, msgid, strs in _entries("de"):
        if re.search(r"\bscored\b", msgid) and not RATED.search(msgid):
            assert not [s for s in strs if re.search(r"(?<!aus)gewertet", s)], msgid


# 4. Wording a native speaker found wrong or stiff.

PLAY = {
    "fr": [
        "<summary>Comment jouer\u202f: souris, écran tactile et clavier</summary>",
        "<li>Cliquez sur une carte (ou touchez-la), puis sur sa destination (une colonne du"
        " tableau ou les fondations). Double-cliquez sur une carte pour la poser sur sa"
        " fondation.</li>",
        '<p class="count">13 cartes, dont 12 face cachée</p>',
        "<kbd>Échap</kbd>",
        "<kbd>Entrée</kbd> <kbd>Espace</kbd>",
    ],
    "es": [
        "<summary>Cómo jugar: ratón, pantalla táctil y teclado</summary>",
        "<li>Haga clic en una carta (o tóquela) y luego en su destino (una columna del"
        " tableau o las fundaciones). Haga doble clic en una carta para enviarla a su"
        " fundación.</li>",
        "<kbd>Intro</kbd> <kbd>Espacio</kbd>",
    ],
    "de": [
        "<summary>So wird gespielt: Maus, Touchscreen und Tastatur</summary>",
        "Ein Doppelklick legt eine Karte auf ihren Ablagestapel.</li>",
        "Es gilt als blockiert, wenn Ziehen und Neugeben allein",
        "Abgelegte Karten: Karten auf den Ablagestapeln.",
        "<kbd>Enter</kbd> <kbd>Leertaste</kbd>",
    ],
}
PLAY_BEFORE = {
    "fr": ["souris, toucher et clavier", "Cliquez ou touchez", "faces cachées", "<kbd>Esc</kbd>"],
    "es": ["tacto", "Doble clic en", "<kbd>Enter</kbd>"],
    "de": ["Maus, Touch und", "Es endet als blockiert", "Karten abgelegt: Karten"],
}


@pytest.mark.parametrize("lang", sorted(PLAY))
def test_the_play_page_reads_naturally(pages: PageClient, player: Any, lang: str) -> None:
    game = game_start(player=player, seed="7")
    page = _page(pages, f"/play/{game.id}/", lang)
    for words in PLAY[lang]:
        assert words in page
    for words in PLAY_BEFORE[lang]:
        assert words not in page


TOURNAMENT = {
    "fr": [
        "ouverte à tous",
        "Par points, puis victoires, puis cartes posées (le plus d\u2019abord), puis temps"
        " total (le moins d\u2019abord)\u202f; les joueurs à égalité sur ces quatre critères"
        " partagent un rang.",
    ],
    "es": [
        "abierta a todos",
        "Por puntos, luego victorias, luego cartas en las fundaciones"
        " (de más a menos), luego tiempo total (de menos a más); los jugadores empatados en los"
        " cuatro criterios comparten puesto.",
    ],
    "de": [
        "Noch kein Rennen ausgewertet.",
        "Spieler, die in allen vier Werten gleichauf liegen, teilen sich einen Platz.",
    ],
}
TOURNAMENT_BEFORE = {
    "fr": ["ouvert à tous", "égaux sur les quatre"],
    "es": ["abierto a todos", "iguales en los cuatro"],
    "de": ["Noch kein Rennen gewertet.", "teilen sich einen Rang"],
}


@pytest.mark.parametrize("lang", sorted(TOURNAMENT))
def test_the_tournament_page_reads_naturally(pages: PageClient, lang: str) -> None:
    """French and Spanish "Inscription : ouvert à tous" (the entry is feminine); German
    said a race was "gewertet" (rated) when the tournament scored it."""
    cup = TournamentFactory()
    page = _page(pages, f"/tournaments/{cup.id}/", lang)
    for words in TOURNAMENT[lang]:
        assert words in page
    for words in TOURNAMENT_BEFORE[lang]:
        assert words not in page


def test_the_race_page_reads_naturally_in_spanish_and_french(pages: PageClient) -> None:
    race = _open_race()
    es = _page(pages, f"/races/{race.id}/", "es")
    assert "<dt>Apertura de la inscripción</dt>" in es
    fr = _page(pages, f"/races/{race.id}/", "fr")
    assert (
        "<p>Aucune inscription pour l\u2019instant.</p>" in fr
    )  # was "Personne n'est encore inscrit."
    de = _page(pages, f"/races/{race.id}/", "de")
    assert "<p>Noch nimmt niemand teil.</p>" in de  # "angemeldet" is logged in


def test_the_lobby_reads_naturally(pages: PageClient, monkeypatch: pytest.MonkeyPatch) -> None:
    de = _page(pages, "/", "de")
    assert '<option value="" selected>laut Variante</option>' in de
    assert "wie die Variante es sagt" not in de

    def lost(**_kw: Any) -> Any:
        raise WinnableNotFound("every recent deal lost")

    monkeypatch.setattr("web.views.play.game_services.game_start", lost)
    refused = pages.post(
        "/practice", {"variant": "classic", "winnable": "on"}, HTTP_ACCEPT_LANGUAGE="es"
    )
    assert refused.status_code == 400
    es = unescape(refused.content.decode())
    assert (
        "El solucionador ha demostrado que todos los repartos recientes de estas reglas están"
        " perdidos: no cabe esperar un reparto ganable." in es
    )
    assert "repartidas" not in es


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("es", "Sube a medida que juega y sus resultados la confirman."),
        ("de", "Sie steigt, während Sie spielen und Ihre Ergebnisse sie bestätigen."),
    ],
)
def test_the_leaderboards_page_keeps_one_register(pages: PageClient, lang: str, words: str) -> None:
    """The rating rule said "tú" in Spanish and "du" in German, on pages that say "usted"
    and "Sie" everywhere else."""
    page = _page(pages, "/leaderboards/", lang)
    assert words in page
    assert "juegas" not in page
    assert "du spielst" not in page
