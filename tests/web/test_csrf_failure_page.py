"""A page's form post that fails the CSRF check answers the site's own 403 page.

It was Django's bare page: no header or way back, ``lang="en"`` around German words,
and "More information is available with DEBUG=True." (``web.csrf``). The API's answer
is unchanged: ``403 csrf_failed`` problem+json.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tests.browser.web_helpers import PASSWORD


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"),
    [("en", "Form not accepted"), ("de", "Formular abgelehnt")],
)
def test_a_form_post_without_its_token_gets_the_sites_page(language: str, title: str) -> None:
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE=language)
    response = client.post("/accounts/login/", {"username": "x", "password": "y"})
    page = response.content.decode()
    assert response.status_code == 403
    assert f'<html lang="{language}">' in page
    assert f"<h1>{title}</h1>" in page
    assert '<a class="skip" href="#main">' in page  # the site's own page, header and all
    assert "DEBUG" not in page


@pytest.mark.django_db
def test_the_page_says_what_to_do(client: Client) -> None:
    User.objects.create_user("tia", password=PASSWORD)
    checked = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    checked.force_login(User.objects.get(username="tia"))
    response = checked.post("/practice", {"variant": "classic"})
    page = response.content.decode()
    assert response.status_code == 403
    assert (
        '<p role="alert">This form was out of date (you logged in or out in another window, '
        "or the page was open for a long time) or came without the cookie this site needs, "
        "so nothing was done."
    ) in page


@pytest.mark.django_db
def test_the_api_still_answers_problem_json() -> None:
    User.objects.create_user("tom", password=PASSWORD)
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(User.objects.get(username="tom"))
    response = checked.post("/api/v1/games", {}, content_type="application/json")
    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "csrf_failed"
