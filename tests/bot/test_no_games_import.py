"""DESIGN.md ("Layers"): ``canfield_bot`` is a client of the public API only and never
imports ``games/``.  An AST walk of every module of the package: no ``import games...``
or ``from games... import``, and no Python source in a string (code the package would
run in the server's ``manage.py shell``) doing so either."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "canfield_bot"
MODULES = sorted(PACKAGE.rglob("*.py"))


def _games_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "games"]
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and (node.module or "").split(".")[0] == "games"
        ):
            found.append(str(node.module))
    return found


def _text(node: ast.AST) -> str | None:
    """A string constant's text, or an f-string's with each replacement field read as
    the name ``_`` (shell code built with an f-string); None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(
            part.value if isinstance(part, ast.Constant) else "_" for part in node.values
        )
    return None


def _embedded_sources(tree: ast.AST) -> list[ast.Module]:
    """Strings and f-strings that parse as Python with an import in them (shell code)."""
    out = []
    for node in ast.walk(tree):
        text = _text(node)
        if text is None or "import " not in text:
            continue
        try:
            out.append(ast.parse(text))
        except SyntaxError:
            continue
    return out


def test_the_package_has_modules() -> None:
    names = {m.name for m in MODULES}
    assert {"__init__.py", "bot.py", "client.py", "stack.py"} <= names
    assert "verify.py" not in names  # replaying needs the engine: benchmarks/verify.py


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_no_module_of_canfield_bot_imports_games(module: Path) -> None:
    tree = ast.parse(module.read_text(encoding="utf-8"), filename=str(module))
    assert _games_imports(tree) == []
    for embedded in _embedded_sources(tree):
        assert _games_imports(embedded) == []


def test_the_walk_finds_an_import_of_games() -> None:
    """The check itself: each form of import is caught, in code and in shell code."""
    code = (
        "import games.engine\nfrom games.services.races import race_create\n"
        'X = "import games"\nY = f"from games.services.tokens import token_issue\\nn = {n}"\n'
    )
    tree = ast.parse(code)
    assert _games_imports(tree) == ["games.engine", "games.services.races"]
    assert [_games_imports(t) for t in _embedded_sources(tree)] == [
        ["games"],
        ["games.services.tokens"],
    ]
