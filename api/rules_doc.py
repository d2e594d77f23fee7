"""The rule book as the API documentation explains it (RULES.md, first paragraph).

RULES.md asks that every rule be "explained in the API documentation".  The
options and presets are also served by ``GET /api/v1/variants``; this module
writes the whole rule book, section by section, as Markdown for the OpenAPI
description (``SPECTACULAR_SETTINGS["DESCRIPTION"]``), so that ReDoc and Swagger
UI show it under "The rules" beside the endpoints.  The variant table, the
redeal limit and the ranking rule are read from the engine
(:data:`games.engine.rules.OPTION_HELP`, :data:`~games.engine.rules.PRESET_HELP`,
:data:`~games.engine.rules.PRESETS`, :data:`~games.engine.ranking.RANKING_RULE`),
so they cannot drift from what the engine plays.  Every heading names its
RULES.md section; ``tests/api/test_schema_rules.py`` checks that each rule of
RULES.md 3 and each option and preset is there.
"""

from __future__ import annotations

from typing import Any

from games.engine.ranking import RANKING_RULE
from games.engine.rules import (
    BUILDS,
    EMPTY_PILE,
    MAX_REDEALS,
    OPTION_HELP,
    OPTION_NAMES,
    PRESET_HELP,
    PRESETS,
    TABLEAU_MOVES,
    TABLEAU_WRAP,
    option_word,
)

