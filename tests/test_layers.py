"""The layers of DESIGN.md, checked on the code itself (an AST walk, nothing imported):
``api/`` and ``web/`` are thin floors above ``games/``; data flows down, never back up.

* ``games/`` never imports ``web/`` or ``api/`` (the admin took word helpers from the
  pages: ``web.board.rules_label``, ``web.refusals.after_colon``, ...).
* ``games.engine`` is pure Python: no Django (nor DRF, Celery, knox), nothing of
  ``games`` outside the engine; it imports, and plays, with Django blocked.
* Tasks are sent by services only (``games.services``: ``transaction.on_commit``, after
  the write), never by a page, an endpoint or the admin.
* The API writes no row itself: API tokens and passwords are written by services
  (``games.services.tokens``, ``games.services.accounts``).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def modules(package: str) -> Iterator[tuple[str, ast.Module]]:
    """``(path relative to the root, parsed module)`` of every ``.py`` under ``package``."""
    for path in sorted((ROOT / package).rglob("*.py")):
        yield str(path.relative_to(ROOT)), ast.parse(path.read_text(), str(path))


def imported(path: str, tree: ast.Module) -> Iterator[tuple[int, str]]:
    """``(line, absolute module name)`` of every import in ``tree`` (at any depth: a
    function's lazy import counts too); a relative import is resolved from ``path``."""
    package = Path(path).with_suffix("").parts[:-1]  # a module's or ``__init__``'s
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            yield node.lineno, name
            for alias in node.names:  # ``from games import tasks``
                yield node.lineno, f"{name}.{alias.name}"


def under(name: str, *packages: str) -> bool:
    """Whether module ``name`` is one of ``packages`` or inside one."""
    return any(name == p or name.startswith(p + ".") for p in packages)


def test_imported_resolves_relative_imports() -> None:
    tree = ast.parse("from .cards import x\nfrom . import rules\nimport django.db\n")
    names = {name for _, name in imported("games/engine/state.py", tree)}
    assert "games.engine.cards" in names
    assert "games.engine.rules" in names
    assert "django.db" in names


def test_games_never_imports_web_or_api() -> None:
    upward = [
        f"{path}:{line} imports {name}"
        for path, tree in modules("games")
        for line, name in imported(path, tree)
        if under(name, "web", "api")
    ]
    assert upward == []


def test_the_engine_imports_no_django_and_nothing_of_the_app() -> None:
    seen = 0
    foreign = []
    for path, tree in modules("games/engine"):
        seen += 1
        for line, name in imported(path, tree):
            if under(name, "django", "rest_framework", "celery", "knox") or (
                under(name, "games") and not under(name, "games.engine")
            ):
                foreign.append(f"{path}:{line} imports {name}")
    assert seen > 10  # cards, deal, rules, state, moves, solver, ...
    assert foreign == []


#: Run by a fresh interpreter: refuses every import of Django, then imports every engine
#: module and plays a deal to its first moves.
_BLOCKED = textwrap.dedent(
    """
    import importlib, pkgutil, sys

    class NoDjango:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("django", "rest_framework", "celery", "knox"):
                raise ImportError(f"blocked: {name}")
            return None

    sys.meta_path.insert(0, NoDjango())
    try:
        import django
    except ImportError:
        pass
    else:
        raise SystemExit("the blocker let django through")
    import games.engine as engine
    names = []
    for info in pkgutil.iter_modules(engine.__path__, "games.engine."):
        if info.name != "games.engine.__main__":  # runs the command line
            importlib.import_module(info.name)
            names.append(info.name)
    game = engine.new_game("classic", seed="canfield-test-seed")
    legal = engine.legal_moves(game)
    assert legal, legal
    loaded = sorted(m for m in sys.modules if m.split(".")[0] == "django")
    print(len(names), len(legal), loaded)
    """
)


def test_the_engine_imports_and_plays_with_django_blocked() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _BLOCKED],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    count, moves, loaded = done.stdout.split(maxsplit=2)
    assert int(count) > 10
    assert int(moves) > 0
    assert loaded.strip() == "[]"


def test_tasks_are_sent_by_services_only() -> None:
    """No page, endpoint or admin imports ``games.tasks`` or sends a task: the admin's
    *Recompute pool* queued ``games.rating_pool_recompute`` itself."""
    found = []
    for package in ("api", "web", "games/admin"):
        for path, tree in modules(package):
            found += [
                f"{path}:{line} imports {name}"
                for line, name in imported(path, tree)
                if under(name, "games.tasks", "celery", "canfield_site.celery")
            ]
            found += [
                f"{path}:{node.lineno} calls {node.func.attr}"
                for node in ast.walk(tree)
                if isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("delay", "apply_async", "send_task", "delay_on_commit")
            ]
    assert found == []


#: Calls that write rows (or a password) through the ORM.
WRITES = frozenset(
    {
        "save",
        "delete",
        "create",
        "bulk_create",
        "get_or_create",
        "update_or_create",
        "update",
        "bulk_update",
        "set_password",
    }
)


def test_the_api_writes_no_row_itself() -> None:
    """The API's token rows (issue, logout, expiry) and its password change are written by
    services (``games.services.tokens``, ``games.services.accounts``), not by
    ``api/authentication.py`` and ``api/accounts.py`` (migrations aside)."""
    writes = [
        f"{path}:{node.lineno} calls {node.func.attr}"
        for path, tree in modules("api")
        if "/migrations/" not in path
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in WRITES
    ]
    assert writes == []
