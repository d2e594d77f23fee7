"""The OpenAPI schema is written for a client: no reference to this project's code.

Docstrings of serializers and views become the schema's descriptions (drf-spectacular),
and a Sphinx role or a module path in one (``:func:`games.selectors...```) reached
ReDoc as noise a bot author cannot follow (the ``GameSummary`` description named an
internal function).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.core.management import call_command

#: A Sphinx role, or a dotted path into the project's code; not a command a user runs
#: (``python -m games.engine replay FILE``, which the export's description gives).
CODE_REFERENCE = re.compile(
    r":(?:func|class|meth|data|attr|mod):|(?<!-m )\b(?:games|api|web|canfield_site)\.(?:selectors|"
    r"services|engine|views|models|serializers|admin)\b"
)


def test_no_description_names_a_function_or_module_of_the_code(tmp_path: Path) -> None:
    out = tmp_path / "schema.json"
    call_command("spectacular", "--format", "openapi-json", "--file", str(out))
    text = json.loads(out.read_text())
    found = sorted(set(CODE_REFERENCE.findall(json.dumps(text))))
    assert found == []


def test_the_pattern_finds_what_it_is_for() -> None:
    assert CODE_REFERENCE.findall(":func:`games.selectors.games.game_status_seen`") == [
        ":func:",
        "games.selectors",
    ]
    assert CODE_REFERENCE.findall("``python -m games.engine replay FILE``") == []
