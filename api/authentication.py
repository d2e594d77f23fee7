"""API tokens (django-rest-knox): issued per login, revocable, rotated, optionally expiring.

Clients send ``Authorization: Token <token>`` (the scheme is unchanged; tokens are now
64 hex characters and a new one is issued by every ``POST /auth/token``).  The database
keeps only a SHA-512 digest of each token and its first 15 characters for the look-up.

* **Revocable:** ``POST /auth/logout`` deletes the token of the request;
  ``POST /auth/logout-all`` every token of the account.
* **Rotated:** a password change (through the API, the admin, ``changepassword`` or any
  ``user.save()``) or a deactivation deletes every token of the account
  (:func:`games.services.tokens.revoke_on_credential_change`, connected in
  ``games.apps``); the API's password
  change then hands back one new token.
* **At once, in every process:** there is no per-process token cache (an earlier one
  let a revoked token work for 30 s); each request looks its token up in the database in
  one query (:meth:`TokenAuthentication.authenticate_credentials`).
* **Expiry:** ``AUTH_TOKEN_TTL_SECONDS`` (0: tokens last until revoked).  An account keeps
  at most ``AUTH_TOKENS_PER_USER`` tokens; issuing one more deletes the oldest.
* **Written by services:** every token row is issued or deleted by
  :mod:`games.services.tokens`; this module only looks tokens up.
"""

from __future__ import annotations

import binascii
import re
from hmac import compare_digest
from typing import Any

import drf_spectacular.authentication
from django.contrib.auth.models import User
from django.utils import timezone
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from knox.crypto import hash_token
from knox.models import AuthToken
from knox.settings import CONSTANTS
from rest_framework import authentication, exceptions

from games.services.tokens import token_revoke


class TokenAuthentication(KnoxTokenAuthentication):  # type: ignore[misc]
    """knox's ``Authorization: Token <token>`` in one query per request, never cached.

    Returns ``(user, AuthToken)``.  Refuses (401 ``authentication_failed``) an unknown,
    revoked or expired token (an expired one is deleted) and an inactive user.
    """

    def authenticate_credentials(self, token: bytes) -> tuple[User, AuthToken]:
        """The ``(user, AuthToken)`` of ``token``, the raw bytes after ``Token `` in the
        ``Authorization`` header (knox: 64 hex characters; the first
        ``CONSTANTS.TOKEN_KEY_LENGTH`` select the rows, then the whole token's digest,
        ``knox.crypto.hash_token``, is compared in constant time with each row's).

        Raises ``AuthenticationFailed`` (401 ``authentication_failed``): ``Invalid
        token.`` for bytes that are not UTF-8 or not hex, or that match no row, and for
        an expired token (``expiry`` at or before now; the row is deleted); ``User
        inactive or deleted.`` for an inactive account.  One query; nothing is cached
        between requests.
        """
        msg = "Invalid token."
        try:
            text = token.decode("utf-8")
            digest = hash_token(text)
        except (UnicodeDecodeError, TypeError, ValueError, binascii.Error):
            raise exceptions.AuthenticationFailed(msg) from None
        now = timezone.now()
        for auth_token in AuthToken.objects.filter(
            token_key=text[: CONSTANTS.TOKEN_KEY_LENGTH]
        ).select_related("user"):
            if not compare_digest(digest, auth_token.digest):
                continue
            if auth_token.expiry is not None and auth_token.expiry <= now:
                token_revoke(token=auth_token)
                break
            if not auth_token.user.is_active:
                raise exceptions.AuthenticationFailed("User inactive or deleted.")
            return auth_token.user, auth_token
        raise exceptions.AuthenticationFailed(msg)


#: What an ``Authorization`` scheme looks like, to be named in an answer (a bare key, with
#: no scheme before it, is never repeated back).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9_-]{0,19}")


def unaccepted_scheme_hint(authorization: str) -> str | None:
    """The ``detail`` of ``401 not_authenticated`` for a request whose ``Authorization``
    header uses a scheme other than ``Token`` (``Bearer``, ``Basic``, a bare key): it names
    the accepted scheme.  ``None`` without such a header.

    Such a header is not refused by itself (it may be a proxy's ``Basic`` in front of a
    session, and public endpoints ignore it); only an answer that is a 401 anyway says
    which scheme would have worked.
    """
    parts = authorization.split()
    if not parts or parts[0].lower() == "token":
        return None
    named = (
        f"the '{parts[0]}' scheme"
        if len(parts) > 1 and _SCHEME.fullmatch(parts[0])
        else "that scheme"
    )
    return (
        f"Authentication credentials were not provided: {named} is not accepted here. "
        "Use 'Authorization: Token <key>' with a key from POST /api/v1/auth/token."
    )


def legacy_token_row(key: str) -> tuple[str, str]:
    """``(token_key, digest)`` of a knox row that accepts the DRF token ``key`` unchanged.

    Used by the migration that moves DRF's ``authtoken_token`` keys (40 hex characters)
    into knox, so existing clients keep working without logging in again.
    """
    return key[: CONSTANTS.TOKEN_KEY_LENGTH], hash_token(key)


class SessionAuthentication(authentication.SessionAuthentication):
    """DRF's session authentication (the browser's cookie), whose CSRF refusal has the
    code the problem-code table gives it: ``403 csrf_failed``, as a refusal by Django's
    own CSRF check (:func:`api.refusals.csrf_failure`), not ``permission_denied``."""

    def enforce_csrf(self, request: Any) -> None:
        """Raise :class:`~api.errors.ProblemError` ``403 csrf_failed`` when the request's
        CSRF token is missing or wrong."""
        from api.errors import ProblemError  # api.errors imports DRF, which loads this module
        from api.refusals import csrf_failed_detail

        try:
            super().enforce_csrf(request)
        except exceptions.PermissionDenied as exc:
            raise ProblemError(
                "csrf_failed", csrf_failed_detail(str(exc.detail)), status=403
            ) from None


class SessionScheme(drf_spectacular.authentication.SessionScheme):  # type: ignore[no-untyped-call]
    """The OpenAPI scheme of :class:`SessionAuthentication`: the session cookie, as for
    DRF's own class (drf-spectacular matches the exact class)."""

    target_class = "api.authentication.SessionAuthentication"


class TokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """OpenAPI security scheme of :class:`TokenAuthentication` (``tokenAuth``, as before)."""

    target_class = "api.authentication.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        """An API key in ``Authorization``, sent as ``Token <token>``."""
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": 'The token from `auth/token`, prefixed with "Token ".',
        }
