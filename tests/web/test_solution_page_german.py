"""The solution page in German calls the deal "Blatt", as the rest of the German
catalogue does since the terminology review ("Spiel" is a game): the sentence that counts
a deal's winning line was rewritten for the steps and came back as "Das Spiel"."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.utils import translation

from games.models import Solve
from games.services.games import game_end, game_start
from games.services.solver import solve_run
from tests.web.conftest import PageClient

pytestmark = pytest.mark.django_db


def test_the_deals_line_is_counted_for_the_blatt() -> None:
    with translation.override("de"):
        assert (
            translation.ngettext(
                "The deal can be won in %(n)s move.", "The deal can be won in %(n)s moves.", 84
            )
            % {"n": 84}
            == "Das Blatt ist in 84 Zügen zu gewinnen."
        )
        assert (
            translation.ngettext(
                "The deal can be won in %(n)s move.", "The deal can be won in %(n)s moves.", 1
            )
            % {"n": 1}
            == "Das Blatt ist in 1 Zug zu gewinnen."
        )


def test_the_german_solution_page_says_blatt(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 7 never reaches: no clock in play
    game = game_start(player=player, seed="7")  # classic seed 7: proven won
    game_end(game_id=game.id, player=player)
    with (
        mock.patch("games.services.solver.enqueue_now"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        pages.get(f"/play/{game.id}/solution")
    job = Solve.objects.get(deal=game.deal, moves=[])
    solve_run(solve_id=job.id)
    job.refresh_from_db()
    html = pages.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"Das Blatt ist in {len(job.solution)} Zügen zu gewinnen." in html
    assert "Das Spiel ist in" not in html
