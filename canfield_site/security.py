"""Who is asking: the client address, and the lockout of repeated failed logins.

**Client address.** The one function :func:`client_address` decides the address of a
request for every throttle (``api.throttling``) and for the login lockout
(django-axes, ``AXES_CLIENT_IP_CALLABLE``).  ``X-Forwarded-For`` is believed only as far
as the deployment declares proxies (``TRUSTED_PROXY_COUNT``): each trusted proxy appends
the address it received the request from, so with *n* proxies the client is the *n*-th
entry from the right.  With the default 0 the header is ignored and the socket address
(``REMOTE_ADDR``) is the client: a client cannot pick its own address by sending the
header.  An entry that is not an IP address falls back to the socket address.

**Login lockout.** django-axes counts failed logins per username and client address (an
IPv6 client's /64: :func:`lockout_address`) and per client address, whatever username
they name (``AXES_LOCKOUT_PARAMETERS``).  Past ``LOGIN_FAILURE_LIMIT`` failures of one
username from one address, that username is locked out at that address; past
``LOGIN_ADDRESS_FAILURE_LIMIT`` failures from one address (30 by default), the whole
address is; each for ``LOGIN_LOCKOUT_SECONDS`` (each further failure restarts the wait).
Two limits (:func:`failure_limit`, :class:`LockoutHandler`): with the address's limit at
5 as well, five typing mistakes by one player behind a club's or a school's shared
address (one NAT) locked every player there out of the race about to start.  Never per
username alone: that let anyone lock a rival out of a race by sending five wrong
passwords from anywhere.  The price: a guesser with many addresses gets
``LOGIN_FAILURE_LIMIT`` guesses at one account from each, and
``LOGIN_ADDRESS_FAILURE_LIMIT`` in all from each.  This covers every login that goes through
``django.contrib.auth.authenticate`` with the request: the API's ``POST
/api/v1/auth/token`` and Django's ``LoginView`` (the admin's and any web login page).  A
locked-out attempt answers 429: problem+json with code ``login_locked_out`` under
``/api/``, a short HTML page elsewhere; ``Retry-After`` gives the seconds.  Lockouts are
listed (and can be lifted) in the admin under *Axes*.
A successful login forgets that username's failures from that address, and only those
(:func:`forget_failed_logins`).
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import math
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.views import PasswordChangeView, redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.html import format_html

#: The problem code of a locked-out login (``api.problem_codes``).
LOCKED_OUT_CODE = "login_locked_out"


def _ip(text: str) -> str | None:
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request: Any) -> str:
    """The client's IP address of ``request`` (a Django ``HttpRequest`` or DRF ``Request``).

    ``REMOTE_ADDR`` unless ``settings.TRUSTED_PROXY_COUNT`` = *n* > 0 and
    ``X-Forwarded-For`` has entries: then the *n*-th entry from the right (the leftmost
    when there are fewer than *n*, all of which came from trusted proxies).  Returns the
    address in canonical text form, or ``""`` when the socket address is unknown.
    """
    meta = request.META
    remote = _ip(str(meta.get("REMOTE_ADDR") or "")) or ""
    count = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if count <= 0:
        return remote
    hops = [hop.strip() for hop in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",")]
    hops = [hop for hop in hops if hop]
    if not hops:
        return remote
    return _ip(hops[-min(count, len(hops))]) or remote


#: Prefix length of the IPv6 networks the login lockout counts as one address: one host
#: (one home, one server) is given a whole /64 and can send from any of its 2**64
#: addresses.
LOCKOUT_IPV6_PREFIX = 64


#: RFC 6052's well-known prefix: an IPv4 address embedded in its last 32 bits.
NAT64_PREFIX = ipaddress.IPv6Network("64:ff9b::/96")


def lockout_address(request: Any) -> str:
    """The address the login lockout counts failures under (``AXES_CLIENT_IP_CALLABLE``):
    :func:`client_address`, with an IPv6 address taken as its /64 network's first
    address (``2001:db8:1:2::``), an IPv4-mapped one (``::ffff:198.51.100.7``), a
    Teredo one (``2001::/32``), a 6to4 one (``2002::/16``) and a translated one
    (``64:ff9b::198.51.100.7``, :data:`NAT64_PREFIX`) as the client's IPv4 address, and
    a zone (``fe80::1%eth0``) left out; ``""`` when unknown.

    The lockout counts per address (``AXES_LOCKOUT_PARAMETERS``), and a host on IPv6
    picks any address of its /64: counted per address it got ``LOGIN_FAILURE_LIMIT``
    guesses from each of them.  The mapped form made the same client two counts.
    """
    text = client_address(request)
    if not text:
        return ""
    address = ipaddress.ip_address(text)
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        if address.teredo is not None:
            # Teredo (2001::/32) puts the relay in the network half and the client's
            # own IPv4 address in the host half: every client of one relay shares a /64.
            return str(address.teredo[1])
        if address in NAT64_PREFIX:
            # An IPv4 client translated to IPv6 (RFC 6052's well-known prefix, as SIIT-DC
            # in front of an IPv6-only server gives it): every IPv4 client shares one /64,
            # so one guesser locked all of them out.  Its own IPv4 address is the low 32 bits.
            return str(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
        if address.sixtofour is not None:
            # 6to4 (2002::/16): one IPv4 address owns the whole 2002:<IPv4>::/48, 2**16
            # /64 networks: counted per /64 its host had 2**16 times the guesses.
            return str(address.sixtofour)
        bare = ipaddress.IPv6Address(int(address))  # no zone
        network = ipaddress.IPv6Network((bare, LOCKOUT_IPV6_PREFIX), strict=False)
        return str(network.network_address)
    return str(address)


def login_username(request: HttpRequest | None, credentials: dict[str, Any] | None) -> str:
    """The username a login attempt names, folded as usernames compare (NFKC, case-less).

    django-axes counts failures per this value (``AXES_USERNAME_CALLABLE``), so ``Alice``
    and ``alice`` share one count.
    """
    field = getattr(settings, "AXES_USERNAME_FORM_FIELD", "username")
    raw: Any = (credentials or {}).get(field)
    if raw is None and request is not None:
        raw = request.POST.get(field)
    return fold_username(str(raw)) if raw else ""


#: Characters of a folded username the lockout keeps: django-axes' username column.
LOCKOUT_USERNAME_MAX = 255


def _fold(username: str) -> str:
    return str(get_user_model().normalize_username(username)).casefold()


def fold_username(username: str) -> str:
    """``username`` as usernames compare (NFKC, case-less), cut to its first
    :data:`LOCKOUT_USERNAME_MAX` characters: the lockout's key.  Folding can lengthen a
    name 18 times (U+FDFA), and a 150-character name past django-axes' 255-character
    column was a 500 on PostgreSQL; names alike in their first 255 folded characters
    share one count."""
    return _fold(username)[:LOCKOUT_USERNAME_MAX]


def forget_failed_logins(username: str, address: str) -> int:
    """Forget the failed logins of ``username`` (folded as :func:`fold_username`) counted
    from the client address ``address`` (:func:`lockout_address`); returns how many
    records went.

    Called on every successful login (web, admin, API token), in place of django-axes'
    ``AXES_RESET_ON_SUCCESS``: that reset also deleted every failure *from the client's
    address*, whatever username it named, so an attacker who guessed four passwords of
    someone else's account, logged into their own and guessed again was never locked
    out (an attack made 16 guesses in a row).  The failures of other usernames from
    that address stay counted, and so do this username's failures from other addresses:
    they count against those addresses (``AXES_LOCKOUT_PARAMETERS``), and forgetting
    them when the account holder logged in gave their guesser a fresh allowance.
    """
    from axes.models import AccessAttempt

    deleted, _ = AccessAttempt.objects.filter(
        username=fold_username(username), ip_address=address or None
    ).delete()
    return int(deleted)


def current_password_check(request: HttpRequest, user: Any, password: str) -> str:
    """Check a signed-in ``user``'s current password (to change it) as a login would be:
    ``"ok"``, ``"wrong"`` (counted as a failed login of that username from the client's
    address) or ``"locked_out"`` (that address is locked out; nothing was checked).

    ``user.check_password`` alone let an attack with a stolen session or token guess the
    current password without end (only the throttle applied), then take the account.
    """
    from django.contrib.auth import authenticate

    if authenticate(request, username=user.get_username(), password=password) is not None:
        return "ok"
    return "locked_out" if getattr(request, "axes_locked_out", False) else "wrong"


def forget_failed_logins_on_login(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver (``api.apps``): :func:`forget_failed_logins` of the
    account from the request's client address."""
    if request is not None:
        forget_failed_logins(user.get_username(), lockout_address(request))


class LoginLockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """django-axes' lockout check, first in ``AUTHENTICATION_BACKENDS``.

    It authenticates nobody; for a locked-out address it stops
    ``authenticate`` (which then answers ``None``).  A call without a request (a
    management command, the test client's ``login``) comes from no client: nothing to
    count or lock, so it passes on to the next backend instead of failing.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        """Raise ``AxesBackendPermissionDenied`` for a locked-out attempt; else ``None``."""
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        reserve_login_slot(request, username=username, password=password, **kwargs)
        return None


def failure_limit(parameter: str) -> int:
    """The failed logins a lockout parameter allows before it locks out (named as
    :func:`_parameter_name` names them): ``"ip_address"`` (the client address, whatever
    usernames it names) ``LOGIN_ADDRESS_FAILURE_LIMIT``; any other (``"username+ip_address"``)
    ``LOGIN_FAILURE_LIMIT`` (``AXES_FAILURE_LIMIT``)."""
    if parameter == "ip_address":
        return int(settings.LOGIN_ADDRESS_FAILURE_LIMIT)
    return int(settings.AXES_FAILURE_LIMIT)


class LockoutHandler(AxesDatabaseHandler):  # type: ignore[misc]
    """django-axes' database handler (``AXES_HANDLER``) with a limit per lockout parameter
    (:func:`failure_limit`).

    django-axes compares one count, the largest over its parameters, with one limit
    (``AXES_FAILURE_LIMIT``).  :meth:`get_failures` gives each parameter's failures *n*
    in units of that limit *L*: ``n * L // limit(parameter)``, which reaches *L* exactly
    when *n* reaches the parameter's own limit; every check django-axes makes (before the
    password, after a failure) then locks out by the parameter's own limit.
    """

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """The largest failure count over the lockout parameters, each scaled to
        ``AXES_FAILURE_LIMIT`` by its own limit (class docstring)."""
        limit = int(settings.AXES_FAILURE_LIMIT)
        counts = _failures_per_parameter(request, credentials or {}, handler=self)
        return max((n * limit // max(1, failure_limit(p)) for p, n in counts.items()), default=0)


#: What a lockout locks (:func:`lockout_scope`): the client address for every username,
#: or one username at that address.
ADDRESS_SCOPE, USERNAME_SCOPE = "address", "username"


def lockout_scope(request: Any, credentials: dict[str, Any] | None = None) -> str:
    """What the lockout of ``request`` locks: :data:`ADDRESS_SCOPE` when its client
    address has reached ``LOGIN_ADDRESS_FAILURE_LIMIT`` (or the attempt named no
    username), else :data:`USERNAME_SCOPE` (that username at that address).  An attempt
    refused for the attempts in flight (:func:`reserve_login_slot`) says which limit
    refused it."""
    scope = getattr(request, "_lockout_scope", None)
    if scope is not None:
        return str(scope)
    counts = _failures_per_parameter(request, credentials or {})
    if "username+ip_address" not in counts:
        return ADDRESS_SCOPE
    if counts.get("ip_address", 0) >= failure_limit("ip_address"):
        return ADDRESS_SCOPE
    return USERNAME_SCOPE


#: Seconds a login slot outlives its attempt when nothing releases it (a process that
#: died during the password check); a password check takes well under one second.
LOGIN_SLOT_SECONDS = 60


def slot_key(kind: str, value: str) -> str:
    """The cache key of the login slots of one client address (``kind`` ``"address"``),
    one username and address (``"username+address"``, the folded name and the address
    joined by a newline) or one username (``"username"``, were the lockout to count per
    username): the value's SHA-256, so any name (spaces, 2,700 characters once folded)
    makes a short, valid key."""
    return f"login-slot:{kind}:{hashlib.sha256(value.encode()).hexdigest()}"


def slot_cache() -> Any:
    """The cache counting the login attempts in flight: the ``"login_slots"`` alias
    (``canfield_site.cache.cache_settings``), this thread's instance."""
    from django.core.cache import caches

    return caches["login_slots"]


