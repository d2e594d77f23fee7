# mypy: disable-error-code="no-untyped-call, attr-defined, misc, arg-type"
"""A confirmation page whose action would change nothing offers only the way back
(*Back to the list*): at 1,280 px, in German and Spanish, that button starts at the
text's edge and its label has the size of the buttons of a page with a form.  It stood
10 px in (the margin that parts it from *Yes* beside it) with a 14 px label, where the
same pages' buttons are 13 px."""

from __future__ import annotations

from typing import Any

import pytest

from games.models import Tournament
from tests.browser.conftest import horizontal_overflow, screenshot
from tests.browser.test_admin_pages import log_in
from tests.tournaments.factories import Result, TournamentFactory, finished_race

pytestmark = pytest.mark.django_db(transaction=True)

MEASURE = """() => {
  const link = document.querySelector('.cancel-link');
  const text = document.querySelector('#content p');
  return {
    left: link.getBoundingClientRect().left,
    textLeft: text.getBoundingClientRect().left,
    size: getComputedStyle(link).fontSize,
    label: link.textContent.trim(),
    yes: document.querySelector('.submit-row input[type=submit]') !== null,
  };
}"""


@pytest.mark.parametrize(
    ("locale", "back"), [("de-DE", "Zurück zur Liste"), ("es-ES", "Volver a la lista")]
)
def test_the_way_back_alone_sits_at_the_texts_edge(
    live_server: Any, chromium: Any, locale: str, back: str
) -> None:
    done = TournamentFactory(name="Done Cup")
    finished_race(done, Result("ann", 10, 900), name="Done heat")
    Tournament.objects.filter(pk=done.pk).update(status=Tournament.Status.FINISHED)
    ctx = chromium.new_context(viewport={"width": 1280, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        log_in(page, live_server.url)
        seen = {}
        # "Cancel" changes nothing for a finished tournament; "Finish" re-scores it.
        for action in ("cancel", "finish"):
            page.goto(f"{live_server.url}/admin/games/tournament/")
            page.locator("#result_list input.action-select").check()
            page.select_option("select[name=action]", action)
            page.locator("button[name=index]").click()
            page.wait_for_load_state()
            seen[action] = page.evaluate(MEASURE)
            assert horizontal_overflow(page) == 0
        assert seen["cancel"]["yes"] is False
        assert seen["cancel"]["label"] == back
        assert seen["cancel"]["left"] == seen["cancel"]["textLeft"]
        assert seen["finish"]["yes"] is True
        assert seen["cancel"]["size"] == seen["finish"]["size"] == "13px"
        page.goto(f"{live_server.url}/admin/games/tournament/")
        page.locator("#result_list input.action-select").check()
        page.select_option("select[name=action]", "cancel")
        page.locator("button[name=index]").click()
        page.wait_for_load_state()
        assert screenshot(page, f"admin-nothing-to-do-{locale}").stat().st_size > 1000
    finally:
        ctx.close()
