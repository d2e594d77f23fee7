# mypy: disable-error-code="no-untyped-call, attr-defined"
"""Client addresses only from declared proxies, and the login lockout (issue 12 item 1).

The fault: with no proxy in front, a new ``X-Forwarded-For`` on every request made every
request a new client, so 40 of 40 password guesses passed a 30/min throttle.  Now the
address comes from :func:`canfield_site.security.client_address` (``TRUSTED_PROXY_COUNT``)
for every throttle and for django-axes, which locks out repeated failed logins per
address (never per username alone) on the API token endpoint and on Django's
``LoginView``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client, RequestFactory, override_settings
from django.urls import URLPattern, get_resolver
from rest_framework.settings import api_settings
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from api.accounts import TokenView
from canfield_site.security import client_address
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"


def _request(remote: str, xff: str | None) -> Any:
    request = RequestFactory().get("/", REMOTE_ADDR=remote)
    if xff is not None:
        request.META["HTTP_X_FORWARDED_FOR"] = xff
    return request


@pytest.mark.parametrize(
    ("proxies", "remote", "xff", "expected"),
    [
        (0, "203.0.113.9", None, "203.0.113.9"),
        (0, "203.0.113.9", "198.51.100.1", "203.0.113.9"),  # no proxy: header ignored
        (0, "203.0.113.9", "1.1.1.1, 2.2.2.2", "203.0.113.9"),
        (1, "10.0.0.2", "198.51.100.1", "198.51.100.1"),  # the proxy appended the client
        (1, "10.0.0.2", "6.6.6.6, 198.51.100.1", "198.51.100.1"),  # spoofed entry on the left
        (2, "10.0.0.2", "6.6.6.6, 198.51.100.1, 10.0.0.3", "198.51.100.1"),
        (2, "10.0.0.2", "198.51.100.1", "198.51.100.1"),  # fewer entries than proxies
        (1, "10.0.0.2", None, "10.0.0.2"),
        (1, "10.0.0.2", "", "10.0.0.2"),
        (1, "10.0.0.2", "not-an-address", "10.0.0.2"),
        (1, "10.0.0.2", " 2001:DB8::1 ", "2001:db8::1"),
    ],
)
def test_client_address_believes_only_declared_proxies(
    proxies: int, remote: str, xff: str | None, expected: str
) -> None:
    with override_settings(TRUSTED_PROXY_COUNT=proxies):
        assert client_address(_request(remote, xff)) == expected


def _api_views() -> list[type[APIView]]:
    views: list[type[APIView]] = []

    def walk(patterns: list[Any]) -> None:
        for p in patterns:
            if isinstance(p, URLPattern):
                cls = getattr(p.callback, "cls", None)
                if isinstance(cls, type) and issubclass(cls, APIView):
                    views.append(cls)
            else:
                walk(p.url_patterns)

    walk(get_resolver().url_patterns)
    return views


@pytest.mark.parametrize("proxies", [0, 1, 2])
def test_every_throttle_uses_the_client_address(proxies: int) -> None:
    """Every throttle class of every API view identifies a client as the lockout counts it
    (lockout_address: client_address, an IPv6 one by its /64)."""
    views = _api_views()
    assert len(views) > 10
    classes: set[Any] = {t for v in views for t in v.throttle_classes} | set(
        api_settings.DEFAULT_THROTTLE_CLASSES
    )
    assert classes
    requests = [
        _request("203.0.113.9", xff)
        for xff in (None, "", "198.51.100.1", "6.6.6.6, 198.51.100.1", "garbage, x", "1.2.3.4")
    ]
    with override_settings(TRUSTED_PROXY_COUNT=proxies):
        for cls in classes:
            for request in requests:
                assert cls().get_ident(request) == client_address(request), (cls, request.META)
            # A host roaming its /64 stays one client (it was a new one per address).
            roaming = {
                cls().get_ident(_request(f"2001:db8:1:2::{n:x}", None)) for n in (1, 2, 0xBEEF)
            }
            assert roaming == {"2001:db8:1:2::"}, cls


def _throttle_auth(monkeypatch: pytest.MonkeyPatch, rate: str) -> None:
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"auth": rate, "games": "1000/s"})


@pytest.mark.parametrize("endpoint", ["register", "token"])
def test_rotating_forwarded_for_does_not_lift_the_throttle(
    monkeypatch: pytest.MonkeyPatch, endpoint: str
) -> None:
    """No proxy declared: 5 requests with 5 different X-Forwarded-For, limit 3/min."""
    _throttle_auth(monkeypatch, "3/min")
    UserFactory(username="victim")
    codes = []
    for i in range(5):
        body = (
            {"username": f"new{i}", "password": "a-long-unusual-passphrase"}
            if endpoint == "register"
            else {"username": "victim", "password": f"guess-{i}"}
        )
        resp = APIClient(REMOTE_ADDR="203.0.113.9").post(
            f"/api/v1/auth/{endpoint}", body, format="json", HTTP_X_FORWARDED_FOR=f"10.9.9.{i}"
        )
        codes.append(resp.status_code)
    assert codes[3:] == [429, 429]
    assert all(c != 429 for c in codes[:3])


@override_settings(TRUSTED_PROXY_COUNT=1)
def test_behind_a_declared_proxy_each_client_has_its_own_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One proxy: the rightmost entry is the client; spoofed entries left of it change nothing."""
    _throttle_auth(monkeypatch, "2/min")
    proxy = APIClient(REMOTE_ADDR="10.0.0.2")

    def register(name: str, xff: str) -> int:
        body = {"username": name, "password": "a-long-unusual-passphrase"}
        return int(
            proxy.post(
                "/api/v1/auth/register", body, format="json", HTTP_X_FORWARDED_FOR=xff
            ).status_code
        )

    first = [register(f"a{i}", f"6.6.6.{i}, 198.51.100.1") for i in range(3)]
    assert first == [201, 201, 429]
    assert register("b0", "198.51.100.2") == 201  # another client behind the same proxy


