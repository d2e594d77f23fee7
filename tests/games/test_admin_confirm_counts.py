# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""The organisers' admin says what it asks and does with the real count, in every
language (en, fr, es, de):

* a confirmation page's title and "Yes" button were always plural ("Cancel these
  tournaments?", "Yes, cancel these races" for one race); now singular for one and
  counted for more (``ngettext``), and a race action that would change none of the races
  offers no "Yes", as the tournament actions do;
* "Cancel the tournament" counted only the races it cancels; now the tournaments too;
* a tournament's status help explained draft and open whatever its status; now it fits
  the status, and a finished or cancelled tournament has none;
* "Mark unrated"/"Mark rated" said the pool "is re-rated" while the re-rating was only
  queued for the worker (the embedded default and production run tasks on one, README
  "Set up in detail"), so the list it returned to still showed the old status; now it
  says so, and says it was re-rated only where tasks run in the web process.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games.models import Race, RaceEntry, RaceRating, Tournament
from games.services.ratings import race_rate
from games.services.tournaments import tournament_set_status
from tests.factories import StaffFactory
from tests.games.test_admin_language import text_of
from tests.ratings.helpers import race_of
from tests.tournaments.factories import Result, TournamentFactory, play, running_race

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "fr", "es", "de"]
NN = "\u202f"  # French narrow no-break space


def _client() -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    client = Client()
    client.force_login(user)
    return client


