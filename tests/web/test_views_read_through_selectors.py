# mypy: disable-error-code="no-untyped-call, misc"
"""Pages and the event streams read models only through ``games.selectors`` (DESIGN.md:
``web/`` and ``api/`` are thin).  The selectors the pages' own queries moved into answer
as the views did."""

from __future__ import annotations

import ast
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.models import Game, Race, Tournament
from games.selectors.games import recent_games
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


#: Query-shaping methods a view must leave to the selector it calls.
SHAPING = frozenset(
    {
        "filter",
        "exclude",
        "select_related",
        "prefetch_related",
        "order_by",
        "annotate",
        "only",
        "defer",
        "values",
        "values_list",
        "distinct",
    }
)


def selector_shapings(source: str) -> list[str]:
    """Each place in ``source`` where a function imported from ``games.selectors`` is
    called and its result is shaped further: a ``SHAPING`` method called on it, or it is
    sliced (``[:10]``; an index such as ``[race.id]`` reads a dict), as
    ``line: name.method`` / ``line: name[...]``, by line."""
    tree = ast.parse(source)
    names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("games.selectors")
        for alias in node.names
    }

    def selector_call(node: ast.AST) -> str | None:
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            return node.func.id
        return None

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in SHAPING:
            name = selector_call(node.value)
            if name:
                found.append(f"{node.lineno}: {name}.{node.attr}")
        elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            name = selector_call(node.value)
            if name:
                found.append(f"{node.lineno}: {name}[...]")
    return sorted(found, key=lambda where: int(where.split(":")[0]))


def test_the_shaping_check_sees_filters_related_loads_and_slices() -> None:
    source = (
        "from games.selectors.games import game_list as gl, recent_games\n"
        "from other import game_list\n"
        "a = gl(player=p).filter(kind='practice')\n"
        "b = gl(player=p).select_related('race_entry__race')[:10]\n"
        "c = recent_games(player=p)[:3]\n"
        "f = recent_games(player=p)[0]\n"
        "d = recent_games(player=p, kind='practice', limit=50)\n"
        "e = game_list(player=p).filter(kind='race')\n"
    )
    assert selector_shapings(source) == [
        "3: gl.filter",
        "4: gl.select_related",
        "5: recent_games[...]",
    ]


def test_no_view_shapes_a_selector_result() -> None:
    files = [*sorted((ROOT / "web" / "views").glob("*.py")), ROOT / "api" / "streams.py"]
    offenders = [
        f"{path.relative_to(ROOT)}:{where}"
        for path in files
        for where in selector_shapings(path.read_text())
    ]
    assert offenders == []


@pytest.mark.django_db
def test_recent_games_keeps_the_newest_of_a_kind() -> None:
    ann = create_user("ann")
    start = timezone.now()
    games = [game_start(player=ann, seed=f"recent-{i}") for i in range(3)]
    for i, g in enumerate(games):  # started a second apart, oldest first
        Game.objects.filter(id=g.id).update(started_at=start + timedelta(seconds=i))
    race = running_race(name="Recent")
    raced = race_join(race_id=race.id, player=ann).entry.game
    assert raced is not None
    game_start(player=create_user("bob"), seed="someone-else")
    practice = recent_games(player=ann, kind="practice", limit=2)
    assert [g.id for g in practice] == [games[2].id, games[1].id]
    every = recent_games(player=ann, limit=10)
    assert {g.id for g in every} == {raced.id, *(g.id for g in games)}
    assert recent_games(player=ann, kind="race", limit=10)[0].race_entry.race.name == "Recent"


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
