# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""*Mark unrated* on a race that is unrated already (and *Mark rated* on a rated one)
changes nothing: the race is named as left alone, not counted among those marked, and
its history gets no new line (the message said "1 race marked unrated; its pool is
re-rated from it on." and the history "Marked unrated" again)."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from games.services.ratings import race_rate, race_set_rated
from tests.factories import StaffFactory
from tests.ratings.helpers import Result, race_of

pytestmark = pytest.mark.django_db


def test_marking_a_race_as_it_is_already_is_named_not_counted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from canfield_site.celery import app

    # Tasks in-process (the message then says the pool was re-rated), with Redis
    # configured too; the message with a worker: tests/games/test_admin_confirm_counts.py.
    monkeypatch.setattr(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)
    done = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="Done")
    other = race_of(Result("ann", 30, 1000), Result("bob", 40, 1000), name="Other")
    race_set_rated(race_id=done.id, rated=False)
    race_rate(race_id=done.id)
    race_rate(race_id=other.id)
    org: User = StaffFactory(username="org")
    org.groups.add(Group.objects.get(name="organisers"))
    client = Client()
    client.force_login(org)
    resp = client.post(
        reverse("admin:games_racerating_changelist"),
        {"action": "mark_unrated", "_selected_action": [str(done.pk), str(other.pk)]},
        follow=True,
    )
    assert [str(m) for m in resp.context["messages"]] == [
        "1 race marked unrated; its pool was re-rated from it on.",
        "Unrated already, left alone: “Done”.",
    ]
    assert not LogEntry.objects.filter(object_id=str(done.pk)).exists()
    assert LogEntry.objects.filter(
        object_id=str(other.pk), change_message="Marked unrated"
    ).exists()
    resp = client.post(
        reverse("admin:games_racerating_changelist"),
        {"action": "mark_unrated", "_selected_action": [str(done.pk)]},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert [str(m) for m in resp.context["messages"]] == ["Ya no valorable, sin cambios: «Done»."]
