"""Accounts: register and obtain an API token (token auth for clients, sessions for the browser)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate, get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import ASCIIUsernameValidator
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ProblemError, ProblemSerializer
from api.serializers import RegisterInput, TokenInput, TokenOutput
from games.services.accounts import user_register
from games.services.errors import UsernameTaken


def player_of(request: Request) -> User:
    """The authenticated player of ``request``; raises 401 ``not_authenticated`` otherwise."""
    user = request.user
    if not isinstance(user, User) or not user.is_authenticated:
        raise NotAuthenticated()
    return user


class RegisterView(APIView):
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
            ASCIIUsernameValidator()(username)
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
                token = Token.objects.create(user=candidate)
        except UsernameTaken as exc:
            raise ProblemError("username_taken", str(exc), status=409) from None
        return Response({"username": username, "token": token.key}, status=status.HTTP_201_CREATED)


class TokenView(APIView):
    """``POST /api/v1/auth/token``: exchange username and password for the API token.

    Errors: 400 ``invalid_credentials`` (the same for an unknown user and a wrong password).
    """

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []
    throttle_scope = "auth"

    @extend_schema(
        request=TokenInput,
        responses={200: TokenOutput, 400: ProblemSerializer, 429: ProblemSerializer},
        tags=["accounts"],
        auth=[],
    )
    def post(self, request: Request) -> Response:
        data = TokenInput(data=request.data)
        data.is_valid(raise_exception=True)
        # Usernames are unique without regard to case (registration checks it), so
        # log in the same way: find the account, then check the password.
        given = get_user_model().normalize_username(data.validated_data["username"])
        account = get_user_model().objects.filter(username__iexact=given).first()
        user = authenticate(
            request._request,
            username=account.get_username() if account is not None else given,
            password=data.validated_data["password"],
        )
        if user is None or not user.is_active:
            raise ProblemError(
                "invalid_credentials", "Unknown username or wrong password.", status=400
            )
        token, _ = Token.objects.get_or_create(user=user)
        return Response({"username": user.get_username(), "token": token.key})
