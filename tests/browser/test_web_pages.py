"""Every page in Chromium at a 360 px phone width and a desktop width: no serious or
critical axe-core violation, no horizontal overflow, a screenshot of each; the play page
for every preset (superior shows its face-up reserve), with keyboard-only play."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.engine import PRESETS, legal_moves, new_game
from games.models import Game, Solve, Tournament
from games.services.games import game_start, move_play
from games.services.races import race_close, race_create, race_join
from games.services.ratings import race_rate
from games.services.solver import solve_run
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.web_helpers import PASSWORD, log_in, serious_violations
from tests.ratings.helpers import Result, race_of
from web.board import move_words

WIDTHS = {"360": {"width": 360, "height": 780}, "desktop": {"width": 1280, "height": 900}}


@pytest.fixture
def world(transactional_db: Any) -> dict[str, Any]:
    """A player with practice games, a tournament with a running, an upcoming and a
    finished race (the player in each), and a finished rated race."""
    player = User.objects.create_user("tess", password=PASSWORD)
    rival = User.objects.create_user("ravi", password=PASSWORD)
    now = timezone.now()
    t = Tournament.objects.create(name="Autumn cup", description="Three races.")
    running = race_create(
        name="Running race",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=30),
        late_join_s=None,  # started already: joining stays open
    )
    upcoming = race_create(
        name="Later race",
        opens_at=now - timedelta(minutes=1),
        starts_at=now + timedelta(hours=2),
        ends_at=now + timedelta(hours=3),
    )
    done = race_create(
        name="Done race",
        opens_at=now - timedelta(minutes=2),
        starts_at=now - timedelta(minutes=1),
        ends_at=now + timedelta(minutes=5),
        late_join_s=None,  # started already: joining stays open
    )
    for r in (running, upcoming, done):
        r.tournament = t
        r.save(update_fields=["tournament"])
    race_join(race_id=running.id, player=player)
    race_join(race_id=done.id, player=player)
    race_join(race_id=done.id, player=rival)
    race_close(race_id=done.id, now=done.ends_at)
    games = {v: game_start(player=player, variant=v, seed="7") for v in PRESETS}
    # A rated race: the leaderboard, the player's ratings and the results' rating changes.
    rated = race_of(Result(player, 30, 1000), Result(rival, 20, 1000), Result("uma", 25, 1000))
    race_rate(race_id=rated.id)
    return {
        "player": player,
        "t": t,
        "running": running,
        "upcoming": upcoming,
        "done": done,
        "rated": rated,
        "games": games,
        "done_game": Game.objects.get(player=player, race_entry__race=done),
    }


def _check(page: Any, name: str) -> None:
    page.wait_for_load_state("load")
    assert serious_violations(page) == [], name
    assert horizontal_overflow(page) == 0, name
    # Every table caption shown is whole on the screen, even over a table that scrolls.
    overhang = page.evaluate(
        "() => [...document.querySelectorAll('caption')].filter(c => c.offsetParent)"
        ".map(c => c.getBoundingClientRect().right - window.innerWidth)"
    )
    assert all(px <= 0 for px in overhang), (name, overhang)
    screenshot(page, name)


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_every_page_passes_axe_and_fits(
    live_server: Any, chromium: Any, world: dict[str, Any], width: str
) -> None:
    base = live_server.url
    ctx = chromium.new_context(viewport=WIDTHS[width], locale="en-GB")
    page = ctx.new_page()
    # The Content-Security-Policy blocks nothing the pages need (no inline script or style).
    blocked: list[str] = []
    page.on(
        "console",
        lambda msg: blocked.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    try:
        for name, url in (
            ("login", "/accounts/login/"),
            ("signup", "/accounts/signup/"),
            ("lobby-anonymous", "/"),
            ("race-anonymous", f"/races/{world['running'].id}/"),
            ("not-found", "/races/00000000-0000-0000-0000-000000000000/"),
        ):
            page.goto(base + url)
            _check(page, f"web-{name}-{width}")
        log_in(page, base, "tess")
        classic = world["games"]["classic"]
        for name, url in (
            ("lobby", "/"),
            ("password", "/accounts/password/"),
            ("race-upcoming", f"/races/{world['upcoming'].id}/"),
            ("race-running", f"/races/{world['running'].id}/"),
            ("race-finished", f"/races/{world['done'].id}/"),
            ("results", f"/races/{world['done'].id}/results"),
            ("replay", f"/replay/{world['done_game'].id}/?step=0"),
            ("tournament", f"/tournaments/{world['t'].id}/"),
            ("player", "/players/tess/"),
            ("leaderboards", "/leaderboards/"),
            ("leaderboard", "/leaderboards/classic/"),
            ("results-rated", f"/races/{world['rated'].id}/results"),
            ("resign-confirm", f"/play/{classic.id}/resign"),
        ):
            page.goto(base + url)
            _check(page, f"web-{name}-{width}")
        for variant, game in world["games"].items():
            page.goto(f"{base}/play/{game.id}/")
            _check(page, f"web-play-{variant}-{width}")
        page.goto(f"{base}/play/{world['games']['superior'].id}/")
        # Superior: the whole reserve is face up, every card drawn and named; only its
        # top card is a button (the others cannot be played).
        assert page.locator("#board .reserve .card[role=img]").count() == 12
        assert page.locator("#board [data-from=reserve]").count() == 1
        page.goto(f"{base}/play/{classic.id}/")
        page.locator("#shortcuts summary").click()
        _check(page, f"web-play-help-{width}")
        assert blocked == []
    finally:
        ctx.close()


def test_captions_of_tables_that_scroll_stay_on_a_phone_screen(
    live_server: Any, chromium: Any, world: dict[str, Any]
) -> None:
    """A walkthrough saw "Puntuación de bruno en cada clasificació" cut at a phone's edge:
    the caption scrolled away with a table wider than the screen.  (The player page's
    and the results page's tables now stack their rows on a phone, so they no longer
    scroll: the caption stays on the screen all the same.)"""
    ctx = chromium.new_context(viewport=WIDTHS["360"], locale="es-ES")
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "tess")
        for url in ("/players/tess/", f"/races/{world['rated'].id}/results"):
            page.goto(live_server.url + url)
            scroller = page.locator(".scroll").first
            scrolls = scroller.evaluate("el => el.scrollWidth > el.clientWidth")
            assert scrolls is False  # both pages' tables stack
            scroller.evaluate("el => { el.scrollLeft = el.scrollWidth; }")
            caption = page.locator(".scroll caption").first.bounding_box()
            assert caption is not None
            assert caption["x"] >= 0, (url, caption)
            assert caption["x"] + caption["width"] <= 360, (url, caption)
    finally:
        ctx.close()


@pytest.mark.django_db(transaction=True)
def test_keyboard_only_play_undo_and_resign(live_server: Any, page: Any) -> None:
    player = User.objects.create_user("kay", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    base = live_server.url
    log_in(page, base, "kay")
    page.goto(f"{base}/play/{game.id}/")
    page.keyboard.press("d")
    page.wait_for_selector('#board[data-move-number="1"]')
    page.keyboard.press("w")
    # Only the queen of diamonds' own foundation is outlined as a destination (a
    # walkthrough saw all four lit for any card).
    expect(page.locator("#board .foundation.target")).to_have_count(1)
    expect(page.locator('#board [data-key="f-D"]')).to_have_class(re.compile(r"\btarget\b"))
    page.keyboard.press("h")  # QD home (the waste's top card after one draw of e2e-5)
    page.wait_for_selector('#board[data-move-number="2"]')
    expect(page.locator('[data-stat="cards-home"]')).to_have_text("2")
    page.keyboard.press("u")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(page.locator('[data-stat="cards-home"]')).to_have_text("1")
    # Tab reaches the cards; Enter selects, a pile key moves: the engine refuses and says why.
    page.keyboard.press("1")
    page.keyboard.press("1")
    expect(page.locator("#board-message")).to_contain_text("Refused:")
    # Screen readers hear it from a live region that outlives the swapped board.
    expect(page.locator("#announcer")).to_contain_text("Refused:")
    page.keyboard.press("Escape")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Resign").click()
    expect(page.locator('[data-stat="status"]')).to_have_text("resigned")
    assert Game.objects.get(id=game.id).status == "resigned"
    # Without a reload, nothing more can be asked of the game (a tester could still
    # click Hint and type moves, each refused with "The game is over"): the buttons
    # and the typed move are switched off and hidden.
    for control in ("Hint", "Resign", "Undo"):
        expect(page.get_by_role("button", name=control, include_hidden=True)).to_be_disabled()
        expect(page.get_by_role("button", name=control, include_hidden=True)).to_be_hidden()
    expect(page.get_by_text("Type a move")).to_be_hidden()
    expect(page.locator("#typed-move")).to_be_disabled()
    expect(page.locator("form[data-typed-move] button")).to_be_disabled()


def test_a_key_with_nothing_to_do_says_so(live_server: Any, page: Any) -> None:
    """A new user pressed U with nothing to take back, H with no card chosen and W on an
    empty waste: nothing happened and nothing was said (U left the last "Took back ..."
    up, as if it had undone again)."""
    player = User.objects.create_user("kit", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    base = live_server.url
    log_in(page, base, "kit")
    page.goto(f"{base}/play/{game.id}/")
    message = page.locator("#board-message")
    for key, said in (
        ("w", "The waste is empty: no card to choose there."),
        ("h", "Choose a card first."),
        ("u", "Nothing to take back yet."),
    ):
        page.keyboard.press(key)
        expect(message).to_have_text(said)
    assert Game.objects.get(id=game.id).move_number == 0  # nothing was played


@pytest.mark.parametrize(
    ("locale", "word", "refused"),
    [
        ("fr-FR", "Réserve", "déjà sur la colonne 1."),
        ("es-ES", "Reserva", "ya está en la columna 1."),
        ("de-DE", "Ablagestapel", "schon auf Stapel 1."),
    ],
)
def test_the_play_page_in_each_language(
    live_server: Any, chromium: Any, transactional_db: Any, locale: str, word: str, refused: str
) -> None:
    player = User.objects.create_user("lena", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    ctx = chromium.new_context(viewport=WIDTHS["360"], locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "lena")
        page.goto(f"{live_server.url}/play/{game.id}/")
        assert page.locator("html").get_attribute("lang") == locale[:2]
        expect(page.locator("#board")).to_contain_text(word)
        # Card names in the page's language ("dame de pique", "reina de picas", "Pik-Dame").
        labels = page.locator("#board button[data-card]").evaluate_all(
            "els => els.map(e => e.getAttribute('aria-label'))"
        )
        assert labels
        assert not any(" of " in label for label in labels)
        # A refused move is said in the page's language too, cards by name (a user saw
        # "Refusé : 9H cannot go to its foundation: it needs 8H next").
        page.keyboard.press("1")
        page.keyboard.press("1")
        expect(page.locator("#board-message")).to_contain_text(refused)
        message = page.locator("#board-message").inner_text()
        assert " cannot " not in message
        assert not re.search(r"\b[A2-9TJQK][CDHS]\b", message), message
        _check(page, f"web-play-{locale}-360")
    finally:
        ctx.close()


def _dest_key(card: str, dest: str) -> str:
    """The board's ``data-key`` of a move's destination: a foundation by the card's suit."""
    return f"f-{card[-1]}" if dest == "f" else f"pile-{dest}"


