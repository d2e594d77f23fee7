# mypy: disable-error-code="no-untyped-call, attr-defined, assignment, arg-type"
"""A filter typed into an admin list's address that the database cannot run is not a 500.

Django's admin lets anyone who may see a list filter it by any of the model's own fields
(``lookup_allowed``): ``?starts_at__year=0`` raised ``ValueError`` (no year 0), and
``?name__regex=(`` an invalid regular expression in PostgreSQL.  Such a list answers as
Django does for a filter it refuses itself, ``?e=1`` (every admin of ours, and the
third-party ones, through :class:`games.admin.common.SelectionGuardAdmin`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from games.models import Race, Tournament
from tests.factories import StaffFactory
from tests.tournaments.factories import TournamentFactory, running_race

pytestmark = pytest.mark.django_db


def organiser_client() -> Client:
    user: User = StaffFactory()
    user.groups.add(Group.objects.get(name="organisers"))
    client = Client()
    client.force_login(user)
    return client


def changelist(model: Any) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")


@pytest.mark.parametrize(
    "query",
    [
        "starts_at__year=0",
        "starts_at__year=10000",
        "starts_at__year=-5",
        "starts_at__iso_year=0",
        "starts_at__year__gte=0",
    ],
)
def test_a_year_past_the_calendar_is_a_refused_filter(query: str) -> None:
    running_race(TournamentFactory(), name="live")
    response = organiser_client().get(f"{changelist(Race)}?{query}")
    assert response.status_code == 302
    assert response["Location"] == f"{changelist(Race)}?e=1"


def test_a_valid_year_still_filters() -> None:
    running_race(TournamentFactory(), name="live")
    year = Race.objects.get().starts_at.year
    response = organiser_client().get(f"{changelist(Race)}?starts_at__year={year}")
    assert response.status_code == 200
    assert response.context["cl"].result_count == 1
    response = organiser_client().get(f"{changelist(Race)}?starts_at__year={year + 1}")
    assert response.context["cl"].result_count == 0


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("model", "query"),
    [
        (Race, "name__regex=("),
        (Race, "name__iregex=["),
        (Race, "commitment__regex=*"),
        (Race, "status__regex=%5C"),
        (Tournament, "name__regex=("),
        (Tournament, "status__regex=%5C"),
    ],
)
def test_an_invalid_regular_expression_is_a_refused_filter(model: Any, query: str) -> None:
    running_race(TournamentFactory(name="Cup"), name="live")
    response = organiser_client().get(f"{changelist(model)}?{query}")
    assert response.status_code == 302
    assert response["Location"] == f"{changelist(model)}?e=1"
    # The transaction goes on: the next list is drawn (PostgreSQL aborts a transaction
    # after an error; the check ran in a savepoint).
    assert organiser_client().get(changelist(model)).status_code == 200


def test_every_admin_on_the_site_has_the_guarded_list() -> None:
    from games.admin.common import SelectionGuardAdmin

    for model_admin in admin.site._registry.values():
        assert isinstance(model_admin, SelectionGuardAdmin)