def _login(client: APIClient, username: str, password: str) -> Any:
    return client.post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failed_logins_from_other_addresses_do_not_lock_the_account_holder_out() -> None:
    """A rival sent wrong passwords for alice just before a race, from three addresses
    and then many more: the lockout was per username, so alice could not log in for
    15 minutes.  Now each address is locked out, alice (elsewhere) is not."""
    UserFactory(username="alice")
    codes = [
        _login(APIClient(REMOTE_ADDR=f"198.51.100.{i}"), "alice", f"wrong-{i}").json()["code"]
        for i in range(12)
    ]
    assert codes == ["invalid_credentials"] * 12
    resp = _login(APIClient(REMOTE_ADDR="198.51.100.200"), "ALICE", PASSWORD)
    assert resp.status_code == 200
    assert resp.json()["token"]


@override_settings(AXES_FAILURE_LIMIT=3)
def test_failed_logins_lock_the_username_out_at_that_address() -> None:
    UserFactory(username="alice")
    attacker = APIClient(REMOTE_ADDR="203.0.113.65")
    codes = [_login(attacker, "alice", f"wrong-{i}").json()["code"] for i in range(3)]
    # The failure that reaches the limit is itself answered with the lockout, as the
    # schema says (it said "after LOGIN_FAILURE_LIMIT failures": one more than this).
    assert codes == ["invalid_credentials", "invalid_credentials", "login_locked_out"]
    described = TokenView.post.__doc__ or ""
    assert "that failure is itself answered 429, not 400" in " ".join(described.split())
    # The right password, from that address, in another letter case: still locked out.
    resp = _login(attacker, "ALICE", PASSWORD)
    assert resp.status_code == 429
    assert resp["Content-Type"] == "application/problem+json"
    assert resp.json()["code"] == "login_locked_out"
    assert "token" not in resp.json()
    assert int(resp["Retry-After"]) == resp.json()["retry_after"] == 900
    assert resp.json()["detail"] == (
        "Too many failed logins for this username from this address: try again in 15 minutes."
    )