def test_one_click_on_hint_waits_for_the_solver(
    live_server: Any, page: Any, transactional_db: Any, settings: Any
) -> None:
    """The board asks again by itself while the solver works (a new user had to click
    twice): the job is left pending, solved a moment later, and the hint appears."""
    settings.SOLVER_BUDGET_SECONDS = 120  # a bound seed 0 never reaches: no clock in play
    player = User.objects.create_user("hal", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="0")  # won from the deal
    log_in(page, live_server.url, "hal")
    page.goto(f"{live_server.url}/play/{game.id}/")
    with mock.patch("games.services.solver.enqueue_now"):  # no worker takes it yet
        page.get_by_role("button", name="Hint").click()
        # Bounded waits, wide for a loaded machine (a helper saw this fail once under
        # load): the board asks again every 2 s, up to 30 times.
        expect(page.locator("#board-message")).to_contain_text(
            "The solver is working", timeout=15_000
        )
        job = Solve.objects.get(deal=game.deal, moves=[])
        solve_run(solve_id=job.id)  # the worker, a moment later
        expect(page.locator("#board-message")).to_contain_text("Hint: ", timeout=45_000)
    job.refresh_from_db()
    with translation.override("en"):
        words = move_words(job.solution[0])
    expect(page.locator("#board-message")).to_have_text(f"Hint: {words}.")
    # The board outlines the hint's card and its destination (or the stock), nothing else.
    move = job.solution[0]
    card, _, dest = move.partition(">")
    if dest:
        marked = [f'[data-card="{card}"]', f'[data-key="{_dest_key(card, dest)}"]']
    else:
        marked = ['[data-action="stock"]']
    expect(page.locator("#board .hinted")).to_have_count(len(marked))
    for selector in marked:
        expect(page.locator(f"#board {selector}")).to_have_class(re.compile(r"\bhinted\b"))
    screenshot(page, "web-hint-after-waiting")
    game.refresh_from_db()
    assert [h["move_number"] for h in game.hints] == [0]


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_a_ten_in_the_waste_fan_shows_its_rank_and_suit(
    live_server: Any, chromium: Any, transactional_db: Any, width: str
) -> None:
    """A new user saw only "10" of a ten under the next waste card, its suit hidden."""
    player = User.objects.create_user("fay", password=PASSWORD)
    seed = next(
        (f"fan-{n}" for n in range(200) if "T" in [c[0] for c in _after_draw(f"fan-{n}")[:-1]]),
        None,
    )
    assert seed is not None, "no seed below 200 puts a ten under the waste's top card"
    game = game_start(player=player, variant="classic", seed=seed)
    ctx = chromium.new_context(viewport=WIDTHS[width])
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "fay")
        page.goto(f"{live_server.url}/play/{game.id}/")
        page.keyboard.press("d")
        page.wait_for_selector('#board[data-move-number="1"]')
        cards = page.locator(".fan.waste > .card")
        assert cards.count() == 3
        for i in range(2):  # each card under another: its rank and suit are in view
            right = cards.nth(i).locator(".suit").bounding_box()
            next_left = cards.nth(i + 1).bounding_box()
            assert right is not None
            assert next_left is not None
            assert right["x"] + right["width"] <= next_left["x"] + 0.5, (i, right, next_left)
        screenshot(page, f"web-waste-ten-{width}")
    finally:
        ctx.close()


