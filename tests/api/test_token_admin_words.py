# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The API tokens in the admin are named in the admin's language: knox (no app config,
no translations of its own) showed its heading "Knox" and its model "Auth tokens" on a
French, Spanish or German admin page.  ``api.apps.KnoxConfig`` names them, with no
migration (the model's migration state is knox's own)."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.questioner import NonInteractiveMigrationQuestioner
from django.db.migrations.state import ProjectState
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

WORDS = {
    "en": ("API access", "API tokens"),
    "fr": ("Accès à l\u2019API", "Jetons d\u2019API"),
    "es": ("Acceso a la API", "Tokens de API"),
    "de": ("API-Zugang", "API-Tokens"),
}


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_admin_index_names_the_tokens_in_its_language(language: str) -> None:
    c = Client()
    c.force_login(UserFactory(is_staff=True, is_superuser=True))
    resp = c.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE=language)
    assert resp.status_code == 200
    (knox,) = [a for a in resp.context["app_list"] if a["app_label"] == "knox"]
    heading, model_name = WORDS[language]
    assert knox["name"] == heading
    assert [m["name"] for m in knox["models"]] == [model_name]
    html = resp.content.decode()
    assert "Auth tokens" not in html
    assert ">Knox<" not in html


def test_the_token_list_is_titled_in_the_admins_language() -> None:
    c = Client()
    c.force_login(UserFactory(is_staff=True, is_superuser=True))
    resp = c.get(reverse("admin:knox_authtoken_changelist"), HTTP_ACCEPT_LANGUAGE="fr")
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "jeton d\u2019API" in html
    assert "auth token" not in html.lower()


def test_the_names_need_no_migration() -> None:
    assert type(apps.get_app_config("knox")).__name__ == "KnoxConfig"
    assert "verbose_name" not in AuthToken._meta.original_attrs
    loader = MigrationLoader(None, ignore_no_migrations=True)
    changes = MigrationAutodetector(
        loader.project_state(),
        ProjectState.from_apps(apps),
        NonInteractiveMigrationQuestioner(specified_apps={"knox"}, dry_run=True),
    ).changes(graph=loader.graph, trim_to_apps={"knox"})
    assert changes == {}