@override_settings(AXES_FAILURE_LIMIT=1, AXES_COOLOFF_TIME=timedelta(seconds=60))
def test_a_one_minute_lockout_says_one_minute() -> None:
    UserFactory(username="abe")
    resp = _login(APIClient(REMOTE_ADDR="203.0.113.66"), "abe", "wrong")
    assert resp.status_code == 429
    assert resp.json()["detail"] == (
        "Too many failed logins for this username from this address: try again in 1 minute."
    )


@override_settings(AXES_FAILURE_LIMIT=3, LOGIN_ADDRESS_FAILURE_LIMIT=3)
def test_failed_logins_lock_the_address_out_for_every_username() -> None:
    """Guessing across usernames from one address; rotating X-Forwarded-For does not help."""
    UserFactory(username="carol")
    attacker = APIClient(REMOTE_ADDR="203.0.113.66")
    codes = [_login(attacker, f"user{i}", "guess").json()["code"] for i in range(3)]
    assert codes == ["invalid_credentials", "invalid_credentials", "login_locked_out"]
    resp = attacker.post(
        "/api/v1/auth/token",
        {"username": "carol", "password": PASSWORD},
        format="json",
        HTTP_X_FORWARDED_FOR="192.0.2.77",
    )
    assert resp.status_code == 429
    assert resp.json()["code"] == "login_locked_out"
    assert resp.json()["detail"] == (
        "Too many failed logins from this address: try again in 15 minutes."
    )
    assert _login(APIClient(REMOTE_ADDR="203.0.113.67"), "carol", PASSWORD).status_code == 200


