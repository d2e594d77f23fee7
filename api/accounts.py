"""Accounts: register, log in for an API token, log out, change the password.

Tokens are django-rest-knox tokens (``api.authentication``): a new one per login,
revocable, revoked by a password change or deactivation.  Every answer that carries a
token has ``Cache-Control: no-store``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import (
    HASH_SESSION_KEY,
    authenticate,
    get_user_model,
    logout,
    update_session_auth_hash,
)
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from django.utils.cache import add_never_cache_headers
from drf_spectacular.utils import OpenApiResponse, extend_schema
from knox.models import AuthToken
from rest_framework import status
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ProblemError, ProblemSerializer
from api.query import ApiView
from api.serializers import PasswordChangeInput, RegisterInput, TokenInput, TokenOutput
from canfield_site.security import (
    current_password_check,
    forget_failed_logins,
    lockout_address,
    lockout_detail,
    lockout_scope,
    lockout_seconds,
)
from games.services.accounts import account_password_set, user_register, username_validate
from games.services.errors import AccountDeleted, CredentialsChanged, UsernameTaken
from games.services.tokens import token_issue, token_revoke, tokens_revoke


def player_of(request: Request) -> User:
    """The authenticated player of ``request``; raises 401 ``not_authenticated`` otherwise."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated()
    return user


def _token_body(user: User, password: str | None = None) -> dict[str, Any]:
    """A new token for ``user`` as ``TokenOutput`` (``password``: the one a login checked,
    :func:`games.services.tokens.token_issue`)."""
    token, row = token_issue(user=user, password=password)
    return {"username": user.get_username(), "token": token, "expiry": row.expiry}


def _no_store(response: Response) -> Response:
    """Forbid every cache to keep ``response`` (it carries a token)."""
    add_never_cache_headers(response)
    return response


