"""The API documentation explains every rule of the rule book (RULES.md, first paragraph).

The OpenAPI description carries the rule book under "# The rules" (``api/rules_doc.py``).
These tests read ``docs/RULES.md`` (the shipped copy of the shared rule book) and look for
each of its sections, each rule of section 3 and each exact formula, example and name it
writes in code spans, in the schema that ``manage.py spectacular`` generates.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from api.rules_doc import OPTION_VALUES
from games.engine.ranking import RANKING_RULE
from games.engine.rules import OPTION_HELP, OPTION_NAMES, PRESET_HELP, PRESETS
from tests.api.test_schema import generate

RULES = (Path(__file__).resolve().parents[2] / "docs" / "RULES.md").read_text(encoding="utf-8")
#: Code spans of RULES.md that name this repository's files or another program's
#: variant, not a rule a client plays by.
NOT_RULES = {"vectors/deals.json", "seeds/", "canfield-strict"}


def sections() -> dict[str, str]:
    """RULES.md's numbered sections: ``{"1": text, ..., "7": text}``."""
    parts = re.split(r"^## (\d+)\. .*$", RULES, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


@pytest.fixture(scope="module")
def description(tmp_path_factory: pytest.TempPathFactory) -> str:
    schema = generate(tmp_path_factory.mktemp("schema"))
    return str(schema["info"]["description"])


def test_the_rule_book_has_the_seven_sections_these_tests_read() -> None:
    assert list(sections()) == ["1", "2", "3", "4", "5", "6", "7"]


@pytest.mark.parametrize("number", ["1", "2", "3", "4", "5", "6", "7"])
def test_each_section_of_the_rule_book_has_a_heading_naming_it(
    description: str, number: str
) -> None:
    headings = re.findall(r"^## .*\(RULES\.md (\d)\)$", description, flags=re.M)
    assert number in headings


def test_each_rule_of_play_is_explained_under_its_number_and_name(description: str) -> None:
    rules = re.findall(r"^(\d)\. \*\*([^*]+)\*\*", sections()["3"], flags=re.M)
    assert len(rules) == 9
    for number, name in rules:
        assert re.search(rf"\*\*{re.escape(name)}\*\*[^\n]*\(3\.{number}\b", description), name


@pytest.mark.parametrize("number", ["1", "2", "3", "5", "6", "7"])
def test_every_formula_example_and_name_of_the_section_is_in_the_documentation(
    description: str, number: str
) -> None:
    spans = set(re.findall(r"`([^`]+)`", sections()[number])) - NOT_RULES
    missing = sorted(s for s in spans if f"`{s}`" not in description)
    assert missing == []


def test_every_preset_is_a_row_with_its_help(description: str) -> None:
    for name in PRESETS:
        assert f"| `{name}` | {PRESET_HELP[name]} |" in description


def test_a_preset_row_names_the_options_it_changes(description: str) -> None:
    row = next(r for r in description.splitlines() if r.startswith("| `rainbow` |"))
    assert row.endswith("| `draw` 1, `redeals` 0, `build` any-suit |")


def test_every_option_is_a_row_with_its_help_values_and_classic_value(description: str) -> None:
    for name in OPTION_NAMES:
        assert f"| `{name}` | {OPTION_HELP[name]} |" in description
    assert (
        "| `build` | "
        + OPTION_HELP["build"]
        + " | "
        + ", ".join(f"`{v}`" for v in OPTION_VALUES["build"])
        + " | alternate-colour |"
        in description
    )
    assert "| 0 to 1000, or `null` for unlimited | unlimited |" in description


def test_the_ranking_rule_is_the_engines(description: str) -> None:
    assert f"**Race ranking**: {RANKING_RULE}" in description


def test_a_refused_move_is_documented_with_the_status_the_api_answers(description: str) -> None:
    assert "answered `422 illegal_move`" in description


@pytest.mark.parametrize(
    "sentence",
    [
        # RULES.md 4, tableau_moves: said for every mode, not only top-or-whole.
        "Only single cards ever go to a foundation",
        "a top card may still go to its foundation",
        # RULES.md 3.6: which way the waste comes back.
        "the cards come back in the same order",
        # RULES.md 4 tableau_wrap, as the engine plays it (games.engine.state.fit_table).
        "nothing is built on a card of the base rank",
        # A fixed base: which shuffle, and which 48 cards (games.engine.state.layout).
        "the four base cards are taken out of\n`D[0..51]` and the other 48 keep their order",
        # A fixed base puts four cards home at the deal (RULES.md 4 storehouse, 6).
        "the four base cards count, so\n  a game starts at 4",
    ],
)
def test_the_rules_a_bot_needs_beyond_section_3_are_written_out(
    description: str, sentence: str
) -> None:
    assert sentence in description


def test_the_variants_operation_gives_the_redeal_limit_the_server_enforces(
    tmp_path: Path,
) -> None:
    """``redeals`` above 1000 is 400 ``invalid_options``: the operation said any number."""
    op = generate(tmp_path)["paths"]["/api/v1/variants"]["get"]
    assert "any number >= 0" not in op["description"]
    assert "a number from 0 to ``MAX_REDEALS`` (1000)" in op["description"]


@pytest.mark.django_db
def test_a_fixed_base_starts_with_four_cards_home(player: Any) -> None:
    view = player.post("/api/v1/games", {"variant": "storehouse", "seed": "11"}, format="json")
    assert view.json()["cards_home"] == 4


@pytest.mark.django_db
def test_a_fixed_base_deals_the_seeds_deck_without_its_base_cards(player: Any) -> None:
    """Storehouse on an explicit deck AC..KC AD..KD ...: without the twos, D' starts
    AC 3C 4C .. KC AD 3D ..; the reserve top is D'[12] = AD, the tableau D'[13..16]."""
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    view = player.post(
        "/api/v1/games", {"variant": "storehouse", "deck": deck}, format="json"
    ).json()
    assert view["reserve"]["cards"] == ["AD"]
    assert view["tableau"] == [["3D"], ["4D"], ["5D"], ["6D"]]


def test_the_notation_says_which_spaces_it_ignores(description: str) -> None:
    """``parse_move`` strips the move and both sides of ``>``; the docs did not say so."""
    assert "spaces around the move\n  and around `>` are ignored" in description


#: A Markdown code span: one backtick, text without backticks, one backtick.
CODE_SPAN = re.compile(r"(?<!`)`([^`]+)`(?!`)")


def test_no_code_span_relies_on_spaces_at_both_ends(description: str) -> None:
    """CommonMark (and ReDoc's renderer) drops one space at each end of a code span that
    has both, so the example of ignored spaces, written `` ` qh > T2 ` ``, was shown as
    ``qh > T2``: the spaces around the move it was there to show were gone."""
    spaced = [
        m.group(0)
        for m in CODE_SPAN.finditer(description)
        if m.group(1)[0] in " \n" and m.group(1)[-1] in " \n" and m.group(1).strip()
    ]
    assert spaced == []


def test_the_spaces_example_keeps_its_spaces_in_quotes(description: str) -> None:
    assert '`" qh > T2 "` is played as `QH>t2`' in description


@pytest.mark.django_db
def test_a_move_with_spaces_is_played_as_the_documentation_says(player: Any) -> None:
    deck = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    game = player.post("/api/v1/games", {"deck": deck}, format="json").json()
    resp = player.post(f"/api/v1/games/{game['id']}/moves", {"move": " 2d > F "}, format="json")
    assert resp.json()["move"] == "2D>f"


def test_the_tables_write_a_boolean_as_the_json_a_client_sends(description: str) -> None:
    """The values column lists `true`, `false`; the classic column and the presets table
    said yes and no (superior: "`autofill` no, `reserve_face_up` yes")."""
    assert "| `true`, `false` | true |" in description
    assert "`autofill` false, `reserve_face_up` true" in description
