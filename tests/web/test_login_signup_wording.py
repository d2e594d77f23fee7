# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""What the login and sign-up pages say is true here.

A failed login said, in every language, that both fields are case-sensitive (Django's
message), but the username logs in in any case (``BOB`` for ``bob``): it now says the
password is case-sensitive and the username is not.  The sign-up help said "letters",
and ``chloé`` was refused only once typed: it now says "unaccented letters (a-z, A-Z)"."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

LOGIN_REFUSAL = {
    "en": "The username may be typed in any case; the password is case-sensitive.",
    "fr": "Le nom d\u2019utilisateur peut être saisi en majuscules ou en minuscules\u202f; "
    "le mot de passe est sensible à la casse.",
    "es": "El nombre de usuario puede escribirse en mayúsculas o minúsculas; la contraseña "
    "distingue entre mayúsculas y minúsculas.",
    "de": "Beim Benutzernamen spielt die Groß-/Kleinschreibung keine Rolle; beim Passwort "
    "wird sie berücksichtigt.",
}

#: Django's wording, which said the username's case matters.
CASE_SENSITIVE_USERNAME = ("both fields", "chacun de ces champs", "ambos campos", "Beide Felder")


def _text(resp: Any) -> str:
    return str(html.unescape(resp.content.decode()))


@pytest.mark.parametrize("language", list(LOGIN_REFUSAL))
def test_a_failed_login_says_only_the_password_is_case_sensitive(language: str) -> None:
    UserFactory(username="bob", password="Right-pass-1")
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = _text(c.post(reverse("web:login"), {"username": "bob", "password": "WRONG-PASS-1"}))
    assert LOGIN_REFUSAL[language] in page
    assert not any(words in page for words in CASE_SENSITIVE_USERNAME)
    # ... and it is true: the username in capitals logs in.
    resp = c.post(reverse("web:login"), {"username": "BOB", "password": "Right-pass-1"})
    assert resp.status_code == 302
    assert resp.wsgi_request.user.get_username() == "bob"


@pytest.mark.parametrize("language", list(LOGIN_REFUSAL))
def test_the_admin_login_refusal_says_the_same(language: str) -> None:
    UserFactory(username="staffer", password="Right-pass-1", is_staff=True)
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = _text(
        c.post(reverse("admin:login"), {"username": "staffer", "password": "wrong-pass-1"})
    )
    assert LOGIN_REFUSAL[language] in page
    assert not any(words in page for words in CASE_SENSITIVE_USERNAME)


SIGNUP_HELP = {
    "en": "unaccented letters (a-z, A-Z), digits and the characters @ . + - _ only",
    "fr": "uniquement des lettres non accentuées (a-z, A-Z), des chiffres et les caractères "
    "@ . + - _",
    "es": "solo letras sin acentos (a-z, A-Z), dígitos y los caracteres @ . + - _",
    "de": "nur Buchstaben ohne Akzente (a-z, A-Z), Ziffern und die Zeichen @ . + - _",
}


@pytest.mark.parametrize("language", list(SIGNUP_HELP))
def test_the_sign_up_help_says_which_letters_before_chloe_is_refused(language: str) -> None:
    c = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = _text(c.get(reverse("web:signup")))
    assert SIGNUP_HELP[language] in page
    # The refusal agrees with the help.
    form = {"username": "chloé", "password1": "Some-long-pass-9", "password2": "Some-long-pass-9"}
    resp = c.post(reverse("web:signup"), form)
    assert resp.status_code == 200
    assert resp.context["form"].errors["username"]


def test_the_admin_add_user_form_has_the_same_help() -> None:
    admin = UserFactory(username="root", is_staff=True, is_superuser=True)
    c = Client()
    c.force_login(admin)
    page = _text(c.get(reverse("admin:auth_user_add")))
    assert SIGNUP_HELP["en"] in page
