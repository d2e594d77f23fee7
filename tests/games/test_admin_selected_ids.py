# mypy: disable-error-code="no-untyped-call, attr-defined"
"""An admin action posted with a malformed selected id (``_selected_action``) is not a
500: every admin of ours drops the ids that cannot be keys of its model
(:class:`games.admin.common.SelectionGuardAdmin`) and runs the action on the rest, or
says that nothing was selected."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import User
from django.contrib.messages import get_messages
from django.test import Client, RequestFactory
from django.urls import reverse

from games.models import Tournament
from tests.tournaments.factories import TournamentFactory

pytestmark = pytest.mark.django_db

#: Not a UUID, empty, an integer past any column, not an integer.
MALFORMED = ["not-a-uuid", "", "9" * 30, "1e5"]

#: Every model admin on the site: ours (``games.admin``) and the third-party ones
#: (django-axes, django-celery-beat, Django's groups), guarded by
#: :func:`games.admin.common.guard_every_admin`.
OURS = sorted(admin.site._registry.items(), key=lambda pair: pair[0]._meta.label)


def superuser_client() -> tuple[User, Client]:
    user = User.objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(user)
    return user, client


def changelist(model: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


def test_every_admin_of_ours_is_covered() -> None:
    labels = {model._meta.label for model, _ in OURS}
    assert {
        "games.Race",
        "games.Tournament",
        "games.RaceEntry",
        "auth.User",
        "auth.Group",
        "axes.AccessAttempt",
        "axes.AccessLog",
        "django_celery_beat.PeriodicTask",
    } <= labels


@pytest.mark.parametrize(("model", "model_admin"), OURS, ids=[m._meta.label for m, _ in OURS])
def test_a_malformed_selected_id_is_not_a_500(model: Any, model_admin: Any) -> None:
    user, client = superuser_client()
    TournamentFactory(name="Untouched")
    request = RequestFactory().get("/")
    request.user = user
    for action in model_admin.get_actions(request):
        for bad in MALFORMED:
            # "index": the list's action bar; without it: a confirmation page posting back.
            for extra in ({"index": "0"}, {"post": "yes", "apply": "1", "reason": "x"}):
                response = client.post(
                    changelist(model), {"action": action, "_selected_action": [bad], **extra}
                )
                assert response.status_code in (200, 302), (action, bad, extra)
    assert Tournament.objects.filter(name="Untouched", status=Tournament.Status.OPEN).exists()


def test_the_action_runs_on_the_well_formed_ids_only() -> None:
    _, client = superuser_client()
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    response = client.post(
        changelist(Tournament),
        {
            "action": "publish",
            "index": "0",
            "apply": "1",
            "_selected_action": ["not-a-uuid", str(draft.pk)],
        },
    )
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.OPEN


def test_only_malformed_ids_select_nothing() -> None:
    _, client = superuser_client()
    draft = TournamentFactory(status=Tournament.Status.DRAFT)
    response = client.post(
        changelist(Tournament),
        {"action": "publish", "index": "0", "_selected_action": ["not-a-uuid"]},
    )
    assert response.status_code == 302
    said = [str(m) for m in get_messages(response.wsgi_request)]
    assert any("Items must be selected" in m for m in said), said
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT
