"""The solution page never solves in the request: it queues a job on the solver queue.

While the job waits for a worker the page says so and asks for its answers again (202;
htmx gets the answers alone, swapped in place); once a worker of the solver queue has
run it, the page shows the winning line (200).
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any
from unittest import mock

import pytest

from games.engine import new_game, replay
from games.engine.solver import solve
from games.models import Solve
from games.services.games import game_end, game_start, move_play
from games.services.races import race_join
from games.services.solver import solve_request, solve_run
from tests.tournaments.factories import running_race
from tests.web.conftest import PageClient
from web.views.play import HINT_POLLS

pytestmark = pytest.mark.django_db


def _over(player: Any, seed: str) -> Any:
    game = game_start(player=player, seed=seed)
    game_end(game_id=game.id, player=player)
    return game


def test_solution_page_shows_the_tidy_winning_line(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The first visit queues the job (202); the worker solves it; the next visit shows it."""
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound the seed never reaches: no clock in play
    game = _over(player, "7")  # classic seed 7: proven won in well under a second
    with (
        mock.patch("games.services.solver.enqueue_now") as send,  # the worker is us, below
        django_capture_on_commit_callbacks(execute=True),
    ):
        first = pages.get(f"/play/{game.id}/solution")
    assert first.status_code == 202
    assert send.call_count == 1
    job = Solve.objects.get(deal=game.deal, moves=[])
    solve_run(solve_id=job.id)  # what the solver queue's worker runs
    resp = pages.get(f"/play/{game.id}/solution")
    assert resp.status_code == 200
    job.refresh_from_db()
    assert (job.status, job.result) == ("done", "won")
    assert replay(job.solution, "classic", seed="7").cards_home == 52
    html = resp.content.decode()
    assert f"The deal can be won in {len(job.solution)} moves." in html
    # Draws in a row are one step; every step says its move numbers and the cards home
    # after it, read here from an independent replay of the stored line.
    expected = []
    state, n = new_game("classic", seed="7"), 0
    for move, run in itertools.groupby(job.solution):
        count = len(list(run))
        for _ in range(count):
            state.play(move)
        if move == "draw" and count > 1:
            words = f"draw from the stock {count} times"  # classic draws three at a time
        else:
            words = {"draw": "draw from the stock"}.get(move, move)
        numbers = (
            f"move {n + 1}" if count == 1 or move != "draw" else f"moves {n + 1}\u2013{n + count}"
        )
        expected.append((words, f"{numbers} \u00b7 {state.cards_home} cards home"))
        n += count
    steps = re.findall(
        r'<li><span class="step-words">([^<]*)</span> '
        r'<small class="step-meta">([^<]*)</small></li>',
        html,
    )
    assert len(steps) == len(expected) < len(job.solution)  # grouped: fewer steps than moves
    assert f"{len(expected)} steps below" in html
    for (words, meta), (want_words, want_meta) in zip(steps, expected, strict=True):
        assert meta == want_meta
        if want_words.startswith("draw"):
            assert words == want_words
    assert steps[-1][1].endswith(" 52 cards home")
    assert sum(1 for w, _m in steps if w == "redeal") == job.solution.count("redeal")