@override_settings(AXES_FAILURE_LIMIT=3, LOGIN_ADDRESS_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_lockout_uses_the_same_client_address() -> None:
    """Behind one declared proxy, the lockout counts the forwarded client, not the proxy."""
    UserFactory(username="dave")
    proxy = APIClient(REMOTE_ADDR="10.0.0.2")
    # The attacker 198.51.100.9 guesses (the proxy appended its address)...
    for i in range(3):
        proxy.post(
            "/api/v1/auth/token",
            {"username": f"ghost{i}", "password": "guess"},
            format="json",
            HTTP_X_FORWARDED_FOR="198.51.100.9",
        )
    locked = proxy.post(
        "/api/v1/auth/token",
        {"username": "dave", "password": PASSWORD},
        format="json",
        HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.9",
    )
    assert locked.status_code == 429
    # ...and another client behind the same proxy logs in.
    ok = proxy.post(
        "/api/v1/auth/token",
        {"username": "dave", "password": PASSWORD},
        format="json",
        HTTP_X_FORWARDED_FOR="198.51.100.10",
    )
    assert ok.status_code == 200, ok.json()


@override_settings(AXES_FAILURE_LIMIT=3)
def test_django_login_view_is_locked_out_too_and_the_admin_lists_lockouts() -> None:
    """The admin's login is Django's LoginView: the same lockout, as a 429 page."""
    User.objects.create_superuser("root", "root@example.test", PASSWORD)
    browser = Client(REMOTE_ADDR="198.51.100.50")
    codes = [
        browser.post("/admin/login/", {"username": "root", "password": "nope"}).status_code
        for _ in range(3)
    ]
    assert codes == [200, 200, 429]  # the form again with its error, then the lockout
    resp = browser.post("/admin/login/", {"username": "root", "password": PASSWORD})
    assert resp.status_code == 429
    assert int(resp["Retry-After"]) == 900
    assert b"Too many failed logins" in resp.content
    assert "_auth_user_id" not in browser.session
    admin = Client(REMOTE_ADDR="198.51.100.51")
    admin.force_login(User.objects.create_superuser("ops", "ops@example.test", PASSWORD))
    page = admin.get("/admin/axes/accessattempt/")
    assert page.status_code == 200
    assert b"root" in page.content
    assert b"198.51.100.50" in page.content


def test_anonymous_stream_slots_are_per_client_behind_the_proxy() -> None:
    """Open-stream slots (LIVE_STREAMS_PER_USER) of anonymous spectators are per client
    address as the throttles see it: behind compose's nginx every request comes from the
    proxy's address, which would have put all anonymous spectators in 8 slots."""
    from django.contrib.auth.models import AnonymousUser

    from api.streams import slot_key

    user = UserFactory()
    via_proxy = [_request("172.18.0.5", "203.0.113.7"), _request("172.18.0.5", "198.51.100.9")]
    with override_settings(TRUSTED_PROXY_COUNT=1):
        assert [slot_key(r, AnonymousUser()) for r in via_proxy] == [
            "addr:203.0.113.7",
            "addr:198.51.100.9",
        ]
        assert slot_key(via_proxy[0], user) == f"user:{user.pk}"
    with override_settings(TRUSTED_PROXY_COUNT=0):  # no proxy declared: the header is ignored
        assert {slot_key(r, AnonymousUser()) for r in via_proxy} == {"addr:172.18.0.5"}
        # A host roaming its IPv6 /64 keeps its slots (a new address was new slots).
        roaming = [_request(f"2001:db8:1:2::{n:x}", None) for n in (1, 0xBEEF)]
        assert {slot_key(r, AnonymousUser()) for r in roaming} == {"addr:2001:db8:1:2::"}


@override_settings(AXES_FAILURE_LIMIT=5)
def test_logging_into_ones_own_account_forgets_no_one_elses_failures() -> None:
    """An attack guessed four passwords of someone else's account, logged into its own
    (web page, then API), and guessed again: axes' reset on success forgot every
    failure from the address, so sixteen guesses in a row were never locked out."""
    UserFactory(username="victim")
    UserFactory(username="mallory")
    attacker = APIClient(REMOTE_ADDR="203.0.113.70")
    page = Client(REMOTE_ADDR="203.0.113.70")
    codes = [_login(attacker, "victim", f"guess-{i}").json()["code"] for i in range(4)]
    assert codes == ["invalid_credentials"] * 4
    page.post("/accounts/login/", {"username": "mallory", "password": PASSWORD})
    assert page.get("/").context["user"].username == "mallory"  # logged in
    assert _login(attacker, "mallory", PASSWORD).status_code == 200  # and by the API
    # The fifth guess reaches the limit: the victim's username is locked out at the
    # attacker's address, and stays so after the attacker's own login there...
    assert _login(attacker, "victim", "guess-4").json()["code"] == "login_locked_out"
    assert _login(attacker, "mallory", PASSWORD).status_code == 200
    assert _login(attacker, "victim", "guess-5").json()["code"] == "login_locked_out"
    # ...and the victim, elsewhere, is not.
    assert _login(APIClient(REMOTE_ADDR="198.51.100.70"), "victim", PASSWORD).status_code == 200


@override_settings(AXES_FAILURE_LIMIT=5)
def test_the_account_holders_login_does_not_reset_a_guessers_count() -> None:
    """The account holder logging in (from home) forgot the username's failures from
    every address: a guesser who sent four guesses before each of the holder's logins
    was never locked out.  Now only the failures from the holder's own address go."""
    UserFactory(username="victim")
    attacker = APIClient(REMOTE_ADDR="203.0.113.71")
    home = APIClient(REMOTE_ADDR="198.51.100.71")
    for i in range(4):
        assert _login(attacker, "victim", f"guess-{i}").json()["code"] == "invalid_credentials"
    assert _login(home, "victim", "typo").json()["code"] == "invalid_credentials"
    assert _login(home, "victim", PASSWORD).status_code == 200
    assert _login(attacker, "victim", "guess-4").json()["code"] == "login_locked_out"
    # The holder's own typo was forgotten: four more typos from home, then the password.
    for i in range(4):
        assert _login(home, "victim", f"typo-{i}").json()["code"] == "invalid_credentials"
    assert _login(home, "victim", PASSWORD).status_code == 200


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_successful_login_forgets_that_usernames_own_failures() -> None:
    """Two typos, then the right password: the count starts again at that address."""
    UserFactory(username="erin")
    device = APIClient(REMOTE_ADDR="198.51.100.80")
    for i in range(2):
        _login(device, "erin", f"typo-{i}")
    assert _login(device, "Erin", PASSWORD).status_code == 200
    codes = [_login(device, "erin", f"typo-{i}").json()["code"] for i in range(3)]
    assert codes == ["invalid_credentials", "invalid_credentials", "login_locked_out"]


@override_settings(AXES_FAILURE_LIMIT=3)
def test_guessing_the_current_password_counts_as_failed_logins() -> None:
    """An attack with someone's token guessed their current password through
    ``POST /auth/password`` twelve times, then changed it: only the throttle applied."""
    UserFactory(username="fay")
    token = _login(APIClient(REMOTE_ADDR="198.51.100.100"), "fay", PASSWORD).json()["token"]
    thief = APIClient(REMOTE_ADDR="203.0.113.100", HTTP_AUTHORIZATION=f"Token {token}")

    def change(current: str) -> Any:
        body = {"current_password": current, "new_password": "a-brand-new-passphrase"}
        return thief.post("/api/v1/auth/password", body, format="json")

    codes = [change(f"guess-{i}").json()["code"] for i in range(3)]
    assert codes == ["validation_error", "validation_error", "login_locked_out"]
    right = change(PASSWORD)
    assert (right.status_code, right.json()["code"]) == (429, "login_locked_out")
    # The password is unchanged, and the thief's address is locked out of logins too;
    # the account holder, elsewhere, is not.
    user = User.objects.get(username="fay")
    assert user.check_password(PASSWORD)
    assert _login(APIClient(REMOTE_ADDR="203.0.113.100"), "fay", PASSWORD).status_code == 429
    assert _login(APIClient(REMOTE_ADDR="198.51.100.101"), "fay", PASSWORD).status_code == 200


@override_settings(AXES_FAILURE_LIMIT=3)
def test_the_password_page_counts_wrong_old_passwords_too() -> None:
    user = UserFactory(username="gil")
    page = Client(REMOTE_ADDR="203.0.113.101")
    page.force_login(user)  # type: ignore[arg-type]

    def change(old: str) -> Any:
        return page.post(
            "/accounts/password/",
            {
                "old_password": old,
                "new_password1": "xx-new-pass-99",
                "new_password2": "xx-new-pass-99",
            },
        )

    first = change("guess-0")
    assert first.status_code == 200
    assert "Your old password was entered incorrectly" in first.content.decode()
    assert change("guess-1").status_code == 200
    assert change("guess-2").status_code == 429
    assert change(PASSWORD).status_code == 429
    user.refresh_from_db()
    assert user.check_password(PASSWORD)


@override_settings(AXES_FAILURE_LIMIT=3)
def test_the_admins_password_page_counts_wrong_old_passwords_too() -> None:
    """An attack guessed a staff member's old password twelve times through
    ``/admin/password_change/`` (Django's form checked it without the lockout)."""
    staff = UserFactory(username="stan", is_staff=True)
    page = Client(REMOTE_ADDR="203.0.113.102")
    page.force_login(staff)  # type: ignore[arg-type]

    def change(old: str) -> Any:
        new = "xx-new-pass-99"
        return page.post(
            "/admin/password_change/",
            {"old_password": old, "new_password1": new, "new_password2": new},
        )

    first = change("guess-0")
    assert first.status_code == 200
    assert "Your old password was entered incorrectly" in first.content.decode()
    assert "Canfield race server: organisers" in first.content.decode()  # the admin's page
    assert change("guess-1").status_code == 200
    assert change("guess-2").status_code == 429
    assert change(PASSWORD).status_code == 429
    staff.refresh_from_db()
    assert staff.check_password(PASSWORD)


def test_the_admins_password_page_still_changes_the_password() -> None:
    staff = UserFactory(username="sue", is_staff=True)
    page = Client(REMOTE_ADDR="203.0.113.103")
    page.force_login(staff)  # type: ignore[arg-type]
    new = "xx-new-pass-99"
    resp = page.post(
        "/admin/password_change/",
        {"old_password": PASSWORD, "new_password1": new, "new_password2": new},
    )
    assert (resp.status_code, resp["Location"]) == (302, "/admin/password_change/done/")
    staff.refresh_from_db()
    assert staff.check_password(new)


@override_settings(AXES_FAILURE_LIMIT=3, LOGIN_ADDRESS_FAILURE_LIMIT=3)
def test_the_web_login_locks_out_an_address_never_the_account_elsewhere() -> None:
    """The login page: a rival's wrong passwords from other addresses leave the account
    holder's login alone; from one address the third failure is the lockout, whatever
    usernames it names."""
    UserFactory(username="hana")
    for i in range(6):
        rival = Client(REMOTE_ADDR=f"203.0.113.{120 + i}")
        resp = rival.post("/accounts/login/", {"username": "hana", "password": f"w-{i}"})
        assert resp.status_code == 200  # the form again, with its error
    holder = Client(REMOTE_ADDR="198.51.100.120")
    resp = holder.post("/accounts/login/", {"username": "hana", "password": PASSWORD})
    assert resp.status_code == 302
    assert holder.session["_auth_user_id"] == str(User.objects.get(username="hana").pk)

    guesser = Client(REMOTE_ADDR="203.0.113.130")
    codes = [
        guesser.post("/accounts/login/", {"username": name, "password": "w"}).status_code
        for name in ("hana", "ghost", "hana")
    ]
    assert codes == [200, 200, 429]
    resp = guesser.post("/accounts/login/", {"username": "hana", "password": PASSWORD})
    assert resp.status_code == 429
    assert b"Too many failed logins from this address" in resp.content
    assert "_auth_user_id" not in guesser.session
    # The token endpoint shares the count: the address is locked out there too.
    assert _login(APIClient(REMOTE_ADDR="203.0.113.130"), "hana", PASSWORD).status_code == 429


@pytest.mark.parametrize(
    ("lang", "seconds", "title", "sentence"),
    [
        (
            "en",
            60,
            "Too many failed logins",
            "Too many failed logins from this address: try again in 1 minute.",
        ),
        (
            "fr",
            900,
            "Trop de connexions échouées",
            "Trop de connexions échouées depuis cette adresse\u202f: réessayez dans 15 minutes.",
        ),
        (
            "es",
            900,
            "Demasiados inicios de sesión fallidos",
            "Demasiados inicios de sesión fallidos desde esta dirección: inténtelo de nuevo "
            "en 15 minutos.",
        ),
        (
            "de",
            900,
            "Zu viele fehlgeschlagene Anmeldungen",
            "Zu viele fehlgeschlagene Anmeldungen von dieser Adresse: Versuchen Sie es in "
            "15 Minuten erneut.",
        ),
    ],
)
def test_the_web_lockout_page_speaks_the_players_language(
    lang: str, seconds: int, title: str, sentence: str
) -> None:
    """The login page's lockout was English whatever the player's language ("try again
    in 1 minutes" for a one-minute lockout too)."""
    UserFactory(username="ines")
    guesser = Client(REMOTE_ADDR="203.0.113.140", HTTP_ACCEPT_LANGUAGE=lang)
    with override_settings(
        AXES_FAILURE_LIMIT=1,
        LOGIN_ADDRESS_FAILURE_LIMIT=1,
        AXES_COOLOFF_TIME=timedelta(seconds=seconds),
    ):
        guesser.post("/accounts/login/", {"username": "ines", "password": "w"})
        resp = guesser.post("/accounts/login/", {"username": "ines", "password": PASSWORD})
    assert resp.status_code == 429
    assert resp["Retry-After"] == str(seconds)
    assert resp.content.decode() == (
        f"<!doctype html><html lang={lang}><meta charset=utf-8><title>{title}</title>"
        f"<h1>{title}</h1><p>{sentence}</p></html>"
    )


@override_settings(AXES_FAILURE_LIMIT=3, TRUSTED_PROXY_COUNT=1)
def test_behind_the_proxy_a_rival_cannot_lock_out_another_client() -> None:
    """Behind the declared proxy every request comes from the proxy's address: the
    forwarded client is what is locked out, so a rival cannot lock out the proxy (and
    with it everybody)."""
    UserFactory(username="ines")
    proxy = APIClient(REMOTE_ADDR="10.0.0.2")

    def via(client: str, password: str) -> Any:
        return proxy.post(
            "/api/v1/auth/token",
            {"username": "ines", "password": password},
            format="json",
            HTTP_X_FORWARDED_FOR=client,
        )

    assert [via("198.51.100.9", f"w-{i}").status_code for i in range(4)] == [400, 400, 429, 429]
    assert via("203.0.113.4", PASSWORD).status_code == 200


@pytest.mark.parametrize(
    ("remote", "expected"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::"),
        ("2001:DB8:1:2::1", "2001:db8:1:2::"),
        ("::ffff:198.51.100.7", "198.51.100.7"),  # the IPv4 client on a dual-stack socket
        ("fe80::1%eth0", "fe80::"),  # the zone left out
        # Teredo: relay 65.54.227.120 in the network half, client 192.0.2.45 in the host
        # half (RFC 4380's example): the client's own IPv4 address, not the relay's /64.
        ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "192.0.2.45"),
        # 6to4: 192.0.2.45 owns 2002:c000:22d::/48, 2**16 /64s: counted as that IPv4.
        ("2002:c000:22d:1::1", "192.0.2.45"),
        ("2002:c000:22d:ffff:1:2:3:4", "192.0.2.45"),
        # An IPv4 client translated by SIIT/NAT64 (RFC 6052's 64:ff9b::/96): its own
        # IPv4 address, not the translator's /64 that every IPv4 client shares.
        ("64:ff9b::c633:6407", "198.51.100.7"),
        ("64:ff9b::203.0.113.9", "203.0.113.9"),
        ("", ""),
    ],
)
def test_the_lockout_counts_an_ipv6_client_by_its_64(remote: str, expected: str) -> None:
    from canfield_site.security import lockout_address

    assert lockout_address(_request(remote, None)) == expected


