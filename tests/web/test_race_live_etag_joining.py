"""The race page's live part, polled with ``If-None-Match``: joining closing while the
race runs (``late_join_s`` after the start) takes the Join button away, so the ETag
changes at that instant, not at the next move or entry."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone

from games.services.races import race_create
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db

JOIN = "Join the race"


def test_race_live_poll_sees_joining_close(
    pages: PageClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    created = timezone.now()
    starts = created + timedelta(minutes=1)
    race = race_create(
        name="Late joiners",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=30),
        late_join_s=60,
    )
    clock: dict[str, datetime] = {"now": starts + timedelta(seconds=30)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    first = pages.get(f"/races/{race.id}/live")
    assert first.status_code == 200
    assert JOIN in first.content.decode()
    clock["now"] = starts + timedelta(seconds=61)  # still running, joining closed at +60 s
    again = pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 200, "the Join button went away: the part changed"
    html = again.content.decode()
    assert JOIN not in html
    assert 'data-joining="closed"' in html
    assert again["ETag"] != first["ETag"]
    # Unchanged from then on: the same ETag answers 304.
    third = pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=again["ETag"])
    assert third.status_code == 304


def test_race_live_etag_is_stable_while_nothing_changes(
    pages: PageClient, monkeypatch: pytest.MonkeyPatch, player: Any
) -> None:
    created = timezone.now()
    starts = created + timedelta(minutes=1)
    race = race_create(
        name="Quiet",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=30),
        late_join_s=60,
    )
    monkeypatch.setattr(timezone, "now", lambda: starts + timedelta(seconds=10))
    first = pages.get(f"/races/{race.id}/live")
    monkeypatch.setattr(timezone, "now", lambda: starts + timedelta(seconds=50))
    assert pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304


def test_race_live_poll_sees_an_organiser_rename_or_move_the_race(
    pages: PageClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The live part shows the race's facts (its name, its times) since it took in the
    whole page; a race renamed or moved in the admin before its start kept answering 304
    until something else changed."""
    from games.models import Race

    created = timezone.now()
    starts = created + timedelta(minutes=10)
    race = race_create(
        name="Friday sprint",
        opens_at=created,
        starts_at=starts,
        ends_at=starts + timedelta(minutes=5),
    )
    monkeypatch.setattr(timezone, "now", lambda: created + timedelta(minutes=1))
    first = pages.get(f"/races/{race.id}/live")
    assert pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    Race.objects.filter(id=race.id).update(name="Saturday sprint")
    renamed = pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert renamed.status_code == 200
    Race.objects.filter(id=race.id).update(ends_at=starts + timedelta(minutes=8))
    moved = pages.get(f"/races/{race.id}/live", HTTP_IF_NONE_MATCH=renamed["ETag"])
    assert moved.status_code == 200
    assert moved["ETag"] not in (first["ETag"], renamed["ETag"])
