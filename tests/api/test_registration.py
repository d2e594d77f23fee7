"""Registration: usernames unique regardless of case, enforced by the database
(issue 18.6), through the ``user_register`` service and the API."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from rest_framework.test import APIClient

from games.services.accounts import user_register
from games.services.errors import UsernameTaken
from tests.api.test_concurrency import race

PASSWORD = "correct-horse-battery-staple"


@pytest.mark.django_db
def test_a_username_in_another_case_is_taken() -> None:
    alice = user_register(username="Alice", password=PASSWORD)
    assert alice.check_password(PASSWORD)
    with pytest.raises(UsernameTaken):
        user_register(username="alice", password=PASSWORD)
    assert list(User.objects.values_list("username", flat=True)) == ["Alice"]


@pytest.mark.django_db
def test_the_database_refuses_a_case_duplicate_even_past_the_check() -> None:
    User.objects.create(username="Bob")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="bOB")
    assert User.objects.filter(username__iexact="bob").count() == 1


@pytest.mark.django_db
def test_the_api_answers_username_taken(anon: APIClient) -> None:
    first = anon.post(
        "/api/v1/auth/register", {"username": "Carol", "password": PASSWORD}, format="json"
    )
    assert first.status_code == 201
    again = anon.post(
        "/api/v1/auth/register", {"username": "CAROL", "password": PASSWORD}, format="json"
    )
    assert again.status_code == 409
    assert again["Content-Type"].startswith("application/problem+json")
    assert again.json()["code"] == "username_taken"
    assert User.objects.filter(username__iexact="carol").count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_registrations_of_alice_and_alice_create_one_account() -> None:
    names = ["Alice", "alice"]

    def register(i: int) -> Any:
        return user_register(username=names[i], password=PASSWORD)

    for _ in range(3):
        User.objects.all().delete()
        results = race(2, register)
        made = [r for r in results if isinstance(r, User)]
        refused = [r for r in results if isinstance(r, UsernameTaken)]
        assert (len(made), len(refused)) == (1, 1), results
        assert User.objects.filter(username__iexact="alice").count() == 1
