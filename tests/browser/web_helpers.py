"""Helpers of the browser tests of the pages (tests/browser/test_web_*.py)."""

from __future__ import annotations

from typing import Any

from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

from games.engine import legal_moves, new_game, play

_AXE = Axe()
PASSWORD = "a-long-browser-password-5"


def serious_violations(page: Any) -> list[str]:
    """axe-core violations of impact serious or critical on ``page`` (id, impact, targets)."""
    results = _AXE.run(page)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:5]}"
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]


def home_first(legal: list[str]) -> str | None:
    """The line both the test and the seed check follow: a foundation move when there is
    one, else draw (or redeal)."""
    home = [m for m in legal if m.endswith(">f")]
    if home:
        return home[0]
    for m in ("draw", "redeal"):
        if m in legal:
            return m
    return None


def line_to(seed: str, variant: str, cards_home: int, limit: int = 60) -> list[str]:
    """The :func:`home_first` moves from the deal of ``seed`` until ``cards_home`` cards are
    home (empty when not reached within ``limit`` moves)."""
    state = new_game(variant, seed=seed)
    moves: list[str] = []
    while state.cards_home < cards_home and len(moves) < limit:
        mv = home_first(legal_moves(state))
        if mv is None:
            return []
        play(state, mv)
        moves.append(mv)
    return moves if state.cards_home >= cards_home else []


def sign_up(page: Any, base: str, username: str) -> None:
    """Create an account through the sign-up page (logged in afterwards)."""
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("button[type=submit].primary")
    page.wait_for_url(f"{base}/")


def log_in(page: Any, base: str, username: str, password: str = PASSWORD) -> None:
    """Log in through the login page."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")