#: A lockout parameter's word in a login slot's cache key (:func:`slot_key`).
_SLOT_KINDS = {"username": "username", "ip_address": "address"}


def _parameter_name(parameter: str | list[str]) -> str:
    """A lockout parameter as a name: ``"ip_address"``, ``"username+ip_address"``."""
    return parameter if isinstance(parameter, str) else "+".join(parameter)


def _slot_keys(request: Any, credentials: dict[str, Any]) -> dict[str, str]:
    """Lockout parameter (named by :func:`_parameter_name`: ``"ip_address"``,
    ``"username+ip_address"``) -> the cache key of its slots, for every parameter of
    ``AXES_LOCKOUT_PARAMETERS`` whose values this attempt has: ``slot_key("address",
    address)``, ``slot_key("username+address", f"{username}\\n{address}")``.  The slots
    count what the lockout counts: per username alone only when the lockout does, so
    attempts in flight from other addresses hold back no one's login."""
    from axes.helpers import get_lockout_parameters

    values = {
        "username": login_username(None, credentials),
        "ip_address": lockout_address(request),
    }
    keys = {}
    for parameter in get_lockout_parameters(request, credentials):
        parts = [parameter] if isinstance(parameter, str) else list(parameter)
        if not all(values.get(part) for part in parts):
            continue
        kind = "+".join(_SLOT_KINDS[part] for part in parts)
        keys[_parameter_name(parameter)] = slot_key(kind, "\n".join(values[p] for p in parts))
    return keys


