"""No template may print a secret of a model it was given (RULES.md 7).

Views hand some templates whole ``Game``, ``Race`` and ``Deal`` objects (the play page's
``game`` and ``race``, the replay's, the lobby's games), so an edit such as
``{{ race.deal.seed }}`` or ``{{ game.state }}`` would put a running race's seed or the
hidden cards on a page.  Every template (``web``, ``games`` and ``api``) is scanned for
such lookups: a seed only through the selectors' views that reveal it only when it may be
seen (``public.seed``: ``race_public``; ``results.seed`` and ``results.deck``:
``race_results``, finished races only; ``view.deal.seed``: ``game_view``'s
``deal_public``), a deal's fields only through ``view.deal``, never a game's ``state`` nor
a deck.  The template filters are held to the same rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [
    ROOT / "web" / "templates",
    ROOT / "games" / "templates",
    ROOT / "api" / "templates",
]
#: Lookups that may name a secret field: the selectors reveal it only when allowed.
ALLOWED = ("public.seed", "results.seed", "results.deck", "view.deal.")
TAG = re.compile(r"\{\{(.*?)\}\}|\{%(.*?)%\}", re.DOTALL)
QUOTED = re.compile(r'"[^"]*"|\'[^\']*\'')
LOOKUP = re.compile(r"\b[A-Za-z_]\w*(?:\.\w+)+")


def offences(text: str) -> list[str]:
    """The lookups of ``text`` (a template) that may print a secret: ``.seed``, ``.deal.``,
    ``.state``, ``.deck`` outside :data:`ALLOWED`."""
    found = []
    for match in TAG.finditer(text):
        expression = QUOTED.sub('""', match.group(1) or match.group(2))
        for lookup in LOOKUP.findall(expression):
            parts = lookup.split(".")
            tail = parts[1:]
            secret = (
                "seed" in tail
                or "state" in tail
                or "deck" in tail
                or ("deal" in tail[:-1])  # a field of a deal object
            )
            if secret and not lookup.startswith(ALLOWED):
                found.append(lookup)
    return found


def templates() -> list[Path]:
    return sorted(p for d in TEMPLATE_DIRS for p in d.rglob("*") if p.is_file())


def test_there_are_templates_to_scan() -> None:
    names = {p.name for p in templates()}
    assert {"play.html", "replay.html", "race.html", "results.html", "_board.html"} <= names


@pytest.mark.parametrize("path", templates(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_prints_a_secret(path: Path) -> None:
    assert offences(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize(
    "bad",
    [
        "{{ race.deal.seed }}",
        "{{ game.deal.seed|default:'' }}",
        "{{ game.state }}",
        "{% with s=game.state %}{{ s }}{% endwith %}",
        "{% for c in game.deal.deck %}{{ c }}{% endfor %}",
        "{{ g.deck }}",
        "{{ public.race.seed }}",
        "{% if game.deal.options.draw %}x{% endif %}",
    ],
)
def test_the_scan_catches_a_secret(bad: str) -> None:
    assert offences(bad) != []


@pytest.mark.parametrize(
    "good",
    [
        "{{ public.seed }}",
        "{{ results.seed }}",
        "{% if view.deal.revealed %}{{ view.deal.seed }}{% endif %}",
        '{% translate "the seed is now revealed." %}',
        "{{ g.deal|rules }}",
        "{{ game.status }} {{ view.status }}",
    ],
)
def test_the_scan_lets_the_selectors_views_through(good: str) -> None:
    assert offences(good) == []


def test_no_template_filter_reads_a_secret() -> None:
    """The filters take model objects too (``{{ g.deal|rules }}``): none reads a seed, a
    deck or a game's state."""
    for path in sorted((ROOT / "web" / "templatetags").glob("*.py")):
        code = path.read_text(encoding="utf-8")
        for name in (".seed", ".deck", ".state", "new_state("):
            assert name not in code, f"{path.name} reads {name}"
