"""The preset a game or race was built from (``Deal.preset``, the API's ``preset``).

A game started from a preset with option overrides showed only ``"variant": "custom"``:
neither the API nor the pages could tell it was, say, draw one with two redeals.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.apps import apps
from django.utils import timezone
from rest_framework.test import APIClient

from games.engine import PRESETS
from games.models import Deal, Race
from games.selectors.tournaments import race_summary
from tests.tournaments.factories import Result, finished_race

pytestmark = pytest.mark.django_db


def _start(client: APIClient, **body: Any) -> dict[str, Any]:
    resp = client.post("/api/v1/games", body, format="json")
    assert resp.status_code == 201, resp.content
    return dict(resp.json())


@pytest.mark.parametrize(
    ("body", "variant", "preset"),
    [
        ({"variant": "draw-one", "options": {"redeals": 2}}, "custom", "draw-one"),
        ({"variant": "strict", "options": {"draw": 1}}, "custom", "one-pass"),  # an alias
        ({"variant": "rainbow"}, "rainbow", "rainbow"),
        # Overrides that make another preset exactly: that one's variant, built from classic.
        ({"variant": "classic", "options": {"draw": 1}}, "draw-one", "classic"),
    ],
)
def test_the_game_view_names_the_preset_the_game_was_built_from(
    player: APIClient, body: dict[str, Any], variant: str, preset: str
) -> None:
    game = _start(player, seed="7", **body)
    assert (game["deal"]["variant"], game["deal"]["preset"]) == (variant, preset)
    again = player.get(f"/api/v1/games/{game['id']}").json()
    assert (again["deal"]["variant"], again["deal"]["preset"]) == (variant, preset)
    assert again["deal"]["options"] == game["deal"]["options"]
    listed = player.get("/api/v1/games").json()["results"]
    assert [(g["variant"], g["preset"]) for g in listed] == [(variant, preset)]


def test_the_race_view_results_and_tournament_list_name_the_preset(
    make_client: Callable[..., APIClient], anon: APIClient
) -> None:
    staff = make_client("org", staff=True)
    now = timezone.now()
    created = staff.post(
        "/api/v1/races",
        {
            "name": "rainbow, three at a time",
            "variant": "rainbow",
            "options": {"draw": 3},
            "starts_at": (now + timedelta(minutes=1)).isoformat(),
            "ends_at": (now + timedelta(minutes=10)).isoformat(),
        },
        format="json",
    )
    assert created.status_code == 201, created.content
    race = created.json()
    assert (race["variant"], race["preset"]) == ("custom", "rainbow")
    assert race["options"] == {**PRESETS["rainbow"].to_dict(), "draw": 3}
    shown = anon.get(f"/api/v1/races/{race['id']}").json()
    assert (shown["variant"], shown["preset"]) == ("custom", "rainbow")

    done = finished_race(
        None, Result("ann", home=10, ms=5_000), variant="draw-one", options={"redeals": 2}
    )
    results = anon.get(f"/api/v1/races/{done.id}/results").json()
    assert (results["variant"], results["preset"]) == ("custom", "draw-one")
    summary = race_summary(Race.objects.select_related("deal").get(id=done.id))
    assert (summary["variant"], summary["preset"]) == ("custom", "draw-one")


def test_the_migration_fills_the_preset_of_older_deals(player: APIClient) -> None:
    """Deals stored before the column get the preset their options equal, else custom."""
    classic = _start(player, seed="1")["deal"]
    changed = _start(player, seed="2", variant="classic", options={"redeals": 2})["deal"]
    assert changed["variant"] == "custom"
    # A custom deal whose options are exactly one-pass's (stored by hand, as an older
    # version might have).
    one_pass = Deal.objects.get(seed="2")
    one_pass.pk = None
    one_pass.seed = "3"
    one_pass.options = PRESETS["one-pass"].to_dict()
    one_pass.save()
    Deal.objects.update(preset="custom")  # as AddField leaves them

    migration = importlib.import_module("games.migrations.0018_deal_preset")
    migration.fill(apps, None)
    assert dict(Deal.objects.values_list("seed", "preset")) == {
        "1": "classic",
        "2": "custom",  # classic with two redeals: which preset it came from is not known
        "3": "one-pass",
    }
    assert classic["preset"] == "classic"
    assert migration.preset_of({"draw": 9}) == "custom"  # a bad option: custom
