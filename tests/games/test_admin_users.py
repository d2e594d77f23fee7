"""Accounts added in the admin follow the players' username rules (games.admin.users).

A tester added ``..`` in the admin: the API and the sign-up page refuse it, and its
player page cannot be reached (a browser resolves ``/players/../`` to the lobby).
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-admin-password-9"


def _admin() -> Client:
    User.objects.create_superuser("boss", password=PASSWORD)
    client = Client()
    client.force_login(User.objects.get(username="boss"))
    return client


def _add(client: Client, username: str) -> int:
    return client.post(
        "/admin/auth/user/add/",
        {
            "username": username,
            "usable_password": "true",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    ).status_code


def test_the_admin_refuses_a_username_of_dots_only() -> None:
    client = _admin()
    for name in (".", ".."):
        assert _add(client, name) == 200  # the form again, with the error
    assert not User.objects.filter(username__in=[".", ".."]).exists()
    assert _add(client, "new.player") == 302
    assert _add(client, "NEW.PLAYER") == 200  # Django's own check still runs: taken
    assert User.objects.filter(username__iexact="new.player").count() == 1
    user = User.objects.get(username="new.player")
    rename = client.post(
        f"/admin/auth/user/{user.pk}/change/",
        {"username": "..", "date_joined_0": "2026-12-02", "date_joined_1": "10:00:00"},
    )
    assert rename.status_code == 200
    assert "A username cannot be made of dots only." in rename.content.decode()
    user.refresh_from_db()
    assert user.username == "new.player"