class RegisterView(ApiView):
    """``POST /api/v1/auth/register``: create an account and return its API token.

    Usernames are ASCII letters, digits and ``@.+-_`` (after NFKC normalisation),
    unique regardless of case.  Passwords go through Django's validators.  Errors:
    400 ``validation_error`` (weak password, bad username), 409 ``username_taken``.
    """

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_scope = "auth"

    @extend_schema(
        request=RegisterInput,
        responses={
            201: TokenOutput,
            400: ProblemSerializer,
            409: OpenApiResponse(ProblemSerializer, description="username_taken"),
            429: ProblemSerializer,
        },
        tags=["accounts"],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        """Create the account and log it in.

        Body: ``RegisterInput`` ``{"username": str (at most 150 characters, NFKC
        normalised, then ASCII letters, digits and ``@.+-_``), "password": str (at most
        128), "email": str (optional)}``.  Answers 201 ``TokenOutput`` ``{"username",
        "token", "expiry"}`` with ``Cache-Control: no-store``.

        Errors (problem+json): 400 ``malformed_request`` (not a JSON object),
        ``unknown_field``, ``validation_error`` (``errors`` per field: a bad username,
        a password the validators refuse, both reported together); 409
        ``username_taken`` (the same name in any case); 429 ``throttled`` (scope
        ``auth``).  Nothing is created on an error.
        """
        data = RegisterInput(data=request.data)
        data.is_valid(raise_exception=True)
        user_model = get_user_model()
        # NFKC folds look-alikes such as full-width letters onto ASCII ones.
        username = user_model.normalize_username(data.validated_data["username"])
        password = data.validated_data["password"]
        candidate = user_model(username=username, email=data.validated_data.get("email", ""))
        errors: dict[str, list[str]] = {}
        # Each field separately: a password message may mention the username
        # ("too similar to the username") and still belongs to the password.
        try:
            # ASCII only: names in public standings cannot impersonate others with
            # look-alike letters from other scripts.
            username_validate(username)
        except DjangoValidationError as exc:
            errors["username"] = exc.messages
        try:
            validate_password(password, user=candidate)
        except DjangoValidationError as exc:
            errors["password"] = exc.messages
        if errors:
            raise ProblemError(
                "validation_error",
                "The request has invalid fields; see 'errors'.",
                status=400,
                errors=errors,
            )
        try:
            with transaction.atomic():
                candidate = user_register(
                    username=username, password=password, email=candidate.email
                )
                body = _token_body(candidate)
        except UsernameTaken as exc:
            raise ProblemError("username_taken", str(exc), status=409) from None
        return _no_store(Response(body, status=status.HTTP_201_CREATED))


def _locked_out(request: Request, username: str) -> ProblemError:
    """``429 login_locked_out`` with ``Retry-After`` (``canfield_site.security``), its
    ``detail`` saying whether the address or the username at it is locked out."""
    scope = lockout_scope(request._request, {"username": username})
    return ProblemError(
        "login_locked_out", lockout_detail(scope), status=429, retry_after=lockout_seconds()
    )


def _invalid_credentials() -> ProblemError:
    """``400 invalid_credentials``: an unknown username or a wrong password (the same)."""
    return ProblemError("invalid_credentials", "Unknown username or wrong password.", status=400)


class TokenView(ApiView):
    """``POST /api/v1/auth/token``: exchange username and password for a new API token.

    Errors: 400 ``invalid_credentials`` (the same for an unknown user and a wrong password,
    and for an account deleted while its password was checked);
    429 ``login_locked_out`` from the ``LOGIN_FAILURE_LIMIT``-th failure of the username
    from the client address on, or the ``LOGIN_ADDRESS_FAILURE_LIMIT``-th from the address
    in all (django-axes; ``canfield_site.security``), with ``Retry-After``; 429
    ``throttled``.
    """

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_scope = "auth"

    @extend_schema(
        request=TokenInput,
        responses={
            200: TokenOutput,
            400: OpenApiResponse(
                ProblemSerializer,
                description="invalid_credentials: unknown username or wrong password (one "
                "answer for both)",
            ),
            429: OpenApiResponse(ProblemSerializer, description="login_locked_out, throttled"),
        },
        tags=["accounts"],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        """Check the username (any case, NFKC normalised) and password; issue a new token.

        Body: ``TokenInput`` ``{"username": str, "password": str}``.  Answers 200
        ``TokenOutput`` ``{"username", "token", "expiry"}`` with ``Cache-Control:
        no-store``, and clears the username's failed-login count from the client's
        address.

        Errors (problem+json): 400 ``malformed_request``, ``unknown_field``,
        ``validation_error`` (a field missing or too long), ``invalid_credentials``
        (unknown username, wrong password, inactive account, or an account deleted
        meanwhile: one answer for all); 429 ``login_locked_out`` with ``Retry-After``
        (seconds) from the ``LOGIN_FAILURE_LIMIT``-th failure of the username from the
        client address on, or the ``LOGIN_ADDRESS_FAILURE_LIMIT``-th from the address
        whatever usernames they named (that failure is itself answered 429, not 400: with
        the default 5, four ``invalid_credentials`` then ``login_locked_out``; django-axes;
        ``canfield_site.security``; ``detail`` says which); never for failures from other
        addresses; 429 ``throttled`` (scope ``auth``).
        """
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        # Usernames are unique without regard to case (registration checks it); the
        # backend (``UsernameAnyCaseBackend``) finds the account by the lockout's
        # folding, as the web login does, not by the database's iexact.
        given = get_user_model().normalize_username(data.validated_data["username"])
        user = authenticate(
            request._request, username=given, password=data.validated_data["password"]
        )
        if user is None and getattr(request._request, "axes_locked_out", False):
            raise _locked_out(request, given)
        if user is None or not user.is_active:
            raise _invalid_credentials()
        try:
            body = _token_body(user, password=data.validated_data["password"])
        except AccountDeleted:  # deleted since the password was checked: unknown now
            raise _invalid_credentials() from None
        except CredentialsChanged:  # changed or deactivated since: the password is stale
            raise _invalid_credentials() from None
        forget_failed_logins(user.get_username(), lockout_address(request._request))
        return _no_store(Response(body))


class LogoutView(ApiView):
    """``POST /api/v1/auth/logout``: revoke the token of this request (204).

    Signed in by session instead (the browser), it ends the session.
    """

    @extend_schema(
        request=None,
        responses={204: None, 401: ProblemSerializer, 429: ProblemSerializer},
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        player_of(request)
        if isinstance(request.auth, AuthToken):
            token_revoke(token=request.auth)
        else:
            logout(request._request)
        return _no_store(Response(status=status.HTTP_204_NO_CONTENT))


class LogoutAllView(ApiView):
    """``POST /api/v1/auth/logout-all``: revoke every API token of the account (204).

    Ends this request's session too.  Other browser sessions end with a password change.
    """

    @extend_schema(
        request=None,
        responses={204: None, 401: ProblemSerializer, 429: ProblemSerializer},
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        tokens_revoke(user=player_of(request))
        if not isinstance(request.auth, AuthToken):
            logout(request._request)
        return _no_store(Response(status=status.HTTP_204_NO_CONTENT))


class PasswordChangeView(ApiView):
    """``POST /api/v1/auth/password``: change the password; every token is revoked and a
    new one is returned (``TokenOutput``); a browser session stays signed in.

    Errors: 400 ``validation_error`` (``current_password`` wrong, ``new_password`` refused
    by the password validators), 401, 404 ``not_found`` (the account was deleted while
    the passwords were checked), 429 ``throttled``, 429 ``login_locked_out`` (a wrong
    current password counts as a failed login of the account from the client's address:
    see ``auth/token``).
    """

    throttle_scope = "auth"

    @extend_schema(
        request=PasswordChangeInput,
        responses={
            200: TokenOutput,
            400: ProblemSerializer,
            401: ProblemSerializer,
            404: OpenApiResponse(
                ProblemSerializer,
                description="not_found: the account was deleted while the passwords were checked",
            ),
            429: OpenApiResponse(
                ProblemSerializer,
                description="login_locked_out (a wrong current password counts as a failed "
                "login; `Retry-After`), throttled",
            ),
        },
        tags=["accounts"],
    )
    def post(self, request: Request) -> Response:
        """Change the signed-in player's password and return a new token.

        Body: ``PasswordChangeInput`` ``{"current_password": str, "new_password": str}``
        (each at most 128 characters).  Saving the password revokes every API token of
        the account (``api.authentication``); the answer is 200 ``TokenOutput``
        ``{"username", "token", "expiry"}`` (a new token) with ``Cache-Control:
        no-store``; a browser session that made the request stays signed in.

        Errors (problem+json): 400 ``malformed_request``, ``unknown_field``,
        ``validation_error`` (``errors.current_password``: wrong;
        ``errors.new_password``: refused by the validators); 401
        ``not_authenticated``; 404 ``not_found`` (the account was deleted while the
        passwords were checked); 429 ``login_locked_out`` (with ``Retry-After``, in
        seconds; a wrong current password counts as a failed login), 429
        ``throttled`` (scope ``auth``).  The password is unchanged on any error.
        """
        user = player_of(request)
        data = PasswordChangeInput(data=request.data)
        data.is_valid(raise_exception=True)
        errors: dict[str, list[str]] = {}
        check = current_password_check(
            request._request, user, data.validated_data["current_password"]
        )
        if check == "locked_out":
            raise _locked_out(request, user.get_username())
        if check == "wrong":
            errors["current_password"] = ["The current password is wrong."]
        else:
            try:
                validate_password(data.validated_data["new_password"], user=user)
            except DjangoValidationError as exc:
                errors["new_password"] = exc.messages
        if errors:
            raise ProblemError(
                "validation_error",
                "The request has invalid fields; see 'errors'.",
                status=400,
                errors=errors,
            )
        try:
            with transaction.atomic():
                # Deleted meanwhile (while the passwords were hashed): AccountDeleted, 404
                # not_found.  Saving revokes every token; the new one is issued in the
                # same transaction.
                account_password_set(account=user, password=data.validated_data["new_password"])
                body = _token_body(user)
        except CredentialsChanged:
            # Deactivated while the passwords were checked: nothing changed (rolled back),
            # and the answer is the one the request's next call gets.
            raise AuthenticationFailed("User inactive or deleted.") from None
        if request._request.session.get(HASH_SESSION_KEY):
            update_session_auth_hash(request._request, user)
        return _no_store(Response(body))
