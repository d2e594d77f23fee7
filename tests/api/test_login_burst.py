# mypy: disable-error-code="no-untyped-call, attr-defined"
"""Simultaneous password guesses cannot pass the login lockout's limit.

django-axes checks the lockout before the password and counts a failure after it, so
guesses sent at once (one per server worker) all passed the check before any was
counted.  :func:`canfield_site.security.reserve_login_slot` counts the attempts in
flight.  "At once" is made exact here, without threads: each attempt's password check
starts the next attempt, so every earlier attempt is still in flight when a later one
begins (the order a burst on several workers can take).
"""

from __future__ import annotations

from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import RequestFactory, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def _request(address: str) -> Any:
    return RequestFactory().post("/api/v1/auth/token", REMOTE_ADDR=address)


def _burst(monkeypatch: pytest.MonkeyPatch, attempts: list[tuple[str, str, str]]) -> list[Any]:
    """Run ``attempts`` (username, password, address) nested: the password check of
    each starts the next.  Returns, per attempt, ``"user"``, ``"wrong"`` or
    ``"locked_out"``; records every password checked in ``checked``."""
    outcomes: list[Any] = [None] * len(attempts)
    checked: list[str] = []
    original = User.check_password
    nxt = iter(range(len(attempts)))

    def run(index: int) -> None:
        username, password, address = attempts[index]
        request = _request(address)
        user = authenticate(request, username=username, password=password)
        if user is not None:
            outcomes[index] = "user"
        else:
            outcomes[index] = (
                "locked_out" if getattr(request, "axes_locked_out", False) else "wrong"
            )

    def check_password(self: User, raw: str) -> bool:
        checked.append(raw)
        following = next(nxt, None)
        if following is not None:
            run(following)
        return bool(original(self, raw))

    monkeypatch.setattr(User, "check_password", check_password)
    first = next(nxt)
    run(first)
    # Attempts refused before any password check did not start the next one: run the rest.
    for index in nxt:
        run(index)
    return [outcomes, checked]


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_burst_of_guesses_checks_at_most_the_limits_passwords(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    UserFactory(username="erin")
    guesses = [("erin", f"guess-{i}", f"198.51.100.{i}") for i in range(6)]
    outcomes, checked = _burst(monkeypatch, guesses)
    # Three guesses were in flight together; the fourth was refused unchecked and
    # counted as a failure (as an attempt during a lockout is).  The three then failed
    # innermost first: the third failure (guess-1) reached the limit and was answered
    # with the lockout, as was everything after it.
    assert checked == ["guess-0", "guess-1", "guess-2"]
    assert outcomes == [
        "locked_out",
        "locked_out",
        "wrong",
        "locked_out",
        "locked_out",
        "locked_out",
    ]
    failures = AccessAttempt.objects.filter(username="erin").values_list(
        "failures_since_start", flat=True
    )
    assert sum(failures) == 6
    # Nothing is left in flight.
    assert cache.get("login-slot:username:erin") == 0
    assert cache.get("login-slot:address:198.51.100.0") == 0


@override_settings(AXES_FAILURE_LIMIT=3)
def test_slots_count_per_address_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """One address guessing three usernames at once: the third is the limit's last."""
    guesses = [(f"ghost{i}", "guess", "203.0.113.66") for i in range(4)]
    outcomes, checked = _burst(monkeypatch, guesses)
    # No such users: ModelBackend checks no password, so nothing nests; the four run one
    # after another and the address is locked out by the third failure.
    assert checked == []
    assert outcomes == ["wrong", "wrong", "locked_out", "locked_out"]
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 4
    assert cache.get("login-slot:address:203.0.113.66") == 0


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_success_in_a_burst_releases_its_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    UserFactory(username="frank")
    attempts = [
        ("frank", "guess-0", "198.51.100.1"),
        ("frank", PASSWORD, "198.51.100.2"),
        ("frank", "guess-2", "198.51.100.3"),
    ]
    outcomes, checked = _burst(monkeypatch, attempts)
    assert checked == ["guess-0", PASSWORD, "guess-2"]
    assert outcomes == ["wrong", "user", "wrong"]
    assert cache.get("login-slot:username:frank") == 0
    # A later login with the right password is not held back by any slot.
    assert authenticate(_request("198.51.100.9"), username="frank", password=PASSWORD)
