"""The README's claims that code can check stay true (issue 13 item 7).

* Every endpoint it lists as public answers an anonymous call (no 401/403), and the
  endpoints it says need a user refuse one with 401.
* Every custom action of every admin list of the games app is described in its table
  of admin actions (django-celery-beat's own lists are that package's).
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib import admin
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.test import APIClient

from games.services.races import race_create
from games.services.tournaments import tournament_create

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def _public_gets() -> list[str]:
    section = README.split("**Public endpoints**", 1)[1].split("\n\n", 2)[1]
    return re.findall(r"^- `GET (/api/v1/[^`]+)`", section, flags=re.MULTILINE)


@pytest.mark.django_db
def test_the_public_endpoints_answer_anonymous_calls() -> None:
    now = timezone.now()
    race = race_create(
        name="r",
        opens_at=now,
        starts_at=now + timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
    )
    tournament = tournament_create(name="Cup")
    ids = {"/races/{id}": race.id, "/tournaments/{id}": tournament.id}
    paths = _public_gets()
    assert len(paths) == 9, paths
    anon = APIClient()
    for path in paths:
        url = path
        for prefix, value in ids.items():
            url = url.replace(f"{prefix}", prefix.replace("{id}", str(value)))
        response = anon.get(url)
        assert response.status_code not in (401, 403), (path, response.content)
        # results of a race still to run: 409 race_not_finished, still answered anonymously
        assert response.status_code in (200, 409), (path, response.status_code)
    for path in ("/api/v1/games", f"/api/v1/tournaments/{tournament.id}/me"):
        refused = anon.get(path)
        assert refused.status_code == 401, path
        assert refused.json()["code"] == "not_authenticated"


def test_every_admin_action_is_in_the_readme() -> None:
    request = RequestFactory().get("/admin/")
    request.user = _superuser()
    documented = README.split("Every admin action", 1)[1].split("\n\n", 2)[1]
    missing = []
    ours = {m: a for m, a in admin.site._registry.items() if m._meta.app_label == "games"}
    assert ours, "no games admin registered"
    for model, model_admin in ours.items():
        for name, action in model_admin.get_actions(request).items():
            if name == "delete_selected" or action is None:
                continue
            description = str(action[2])
            if f"*{description}*" not in documented:
                missing.append(f"{model._meta.verbose_name_plural}: {description}")
    assert missing == []


def test_the_actions_the_readme_names_in_passing_are_the_admins_labels() -> None:
    """Outside the table, the README names an action as the admin labels it ("publish it
    (action *Publish (draft → open; asks first)*)"): the quick tour kept the label the
    action had before it asked first.  A name may leave out the label's words in
    brackets (*Recompute pool*), never change them."""
    request = RequestFactory().get("/admin/")
    request.user = _superuser()
    labels = {
        short
        for model, model_admin in admin.site._registry.items()
        if model._meta.app_label == "games"
        for action in model_admin.get_actions(request).values()
        if action is not None
        for short in (str(action[2]), str(action[2]).split(" (", 1)[0])
    }
    named = re.findall(r"\baction \*([^*]+)\*", README)
    assert "Publish (draft → open; asks first)" in named
    assert [name for name in named if name not in labels] == []


def _superuser() -> Any:
    from django.contrib.auth.models import User

    return User(username="root", is_staff=True, is_superuser=True, is_active=True)


def _race_example() -> tuple[str, str, dict[str, Any]]:
    """The organisers' worked example: its login, its curl line and its body, whose
    ``$(at N)`` (UTC, N minutes from now) are left as they are."""
    section = README.split("### Races\n", 1)[1].split("\n### ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    login = re.search(r"-d '(\{\"username\".*?\})'", block)
    assert login is not None, block
    body = block.split("<<EOF\n", 1)[1].split("\nEOF\n", 1)[0]
    return login.group(1), block, {"body": body}


@pytest.mark.django_db
def test_the_organisers_race_example_creates_a_race(monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's ``POST /api/v1/races`` example, sent as it stands (times filled in) by
    the development superuser after logging in as it shows, creates the race it
    describes; a wrong password at that login is 400 invalid_credentials, as it says."""
    from django.contrib.auth.models import User

    import dev

    now = datetime(2030, 1, 4, 18, 0, tzinfo=UTC)  # the server's clock, pinned
    monkeypatch.setattr(timezone, "now", lambda: now)
    login, block, parts = _race_example()
    credentials = json.loads(login)
    assert credentials == {"username": dev.DEV_ADMIN_USER, "password": dev.DEV_ADMIN_PASSWORD}
    User.objects.create_superuser(dev.DEV_ADMIN_USER, password=dev.DEV_ADMIN_PASSWORD)
    anon = APIClient()
    wrong = anon.post("/api/v1/auth/token", {**credentials, "password": "x"}, format="json")
    assert (wrong.status_code, wrong.json()["code"]) == (400, "invalid_credentials")
    assert "`400 invalid_credentials`" in README
    token = anon.post("/api/v1/auth/token", credentials, format="json").json()["token"]
    assert "Authorization: Token $ADMIN" in block
    assert "-X POST $B/races" in block

    at = {m: (now + timedelta(minutes=int(m))).strftime("%Y-%m-%dT%H:%M:%SZ")
          for m in re.findall(r"\$\(at (\d+)\)", parts["body"])}  # fmt: skip
    body = re.sub(r"\$\(at (\d+)\)", lambda m: at[m.group(1)], parts["body"])
    organiser = APIClient()
    organiser.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    resp = organiser.post("/api/v1/races", body, content_type="application/json")
    assert resp.status_code == 201, resp.content
    race, sent = resp.json(), json.loads(body)
    assert {key: race[key] for key in sent} == sent
    assert (race["phase"], len(race["commitment"])) == ("open", 64)
    # The same body from an account without games.add_race is refused.
    other = User.objects.create_user("pat", password="a long pass phrase")
    player = APIClient()
    player.force_authenticate(other)
    refused = player.post("/api/v1/races", body, content_type="application/json")
    assert (refused.status_code, refused.json()["code"]) == (403, "permission_denied")


def _headings() -> list[str]:
    """The README's headings in order, as written ("## API"), outside code blocks."""
    out, fenced = [], False
    for line in README.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and re.match(r"#{1,6} ", line):
            out.append(line)
    return out


def test_playing_in_the_browser_comes_right_after_set_up() -> None:
    """A new user found "Playing in the browser" after every API section: it follows
    the set-up details (and their subsection) now, before the configuration and the API;
    its own subsections split what was one long paragraph."""
    headings = _headings()
    at = headings.index("## Playing in the browser")
    assert headings[at - 2 : at] == ["## Set up in detail", "### Tests and the real servers"]
    after = [h for h in headings[at + 1 :] if h.startswith("## ")]
    assert after[0] == "## Configuration"
    inside = headings[at + 1 : headings.index("## Configuration")]
    assert "### The play page" in inside, inside
    assert len(inside) >= 5, inside
    assert at < headings.index("## API")


def test_a_newcomer_reads_set_up_then_contents_then_a_quick_tour() -> None:
    """The intro and the two set-up commands come first, then a table of contents that
    links every section, then a quick tour of the three ways in."""
    headings = _headings()
    assert headings[:7] == [
        "# Canfield race server",
        "## Set up",
        "## Contents",
        "## Quick tour",
        "### Play in the browser",
        "### Run a race as an organiser",
        "### Write a bot",
    ]
    set_up = README.split("## Set up\n", 1)[1].split("## Contents\n", 1)[0]
    assert "python3 dev.py serve    # the service and admin on http://127.0.0.1:8000" in set_up
    assert "python3 dev.py test     # the whole test suite" in set_up
    contents = README.split("## Contents\n", 1)[1].split("\n## ", 1)[0]
    linked = set(re.findall(r"\]\(#([^)]+)\)", contents))
    sections = {_anchor(h) for h in headings if h.startswith("## ")} - {"contents", "set-up"}
    assert sections <= linked, sections - linked


def _endpoint_rows() -> set[tuple[str, str]]:
    """(method, path) of every row of the API's endpoint table, a cell naming several
    paths (`a`, `b`) read as one row each."""
    section = README.split("### Endpoints\n", 1)[1].split("\n### ", 1)[0]
    rows = set()
    for line in section.splitlines():
        match = re.match(r"\| `([A-Z]+)` \| ([^|]+) \|", line)
        if match:
            for path in re.findall(r"`([^`]+)`", match.group(2)):
                rows.add((match.group(1), "/api/v1/" + path))
    return rows


def test_the_api_lists_every_endpoint_with_its_method(tmp_path: Path) -> None:
    """Every operation of the OpenAPI schema is a row of the README's endpoint table with
    its method, and every row is an operation (a new user guessed ``POST .../hint``: it
    is a ``GET``), and the hint's row says how it answers."""
    from django.core.management import call_command

    out = tmp_path / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(out))
    schema = json.loads(out.read_text())
    operations = {
        (method.upper(), re.sub(r"\{[a-z_]*id\}", "{id}", path))
        for path, item in schema["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    }
    rows = _endpoint_rows()
    viewers = {("GET", f"/api/v1/{name}/") for name in ("schema", "docs", "redoc")}
    assert rows - viewers == operations
    hint = next(
        line
        for line in README.split("### Endpoints\n", 1)[1].splitlines()
        if line.startswith("| `GET` | `games/{id}/hint`")
    )
    for fact in ("`202 {\"status\": \"pending\"", "Retry-After", "`200 {\"status\": \"done\"",
                 "403 hint_not_allowed", "RULES.md 7"):  # fmt: skip
        assert fact in hint, fact


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, spaces as hyphens, punctuation dropped."""
    return re.sub(r"[^\w\- ]", "", heading.lstrip("#").strip().lower()).replace(" ", "-")


def test_the_readmes_links_to_its_own_sections_lead_somewhere() -> None:
    """Every ``](#anchor)`` link names a heading (GitHub's anchors: lower case, spaces as
    hyphens, punctuation dropped): a moved section must not leave one dangling."""
    anchors = {_anchor(h) for h in _headings()}
    links = set(re.findall(r"\]\(#([^)]+)\)", README))
    assert links <= anchors, links - anchors


def test_the_start_row_says_what_a_cancelled_race_answers() -> None:
    """The endpoint table's ``races/{id}/start`` row promised ``409 race_not_started``
    with ``Retry-After`` before every start; a race cancelled before its start answers the
    entrant's game as the cancellation ended it, or ``409 race_not_open`` (no game dealt),
    as its service and the Races section say."""
    row = next(
        line
        for line in README.split("### Endpoints\n", 1)[1].splitlines()
        if line.startswith("| `POST` | `races/{id}/start`")
    )
    assert "409 race_not_started" in row
    assert "in a cancelled race" in row
    assert "`409 race_not_open`" in row


@pytest.mark.django_db
def test_a_json_body_that_is_not_utf8_is_refused_as_the_readme_says() -> None:
    """The README said a JSON body not in UTF-8 is ``415``: that is the answer to a
    ``charset`` naming another encoding; Latin-1 bytes sent as plain ``application/json``
    are ``400 malformed_request`` (they cannot be decoded)."""
    assert "a `charset`\nother than UTF-8 is `415 unsupported_media_type`" in README
    assert (
        "bytes that are not UTF-8 (no charset,\nor `charset=utf-8`) are `400 malformed_request`"
        in README
    )
    body = '{"username": "\u00e9", "password": "x"}'.encode("latin-1")
    client = APIClient()
    as_latin1 = client.post(
        "/api/v1/auth/token", body, content_type="application/json; charset=iso-8859-1"
    )
    assert (as_latin1.status_code, as_latin1.json()["code"]) == (415, "unsupported_media_type")
    bare = client.post("/api/v1/auth/token", body, content_type="application/json")
    assert (bare.status_code, bare.json()["code"]) == (400, "malformed_request")
