"""Every row lock in the code says which lock it takes (DESIGN.md, Zulip's habit: an
explicit ``no_key=`` on every ``select_for_update``): ``no_key=True`` where the row
is only updated (other rows may still reference it), ``no_key=False`` where it is
deleted or its key changes.  Two calls took the default silently."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games", "api", "web", "canfield_site")


def lock_calls() -> list[tuple[str, int, set[str]]]:
    """``(file, line, keyword names)`` of every ``select_for_update(...)`` call."""
    calls = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(), str(path))):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "select_for_update"
                ):
                    names = {k.arg for k in node.keywords if k.arg is not None}
                    calls.append((str(path.relative_to(ROOT)), node.lineno, names))
    return calls


def test_every_select_for_update_says_no_key() -> None:
    calls = lock_calls()
    assert len(calls) > 20  # the services lock games, races, entries, ratings, ...
    silent = [f"{path}:{line}" for path, line, names in calls if "no_key" not in names]
    assert silent == []