#: Each option's values as ``GET /api/v1/variants`` lists them (``redeals``: a few
#: examples, any number from 0 to ``MAX_REDEALS`` or ``None`` for unlimited).
OPTION_VALUES: dict[str, list[Any]] = {
    "draw": [1, 3],
    "redeals": [None, 0, 1, 2, 3],
    "build": list(BUILDS),
    "tableau_moves": list(TABLEAU_MOVES),
    "autofill": [True, False],
    "empty_pile": list(EMPTY_PILE),
    "reserve_face_up": [False, True],
    "base": ["dealt", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"],
    "tableau_wrap": list(TABLEAU_WRAP),
}


def options_schema(*, overrides: bool) -> dict[str, Any]:
    """The OpenAPI schema of an ``options`` object (RULES.md 4), one property per option.

    ``overrides=True``: a request's overrides of its preset (any subset of the options);
    ``False``: the full option set an answer reports.  Each property gives the option's
    type and values (``redeals``: 0 to ``MAX_REDEALS``, or null for unlimited) and its
    meaning from ``OPTION_HELP``.  Returns a JSON-schema dict; raises nothing.
    """
    properties: dict[str, Any] = {}
    for name in OPTION_NAMES:
        values = OPTION_VALUES[name]
        prop: dict[str, Any]
        if name == "redeals":
            prop = {"type": "integer", "minimum": 0, "maximum": MAX_REDEALS, "nullable": True}
        elif all(isinstance(v, bool) for v in values):
            prop = {"type": "boolean"}
        elif all(isinstance(v, int) for v in values):
            prop = {"type": "integer", "enum": values}
        else:
            prop = {"type": "string", "enum": values}
        properties[name] = {**prop, "description": OPTION_HELP[name]}
    what = (
        "Overrides of the preset's options (RULES.md 4): any of these; an option left out "
        "keeps the preset's value. An unknown option or value is 400 invalid_options."
        if overrides
        else "The full option set the rules were built from (RULES.md 4)."
    )
    return {
        "type": "object",
        "description": what,
        "properties": properties,
        "additionalProperties": False,
    }


def _value(value: Any) -> str:
    """An option's value as the tables write it: a boolean as the JSON a client sends
    (``"true"``, ``"false"``, as the values column lists them), anything else as
    :func:`~games.engine.rules.option_word` (``None``: ``"unlimited"``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return option_word(value)


def _presets_table() -> str:
    classic = PRESETS["classic"].to_dict()
    rows = [
        "| preset | what it changes | options that differ from classic |",
        "| --- | --- | --- |",
    ]
    for name, rules in PRESETS.items():
        options = rules.to_dict()
        changed = [f"`{o}` {_value(options[o])}" for o in OPTION_NAMES if options[o] != classic[o]]
        rows.append(f"| `{name}` | {PRESET_HELP[name]} | {', '.join(changed) or 'none'} |")
    return "\n".join(rows)


def _values(name: str) -> str:
    if name == "redeals":
        return f"0 to {MAX_REDEALS}, or `null` for unlimited"
    if name == "base":
        return "`dealt`, or a rank `A` to `K`"
    if name in ("autofill", "reserve_face_up"):
        return "`true`, `false`"
    return ", ".join(f"`{v}`" for v in OPTION_VALUES[name])


def _options_table() -> str:
    classic = PRESETS["classic"].to_dict()
    rows = ["| option | meaning | values | classic |", "| --- | --- | --- | --- |"]
    rows += [
        f"| `{name}` | {OPTION_HELP[name]} | {_values(name)} | {_value(classic[name])} |"
        for name in OPTION_NAMES
    ]
    return "\n".join(rows)


def rules_markdown() -> str:
    """The rule book (RULES.md 1 to 7) as Markdown headed ``# The rules``.

    Returns a string of about 8,000 characters; raises nothing.
    """
    return f"""
# The rules

This server plays Canfield exactly as its rule book says; each part below names
the rule book's section. A move the rules refuse is answered `422 illegal_move`
with the rule's reason, and changes nothing.

## Cards and piles (RULES.md 1)

- One 52-card deck, no jokers. Ranks `A 2 3 4 5 6 7 8 9 T J Q K` (`10` is
  accepted on input, `T` is written on output); suits `C D H S` (clubs, diamonds,
  hearts, spades); hearts and diamonds are red. A card is written rank then
  suit: `QH`, `TD`, `AS`.
- Ranks wrap: after `K` comes `A`, so K is one lower than A.
- Piles: the **reserve** (13 cards), 4 **foundations**, the **tableau** piles
  `t1` to `t4`, the **stock** (face down) and the **waste** (face up, fed from
  the stock). The **base rank** is the rank on which every foundation starts.
- A pile's **top card** is the one placed last (the exposed card); its
  **bottom card** is the one placed first.

## The deal (RULES.md 2)

A deal is determined by its **seed**, 1 to 64 characters of `[A-Za-z0-9_-]`.
Game numbers are decimal seeds (`"1"`, `"12345"`); race seeds are 32 lowercase
hex digits from a cryptographic source.

1. Start from the deck `AC 2C .. KC AD .. KD AH .. KH AS .. KS` (index 0 to 51).
2. Block `k` (k = 0, 1, ...) of the random stream is
   `SHA-256(utf8(seed) + ":" + decimal(k))`; each 32-byte block gives four
   unsigned 64-bit big-endian integers, used in order.
3. `below(n)`: with `limit = 2^64 - (2^64 mod n)`, take the next integer `x`
   until `x < limit`, and return `x mod n`.
4. Fisher-Yates: for `i` from 51 down to 1, `j = below(i + 1)`; swap positions
   `i` and `j`. The result is the deck in deal order `D[0..51]`.

Laying out: the reserve is `D[0..12]`, `D[0]` at the bottom and `D[12]` on top
(face up, the other twelve face down); `D[13]` starts the first foundation and
its rank is the base rank; the tableau is `t1 = D[14]`, `t2 = D[15]`,
`t3 = D[16]`, `t4 = D[17]`; the stock is `D[18..51]`
with `D[18]` drawn first; the waste starts empty. A game may also start from an
explicit deck of 52 distinct cards in deal order, laid out the same way. With a
fixed `base` rank (storehouse), the four cards of that rank start the
foundations and the other 48 are dealt in order: reserve 13, tableau 4, stock 31.
The shuffle is the same 52-card one: the four base cards are taken out of
`D[0..51]` and the other 48 keep their order (for storehouse, `D` without its
twos: reserve `D'[0..12]`, tableau `D'[13..16]`, stock `D'[17..47]`).

## Play (RULES.md 3)

The classic game; the options under "Variants" change the rules they name.

1. **Available cards** (3.1): the top of the reserve, the top of the waste and
   the top card of each tableau pile.
2. **Foundations** (3.2): a foundation starts with a card of the base rank and
   is built up in suit, one higher each time, wrapping K to A, until it holds 13
   cards (base 7: `7H 8H .. QH KH AH 2H .. 6H`). Cards never leave a foundation.
3. **Tableau building** (3.3): a card may go on a tableau card one rank higher
   and of the other colour, wrapping (a black K on a red A; a red Q on a black
   K). The wrap is plain modulo 13 and does not stop at the base rank.
4. **What moves in the tableau** (3.4): the top card on its own (to a
   foundation or another pile), or the whole pile as one unit onto another
   pile when its bottom card fits the target's top card. Part of a pile never
   moves.
5. **Reserve** (3.5): its top card may go to a foundation or a tableau pile; the
   next card is then turned face up. The reserve is never refilled.
6. **Stock and waste** (3.6): `draw` turns the next 3 cards of the stock (fewer
   when fewer remain) onto the waste; only the waste's top card is available.
   When the stock is empty, `redeal` turns the waste over, unshuffled, as the
   new stock: the cards come back in the same order (the first card drawn before
   is drawn first again). Redeals are unlimited.
7. **Empty tableau pile (auto-fill)** (3.7): the moment a tableau pile becomes
   empty, the top reserve card fills it, as part of the same move. Once the
   reserve is empty, an empty pile stays empty until the player puts any
   available card, or a whole pile, there.
8. **Illegal moves** (3.8) change nothing and are refused with a reason.
9. **End** (3.9): the game is **won** when all 52 cards are on the foundations.
   It is **blocked** when no move other than `draw` and `redeal` exists in any
   position that `draw` and `redeal` alone can reach. A player may **resign**.
   In a race, a game still going at the deadline is **timed out**.

## Variants (RULES.md 4)

A game or race names a preset and may override options (`GET /api/v1/variants`
lists them with their allowed values). `redeals` takes 0 to {MAX_REDEALS}, or
`null` for unlimited. An option a preset does not name keeps its classic value.
Only single cards ever go to a foundation, under every `tableau_moves`.

{_presets_table()}

{_options_table()}

## Move notation (RULES.md 5)

- `draw`: stock to waste. `redeal`: waste back to stock (only when the stock is
  empty).
- `<card>><dest>`: pick up `<card>` and put it on `<dest>`, `f` (its
  foundation) or `t1` to `t4`: `QH>t2`, `5S>f`, `KC>t1`. The card says where the
  move starts: the waste top, the reserve top, a tableau top card, or, for a
  whole-pile move, the bottom card of a tableau pile (under `any-run`, any card
  of a pile, which moves with the cards on it).
- Input is case-insensitive and may write `10` for `T`; spaces around the move
  and around `>` are ignored (the move `" qh > T2 "` is played as `QH>t2`: the
  quotes show the spaces, which a code span alone would drop); output is canonical
  (`QH>t2`, `draw`). The auto-fill is part of the move that empties the pile,
  never a move of its own.

## Scoring (RULES.md 6)

- **Cards home**: the cards on the foundations, 1 to 52 (the dealt base card
  counts; with a fixed `base`, such as storehouse, the four base cards count, so
  a game starts at 4).
- **Casino score** (Canfield's house terms: pay 52, earn 5 per card home):
  `5 \u00d7 cards_home \u2212 52` (from \u221247 to +208).
- **Race ranking**: {RANKING_RULE}

## What a player may see (RULES.md 7)

- Face-down reserve cards and the order of the stock are hidden: the API sends
  their count, never their identity, not even through ids, orderings or
  errors. Cards the player has seen (turned to the waste, or shown because the
  variant has `reserve_face_up`) are visible.
- A race's seed is secret until the race is over for every player. Before it,
  the race publishes `commitment = hex(SHA-256(utf8(seed)))`; after it, the
  seed, so anyone can check the deal with "The deal" above.
- No answer depends on a hidden card. A check that compares what a player sends
  with a running race's deal (refusing a practice game on the race's cards)
  compares only the cards every entrant sees at the start: the base card, the
  four tableau cards and the top reserve card.
- Hints and solutions are the one exception, and only outside races: a
  practice game may ask for a hint, and any game may show a solution once its
  deal is revealed. A race game never gets a hint, and no deal of a running
  race can be practised.
"""
