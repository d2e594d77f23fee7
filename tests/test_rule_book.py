"""The rule book ships with the project (docs/RULES.md), as the shared original has it.

Pages, the API documentation and error texts cite its sections ("RULES.md 7"); a reader
of this repository alone (a deployment, a bot author) needs the text they cite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "RULES.md"


def test_the_shipped_rule_book_is_the_shared_one_byte_for_byte() -> None:
    if not SHARED.exists():
        pytest.fail(f"the shared rule book is missing: expected {SHARED}")
    assert (ROOT / "docs" / "RULES.md").read_bytes() == SHARED.read_bytes()


def test_the_readme_says_where_the_rule_book_is() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[docs/RULES.md](docs/RULES.md)" in readme