def test_solution_page_shows_a_line_from_where_the_game_ended(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A game resigned after moves: a line from the deal and one from where it stopped."""
    settings.SOLVER_BUDGET_SECONDS = 120
    line = solve(new_game("classic", seed="7"), max_seconds=None).moves
    game = game_start(player=player, seed="7")
    for n, move in enumerate(line[:2]):
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    game_end(game_id=game.id, player=player)
    with (
        mock.patch("games.services.solver.enqueue_now"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        waiting = pages.get(f"/play/{game.id}/solution")
    assert waiting.status_code == 202
    jobs = {len(j.moves): j for j in Solve.objects.filter(deal=game.deal)}
    assert sorted(jobs) == [0, 2]  # the deal and where the game ended, two jobs
    for job in jobs.values():
        solve_run(solve_id=job.id)
        job.refresh_from_db()
    html = pages.get(f"/play/{game.id}/solution").content.decode()
    assert "From the deal" in html
    assert "From where your game ended, after 2 moves" in html
    rest = jobs[2].solution
    assert f"Your game could still have been won from there in {len(rest)} more moves." in html
    ended = html[html.index('id="from-end-h"') :]
    first_meta = re.search(r'<small class="step-meta">move(?:s)? (\d+)', ended)
    assert first_meta is not None
    assert first_meta.group(1) == "3"  # the game's move numbers
    assert "From where your game ended" in html
    assert replay([*line[:2], *rest], "classic", seed="7").cards_home == 52
    assert "data-solution-poll" not in html


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The solver is still working on the position where your game ended;"),
        (
            "fr",
            "Le solveur travaille encore sur la position où votre partie s\u2019est arrêtée\u202f;",
        ),
        ("es", "El solucionador sigue trabajando en la posición donde terminó su partida;"),
        ("de", "Der Löser arbeitet noch an der Stellung, in der Ihr Spiel endete;"),
    ],
)
def test_solution_page_waiting_for_the_end_alone_does_not_say_the_deal_is_pending(
    pages: PageClient,
    player: Any,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
    lang: str,
    words: str,
) -> None:
    """A new user saw "The solver is working on this deal; its answer appears here" at the
    top of the page, right above the deal's answer (a winning line of 350 steps): only the
    line from where the game ended was still pending, at the page's end.  The note now
    says which answer is awaited and links to where it will be."""
    settings.SOLVER_BUDGET_SECONDS = 120
    line = solve(new_game("classic", seed="7"), max_seconds=None).moves
    game = game_start(player=player, seed="7")
    for n, move in enumerate(line[:2]):
        move_play(game_id=game.id, player=player, move=move, expected_move_number=n)
    game_end(game_id=game.id, player=player)
    with (
        mock.patch("games.services.solver.enqueue_now"),  # no worker answers
        django_capture_on_commit_callbacks(execute=True),
    ):
        pages.get(f"/play/{game.id}/solution")
    solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)  # the deal alone
    resp = pages.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE=lang)
    assert resp.status_code == 202
    html = resp.content.decode()
    pending = re.search(r"<p data-pending>(.*?)</p>", html, re.S)
    assert pending is not None
    note = pending.group(1)
    assert words in note
    assert '<a href="#from-end-h">' in note
    assert 'id="from-end-h"' in html
    assert "this deal" not in note
    assert "<p data-verdict>" in html  # the deal's answer is shown
    # While the deal itself is pending the note still says so.
    other = _over(player, "7")
    Solve.objects.all().delete()
    with (
        mock.patch("games.services.solver.enqueue_now"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        first = pages.get(f"/play/{other.id}/solution").content.decode()
    assert "The solver is working on this deal; its answer appears here when it is ready." in first


def test_solution_page_of_a_deal_proved_lost_asks_nothing_more(
    pages: PageClient, player: Any
) -> None:
    """Every position of a lost deal is lost: no job for where the game ended."""
    game = game_start(player=player, seed="2")  # classic seed 2: proved lost
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    game_end(game_id=game.id, player=player)
    with mock.patch("games.services.solver.enqueue_now"):
        solve_run(solve_id=solve_request(deal=game.deal).id)
    resp = pages.get(f"/play/{game.id}/solution")
    assert resp.status_code == 200
    html = resp.content.decode()
    assert "The solver proved that this deal cannot be won." in html
    assert "From where your game ended" not in html
    assert list(Solve.objects.values_list("moves", flat=True)) == [[]]


def test_solution_page_waits_for_a_queued_job(
    pages: PageClient, player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = _over(player, "7")
    with (
        mock.patch("games.services.solver.enqueue_now") as send,  # no worker answers
        django_capture_on_commit_callbacks(execute=True),
    ):
        resp = pages.get(f"/play/{game.id}/solution")
    assert send.call_count == 1
    assert resp.status_code == 202
    assert 'hx-trigger="load delay:5s"' in resp.content.decode()
    assert Solve.objects.get(deal=game.deal).status == "pending"


@pytest.mark.parametrize(
    ("lang", "words"),
    [("en", "Being worked out…"), ("es", "Calculando…"), ("de", "Wird berechnet …")],
)
def test_solution_page_says_a_part_is_being_worked_out(
    pages: PageClient,
    player: Any,
    django_capture_on_commit_callbacks: Any,
    lang: str,
    words: str,
) -> None:
    """A new user on a phone in Spanish read "Calculándose…" under each heading while the
    solver worked: a reflexive gerund no Spanish program says; "Calculando…" is the
    usual word."""
    game = _over(player, "7")
    with (
        mock.patch("games.services.solver.enqueue_now"),  # no worker answers
        django_capture_on_commit_callbacks(execute=True),
    ):
        resp = pages.get(f"/play/{game.id}/solution", HTTP_ACCEPT_LANGUAGE=lang)
    page = resp.content.decode()
    assert resp.status_code == 202
    assert page.count(f"<p>{words}</p>") == 1  # from the deal (resigned at it: no other part)
    assert "Calculándose" not in page


def test_solution_page_of_a_game_still_playing_is_refused(pages: PageClient, player: Any) -> None:
    game = game_start(player=player, seed="7")
    resp = pages.get(f"/play/{game.id}/solution")
    assert resp.status_code == 403
    assert not Solve.objects.exists()


def test_hint_button_shows_the_next_move_and_records_it(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """Practice games have a hint button; it uses the solver queue like the API."""
    settings.SOLVER_BUDGET_SECONDS = 120
    game = game_start(player=player, seed="0")  # classic seed 0: won from the deal
    page = pages.get(f"/play/{game.id}/").content.decode()
    assert f'action="/play/{game.id}/hint"' in page
    with (
        mock.patch("games.services.solver.enqueue_now"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        waiting = pages.post(f"/play/{game.id}/hint", {}, htmx=True).content.decode()
    assert "The solver is working on this position" in waiting
    # The board asks again by itself: one click is enough (a new user clicked twice).
    poller = re.search(r'<span hidden data-hint-poll="1" hx-post="([^"]+)" hx-vals=\'([^\']+)\' '
                       r'hx-trigger="load delay:2s"', waiting)  # fmt: skip
    assert poller is not None, waiting
    assert poller.group(1) == f"/play/{game.id}/hint"
    assert json.loads(poller.group(2)) == {"poll": "1"}
    again = pages.post(f"/play/{game.id}/hint", {"poll": "1"}, htmx=True).content.decode()
    assert 'data-hint-poll="2"' in again  # still waiting: asks again
    solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=[]).id)
    shown = pages.post(f"/play/{game.id}/hint", {"poll": "2"}, htmx=True).content.decode()
    assert "Hint: the six of spades to its foundation." in shown
    assert "data-hint-poll" not in shown
    assert 'data-hint="6S&gt;f"' in shown  # the board outlines the card and where it goes
    # Without a script the form posts and the page comes back after a redirect: the
    # hint is among its messages, and the board carries no mark.
    plain = pages.post(f"/play/{game.id}/hint", {})
    assert (plain.status_code, plain["Location"]) == (302, f"/play/{game.id}/")
    page = pages.get(plain["Location"]).content.decode()
    listed = (
        '<div role="status"><ul class="messages">'
        "<li>Hint: the six of spades to its foundation.</li>"
    )
    assert listed in page
    assert "data-hint=" not in page
    game.refresh_from_db()
    assert [h["move_number"] for h in game.hints] == [0]


def test_a_hint_that_waits_too_long_stops_asking(
    pages: PageClient, player: Any, django_capture_on_commit_callbacks: Any
) -> None:
    game = game_start(player=player, seed="0")
    with (
        mock.patch("games.services.solver.enqueue_now"),  # no worker ever answers
        django_capture_on_commit_callbacks(execute=True),
    ):
        pages.post(f"/play/{game.id}/hint", {}, htmx=True)
    last = pages.post(f"/play/{game.id}/hint", {"poll": str(HINT_POLLS)}, htmx=True)
    html = last.content.decode()
    assert "ask again in a moment" in html
    assert "data-hint-poll" not in html
    for junk in ("-1", "x", "\u0663", "99999999999999999999"):
        r = pages.post(f"/play/{game.id}/hint", {"poll": junk}, htmx=True)
        assert r.status_code == 200


def test_race_games_have_no_hint_button(pages: PageClient, player: Any) -> None:
    race = running_race()
    game_id = race_join(race_id=race.id, player=player).entry.game_id
    page = pages.get(f"/play/{game_id}/").content.decode()
    assert "/hint" not in page
    refused = pages.post(f"/play/{game_id}/hint", {}, htmx=True)
    assert "A race game gets no hint." in refused.content.decode()
    assert not Solve.objects.exists()


def test_a_hint_on_a_deal_lost_from_the_start_does_not_say_no_longer(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """At move 0 nothing was played yet: "can no longer be won" implied the player erred."""
    settings.SOLVER_BUDGET_SECONDS = 120
    game = game_start(player=player, seed="2")  # classic seed 2: proved lost

    def hint(moves: list[str]) -> str:
        with (
            mock.patch("games.services.solver.enqueue_now"),
            django_capture_on_commit_callbacks(execute=True),
        ):
            pages.post(f"/play/{game.id}/hint", {}, htmx=True)
        solve_run(solve_id=Solve.objects.get(deal=game.deal, moves=moves).id)
        return str(pages.post(f"/play/{game.id}/hint", {}, htmx=True).content.decode())

    first = hint([])
    assert "This deal cannot be won." in first
    assert "no longer" not in first
    fr = pages.post(f"/play/{game.id}/hint", {}, htmx=True, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Cette donne ne peut pas être gagnée." in fr.content.decode()
    move_play(game_id=game.id, player=player, move="draw", expected_move_number=0)
    later = hint(["draw"])
    assert "This position can no longer be won." in later


def test_solution_page_polls_its_answers_not_the_whole_page(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The page reloaded itself every 5 s while the solver worked (a screen reader lost
    its place): it now asks for its answers alone (htmx), which come without the page
    around them, and without JavaScript it offers a link to load the page again."""
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound the seed never reaches: no clock in play
    game = _over(player, "7")
    with (
        mock.patch("games.services.solver.enqueue_now"),  # no worker answers
        django_capture_on_commit_callbacks(execute=True),
    ):
        page = pages.get(f"/play/{game.id}/solution")
        part = pages.get(f"/play/{game.id}/solution", HTTP_HX_REQUEST="true")
    html = page.content.decode()
    assert page.status_code == 202
    assert '<div id="solution-said" class="sr" role="status" aria-live="polite"></div>' in html
    assert f'<noscript> <a href="/play/{game.id}/solution">Load the page again' in html
    assert "http-equiv" not in html
    assert part.status_code == 202
    frag = part.content.decode()
    assert "<html" not in frag
    assert "solution-said" not in frag
    assert "The solver is working on this deal; its answer appears here when it is ready." in frag
    assert f'hx-get="/play/{game.id}/solution" hx-trigger="load delay:5s"' in frag
    solve_run(solve_id=Solve.objects.get(deal=game.deal).id)
    done = pages.get(f"/play/{game.id}/solution", HTTP_HX_REQUEST="true")
    assert done.status_code == 200
    frag = done.content.decode()
    assert "hx-get" not in frag
    assert "data-pending" not in frag
    assert "<p data-verdict>The deal can be won in" in frag


def test_solution_page_and_its_fragment_vary_on_hx_request(
    pages: PageClient, player: Any, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """The page and the poll's fragment share one address: each says ``Vary: HX-Request``,
    so a browser's cache never answers Back (or a reload) with the bare fragment the poll
    last fetched."""
    settings.SOLVER_BUDGET_SECONDS = 120
    game = _over(player, "7")
    with (
        mock.patch("games.services.solver.enqueue_now"),
        django_capture_on_commit_callbacks(execute=True),
    ):
        page = pages.get(f"/play/{game.id}/solution")
        part = pages.get(f"/play/{game.id}/solution", HTTP_HX_REQUEST="true")
    for resp in (page, part):
        assert "HX-Request" in [v.strip() for v in resp["Vary"].split(",")]


def test_solution_page_busy_is_429_but_its_fragment_is_200(
    pages: PageClient, player: Any, settings: Any
) -> None:
    """Every part busy (the player's solves at their limit): a page load answers 429; the
    poll's fragment 200, or htmx would not swap it and the page would never say so."""
    settings.SOLVER_MAX_PENDING_PER_USER = 0  # every request for a solve is refused
    game = _over(player, "7")
    page = pages.get(f"/play/{game.id}/solution")
    part = pages.get(f"/play/{game.id}/solution", HTTP_HX_REQUEST="true")
    busy = "You have too many solutions being worked out; try again in a moment."
    assert page.status_code == 429
    assert busy in page.content.decode()
    assert part.status_code == 200
    frag = part.content.decode()
    assert f"<p data-verdict>{busy}</p>" in frag
    assert "<html" not in frag
    assert "hx-get" not in frag  # nothing pending: no further poll