@override_settings(AXES_FAILURE_LIMIT=3)
def test_a_guesser_rotating_through_its_ipv6_64_is_locked_out() -> None:
    """One host has a whole /64: a new address for each guess gave it three guesses per
    address, without end.  Another /64 (the account holder's) is not locked out."""
    UserFactory(username="jo")
    codes = [
        _login(APIClient(REMOTE_ADDR=f"2001:db8:bad:1::{i + 1:x}"), "jo", f"w-{i}").json()["code"]
        for i in range(4)
    ]
    assert codes == [*["invalid_credentials"] * 2, *["login_locked_out"] * 2]
    fresh = APIClient(REMOTE_ADDR="2001:db8:bad:1:ffff::9")
    assert _login(fresh, "jo", PASSWORD).json()["code"] == "login_locked_out"
    assert _login(APIClient(REMOTE_ADDR="2001:db8:600d:1::1"), "jo", PASSWORD).status_code == 200


@override_settings(AXES_FAILURE_LIMIT=3)
def test_an_ipv4_client_seen_as_mapped_ipv6_shares_its_count() -> None:
    UserFactory(username="kit")
    assert _login(APIClient(REMOTE_ADDR="198.51.100.150"), "kit", "w-0").status_code == 400
    assert _login(APIClient(REMOTE_ADDR="::ffff:198.51.100.150"), "kit", "w-1").status_code == 400
    locked = _login(APIClient(REMOTE_ADDR="198.51.100.150"), "kit", "w-2")
    assert locked.json()["code"] == "login_locked_out"


