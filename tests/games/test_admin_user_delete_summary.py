# mypy: disable-error-code="no-untyped-call, arg-type, attr-defined, assignment, misc"
"""The admin's confirmation of deleting an account counts its moves instead of listing them.

A prolific player's confirmation page listed every move of every game (a line each,
each row loaded to be listed): it now says ``Moves: 3`` under each game and gives the
total in the summary, as Django's summary does for every model, while the permission
and protection checks stay those of Django (games.admin.users.deleted_objects_summary).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.contrib.auth.models import Permission, User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Deal, Game, Move, TournamentEntrant
from tests.tournaments.factories import Result, TournamentFactory, finished_race

pytestmark = pytest.mark.django_db


def _games(player: User, moves: list[int]) -> list[Game]:
    """Practice games of ``player`` with that many moves each (the rows the admin sees)."""
    games = []
    for n, count in enumerate(moves):
        deal = Deal.objects.create(
            seed=f"summary-{player.username}-{n}", deck=[], options={}, variant="classic"
        )
        game = Game.objects.create(player=player, deal=deal, state={}, move_number=count)
        Move.objects.bulk_create(
            Move(game=game, number=i + 1, notation="wf", cards_home=1) for i in range(count)
        )
        games.append(game)
    return games


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page))).strip()


@pytest.fixture
def boss() -> Client:
    client = Client()
    client.force_login(User.objects.create_superuser("boss", password="a-long-password-9"))
    return client


def test_the_moves_are_counted_per_game_and_in_the_summary(boss: Client) -> None:
    ann = User.objects.create_user("ann", password="a-long-password-9")
    first, second = _games(ann, [3, 5])
    page = boss.get(reverse("admin:auth_user_delete", args=[ann.pk])).content.decode()
    text = _text(page)
    assert "Summary Users: 1 Games: 2 Moves: 8" in text
    assert "Moves: 3" in text
    assert "Moves: 5" in text
    assert "Move: " not in text  # no move listed one by one
    assert f"Game: {first}" in text
    assert f"Game: {second}" in text
    assert page.count("Moves: ") == 3  # two games and the summary
    assert "Yes, I\u2019m sure" in page  # a superuser may delete it
    done = boss.post(reverse("admin:auth_user_delete", args=[ann.pk]), {"post": "yes"})
    assert done.status_code == 302
    assert not Move.objects.exists()
    assert not Game.objects.exists()


def test_the_page_reads_no_move_and_costs_the_same_queries_whatever_their_number(
    boss: Client,
) -> None:
    few, many = (User.objects.create_user(n, password="a-long-password-9") for n in ("f", "m"))
    _games(few, [1, 1])
    _games(many, [400, 300])
    counts = []
    for user in (few, many):
        with CaptureQueriesContext(connection) as ctx:
            assert boss.get(reverse("admin:auth_user_delete", args=[user.pk])).status_code == 200
        counts.append(len(ctx.captured_queries))
        # The moves are counted in the database, never read row by row.
        assert not [q for q in ctx.captured_queries if '"games_move"."notation"' in q["sql"]]
    assert counts[0] == counts[1]


def test_the_bulk_delete_confirmation_counts_too(boss: Client) -> None:
    ann, bob = (User.objects.create_user(n, password="a-long-password-9") for n in ("ann", "bob"))
    _games(ann, [2])
    _games(bob, [4])
    page = boss.post(
        reverse("admin:auth_user_changelist"),
        {"action": "delete_selected", "_selected_action": [ann.pk, bob.pk]},
    ).content.decode()
    text = _text(page)
    assert "Summary Users: 2 Games: 2 Moves: 6" in text
    assert "Moves: 2" in text
    assert "Moves: 4" in text
    assert "Move: " not in text


def test_the_permission_checks_stay(boss: Any) -> None:
    """A staff member who may delete accounts but not tournament entrants is still told
    so; race entries go with the account without a permission (as before)."""
    t = TournamentFactory()
    finished_race(t, Result("ann", 20, 1000))
    ann = User.objects.get(username="ann")
    assert TournamentEntrant.objects.filter(player=ann).exists()
    _games(ann, [3])
    clerk = User.objects.create_user("clerk", password="a-long-password-9", is_staff=True)
    clerk.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_user", "delete_user"])
    )
    client = Client()
    client.force_login(clerk)
    page = client.get(reverse("admin:auth_user_delete", args=[ann.pk])).content.decode()
    text = _text(page)
    refusal = "your account doesn't have permission to delete the following types of objects:"
    assert text.startswith("Cannot delete user")
    types = text.split(refusal)[1]
    assert "tournament entrant" in types
    assert "race entry" not in types  # goes with the account (PlayerAdmin)
    assert "Yes, I\u2019m sure" not in page
    refused = client.post(reverse("admin:auth_user_delete", args=[ann.pk]), {"post": "yes"})
    assert refused.status_code == 403
    assert User.objects.filter(username="ann").exists()
    assert Move.objects.filter(game__player=ann).count() == 3