def _failures_per_parameter(
    request: Any, credentials: dict[str, Any], handler: Any = None
) -> dict[str, int]:
    """Lockout parameter -> the failures django-axes counts under it for this attempt
    (read through ``handler``, by default django-axes' configured one)."""
    from axes.handlers.proxy import AxesProxyHandler
    from axes.helpers import get_lockout_parameters
    from django.db.models import Sum

    AxesProxyHandler.update_request(request)
    if handler is None:
        handler = AxesProxyHandler.get_implementation()
    attempts_list = handler.get_user_attempts(request, credentials)
    out: dict[str, int] = {}
    for parameter, attempts in zip(
        get_lockout_parameters(request, credentials), attempts_list, strict=True
    ):
        total = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
        out[_parameter_name(parameter)] = int(total)
    return out


def reserve_login_slot(request: Any, **credentials: Any) -> None:
    """Count the login attempt of ``request`` as in flight until its outcome is known,
    or refuse it as locked out when the failures already counted plus the attempts in
    flight would pass a parameter's limit (:func:`failure_limit`).

    django-axes checks the lockout before the password and counts the failure after it,
    so a burst of simultaneous guesses (one per server worker) all passed the check
    while none had been counted yet: with 3 workers, 7 guesses before the lockout of 5.
    The attempts in flight are counted per lockout parameter (the client address; the
    username and address: :func:`_slot_keys`) in the ``"login_slots"`` cache
    (:func:`slot_cache`), shared by every server process: Redis with ``CACHE_URL``,
    falling back to the database while Redis is down (a per-process fallback gave each
    process a full set of slots: 4 workers, 4 times the guesses in flight), the database
    without it; each for at most :data:`LOGIN_SLOT_SECONDS`.  The slot is released by
    :func:`release_login_slot`: on success by :class:`UsernameAnyCaseBackend`, on
    failure by the ``user_login_failed`` receiver that runs after django-axes has
    counted the failure (:func:`release_login_slot_on_failure`), and when the check
    raises (a database error) by whichever of this function and
    :class:`UsernameAnyCaseBackend` it raises in.

    A refused attempt is answered as a lockout (429 ``login_locked_out``) and counted
    as a failed login, as an attempt during a lockout is; its password is never
    checked.  The price: an account holder with ``limit - 1`` failures who
    sends two logins at once gets a 429 for the second even when the first succeeds.

    Raises ``AxesBackendPermissionDenied`` (as django-axes' own lockout check) when
    refused.
    """
    from axes.exceptions import AxesBackendPermissionDenied
    from axes.helpers import get_credentials

    cache = slot_cache()
    axes_credentials = get_credentials(**credentials)
    keys = _slot_keys(request, axes_credentials)
    in_flight: dict[str, int] = {}
    for parameter, key in keys.items():
        cache.add(key, 0, LOGIN_SLOT_SECONDS)
        try:
            in_flight[parameter] = int(cache.incr(key))
        except ValueError:  # expired between add and incr
            cache.add(key, 1, LOGIN_SLOT_SECONDS)
            in_flight[parameter] = 1
        # The counter lives LOGIN_SLOT_SECONDS from its latest attempt, not its first:
        # one that expired under a burst in flight forgot the burst.
        cache.touch(key, LOGIN_SLOT_SECONDS)
    request._login_slots = list(keys.values())
    if all(n <= 1 for n in in_flight.values()):
        # Only this attempt is in flight: django-axes' check, just passed, found every
        # parameter's failures under the limit, so failures + 1 cannot pass it.
        return
    # Per parameter, as django-axes locks out: one parameter's attempts in flight added
    # to another's failures refused an account holder whom neither count stops.
    try:
        failures = _failures_per_parameter(request, axes_credentials)
    except BaseException:
        release_login_slot(request)
        raise
    over = [
        parameter
        for parameter, n in in_flight.items()
        if failures.get(parameter, 0) + n > failure_limit(parameter)
    ]
    if over:
        release_login_slot(request)
        request.axes_locked_out = True
        request._lockout_scope = ADDRESS_SCOPE if "ip_address" in over else USERNAME_SCOPE
        raise AxesBackendPermissionDenied("Too many login attempts in flight")


