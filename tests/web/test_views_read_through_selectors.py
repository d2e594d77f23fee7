# mypy: disable-error-code="no-untyped-call, misc"
"""Pages and the event streams read models only through ``games.selectors`` (DESIGN.md:
``web/`` and ``api/`` are thin).  The selectors the pages' own queries moved into answer
as the views did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.models import Race, Tournament
from games.selectors.races import (
    lobby_change_key,
    race_change_key,
    race_entry_game,
    race_id_of_game,
    viewer_race_entries,
)
from games.selectors.tournaments import tournament_race_summaries
from games.services.games import game_start
from games.services.races import race_join
from tests.factories import create_user
from tests.tournaments.factories import TournamentFactory, running_race

ROOT = Path(__file__).resolve().parents[2]
#: A model query: ``<Model>.objects`` or a model's related manager read in a view.
QUERY = re.compile(r"\b[A-Z]\w*\.objects\b|\.(entries|moves|race_entry)\.(filter|all|get)\(")


def test_no_view_queries_a_model_itself() -> None:
    files = [*sorted((ROOT / "web" / "views").glob("*.py")), ROOT / "api" / "streams.py"]
    offenders = []
    for path in files:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if QUERY.search(line) and "get_user_model()" not in line:
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []


def test_no_view_imports_race_entries_or_streams_import_models() -> None:
    for path in sorted((ROOT / "web" / "views").glob("*.py")):
        assert "RaceEntry" not in path.read_text(), path
    assert "from games.models import" not in (ROOT / "api" / "streams.py").read_text()


@pytest.mark.django_db
def test_the_race_selectors_answer_as_the_views_did() -> None:
    now = timezone.now()
    race = running_race(name="Keyed")
    ann = create_user("ann")
    bob = create_user("bob")
    assert race_change_key(race=race, now=now) == (0, None, None, 0, 0)
    game = race_join(race_id=race.id, player=ann).entry.game
    assert game is not None
    key = race_change_key(race=race, now=now)
    assert key[0] == 1
    assert key[2:] == (None, 0, 0)
    got = race_entry_game(race=race, player=ann)
    assert got is not None
    assert got.id == game.id
    assert got.race_entry.race_id == race.id
    assert race_entry_game(race=race, player=bob) is None
    assert race_entry_game(race=race, player=AnonymousUser()) is None
    assert race_id_of_game(game_id=game.id, player=ann) == race.id
    assert race_id_of_game(game_id=game.id, player=bob) is None
    assert race_id_of_game(game_id="not-a-uuid", player=ann) is None
    practice = game_start(player=bob, seed="selectors-practice")
    assert race_id_of_game(game_id=practice.id, player=bob) is None
    entries = viewer_race_entries(race_ids=[race.id], viewer=ann)
    assert [(e.race_id, e.game_id) for e in entries] == [(race.id, game.id)]
    assert viewer_race_entries(race_ids=[race.id], viewer=bob) == []
    assert viewer_race_entries(race_ids=[race.id], viewer=AnonymousUser()) == []


@pytest.mark.django_db
def test_the_lobby_key_leaves_drafts_to_organisers() -> None:
    now = timezone.now()
    public = lobby_change_key(include_drafts=False, now=now)
    draft: Any = TournamentFactory(status=Tournament.Status.DRAFT)
    secret = running_race(tournament=draft, name="Secret")
    assert lobby_change_key(include_drafts=False, now=now) == public
    staff = lobby_change_key(include_drafts=True, now=now)
    assert f"{secret.id}:running:True" in staff
    race = running_race(name="Public")
    race_join(race_id=race.id, player=create_user("ann"))
    changed = lobby_change_key(include_drafts=False, now=now)
    assert changed[0] == 1  # one entry in a scheduled race
    assert f"{race.id}:running:True" in changed


@pytest.mark.django_db
def test_tournament_race_summaries_leave_out_races_moved_away() -> None:
    cup: Any = TournamentFactory()
    other: Any = TournamentFactory()
    first = running_race(tournament=cup, name="B")
    second = running_race(tournament=cup, name="A")
    moved = running_race(tournament=cup, name="C")
    Race.objects.filter(id=moved.id).update(tournament=other)
    rows = tournament_race_summaries(tournament_id=cup.id, race_ids=[first.id, second.id, moved.id])
    assert {r["name"] for r in rows} == {"A", "B"}
    assert all(r["seed"] is None for r in rows)  # running: the seed stays secret