def _after_draw(seed: str) -> list[str]:
    """The waste after the first draw of a classic game on ``seed`` (empty if none)."""
    state = new_game("classic", seed=seed)
    if "draw" not in state.legal_moves():
        return []
    state.play("draw")
    return list(state.to_dict()["waste"])


def test_a_typed_move_stays_on_the_play_page(live_server: Any, page: Any) -> None:
    """The "Type a move" form left the page for /play/<id>/move (a new user reopened that
    address and got an error page); it now updates the board in place."""
    player = User.objects.create_user("tim", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="e2e-5")
    log_in(page, live_server.url, "tim")
    url = f"{live_server.url}/play/{game.id}/"
    page.goto(url)
    page.get_by_text("Type a move").click()
    field = page.locator("#typed-move")
    field.fill("zz>t9")
    field.press("Enter")
    expect(page.locator("#board-message")).to_contain_text("'zz' is not a card")
    expect(field).to_have_value("zz>t9")  # refused: kept to be fixed
    field.fill("draw")
    field.press("Enter")
    page.wait_for_selector('#board[data-move-number="1"]')
    expect(field).to_have_value("")
    assert page.url == url
    assert Game.objects.get(id=game.id).move_number == 1


def test_a_covered_card_is_big_enough_to_tap_on_a_phone(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """A walkthrough's tap on the bottom card of a pile (a 22 px strip) landed on the
    card above it: on a touch screen each covered card shows at least 24 px."""
    seed = next(
        f"pile-{n}"
        for n in range(200)
        if any(">t" in m for m in legal_moves(new_game("classic", seed=f"pile-{n}")))
    )
    state = new_game("classic", seed=seed)
    move = next(m for m in legal_moves(state) if ">t" in m)
    player = User.objects.create_user("tap", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed=seed)
    move_play(game_id=game.id, player=player, move=move, expected_move_number=0)
    ctx = chromium.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "tap")
        page.goto(f"{live_server.url}/play/{game.id}/")
        cards = page.locator(f'[data-pile="{move.split(">")[1]}"] .stack-cards .card')
        expect(cards).to_have_count(2)
        lower, upper = cards.nth(0).bounding_box(), cards.nth(1).bounding_box()
        assert lower is not None
        assert upper is not None
        assert upper["y"] - lower["y"] >= 24, (lower, upper)
        # The covered card takes the tap: it is selected, not the card above it.
        cards.nth(0).tap(position={"x": lower["width"] / 2, "y": 10})
        expect(cards.nth(0)).to_have_attribute("aria-pressed", "true")
        # The selected card stays under the card placed on it: the upper card's rank,
        # at its top left corner, is still the element drawn there.
        top = cards.nth(1).bounding_box()
        assert top is not None
        drawn = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y).closest('.card').dataset.card",
            [top["x"] + 6, top["y"] + 6],
        )
        assert drawn == move.split(">")[0]
        screenshot(page, "web-play-phone-touch-pile")
    finally:
        ctx.close()