def release_login_slot(request: Any) -> None:
    """Release the slot :func:`reserve_login_slot` took for ``request`` (once; a request
    that holds none is left alone)."""
    cache = slot_cache()
    keys = getattr(request, "_login_slots", None) or []
    request._login_slots = []
    for key in keys:
        with contextlib.suppress(ValueError):  # ValueError: the slot expired
            if int(cache.decr(key)) < 0:
                # The slot outlived its counter (expired, then created again by a
                # later attempt): undo this decrement, which no later attempt owes.
                cache.incr(key)


def release_login_slot_on_failure(
    sender: Any, credentials: Any, request: Any = None, **kwargs: Any
) -> None:
    """``user_login_failed`` receiver (``api.apps``), connected after django-axes' own so
    the failure is counted before the slot goes: :func:`release_login_slot`."""
    if request is not None:
        release_login_slot(request)


class UsernameAnyCaseBackend(ModelBackend):
    """Django's password login, with the username matched whatever its case.

    Usernames are unique regardless of case (the ``auth_user_username_ci_unique`` index;
    sign-up refuses ``ALICE`` when ``Alice`` exists), so a player who types ``alice``
    means that one account.  "Any case" is :func:`login_username`'s folding (NFKC, then
    casefold), the one the lockout counts under, not the database's: every spelling
    that logs in to an account shares its lockout count.  The password is checked by
    :func:`games.services.accounts.password_check`: Django's upgrade of an outdated hash
    is written only over the hash that was checked.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """The user whose username matches ``username`` in any case and whose password is
        ``password``; ``None`` otherwise (as :class:`ModelBackend`).

        Releases the attempt's login slot on success, and when the check raises (a
        database error, say: no ``user_login_failed`` follows to release it, and the slot
        held the account's logins back for :data:`LOGIN_SLOT_SECONDS`); the exception
        propagates unchanged."""
        try:
            user = self._authenticate(request, username, password, **kwargs)
        except BaseException:
            if request is not None:
                release_login_slot(request)
            raise
        if user is not None and request is not None:
            release_login_slot(request)
        return user

    def _authenticate(
        self, request: HttpRequest | None, username: str | None, password: str | None, **kwargs: Any
    ) -> Any:
        if username is not None:
            model = get_user_model()
            stored = (
                model._default_manager.filter(username__iexact=username)
                .values_list(model.USERNAME_FIELD, flat=True)
                .first()
            )
            # Only a name that folds as the stored one does (casefold after NFKC, the
            # value the lockout counts under): PostgreSQL's iexact also matched "victim"
            # spelt with dotless i (U+0131), a new lockout count for the same account
            # each time.
            if stored is not None and _fold(username) == _fold(stored):
                username = stored
        return self._check(username, password, **kwargs)

    def _check(self, username: str | None, password: str | None, **kwargs: Any) -> Any:
        """:meth:`ModelBackend.authenticate`, the password checked by
        :func:`games.services.accounts.password_check` (Django's hash upgrade written only
        over the hash checked): the account, or ``None``."""
        from games.services.accounts import password_check

        model = get_user_model()
        if username is None:
            username = kwargs.get(model.USERNAME_FIELD)
        if username is None or password is None:
            return None
        try:
            user = model._default_manager.get_by_natural_key(username)
        except model.DoesNotExist:
            # The hasher runs once for an unknown name too (Django's #20760: no timing
            # difference between a known and an unknown username).
            model().set_password(password)
            return None
        if password_check(account=user, password=password) and self.user_can_authenticate(user):
            return user
        return None


def lockout_seconds() -> int:
    """Seconds a lockout lasts (``LOGIN_LOCKOUT_SECONDS``), for ``Retry-After``."""
    cool_off = settings.AXES_COOLOFF_TIME
    return max(1, math.ceil(cool_off.total_seconds())) if cool_off else 0


def lockout_detail(scope: str = ADDRESS_SCOPE) -> str:
    """The human sentence of a lockout of ``scope`` (:func:`lockout_scope`), in English
    (the API's ``detail``; the API answers in English whatever the request's language):
    :func:`lockout_page_words`' sentence."""
    from django.utils.translation import override

    with override("en"):
        return lockout_page_words(scope)[1]