def _ask(client: Client, model: str, action: str, objs: list[Any], language: str) -> str:
    """The confirmation page of ``action`` for ``objs``, as text (title included)."""
    resp = client.post(
        reverse(f"admin:games_{model}_changelist"),
        {"action": action, "_selected_action": [str(o.pk) for o in objs]},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert resp.status_code == 200
    page = resp.content.decode()
    assert f'<html lang="{language}"' in page
    return page


def _title(page: str) -> str:
    return page.split("<title>", 1)[1].split(" | ", 1)[0]


def _button(page: str) -> str | None:
    """The "Yes" button's words, ``None`` when the page offers none."""
    if 'type="submit" class="default"' not in page:
        return None
    return page.split('type="submit" class="default" value="', 1)[1].split('"', 1)[0]


#: The race pages' title and button for one race, and for two.
RACE_WORDS = {
    "en": {
        "close_now": ("Close this race now?", "Yes, close this race now"),
        "close_now_2": ("Close these 2 races now?", "Yes, close these 2 races now"),
        "cancel": ("Cancel this race?", "Yes, cancel this race"),
        "cancel_2": ("Cancel these 2 races?", "Yes, cancel these 2 races"),
    },
    "fr": {
        "close_now": (f"Clore cette course maintenant{NN}?", "Oui, clore cette course maintenant"),
        "close_now_2": (
            f"Clore ces 2 courses maintenant{NN}?",
            "Oui, clore ces 2 courses maintenant",
        ),
        "cancel": (f"Annuler cette course{NN}?", "Oui, annuler cette course"),
        "cancel_2": (f"Annuler ces 2 courses{NN}?", "Oui, annuler ces 2 courses"),
    },
    "es": {
        "close_now": ("¿Cerrar esta carrera ahora?", "Sí, cerrar esta carrera ahora"),
        "close_now_2": ("¿Cerrar estas 2 carreras ahora?", "Sí, cerrar estas 2 carreras ahora"),
        "cancel": ("¿Cancelar esta carrera?", "Sí, cancelar esta carrera"),
        "cancel_2": ("¿Cancelar estas 2 carreras?", "Sí, cancelar estas 2 carreras"),
    },
    "de": {
        "close_now": ("Dieses Rennen jetzt schließen?", "Ja, dieses Rennen jetzt schließen"),
        "close_now_2": ("Diese 2 Rennen jetzt schließen?", "Ja, diese 2 Rennen jetzt schließen"),
        "cancel": ("Dieses Rennen absagen?", "Ja, dieses Rennen absagen"),
        "cancel_2": ("Diese 2 Rennen absagen?", "Ja, diese 2 Rennen absagen"),
    },
}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("action", ["close_now", "cancel"])
def test_a_race_action_asks_about_one_race_in_the_singular(language: str, action: str) -> None:
    one = running_race(name="Heat 1")
    play(one, Result("ann", 5, 500))
    two = running_race(name="Heat 2")
    play(two, Result("bob", 5, 500))
    client = _client()
    page = _ask(client, "race", action, [one], language)
    assert (_title(page), _button(page)) == RACE_WORDS[language][action]
    page = _ask(client, "race", action, [one, two], language)
    assert (_title(page), _button(page)) == RACE_WORDS[language][f"{action}_2"]


#: "Nothing will change" on a race page, for one race and for two.
RACE_NOTHING = {
    "en": (
        "Nothing will change: this race cannot be closed now, for the reason below.",
        "Nothing will change: none of these races can be cancelled, for the reasons below.",
    ),
    "fr": (
        f"Rien ne changera{NN}: cette course ne peut pas être close maintenant, pour la "
        "raison ci-dessous.",
        f"Rien ne changera{NN}: aucune de ces courses ne peut être annulée, pour les raisons "
        "ci-dessous.",
    ),
    "es": (
        "Nada cambiará: esta carrera no puede cerrarse ahora, por el motivo indicado abajo.",
        "Nada cambiará: ninguna de estas carreras puede cancelarse, por los motivos indicados "
        "abajo.",
    ),
    "de": (
        "Nichts wird geändert: Dieses Rennen kann jetzt nicht geschlossen werden, aus dem "
        "unten genannten Grund.",
        "Nichts wird geändert: Keines dieser Rennen kann abgesagt werden, aus den unten "
        "genannten Gründen.",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_race_action_that_changes_nothing_offers_only_the_way_back(language: str) -> None:
    """Closing a finished race, or cancelling a finished and a cancelled one, changed
    nothing, yet the page offered "Yes, close these races now" over "0 races will be
    closed now."."""
    from tests.tournaments.factories import finished_race

    done = finished_race(None, Result("ann", 5, 500), name="Done heat")
    gone = running_race(name="Gone heat")
    Race.objects.filter(pk=gone.pk).update(status=Race.Status.CANCELLED)
    client = _client()
    one, many = RACE_NOTHING[language]
    page = _ask(client, "race", "close_now", [done], language)
    assert _button(page) is None
    assert f'<span id="nothing-to-do">{one}</span>' in page
    page = _ask(client, "race", "cancel", [done, gone], language)
    assert _button(page) is None
    assert f'<span id="nothing-to-do">{many}</span>' in page
    assert Race.objects.get(pk=done.pk).status == Race.Status.FINISHED


#: The re-score page's title and sentence for one finished race.
RESCORE_ONE = {
    "en": (
        "Re-score this race with the current ranking rule?",
        "This race is already finished: its published ranks",
    ),
    "fr": (
        f"Recalculer cette course avec la règle de classement actuelle{NN}?",
        f"Cette course est déjà terminée{NN}: ses rangs publiés",
    ),
    "es": (
        "¿Recalcular esta carrera con la regla de clasificación actual?",
        "Esta carrera ya ha terminado: sus puestos publicados",
    ),
    "de": (
        "Dieses Rennen mit der aktuellen Platzierungsregel neu berechnen?",
        "Dieses Rennen ist schon beendet: Seine veröffentlichten Plätze",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_re_scoring_one_race_is_asked_in_the_singular(language: str) -> None:
    """It said "Re-score races ...?" and "1 of these races is already finished"."""
    from tests.tournaments.factories import finished_race

    race = finished_race(None, Result("ann", 5, 500), name="Done heat")
    page = _ask(_client(), "race", "rescore", [race], language)
    title, sentence = RESCORE_ONE[language]
    assert _title(page) == title
    assert sentence in text_of(page)


#: The disqualification page's title for one entry, and its sentence (the question
#: only in the title).
DISQUALIFY_ONE = {
    "en": ("Disqualify this entry?", "The entry loses its race rank and tournament points"),
    "fr": (
        f"Disqualifier cette participation{NN}?",
        "La participation perd son rang dans la course et ses points de tournoi",
    ),
    "es": (
        "¿Descalificar esta participación?",
        "La participación pierde su puesto en la carrera y sus puntos de torneo",
    ),
    "de": (
        "Diese Teilnahme disqualifizieren?",
        "Die Teilnahme verliert ihren Platz im Rennen und ihre Turnierpunkte",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_disqualifying_one_entry_is_asked_in_the_singular(language: str) -> None:
    """It said "Disqualify entries" and "Disqualify these entries? Each loses ..."; then,
    titled "Disqualify this entry?", its sentence asked the same question again."""
    race = running_race(name="Heat 1")
    entry = play(race, Result("ann", 5, 500))
    page = _ask(_client(), "raceentry", "disqualify", [entry], language)
    title, sentence = DISQUALIFY_ONE[language]
    assert _title(page) == title
    text = text_of(page)
    assert text.count(title) == 2  # the window's title and the page's heading
    assert sentence in text
    assert RaceEntry.objects.get(pk=entry.pk).disqualified is False


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_add_form_shows_no_creation_or_scoring_of_a_tournament_not_saved(
    language: str,
) -> None:
    """The add form showed "Created" with the time the page was drawn (nothing was
    created yet), and "Created by" and "Scored" with "-"; a saved tournament's page
    keeps them."""
    client = _client()
    add = client.get(reverse("admin:games_tournament_add"), HTTP_ACCEPT_LANGUAGE=language)
    page = add.content.decode()
    assert 'class="form-row field-name"' in page
    for row in ("created", "created_by", "scored"):
        assert f"field-{row}" not in page, row
    t = TournamentFactory(name="Saved Cup")
    page = client.get(
        reverse("admin:games_tournament_change", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    for row in ("created", "created_by", "scored"):
        assert f"field-{row}" in page, row


#: The tournament pages' title and button for one tournament.
TOURNAMENT_WORDS = {
    "en": {
        "publish": ("Publish this tournament?", "Yes, publish this tournament"),
        "finish": ("Finish this tournament?", "Yes, finish this tournament"),
        "cancel": (
            "Cancel this tournament and its races?",
            "Yes, cancel this tournament and its races",
        ),
    },
    "fr": {
        "publish": (f"Publier ce tournoi{NN}?", "Oui, publier ce tournoi"),
        "finish": (f"Terminer ce tournoi{NN}?", "Oui, terminer ce tournoi"),
        "cancel": (
            f"Annuler ce tournoi et ses courses{NN}?",
            "Oui, annuler ce tournoi et ses courses",
        ),
    },
    "es": {
        "publish": ("¿Publicar este torneo?", "Sí, publicar este torneo"),
        "finish": ("¿Terminar este torneo?", "Sí, terminar este torneo"),
        "cancel": (
            "¿Cancelar este torneo y sus carreras?",
            "Sí, cancelar este torneo y sus carreras",
        ),
    },
    "de": {
        "publish": ("Dieses Turnier veröffentlichen?", "Ja, dieses Turnier veröffentlichen"),
        "finish": ("Dieses Turnier beenden?", "Ja, dieses Turnier beenden"),
        "cancel": (
            "Dieses Turnier und seine Rennen absagen?",
            "Ja, dieses Turnier und seine Rennen absagen",
        ),
    },
}

#: "Cancel the tournament": how many tournaments, then how many races, it cancels.
CANCEL_COUNTS = {
    "en": (
        "1 tournament will be cancelled. 2 races will be cancelled.",
        "2 tournaments will be cancelled. 2 races will be cancelled.",
    ),
    "fr": (
        "1 tournoi sera annulé. 2 courses seront annulées.",
        "2 tournois seront annulés. 2 courses seront annulées.",
    ),
    "es": (
        "Se cancelará 1 torneo. Se cancelarán 2 carreras.",
        "Se cancelarán 2 torneos. Se cancelarán 2 carreras.",
    ),
    "de": (
        "1 Turnier wird abgesagt. 2 Rennen werden abgesagt.",
        "2 Turniere werden abgesagt. 2 Rennen werden abgesagt.",
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_tournament_action_asks_about_one_tournament_in_the_singular(language: str) -> None:
    draft = TournamentFactory(name="Draft Cup", status=Tournament.Status.DRAFT)
    running_race(draft, name="Draft heat")
    ready = TournamentFactory(name="Ready Cup")
    from tests.tournaments.factories import finished_race

    finished_race(ready, Result("ann", 5, 500), name="Ready heat")
    live = TournamentFactory(name="Live Cup")
    running_race(live, name="Live heat 1")
    running_race(live, name="Live heat 2")
    client = _client()
    for action, t in (("publish", draft), ("finish", ready), ("cancel", live)):
        page = _ask(client, "tournament", action, [t], language)
        assert (_title(page), _button(page)) == TOURNAMENT_WORDS[language][action], action
    page = _ask(client, "tournament", "cancel", [live], language)
    one, two = CANCEL_COUNTS[language]
    assert one in text_of(page)
    empty = TournamentFactory(name="Empty Cup")
    page = _ask(client, "tournament", "cancel", [live, empty], language)
    assert two in text_of(page)
    assert Tournament.objects.get(pk=live.pk).status == Tournament.Status.OPEN


#: A saved tournament's status help by status (None: no help shown).
STATUS_HELP = {
    "en": {
        "draft": "seen by organisers only; when it is ready, publish it with the list's "
        "action “Publish”",
        "open": "public: players see it and its races; once its races are over, finish it "
        "with the list's action “Finish”",
    },
    "fr": {
        "draft": f"visible des seuls organisateurs{NN}; quand il est prêt, publiez-le avec "
        f"l\u2019action «{NN}Publier{NN}» de la liste",
        "open": f"public{NN}: les joueurs le voient, ainsi que ses courses{NN}; une fois ses "
        f"courses terminées, terminez-le avec l\u2019action «{NN}Terminer{NN}» de la liste",
    },
    "es": {
        "draft": "solo lo ven los organizadores; cuando esté listo, publíquelo con la acción "
        "«Publicar» de la lista",
        "open": "público: los jugadores lo ven, junto con sus carreras; cuando sus carreras "
        "hayan terminado, termínelo con la acción «Terminar» de la lista",
    },
    "de": {
        "draft": "nur für Veranstalter sichtbar; wenn es fertig ist, veröffentlichen Sie es "
        "mit der Listenaktion „Veröffentlichen“",
        "open": "öffentlich: Die Spieler sehen es und seine Rennen; sobald seine Rennen vorbei "
        "sind, beenden Sie es mit der Listenaktion „Beenden“",
    },
}

#: The add form's help (both statuses it may choose between), unchanged.
ADD_HELP = {
    "en": "draft: seen by organisers only, publish it when ready; open: public now",
    "fr": f"brouillon{NN}: visible des seuls organisateurs, publiez-le quand il est prêt{NN}; "
    f"ouvert{NN}: public dès maintenant",
    "es": "borrador: solo lo ven los organizadores, publíquelo cuando esté listo; abierto: "
    "público desde ahora",
    "de": "Entwurf: nur für Veranstalter sichtbar, veröffentlichen Sie das Turnier, wenn es "
    "fertig ist; offen: ab sofort öffentlich",
}


def _status_help(client: Client, url: str, language: str) -> str | None:
    """The help under the status row of the tournament form at ``url``, or ``None``."""
    import re

    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = re.search(
        r'<div class="form-row[^"]*field-status.*?(?=<div class="form-row|</fieldset>)', page, re.S
    )
    assert row is not None
    found = re.search(r'<div class="help"[^>]*>(.*?)</div>', row.group(0), re.S)
    return text_of(found.group(1)) if found else None


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_status_help_fits_the_tournaments_status(language: str) -> None:
    """A finished tournament's status help still explained draft and open."""
    client = _client()
    draft = TournamentFactory(name="Draft Cup", status=Tournament.Status.DRAFT)
    live = TournamentFactory(name="Live Cup")
    done = TournamentFactory(name="Done Cup")
    tournament_set_status(tournament_id=done.pk, status=Tournament.Status.FINISHED)
    gone = TournamentFactory(name="Gone Cup")
    tournament_set_status(tournament_id=gone.pk, status=Tournament.Status.CANCELLED)

    def change(t: Tournament) -> str:
        return reverse("admin:games_tournament_change", args=[t.pk])

    assert _status_help(client, change(draft), language) == STATUS_HELP[language]["draft"]
    assert _status_help(client, change(live), language) == STATUS_HELP[language]["open"]
    assert _status_help(client, change(done), language) is None
    assert _status_help(client, change(gone), language) is None
    add = reverse("admin:games_tournament_add")
    assert _status_help(client, add, language) == ADD_HELP[language]


#: "Mark unrated" on one race, its re-rating queued for the worker.
QUEUED = {
    "en": "1 race marked unrated; re-rating its pool from it on is queued: its status here "
    "changes when the task finishes (reload the list).",
    "fr": f"1 course marquée non cotée{NN}; le recalcul de son classement des joueurs à "
    f"partir d\u2019elle est en file d\u2019attente{NN}: son statut change ici à la fin de "
    "la tâche (rechargez la liste).",
    "es": "1 carrera marcada como no valorable; el recálculo de su tabla de valoración a "
    "partir de ella está en cola: su estado aquí cambia cuando termina la tarea (recargue "
    "la lista).",
    "de": "1 Rennen als ungewertet markiert; die Neuberechnung seiner Rangliste ab ihm steht "
    "in der Warteschlange: Sein Status hier ändert sich, wenn die Aufgabe fertig ist (Liste "
    "neu laden).",
}

#: The same, the task run in the web process before the answer.
DONE = {
    "en": "1 race marked unrated; its pool was re-rated from it on.",
    "fr": f"1 course marquée non cotée{NN}; son classement des joueurs a été recalculé à "
    "partir d\u2019elle.",
    "es": "1 carrera marcada como no valorable; su tabla de valoración se ha recalculado a "
    "partir de ella.",
    "de": "1 Rennen als ungewertet markiert; seine Rangliste wurde ab ihm neu berechnet.",
}


def _mark_unrated(language: str, capture: Any) -> tuple[list[str], str]:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="Heat")
    race_rate(race_id=race.id)
    client = _client()
    with capture(execute=True):
        resp = client.post(
            reverse("admin:games_racerating_changelist"),
            {"action": "mark_unrated", "_selected_action": [str(race.pk)]},
            HTTP_ACCEPT_LANGUAGE=language,
        )
    assert resp.status_code == 302
    said = [str(m) for m in get_messages(resp.wsgi_request)]
    return said, RaceRating.objects.get(race=race).status


@pytest.mark.parametrize("language", LANGUAGES)
def test_mark_unrated_on_a_worker_says_the_re_rating_is_queued(
    language: str, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """As on the embedded default and in production: the task goes to the worker, the
    list the admin returns to still shows the race rated."""
    from canfield_site.celery import app
    from games.services import ratings

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", False)
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(name: str, *, kwargs: dict[str, Any]) -> bool:
        sent.append((name, kwargs))
        return True

    monkeypatch.setattr(ratings, "enqueue_now", record)
    said, status = _mark_unrated(language, django_capture_on_commit_callbacks)
    assert said == [QUEUED[language]]
    assert [name for name, _ in sent] == ["games.race_rate"]
    assert status == RaceRating.Status.RATED  # not re-rated yet: the worker will


@pytest.mark.parametrize("language", LANGUAGES)
def test_mark_unrated_with_tasks_in_process_says_it_was_re_rated(
    language: str, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from canfield_site.celery import app

    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    said, status = _mark_unrated(language, django_capture_on_commit_callbacks)
    assert said == [DONE[language]]
    assert status == RaceRating.Status.NOT_RATED


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_saved_tournaments_status_comes_after_its_name_and_description(language: str) -> None:
    """It was the last row of the form, under "Created" and "Scored", for an open, a
    finished and a cancelled tournament alike; the add form has it there already."""
    import re

    client = _client()
    live = TournamentFactory(name="Live Cup")
    gone = TournamentFactory(name="Gone Cup")
    tournament_set_status(tournament_id=gone.pk, status=Tournament.Status.CANCELLED)
    for url in (
        reverse("admin:games_tournament_add"),
        reverse("admin:games_tournament_change", args=[live.pk]),
        reverse("admin:games_tournament_change", args=[gone.pk]),
    ):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        rows = re.findall(r'<div class="form-row[^"]*? field-(\w+)', page)
        assert rows[:3] == ["name", "description", "status"], (url, rows)


#: The last crumb of each confirmation for one object, and for two (an action's name).
CRUMBS = {
    "en": {
        "close_now": ("Close a race now", "Close races now"),
        "cancel": ("Cancel a race", "Cancel races"),
        "publish": ("Publish a tournament", "Publish tournaments"),
        "t_cancel": ("Cancel a tournament", "Cancel tournaments"),
    },
    "fr": {
        "close_now": ("Clore une course maintenant", "Clore des courses maintenant"),
        "cancel": ("Annuler une course", "Annuler des courses"),
        "publish": ("Publier un tournoi", "Publier des tournois"),
        "t_cancel": ("Annuler un tournoi", "Annuler des tournois"),
    },
    "es": {
        "close_now": ("Cerrar una carrera ahora", "Cerrar carreras ahora"),
        "cancel": ("Cancelar una carrera", "Cancelar carreras"),
        "publish": ("Publicar un torneo", "Publicar torneos"),
        "t_cancel": ("Cancelar un torneo", "Cancelar torneos"),
    },
    "de": {
        "close_now": ("Ein Rennen jetzt schließen", "Rennen jetzt schließen"),
        "cancel": ("Ein Rennen absagen", "Rennen absagen"),
        "publish": ("Ein Turnier veröffentlichen", "Turniere veröffentlichen"),
        "t_cancel": ("Ein Turnier absagen", "Turniere absagen"),
    },
}


def _crumb(page: str) -> str:
    crumbs = page.split('<div class="breadcrumbs">', 1)[1].split("</div>", 1)[0]
    return text_of(crumbs.rsplit("&rsaquo;", 1)[1])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_crumb_of_a_confirmation_counts_too(language: str) -> None:
    """Under "Publish this tournament?" the crumb said "Publish tournaments"."""
    one, two = running_race(name="Heat 1"), running_race(name="Heat 2")
    d1 = TournamentFactory(name="Draft 1", status=Tournament.Status.DRAFT)
    d2 = TournamentFactory(name="Draft 2", status=Tournament.Status.DRAFT)
    o1, o2 = TournamentFactory(name="Open 1"), TournamentFactory(name="Open 2")
    client = _client()
    for key, model, action, objs in (
        ("close_now", "race", "close_now", [one, two]),
        ("cancel", "race", "cancel", [one, two]),
        ("publish", "tournament", "publish", [d1, d2]),
        ("t_cancel", "tournament", "cancel", [o1, o2]),
    ):
        single = _crumb(_ask(client, model, action, objs[:1], language))
        both = _crumb(_ask(client, model, action, objs, language))
        assert (single, both) == CRUMBS[language][key], key


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pool_list_gives_the_recompute_time_as_the_other_lists_do(language: str) -> None:
    """The Rating pools list showed "5. Dezember 2026 12:35" (German), "5 de diciembre de
    2026 a las 12:35" (Spanish): no seconds, no zone, unlike every other list's times."""
    import re
    from datetime import UTC, datetime

    from games.models import RatingPool

    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="Heat")
    race_rate(race_id=race.id)
    RatingPool.objects.update(recomputed_at=datetime(2026, 12, 5, 12, 35, 7, tzinfo=UTC))
    page = (
        _client()
        .get(reverse("admin:games_ratingpool_changelist"), HTTP_ACCEPT_LANGUAGE=language)
        .content.decode()
    )
    cell = re.search(r'<td class="field-recomputed[^"]*">(.*?)</td>', page, re.S)
    assert cell is not None
    assert text_of(cell.group(1)) == "2026-12-05 12:35:07 UTC"


def test_the_german_creation_filter_reads_as_a_phrase() -> None:
    """Django heads a filter "Nach <field>": "Nach erstellt am" read as a broken phrase."""
    page = _client().get("/admin/games/tournament/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Nach Erstellungszeit" in page
    assert "Nach erstellt am" not in page
