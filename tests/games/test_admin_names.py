# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc"
"""The admin names things so that an organiser reading French (or Spanish, German) can
tell them apart and reads no "objet": the race's stored status beside its phase by the
clock, each model with its article ("Ajouter une course"), every model named in each
language, and the add-races form says what time it is in UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.admin.tournament import TournamentAdmin
from tests.games.test_admin_language import NNBSP, get, text_of
from tests.games.test_admin_user_delete_summary import _games
from tests.tournaments.factories import Result, TournamentFactory, finished_race, play, running_race
from tests.tournaments.test_admin import client_for, organiser

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> dict[str, Any]:
    """A tournament with a finished race and a running one (as test_admin_language's)."""
    t = TournamentFactory(name="Evening Cup")
    done = finished_race(t, Result("ann", 30, 4000, moves=70), Result("bob", 12, 2500), name="R1")
    live = running_race(t, name="R2")
    play(live, Result("ann", 20, 3000, moves=50))
    return {"tournament": t, "finished": done, "running": live, "client": client_for(organiser())}


@pytest.mark.parametrize(
    ("language", "status", "phase"),
    [
        ("en", "Stored status", "Phase now"),
        ("fr", "État enregistré", "Phase actuelle"),
        ("es", "Estado registrado", "Fase actual"),
        ("de", "Status (gespeichert)", "Aktuelle Phase"),
    ],
)
def test_the_race_list_tells_the_stored_status_from_the_phase(
    cup: dict[str, Any], language: str, status: str, phase: str
) -> None:
    page, text = get(cup["client"], reverse("admin:games_race_changelist"), language)
    headers = [text_of(h) for h in re.findall(r'<th scope="col"[^>]*>.*?</th>', page, re.S)]
    assert headers[3:5] == [status, phase]
    assert status != phase


def test_every_model_is_named_in_each_language() -> None:
    """Each model of the project has a singular and a plural name in fr, es and de that
    is not the English one (Django showed "deal", "moves" on a French page)."""
    models = list(apps.get_app_config("games").get_models())
    assert len(models) >= 15
    for model in models:
        opts = model._meta
        with translation.override("en"):
            english = (str(opts.verbose_name), str(opts.verbose_name_plural))
        for language in ("fr", "es", "de"):
            with translation.override(language):
                named = (str(opts.verbose_name), str(opts.verbose_name_plural))
            assert named[0] != english[0], (language, model)
            assert named[1] != english[1], (language, model)
    with translation.override("fr"):
        names = {m.__name__: str(m._meta.verbose_name_plural) for m in models}
    assert (names["Game"], names["Move"], names["Deal"]) == ("parties", "coups", "donnes")


def test_the_admin_says_ajouter_un_tournoi_in_french(cup: dict[str, Any]) -> None:
    c = cup["client"]
    t = cup["tournament"]
    page, text = get(c, reverse("admin:games_tournament_changelist"), "fr")
    assert "<h1>Choisissez un tournoi à modifier</h1>" in page
    assert re.search(r'class="addlink">\s*Ajouter un tournoi\s*</a>', page)
    page, text = get(c, reverse("admin:games_tournament_add"), "fr")
    assert "<h1>Ajouter un tournoi</h1>" in page
    assert "Tournois \u203a Ajouter un tournoi" in text  # the breadcrumbs
    page, text = get(c, reverse("admin:games_tournament_change", args=[t.pk]), "fr")
    assert "Ajouter un participant au tournoi" in page  # the entrants' "add another" link
    page, text = get(c, reverse("admin:games_race_changelist"), "fr")
    assert "<h1>Choisissez une course à modifier</h1>" in page
    page, _ = get(c, reverse("admin:games_ratingpool_changelist"), "fr")
    assert "<h1>Choisissez un classement des joueurs à consulter</h1>" in page
    for url in (
        reverse("admin:games_tournament_changelist"),
        reverse("admin:games_tournament_add"),
        reverse("admin:games_tournament_change", args=[t.pk]),
        reverse("admin:games_race_changelist"),
        reverse("admin:games_race_change", args=[cup["running"].pk]),
        reverse("admin:games_tournamententrant_add"),
        reverse("admin:games_raceentry_changelist"),
    ):
        page, text = get(c, url, "fr")
        assert not re.search(r"(un|l\u2019|l')objet", page), url  # "Ajouter un objet ..."
        assert "Ajout de " not in text, url


def test_the_user_pages_name_the_user_with_its_article() -> None:
    boss = User.objects.create_superuser("boss", password="a-long-password-9")
    c = Client()
    c.force_login(boss)
    page, text = get(c, reverse("admin:auth_user_changelist"), "fr")
    assert "<h1>Choisissez un utilisateur à modifier</h1>" in page
    assert re.search(r'class="addlink">\s*Ajouter un utilisateur\s*</a>', page)
    page, text = get(c, reverse("admin:auth_user_add"), "fr")
    assert "Utilisateurs \u203a Ajouter un utilisateur" in text
    page, _ = get(c, reverse("admin:auth_group_add"), "fr")
    assert "<h1>Ajouter un groupe</h1>" in page


@pytest.mark.parametrize(
    ("language", "title", "button"),
    [
        ("en", "Select a tournament to change", "Add a tournament"),
        ("es", "Seleccione un torneo para modificar", "Añadir un torneo"),
        ("de", "Turnier zum Ändern auswählen", "Turnier hinzufügen"),
    ],
)
def test_the_list_title_and_button_elsewhere(
    cup: dict[str, Any], language: str, title: str, button: str
) -> None:
    page, _ = get(cup["client"], reverse("admin:games_tournament_changelist"), language)
    assert f"<h1>{title}</h1>" in page
    assert re.search(rf'class="addlink">\s*{button}\s*</a>', page)


def test_the_account_delete_summary_in_french() -> None:
    boss = User.objects.create_superuser("boss", password="a-long-password-9")
    ann = User.objects.create_user("ann", password="a-long-password-9")
    _games(ann, [3])
    c = Client()
    c.force_login(boss)
    _, text = get(c, reverse("admin:auth_user_delete", args=[ann.pk]), "fr")
    assert "Parties: 1" in text  # Django's own summary line
    assert "Coups: 3" in text
    assert f"Coups{NNBSP}: 3" in text  # the line under the game


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "YYYY-MM-DD HH:MM, UTC (now: 2031-05-01 17:42 UTC)"),
        ("fr", "AAAA-MM-JJ HH:MM, UTC (il est maintenant 2031-05-01 17:42 UTC)"),
        ("es", "AAAA-MM-DD HH:MM, UTC (ahora: 2031-05-01 17:42 UTC)"),
        ("de", "JJJJ-MM-TT HH:MM, UTC (jetzt: 2031-05-01 17:42 UTC)"),
    ],
)
def test_the_add_races_form_shows_the_current_utc_time(
    cup: dict[str, Any], monkeypatch: pytest.MonkeyPatch, language: str, words: str
) -> None:
    monkeypatch.setattr(
        TournamentAdmin, "clock", staticmethod(lambda: datetime(2031, 5, 1, 17, 42, 59, tzinfo=UTC))
    )
    url = reverse("admin:games_tournament_add_races", args=[cup["tournament"].pk])
    _, text = get(cup["client"], url, language)
    assert words in text


def test_django_words_around_a_name_say_no_objet_in_french(cup: dict[str, Any]) -> None:
    """Django's own messages around a model's name, worded again in our catalogue: the
    buttons beside a foreign key and the message after a save."""
    c = cup["client"]
    page, _ = get(c, reverse("admin:games_tournamententrant_add"), "fr")
    assert 'title="Modifier la sélection (tournoi)"' in page
    saved = c.post(
        reverse("admin:games_tournament_add"),
        {
            "name": "Spring Cup",
            "description": "",
            "status": "draft",
            "scoring": "place_points",
            "points_table": "[]",
            "points_per_card": 1,
            "win_bonus": 20,
            "entry": "open",
            **{
                f"{p}-{k}": 0
                for p in ("standings", "races", "entrants")
                for k in ("TOTAL_FORMS", "INITIAL_FORMS")
            },
        },
        HTTP_ACCEPT_LANGUAGE="fr",
        follow=True,
    )
    messages = [text_of(str(m)) for m in saved.context["messages"]]
    assert messages == [f"Ajout réussi{NNBSP}: tournoi «\u202fSpring Cup\u202f»."]