def lockout_page_words(scope: str = ADDRESS_SCOPE) -> tuple[str, str]:
    """The web lockout page's title and sentence for a lockout of ``scope``
    (:func:`lockout_scope`: the whole address, or one username at it), in the active
    language (en, fr, es, de), the minutes counted (``"... try again in 1 minute."``).
    The page said them in English whatever the player's language."""
    from django.utils.translation import gettext, ngettext

    minutes = math.ceil(lockout_seconds() / 60)
    if scope == USERNAME_SCOPE:
        sentence = ngettext(
            "Too many failed logins for this username from this address: try again in "
            "%(n)d minute.",
            "Too many failed logins for this username from this address: try again in "
            "%(n)d minutes.",
            minutes,
        ) % {"n": minutes}
    else:
        sentence = ngettext(
            "Too many failed logins from this address: try again in %(n)d minute.",
            "Too many failed logins from this address: try again in %(n)d minutes.",
            minutes,
        ) % {"n": minutes}
    return gettext("Too many failed logins"), sentence


def lockout_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): 429 with ``Retry-After``.

    Under ``/api/`` an RFC 9457 problem document with code ``login_locked_out`` and
    ``retry_after`` (seconds), in English; elsewhere a short HTML page in the request's
    language (:func:`lockout_page_words`).
    """
    seconds = lockout_seconds()
    scope = lockout_scope(request, credentials)
    if request.path.startswith("/api/"):
        from api.errors import ProblemJsonResponse, problem_body

        body = problem_body(
            status=429,
            code=LOCKED_OUT_CODE,
            detail=lockout_detail(scope),
            instance=request.get_full_path(),
            extra={"retry_after": seconds},
        )
        response: HttpResponse = ProblemJsonResponse(body, status=429)
    else:
        from django.utils.translation import get_language

        title, sentence = lockout_page_words(scope)
        response = HttpResponse(
            format_html(
                "<!doctype html><html lang={}><meta charset=utf-8>"
                "<title>{}</title><h1>{}</h1><p>{}</p></html>",
                get_language() or "en",
                title,
                title,
                sentence,
            ),
            status=429,
        )
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


class LockoutPasswordChangeForm(PasswordChangeForm):
    """Django's password change form, its old password checked as a login is
    (:func:`current_password_check`): a wrong one counts as a failed login of the
    account from the client's address, and past the limit that address's logins are
    locked out (django-axes then answers the page with its 429).  ``request`` is the view's."""

    def __init__(self, user: Any, *args: Any, request: Any = None, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def save(self, commit: bool = True) -> Any:
        """Save the new password with :func:`games.services.accounts.account_password_set`
        (under the account's row lock; raises
        :class:`~games.services.errors.AccountDeleted` when the account was deleted
        meanwhile).  ``commit=False`` only sets it on ``self.user``, as Django's does."""
        if not commit:
            return super().save(commit=False)
        from games.services.accounts import account_password_set

        account_password_set(account=self.user, password=self.cleaned_data["new_password1"])
        return self.user

    def clean_old_password(self) -> str:
        old = str(self.cleaned_data["old_password"])
        if current_password_check(self.request, self.user, old) != "ok":
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old


class LockoutPasswordChangeView(PasswordChangeView):
    """Django's password change view with :class:`LockoutPasswordChangeForm`: the pages'
    ``/accounts/password/`` and the admin's ``/admin/password_change/``
    (:func:`admin_password_change`)."""

    form_class = LockoutPasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}

    def form_valid(self, form: Any) -> HttpResponse:
        """Save the new password (:meth:`LockoutPasswordChangeForm.save`: the service
        :func:`games.services.accounts.account_password_set`, under the account's row
        lock).  An account deleted while the passwords were checked (hashing takes a
        while) goes to the login page, as Django sends the session's next request."""
        from games.services.errors import AccountDeleted

        try:
            return super().form_valid(form)
        except AccountDeleted:
            return redirect_to_login(self.request.get_full_path())


def admin_password_change(request: HttpRequest, extra_context: Any = None) -> Any:
    """``AdminSite.password_change`` with :class:`LockoutPasswordChangeView` (set on
    ``admin.site`` by ``games.admin``): Django's own checked the old password with
    ``check_password`` alone, so a stolen staff session could guess it without end."""
    from django.contrib import admin
    from django.urls import reverse

    request.current_app = admin.site.name
    return LockoutPasswordChangeView.as_view(
        success_url=reverse("admin:password_change_done", current_app=admin.site.name),
        template_name="registration/password_change_form.html",
        extra_context={**admin.site.each_context(request), **(extra_context or {})},
    )(request)
