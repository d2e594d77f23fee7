# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, misc, assignment"
"""The ratings admin: ratings per player with history, recompute pool, mark races unrated."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games.models import PlayerRating, Race, RaceRating, RatingPool
from games.services.ratings import race_rate
from tests.factories import StaffFactory, UserFactory
from tests.ratings.helpers import Result, expected_fold, race_of, ranks_of, ratings

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tasks run in-process (`CELERY_TASK_ALWAYS_EAGER=true`), as in the test suite; the
    embedded default and production run them on a worker."""
    from canfield_site.celery import app

    monkeypatch.setitem(app.conf, "CELERY_TASK_ALWAYS_EAGER", True)


def admin_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def superuser() -> User:
    user: User = UserFactory(username="root", is_staff=True, is_superuser=True)
    return user


def test_player_rating_page_shows_the_history() -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    r2 = race_of(Result("bob", 45, 1000), Result("ann", 25, 1000))
    race_rate(race_id=r1.id)
    race_rate(race_id=r2.id)
    client = admin_client(superuser())
    listing = client.get(reverse("admin:games_playerrating_changelist") + "?q=ann")
    assert listing.status_code == 200
    ann = PlayerRating.objects.get(player__username="ann")
    assert f">{ann.rating}<" in listing.content.decode()
    page = client.get(reverse("admin:games_playerrating_change", args=[ann.pk])).content.decode()
    assert 'class="rating-history"' in page
    assert page.index(r2.name) < page.rindex(r1.name)
    assert page.count("<tr><td>") == 2


def test_recompute_pool_action(eager: None, django_capture_on_commit_callbacks: Any) -> None:
    r1 = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    race_rate(race_id=r1.id)
    PlayerRating.objects.filter(player__username="ann").update(mu=1.0)
    pool = RatingPool.objects.get(key="classic")
    client = admin_client(superuser())
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:games_ratingpool_changelist"),
            {"action": "recompute", "_selected_action": [pool.pk]},
        )
    assert response.status_code == 302
    pool.refresh_from_db()
    assert pool.recomputed_at is not None
    got, want = ratings()["ann"], expected_fold([ranks_of(r1)])["ann"]
    assert got[0] == pytest.approx(want[0], abs=1e-9)


def test_organiser_marks_a_race_unrated(
    eager: None, django_capture_on_commit_callbacks: Any
) -> None:
    race = race_of(Result("ann", 40, 1000), Result("bob", 30, 1000))
    race_rate(race_id=race.id)
    org: User = StaffFactory(username="org")
    org.groups.add(Group.objects.get(name="organisers"))
    client = admin_client(org)
    assert client.get(reverse("admin:games_racerating_changelist")).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("admin:games_racerating_changelist"),
            {"action": "mark_unrated", "_selected_action": [str(race.pk)]},
        )
    assert Race.objects.get(id=race.id).rated is False
    assert RaceRating.objects.get(race=race).reason == "unrated"
    assert not PlayerRating.objects.exists()
    # Organisers may recompute pools; players never reach the admin.
    pools = client.get(reverse("admin:games_ratingpool_changelist"))
    assert 'value="recompute"' in pools.content.decode()
    player = admin_client(UserFactory(username="eve"))
    assert player.get(reverse("admin:games_ratingpool_changelist")).status_code == 302


#: The draw-one preset's name in each language (web.board.PRESET_NAMES).
DRAW_ONE = {"en": "Draw one", "fr": "Une carte", "es": "Una carta", "de": "Eine Karte"}


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_pool_list_and_page_name_the_rules(language: str) -> None:
    """The pools' *Variant* showed the code ("draw-one") where the race list shows the
    rules' name in the admin's language ("Une carte"); other rules say what changed."""
    import re

    from games.engine import PRESETS
    from tests.games.test_admin_language import get, text_of
    from web.board import rules_label

    pool = RatingPool.objects.create(
        key="draw-one", variant="draw-one", options=PRESETS["draw-one"].to_dict()
    )
    changed = RatingPool.objects.create(
        key="draw-one.redeals-2",
        variant="draw-one",
        options={**PRESETS["draw-one"].to_dict(), "redeals": 2},
    )
    client = admin_client(superuser())
    page, _ = get(client, reverse("admin:games_ratingpool_changelist"), language)
    cells = [text_of(c) for c in re.findall(r'class="field-variant_name">(.*?)</td>', page, re.S)]
    with translation.override(language):
        other = rules_label("custom", changed.options, "draw-one")
    assert other.startswith(f"{DRAW_ONE[language]} (")
    assert other != DRAW_ONE[language]
    assert sorted(cells) == sorted([DRAW_ONE[language], other])
    page, _ = get(client, reverse("admin:games_ratingpool_change", args=[pool.pk]), language)
    shown = re.search(
        r'class="form-row field-variant_name">.*?class="readonly">(.*?)</div>', page, re.S
    )
    assert shown is not None
    assert text_of(shown.group(1)) == DRAW_ONE[language]