def test_a_zoned_address_is_counted_under_its_64() -> None:
    """A link-local client's socket address names its zone (``fe80::1%eth0``): counted
    (and forgotten on success) under its /64, as any IPv6 client."""
    from axes.models import AccessAttempt

    UserFactory(username="lou")
    resp = _login(APIClient(REMOTE_ADDR="fe80::1%eth0"), "lou", "wrong")
    assert (resp.status_code, resp.json()["code"]) == (400, "invalid_credentials")
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["fe80::"]
    assert _login(APIClient(REMOTE_ADDR="fe80::1%eth0"), "lou", PASSWORD).status_code == 200


def test_one_players_mistakes_lock_out_only_that_player_behind_a_shared_address() -> None:
    """A club's players share one address (one NAT).  With the address's limit equal to
    the username's, one player's five typing mistakes locked every player there out of
    the race about to start (and the lockout said "from this address").  Now that
    username is locked out at that address, and the others log in."""
    assert (settings.AXES_FAILURE_LIMIT, settings.LOGIN_ADDRESS_FAILURE_LIMIT) == (5, 30)
    UserFactory(username="jules")
    UserFactory(username="kim")
    club = "203.0.113.150"
    codes = [
        _login(APIClient(REMOTE_ADDR=club), "jules", f"typo-{i}").json()["code"] for i in range(5)
    ]
    assert codes == ["invalid_credentials"] * 4 + ["login_locked_out"]
    resp = _login(APIClient(REMOTE_ADDR=club), "jules", PASSWORD)
    assert resp.status_code == 429
    assert resp.json()["detail"] == (
        "Too many failed logins for this username from this address: try again in 15 minutes."
    )
    assert _login(APIClient(REMOTE_ADDR=club), "kim", PASSWORD).status_code == 200
    page = Client(REMOTE_ADDR=club)
    assert (
        page.post("/accounts/login/", {"username": "kim", "password": PASSWORD}).status_code == 302
    )
    locked = Client(REMOTE_ADDR=club).post(
        "/accounts/login/", {"username": "JULES", "password": PASSWORD}
    )
    assert locked.status_code == 429
    assert b"Too many failed logins for this username from this address" in locked.content


