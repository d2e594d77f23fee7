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
from django.test import RequestFactory, override_settings

import games.services.accounts
from canfield_site.security import slot_cache, slot_key
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
    original = games.services.accounts.password_check
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

    def check_password(*, account: User, password: str) -> bool:
        checked.append(password)
        following = next(nxt, None)
        if following is not None:
            run(following)
        return original(account=account, password=password)

    monkeypatch.setattr(games.services.accounts, "password_check", check_password)
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
    guesses = [("erin", f"guess-{i}", "198.51.100.0") for i in range(6)]
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
    assert slot_cache().get(slot_key("username+address", "erin\n198.51.100.0")) == 0
    assert slot_cache().get(slot_key("address", "198.51.100.0")) == 0
    assert slot_cache().get(slot_key("username", "erin")) is None  # never counted alone


@override_settings(AXES_FAILURE_LIMIT=3)
def test_guesses_in_flight_from_other_addresses_hold_back_no_account_holder(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A rival kept guesses at erin in flight from several addresses: the attempts in
    flight were counted per username, so erin's own login, in flight beside them, was
    refused as locked out (and counted as a failure).  Only the guessers' addresses
    count now."""
    UserFactory(username="erin")
    attempts = [("erin", f"guess-{i}", f"203.0.113.{i}") for i in range(5)]
    outcomes, checked = _burst(monkeypatch, [*attempts, ("erin", PASSWORD, "198.51.100.5")])
    assert checked == ["guess-0", "guess-1", "guess-2", "guess-3", "guess-4", PASSWORD]
    assert outcomes == ["wrong", "wrong", "wrong", "wrong", "wrong", "user"]


@override_settings(AXES_FAILURE_LIMIT=3, LOGIN_ADDRESS_FAILURE_LIMIT=3)
def test_slots_count_per_address_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """One address guessing three usernames at once: the third is the limit's last."""
    guesses = [(f"ghost{i}", "guess", "203.0.113.66") for i in range(4)]
    outcomes, checked = _burst(monkeypatch, guesses)
    # No such users: ModelBackend checks no password, so nothing nests; the four run one
    # after another and the address is locked out by the third failure.
    assert checked == []
    assert outcomes == ["wrong", "wrong", "locked_out", "locked_out"]
    assert sum(AccessAttempt.objects.values_list("failures_since_start", flat=True)) == 4
    assert slot_cache().get(slot_key("address", "203.0.113.66")) == 0


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_success_in_a_burst_releases_its_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    UserFactory(username="frank")
    attempts = [
        ("frank", "guess-0", "198.51.100.1"),
        ("frank", PASSWORD, "198.51.100.1"),
        ("frank", "guess-2", "198.51.100.1"),
    ]
    outcomes, checked = _burst(monkeypatch, attempts)
    assert checked == ["guess-0", PASSWORD, "guess-2"]
    assert outcomes == ["wrong", "user", "wrong"]
    assert slot_cache().get(slot_key("address", "198.51.100.1")) == 0
    # A later login with the right password is not held back by any slot.
    assert authenticate(_request("198.51.100.9"), username="frank", password=PASSWORD)


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_slot_key_does_not_expire_under_attempts_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The slot counter lived LOGIN_SLOT_SECONDS from its creation, however busy: a
    burst in flight when it expired was forgotten (the next guess started from 1) and
    its releases drove the new counter below zero (more guesses still)."""
    import datetime
    import time

    import django.core.cache.backends.db

    from canfield_site.security import LOGIN_SLOT_SECONDS

    clock = [1_000_000.0]
    monkeypatch.setattr(time, "time", lambda: clock[0])
    # The database cache (the login slots without CACHE_URL) reads the time as a datetime.
    monkeypatch.setattr(
        django.core.cache.backends.db,
        "tz_now",
        lambda: datetime.datetime.fromtimestamp(clock[0], tz=datetime.UTC),
    )
    UserFactory(username="gina")
    # An earlier login creates the address's counter (back to 0 once done).
    assert authenticate(_request("198.51.100.0"), username="gina", password=PASSWORD)
    clock[0] += LOGIN_SLOT_SECONDS - 0.5
    original = games.services.accounts.password_check
    checked: list[str] = []

    def check_password(*, account: User, password: str) -> bool:
        checked.append(password)
        if len(checked) == 3:
            clock[0] += 1  # the counter's first minute ends during the third check
        if len(checked) < 6:
            n = len(checked)
            authenticate(_request("198.51.100.0"), username="gina", password=f"guess-{n}")
        return original(account=account, password=password)

    monkeypatch.setattr(games.services.accounts, "password_check", check_password)
    authenticate(_request("198.51.100.0"), username="gina", password="guess-0")
    assert checked == ["guess-0", "guess-1", "guess-2"]
    assert slot_cache().get(slot_key("address", "198.51.100.0")) == 0


def test_a_stray_release_does_not_take_the_counter_below_zero() -> None:
    """A slot released after its counter expired and was created again (a request
    that outlived LOGIN_SLOT_SECONDS) must not make room for extra guesses."""
    from canfield_site.security import release_login_slot, reserve_login_slot

    old, new = _request("198.51.100.60"), _request("198.51.100.60")
    reserve_login_slot(old, username="hank", password="x")
    pair = slot_key("username+address", "hank\n198.51.100.60")
    slot_cache().delete_many([pair, slot_key("address", "198.51.100.60")])
    reserve_login_slot(new, username="hank", password="x")
    release_login_slot(new)
    release_login_slot(old)
    assert slot_cache().get(pair) == 0
    assert slot_cache().get(slot_key("address", "198.51.100.60")) == 0


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failures_and_attempts_in_flight_add_up_per_parameter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An account with no failure, logging in from two devices at once, one behind an
    address with two failures of other usernames: neither the username (0 + 2 in
    flight) nor that address (2 + 1) passes the limit of 3; adding the address's
    failures to the username's attempts in flight refused the account holder."""
    UserFactory(username="ivy")
    for i in range(2):
        authenticate(_request("198.51.100.70"), username=f"ghost{i}", password="guess")
    outcomes, checked = _burst(
        monkeypatch, [("ivy", PASSWORD, "198.51.100.71"), ("ivy", PASSWORD, "198.51.100.70")]
    )
    assert outcomes == ["user", "user"]


def test_any_username_makes_a_valid_cache_key() -> None:
    """A name with spaces, or one that folds to thousands of characters (U+FDFA is 18
    once folded), was a key Django's cache warns about (memcached would refuse it); the
    long one was also a 500 on PostgreSQL, past django-axes' 255-character column (the
    lockout keeps the first 255 folded characters)."""
    import warnings

    from django.core.cache.backends.base import CacheKeyWarning

    for name in ("two words", "\ufdfa" * 150):
        with warnings.catch_warnings():
            warnings.simplefilter("error", CacheKeyWarning)
            user = authenticate(_request("198.51.100.70"), username=name, password="guess")
        assert user is None
        assert len(slot_key("username", name)) == len("login-slot:username:") + 64
    lengths = sorted(len(u) for u in AccessAttempt.objects.values_list("username", flat=True))
    assert lengths == [len("two words"), 255]


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_password_check_that_raises_releases_its_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """A login whose password check raises (a database error) sends no
    ``user_login_failed``, so nothing released its slot: with two failures counted, the
    account holder's next correct login was refused as locked out (2 failures + 2 in
    flight > 3) until the slot lapsed LOGIN_SLOT_SECONDS later."""
    from django.db import DatabaseError

    UserFactory(username="jill")
    for i in range(2):
        assert (
            authenticate(_request("198.51.100.80"), username="jill", password=f"guess-{i}") is None
        )
    original = games.services.accounts.password_check

    def broken(*, account: User, password: str) -> bool:
        raise DatabaseError("connection lost")

    monkeypatch.setattr(games.services.accounts, "password_check", broken)
    with pytest.raises(DatabaseError, match="connection lost"):
        authenticate(_request("198.51.100.81"), username="jill", password=PASSWORD)
    assert slot_cache().get(slot_key("username+address", "jill\n198.51.100.81")) == 0
    assert slot_cache().get(slot_key("address", "198.51.100.81")) == 0
    # Not counted as a failure: the password was never checked.
    failures = AccessAttempt.objects.filter(username="jill").values_list(
        "failures_since_start", flat=True
    )
    assert sum(failures) == 2

    monkeypatch.setattr(games.services.accounts, "password_check", original)
    request = _request("198.51.100.81")
    user = authenticate(request, username="jill", password=PASSWORD)
    assert user is not None
    assert user.username == "jill"
    assert not getattr(request, "axes_locked_out", False)
    assert slot_cache().get(slot_key("username+address", "jill\n198.51.100.81")) == 0


def test_a_failure_count_that_raises_releases_the_slot(monkeypatch: pytest.MonkeyPatch) -> None:
    """With another attempt in flight, reserving a slot reads the failures counted; when
    that read raises (a database error), the slot just taken is released."""
    from django.db import DatabaseError

    from canfield_site import security

    first, second = _request("198.51.100.90"), _request("198.51.100.90")
    security.reserve_login_slot(first, username="kim", password="x")

    def broken(request: Any, credentials: Any) -> dict[str, int]:
        raise DatabaseError("connection lost")

    monkeypatch.setattr(security, "_failures_per_parameter", broken)
    with pytest.raises(DatabaseError):
        security.reserve_login_slot(second, username="kim", password="x")
    assert (
        slot_cache().get(slot_key("username+address", "kim\n198.51.100.90")) == 1
    )  # only the first is in flight
    security.release_login_slot(first)
    assert slot_cache().get(slot_key("username+address", "kim\n198.51.100.90")) == 0
    assert slot_cache().get(slot_key("address", "198.51.100.90")) == 0
