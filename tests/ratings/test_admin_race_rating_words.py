# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""The *Race ratings* list says how each race counted in the admin's language: the
reason in words (it showed the stored codes ``unrated``, ``too_few_entries``,
``draft_tournament``, in every language, in its column and its filter), the status
capitalised as every other status of the admin (*Not rated* beside *Rated*, where it
was *not rated*), and the race's end with its time zone, as the admin's other times
(it was "5 de diciembre de 2026 a las 09:18", with no zone)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from games.models import Race, RaceRating
from games.services.ratings import race_rate, race_set_rated
from tests.factories import StaffFactory
from tests.ratings.helpers import Result, race_of

pytestmark = pytest.mark.django_db

WORDS = {
    "en": ("Not rated", "marked unrated by an organiser", "fewer than two ranked entries"),
    "fr": (
        "Non cotée",
        "marquée non cotée par un organisateur",
        "moins de deux participants classés",
    ),
    "es": (
        "No valorada",
        "marcada como no valorable por un organizador",
        "menos de dos participantes clasificados",
    ),
    "de": (
        "Nicht gewertet",
        "von einem Organisator als ungewertet markiert",
        "weniger als zwei platzierte Teilnehmer",
    ),
}


def listing(lang: str) -> str:
    org: User = StaffFactory(username=f"org-{lang}")
    org.groups.add(Group.objects.get(name="organisers"))
    client = Client()
    client.force_login(org)
    page = client.get(reverse("admin:games_racerating_changelist"), HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 200
    return page.content.decode()


def cells(page: str, column: str) -> list[str]:
    """The text of the list's cells of ``column`` (``field-<name>`` classes), in order."""
    found = re.findall(rf'<td class="field-{column}[^"]*">(.*?)</td>', page, re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in found]


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_status_reason_and_end_are_words_in_the_admins_language(lang: str) -> None:
    unrated = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="U")
    alone = race_of(Result("cyd", 40, 1000), name="A")
    Race.objects.filter(id=unrated.id).update(ends_at=datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC))
    Race.objects.filter(id=alone.id).update(ends_at=datetime(2031, 3, 4, 4, 6, 7, tzinfo=UTC))
    race_set_rated(race_id=unrated.id, rated=False)
    race_rate(race_id=unrated.id)
    race_rate(race_id=alone.id)
    assert RaceRating.objects.get(race_id=unrated.id).reason == "unrated"
    page = listing(lang)
    status, by_organiser, too_few = WORDS[lang]
    assert cells(page, "status_words") == [status, status]
    assert cells(page, "reason_words") == [by_organiser, too_few]
    assert cells(page, "race_end") == ["2031-03-04 05:06:07 UTC", "2031-03-04 04:06:07 UTC"]
    filters = page[page.index('id="changelist-filter"') :]
    assert by_organiser in filters
    assert too_few in filters
    assert ">unrated<" not in page
    assert ">too_few_entries<" not in page


HEADER = {"en": "Scheduled end", "fr": "Fin prévue", "es": "Fin prevista", "de": "Geplantes Ende"}


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_end_column_says_it_is_the_scheduled_end(lang: str) -> None:
    """The column holds the race's ``ends_at`` (the pool's race order), also for a race
    every player finished early: headed "race ended", it gave a time after the race had
    closed (closed 09:54:54, "race ended 09:55:58")."""
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="Early")
    Race.objects.filter(id=race.id).update(
        ends_at=datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC),
        closed_at=datetime(2031, 3, 4, 5, 0, 0, tzinfo=UTC),
    )
    race_rate(race_id=race.id)
    page = listing(lang)
    header = re.search(r'<th scope="col" class="[^"]*column-race_end[^"]*">(.*?)</th>', page, re.S)
    assert header is not None
    assert re.sub(r"<[^>]+>", "", header.group(1)).strip() == HEADER[lang]
    assert cells(page, "race_end") == ["2031-03-04 05:06:07 UTC"]


POOL = {
    "en": ("Classic", "Draw one"),
    "fr": ("Classique", "Une carte"),
    "es": ("Clásico", "Una carta"),
    "de": ("Klassisch", "Eine Karte"),
}


@pytest.mark.parametrize("lang", ["en", "fr", "es", "de"])
def test_the_pool_is_named_by_its_rules_in_the_list_and_its_filter(lang: str) -> None:
    """The pool column and filter showed the pool's stored key ("classic", "draw-one") in
    every language, where the Rating pools list and the site name the rules."""
    classic = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000), name="C")
    draw_one = race_of(
        Result("ann", 40, 1000), Result("bob", 30, 1000), name="D", variant="draw-one"
    )
    Race.objects.filter(id=classic.id).update(ends_at=datetime(2031, 3, 4, 5, 6, 7, tzinfo=UTC))
    Race.objects.filter(id=draw_one.id).update(ends_at=datetime(2031, 3, 4, 4, 6, 7, tzinfo=UTC))
    race_rate(race_id=classic.id)
    race_rate(race_id=draw_one.id)
    page = listing(lang)
    assert cells(page, "pool") == list(POOL[lang])
    filters = page[page.index('id="changelist-filter"') :]
    for name in POOL[lang]:
        assert re.search(rf"<a [^>]*>{re.escape(name)}</a>", filters), name
    assert ">classic</a>" not in filters
