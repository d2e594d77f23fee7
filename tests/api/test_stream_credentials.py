"""A stream re-checks the credentials it was opened with (api.streams._still_signed_in).

The live-server test (tests/live/test_streams_server.py) shows a revoked token
ending its streams; these check each kind of credential against the database
directly: a session ended by logout or by a password change, a deleted token.
"""

from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from api.streams import _still_signed_in
from games.services.tokens import token_issue

pytestmark = pytest.mark.django_db


def _session_request(client: Client) -> object:
    request = RequestFactory().get("/api/v1/games/x/events")
    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(key)
    return request


def test_a_session_holds_until_logout() -> None:
    user = User.objects.create_user("hana", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    request = _session_request(client)
    assert _still_signed_in(request, user, "session") is True  # type: ignore[arg-type]
    client.logout()
    assert _still_signed_in(request, user, "session") is False  # type: ignore[arg-type]


def test_a_password_change_ends_the_other_sessions() -> None:
    user = User.objects.create_user("ines", password="a-long-password-1")
    client = Client()
    client.force_login(user)
    request = _session_request(client)
    user.set_password("another-long-password-2")
    user.save()
    assert _still_signed_in(request, user, "session") is False  # type: ignore[arg-type]


def test_a_token_holds_until_it_is_deleted() -> None:
    user = User.objects.create_user("jack", password="a-long-password-1")
    other = User.objects.create_user("kate", password="a-long-password-1")
    text, row = token_issue(user=user)
    request = RequestFactory().get("/x", HTTP_AUTHORIZATION=f"Token {text}")
    assert _still_signed_in(request, user, "token") is True
    assert _still_signed_in(request, other, "token") is False  # another user's stream
    row.delete()
    assert _still_signed_in(request, user, "token") is False


def test_an_anonymous_stream_has_nothing_to_lose() -> None:
    request = RequestFactory().get("/x")
    assert _still_signed_in(request, object(), "") is True
