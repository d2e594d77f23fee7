# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined"
"""A race whose joining would already be closed when it is announced is refused.

A scheduled race closes joining at its start by default (``late_join_s`` 0).  Announced
with a start already past (``POST /api/v1/races`` with ``starts_at`` a minute ago and
``opens_at`` before it, or the admin's *Add scheduled races* with a first start a few
minutes back), it was created, listed as running, and nobody could ever join it: it
closed at its end with no entrant.  The service's clock is injected (``now=``); the API
and the admin are given times around the clock they read."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import override
from rest_framework.test import APIClient

from games.admin.refusals import admin_refusal
from games.models import Race
from games.services.errors import InvalidRace
from games.services.races import race_create
from tests.factories import create_user

pytestmark = pytest.mark.django_db

#: The instant the races are announced at (the service's ``now``).
T = datetime(2031, 3, 30, 0, 30, tzinfo=UTC)


def _at_t(**kw: Any) -> Race:
    """A race announced at :data:`T`: it started a minute before, ends ten after."""
    params: dict[str, Any] = {
        "name": "late",
        "opens_at": T - timedelta(minutes=5),
        "starts_at": T - timedelta(minutes=1),
        "ends_at": T + timedelta(minutes=10),
        "now": T,
        **kw,
    }
    return race_create(**params)


@pytest.mark.parametrize("late_join_s", [0, 30, 60], ids=["default", "30s", "60s-exactly-now"])
def test_a_race_whose_joining_has_closed_already_is_refused(late_join_s: int) -> None:
    kw = {} if late_join_s == 0 else {"late_join_s": late_join_s}
    with pytest.raises(InvalidRace, match="joining would already be closed") as refused:
        _at_t(**kw)
    assert refused.value.why == "joining_closed_already"
    closes = T - timedelta(minutes=1) + timedelta(seconds=late_join_s)
    assert refused.value.facts == {"join_closes_at": closes}
    assert not Race.objects.exists()


@pytest.mark.parametrize(
    "kw", [{"late_join_s": 61}, {"late_join_s": None}, {"mode": "window", "time_limit_s": 60}]
)
def test_a_race_started_already_that_still_takes_entrants_is_created(kw: dict[str, Any]) -> None:
    """Joining open past the announcement (late joining, or a window race's default of
    joining until the end): created, and joinable at once."""
    race = _at_t(**kw)
    assert race.joining_open(T)


def test_the_admin_words_the_refusal() -> None:
    with pytest.raises(InvalidRace) as refused:
        _at_t()
    with override("fr"):
        words = admin_refusal(refused.value)
    assert words == (
        "Personne ne pourrait s\u2019inscrire \u00e0 la course\u202f: les inscriptions "
        "seraient d\u00e9j\u00e0 closes (\u00e0 2031-03-30 00:29:00 UTC). Choisissez un "
        "d\u00e9part plus tardif, ou une \u00ab\u202fInscription tardive\u202f\u00bb qui "
        "garde les inscriptions ouvertes au-del\u00e0 de maintenant."
    )


def test_the_api_refuses_it() -> None:
    staff = APIClient()
    staff.force_authenticate(create_user("staff", staff=True))
    now = timezone.now()
    body = {
        "name": "sprint",
        "opens_at": (now - timedelta(minutes=2)).isoformat(),
        "starts_at": (now - timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(minutes=10)).isoformat(),
    }
    refused = staff.post("/api/v1/races", body, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "invalid_race"
    assert refused.json()["detail"].startswith("Joining would already be closed (at ")
    assert not Race.objects.exists()
    created = staff.post("/api/v1/races", {**body, "late_join_s": 600}, format="json")
    assert created.status_code == 201
    assert created.json()["joining_open"] is True


def test_the_admin_form_refuses_a_first_start_gone_by() -> None:
    from tests.tournaments.factories import TournamentFactory
    from tests.tournaments.test_admin import client_for, organiser

    c = client_for(organiser())
    t = TournamentFactory(name="Back")
    start = (timezone.now() - timedelta(minutes=2)).strftime("%Y-%m-%d %H:%M")
    form = {
        "count": 1,
        "first_starts_at": start,
        "duration": "1:00:00",
        "gap": "0:00",
        "opens_before": "10:00",
        "variant": "classic",
        "mode": "scheduled",
    }
    page = c.post(reverse("admin:games_tournament_add_races", args=[t.pk]), form)
    assert page.status_code == 200
    assert "Nobody could join the race: joining would already be closed" in page.content.decode()
    assert not t.races.exists()