def test_the_address_is_locked_out_at_its_own_limit_whatever_the_usernames() -> None:
    """A guesser trying many accounts from one address: 29 failures (under the
    address's limit of 30, none past a username's 5) leave the address open; the 30th
    locks it out for every username, the right password of an untouched account too."""
    UserFactory(username="lena")
    guesser = APIClient(REMOTE_ADDR="203.0.113.160")
    codes = [_login(guesser, f"member{i % 10}", "guess").json()["code"] for i in range(29)]
    assert codes == ["invalid_credentials"] * 29
    assert _login(guesser, "lena", "wrong").json()["code"] == "login_locked_out"
    resp = _login(APIClient(REMOTE_ADDR="203.0.113.160"), "newcomer", PASSWORD)
    assert resp.status_code == 429
    assert resp.json()["detail"] == (
        "Too many failed logins from this address: try again in 15 minutes."
    )
    assert _login(APIClient(REMOTE_ADDR="203.0.113.161"), "lena", PASSWORD).status_code == 200


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "fr",
            "Trop de connexions échouées pour ce nom d\u2019utilisateur depuis cette "
            "adresse\u202f: réessayez dans 15 minutes.",
        ),
        (
            "es",
            "Demasiados inicios de sesión fallidos para este nombre de usuario desde esta "
            "dirección: inténtelo de nuevo en 15 minutos.",
        ),
        (
            "de",
            "Zu viele fehlgeschlagene Anmeldungen für diesen Benutzernamen von dieser "
            "Adresse: Versuchen Sie es in 15 Minuten erneut.",
        ),
    ],
)
@override_settings(AXES_FAILURE_LIMIT=1)
def test_a_usernames_lockout_page_says_so_in_the_players_language(lang: str, sentence: str) -> None:
    UserFactory(username="mona")
    player = Client(REMOTE_ADDR="203.0.113.170", HTTP_ACCEPT_LANGUAGE=lang)
    player.post("/accounts/login/", {"username": "mona", "password": "w"})
    resp = player.post("/accounts/login/", {"username": "mona", "password": PASSWORD})
    assert resp.status_code == 429
    assert f"<p>{sentence}</p>" in resp.content.decode()
