"""The error codes in the API docs' description read whole: in ReDoc each code (``
validation_error``, ``repeated_query_parameter``) is on one line.  They were a Markdown
table whose code column ReDoc squeezed to a few characters beside the long meanings, so
every code broke mid-word over three to six lines ("valid / ation_ / error")."""

from __future__ import annotations

from typing import Any

import pytest

from api.problem_codes import PROBLEM_CODES
from tests.browser.conftest import screenshot


@pytest.mark.django_db(transaction=True)
def test_redoc_shows_each_error_code_on_one_line(live_server: Any, page: Any) -> None:
    page.goto(f"{live_server.url}/api/v1/redoc/", wait_until="networkidle")
    page.locator(".api-info h1").first.wait_for(timeout=30_000)
    lines = page.evaluate(
        """codes => {
            const info = document.querySelector('.api-info');
            const found = {};
            for (const el of info.querySelectorAll('code')) {
                const text = el.textContent.trim();
                if (codes.includes(text) && !(text in found)) {
                    found[text] = el.getClientRects().length;
                }
            }
            return found;
        }""",
        list(PROBLEM_CODES),
    )
    screenshot(page, "docs-redoc-error-codes", full_page=False)
    assert set(lines) == set(PROBLEM_CODES)
    assert {code: n for code, n in lines.items() if n != 1} == {}
