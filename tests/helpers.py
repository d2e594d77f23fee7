"""Helpers shared by several test modules."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_ENV_READ = re.compile(r"\benv(?:\.\w+)?\(\s*\"([A-Z][A-Z0-9_]*)\"")


def settings_env_vars() -> set[str]:
    """Names of every environment variable ``canfield_site/settings.py`` reads."""
    source = (ROOT / "canfield_site" / "settings.py").read_text()
    return set(_ENV_READ.findall(source))


def env_example_vars() -> set[str]:
    """Names assigned (uncommented) in ``.env.example``."""
    names = set()
    for line in (ROOT / ".env.example").read_text().splitlines():
        match = re.match(r"([A-Z][A-Z0-9_]*)=", line)
        if match:
            names.add(match.group(1))
    return names