def test_the_play_buttons_stay_on_a_phone_screen(
    live_server: Any, chromium: Any, transactional_db: Any
) -> None:
    """A walkthrough on a 390 x 844 phone found Undo, Hint and Resign below the board
    once its piles grew, off the screen: they stay at its bottom edge, over nothing they
    hide for good.  A 375 x 667 phone (iPhone SE) is shorter than the board at the deal."""
    player = User.objects.create_user("phil", password=PASSWORD)
    game = game_start(player=player, variant="classic", seed="7")
    ctx = chromium.new_context(
        viewport={"width": 375, "height": 667}, has_touch=True, is_mobile=True, locale="fr-FR"
    )
    page = ctx.new_page()
    try:
        log_in(page, live_server.url, "phil")
        page.goto(f"{live_server.url}/play/{game.id}/")
        board = page.locator("#board").bounding_box()
        assert board is not None
        # The board and its bar are taller than the screen: the bar is stuck at the
        # bottom edge, over the board (the board alone was taller than the screen before
        # the phone's header and title took less height).
        stuck = page.locator(".controls").bounding_box()
        assert stuck is not None
        assert stuck["y"] + stuck["height"] == pytest.approx(667, abs=1)
        assert board["y"] + board["height"] > stuck["y"]
        for button in (page.locator("[data-action=hint]"), page.locator("button.danger")):
            box = button.bounding_box()
            assert box is not None
            assert box["y"] >= 0, box
            assert box["y"] + box["height"] <= 667, box
            hit = page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y).closest('button')?.outerHTML",
                [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
            )
            assert hit is not None
            assert hit.startswith("<button")
        # One row of buttons, even with French labels (two rows took 104 px).
        bar_box = page.locator(".controls").bounding_box()
        assert bar_box is not None
        assert bar_box["height"] <= 60, bar_box
        # Scrolled to the end, the last tableau card is above the bar, not under it.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        bar = page.locator(".controls").bounding_box()
        last = page.locator("#board .tableau .card").last.bounding_box()
        assert bar is not None
        assert last is not None
        assert last["y"] + last["height"] <= bar["y"], (last, bar)
        # Tapping a tableau card down there: what the board says shows at the screen's
        # top (it was at the board's top, off the screen), in the counts' place in the
        # board's head, which stays at the top edge (tests/browser/
        # test_web_phone_message_place.py).
        card = page.locator("#board .tableau .card").last
        before = card.bounding_box()
        card.tap()
        message = page.locator("#board-message")
        expect(message).not_to_be_empty()
        box = message.bounding_box()
        head = page.locator("#board .board-head").bounding_box()
        assert box is not None
        assert head is not None
        assert 0 <= head["y"] <= 5, head
        assert head["y"] - 1 <= box["y"], (box, head)
        assert box["y"] + box["height"] <= head["y"] + head["height"] + 1, (box, head)
        # The message takes no room in the page: the cards stay where they were (but
        # for a selection's 3 px lift), here and at the page's top, where a two-line
        # band in the page's flow pushed the board 56 px down between two taps.
        after = card.bounding_box()
        assert before is not None
        assert after is not None
        assert abs(after["y"] - before["y"]) <= 4, (before, after)
        page.keyboard.press("Escape")
        expect(message).to_be_empty()
        page.evaluate("window.scrollTo(0, 0)")
        stock = page.locator('[data-action="stock"]')
        above = stock.bounding_box()
        page.locator("#board .reserve .card:not(.back)").tap()
        expect(message).not_to_be_empty()
        below = stock.bounding_box()
        assert above is not None
        assert below is not None
        assert below["y"] == above["y"], (above, below)
        page.keyboard.press("Escape")
        screenshot(page, "web-play-phone-controls", full_page=False)
        # Once the game is over nothing is left to press: Undo, Hint, Resign and the
        # typed move go away (they stayed, greyed, at the bottom edge), and the board
        # says how it ended.
        expect(page.locator("details.typed")).to_be_visible()
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("button.danger").tap()
        expect(page.locator(".controls")).to_have_class(re.compile(r"\bidle\b"))
        expect(page.locator(".controls")).to_be_hidden()
        expect(page.locator("details.typed")).to_be_hidden()
        expect(page.locator('#board [data-stat="status"]')).to_have_text("abandonnée")
        page.reload()
        expect(page.locator(".controls")).to_be_hidden()
        expect(page.locator("details.typed")).to_be_hidden()
        # The over board's last word is in the head, under the counts, which it makes
        # taller, not over the board (tests/browser/test_web_last_word.py); scrolled, the
        # head goes with the page: stuck at the screen's top it lay over the board's
        # headings (tests/browser/test_web_ended_head_not_sticky.py).
        page.evaluate("document.getElementById('board-message').textContent = 'Gagné'")
        message = page.locator("#board-message")
        at_top = page.locator("#board .board-head").bounding_box()
        before = page.evaluate("window.scrollY")
        page.evaluate("window.scrollTo(0, 400)")
        scrolled = page.evaluate("window.scrollY") - before
        assert scrolled > 0
        band = message.bounding_box()
        head = page.locator("#board .board-head").bounding_box()
        stats = page.locator("#board .stats").bounding_box()
        assert band is not None
        assert head is not None
        assert stats is not None
        assert at_top is not None
        assert head["y"] == at_top["y"] - scrolled, (at_top, head, scrolled)
        assert band["y"] >= stats["y"] + stats["height"] - 1, (band, stats)
        assert band["y"] + band["height"] <= head["y"] + head["height"] + 1, (band, head)
    finally:
        ctx.close()
