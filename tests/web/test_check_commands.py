"""The results page's commands that check a race's deal run as printed: the seed is
shell-quoted, and rules that are no preset are given as classic with ``-o`` overrides
(``--variant custom``, as the page printed it, the engine's command line refuses)."""

from __future__ import annotations

import hashlib
import shlex
import subprocess
import sys
from pathlib import Path

from games.engine import PRESETS
from web.views.races import check_commands

ROOT = Path(__file__).resolve().parents[2]


def _run(command: str) -> str:
    """Run one printed command in a shell at the project's root, with this Python."""
    command = command.replace("python3 ", f"{shlex.quote(sys.executable)} ", 1)
    done = subprocess.run(  # noqa: S602 - the commands are what the page prints for a shell
        command, shell=True, cwd=ROOT, capture_output=True, text=True, check=True, timeout=60
    )
    return done.stdout


def test_the_commitment_commands_hash_an_awkward_seed() -> None:
    seed = 'it\'s a "seed" $HOME `x`'
    digest = hashlib.sha256(seed.encode()).hexdigest()
    printf, python, _show = check_commands(seed, "classic", PRESETS["classic"].to_dict())
    assert _run(printf).split()[0] == digest
    assert _run(python).strip() == digest


def test_the_show_command_deals_custom_rules() -> None:
    options = {**PRESETS["storehouse"].to_dict(), "draw": 3}
    *_, show = check_commands("abc", "custom", options)
    assert "--variant" not in show
    assert "-o redeals=2" in show
    out = _run(show + " --colour never")
    assert "Foundations (base rank 2)" in out  # storehouse's twos
    assert "redeals used 0, left 2" in out
    assert "Stock: 31 cards" in out
    assert "Legal moves:" in out
    preset = check_commands("abc", "storehouse", PRESETS["storehouse"].to_dict())[-1]
    assert preset == "python3 -m games.engine show --seed abc --variant storehouse --reveal"


def test_the_results_page_prints_one_command_a_line(transactional_db: None) -> None:
    """The page joined them with a literal backslash-n (a Django template string has no
    escapes): pasted into a shell, the first failed with 'sha256sumnpython3'."""
    import html as html_lib

    from django.test import Client

    from tests.ratings.helpers import Result, race_of

    race = race_of(Result("ana", 30, 61_250), Result("bo", 20, 5_040))
    page = Client().get(f"/races/{race.id}/results").content.decode()
    block = html_lib.unescape(page.split('<pre class="wrap"><code>', 1)[1].split("</code>")[0])
    seed = race.deal.seed
    assert seed is not None
    assert block.splitlines() == check_commands(seed, race.deal.variant, race.deal.options)
    assert "\\n" not in block
