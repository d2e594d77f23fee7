"""``manage.py ensure_dev_superuser`` (used by ``python3 dev.py serve``)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import override_settings


@pytest.mark.django_db
@override_settings(DEBUG=True)
def test_creates_once_then_reports() -> None:
    """The first run creates admin/admin; the second leaves it and says how to log in."""
    out = StringIO()
    call_command("ensure_dev_superuser", stdout=out)
    assert "username 'admin' and password 'admin'" in out.getvalue()
    user = get_user_model().objects.get(username="admin")
    assert user.is_superuser
    assert user.check_password("admin")

    out = StringIO()
    call_command("ensure_dev_superuser", stdout=out)
    assert "Superuser exists" in out.getvalue()
    assert get_user_model().objects.filter(is_superuser=True).count() == 1


@pytest.mark.django_db
@override_settings(DEBUG=False)
def test_refuses_without_debug() -> None:
    """No default-password superuser outside development."""
    with pytest.raises(CommandError):
        call_command("ensure_dev_superuser")
    assert not get_user_model().objects.exists()
