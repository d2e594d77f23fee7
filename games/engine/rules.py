"""Rule options and the variant presets (RULES.md section 4).

:class:`Rules` is an immutable, validated set of the nine options.  Build one
with :func:`make_rules` (a preset name plus overrides); unknown options and bad
values raise :class:`RulesError` with a message that names the option and the
allowed values.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Final

from .cards import RANKS, CardError, parse_rank

BUILDS: Final = ("alternate-colour", "any-suit", "same-suit")
TABLEAU_MOVES: Final = ("top-or-whole", "whole-pile", "any-run")
EMPTY_PILE: Final = ("any", "waste-only")
TABLEAU_WRAP: Final = ("modulo", "base-relative")
#: The most redeals a finite ``redeals`` option may allow.  RULES.md 4 sets no bound;
#: no variant allows more than a few, and a bound keeps every count in the solver's
#: and the game record's fields (2**31 was accepted once and broke the solver's key).
MAX_REDEALS: Final = 1000

#: What each option means, for documentation and the API's variants endpoint.
OPTION_HELP: Final[dict[str, str]] = {
    "draw": "cards turned from the stock to the waste by one draw: 1 or 3 (RULES.md 3.6)",
    "redeals": f"number of redeals allowed (0, 1, 2, ... up to {MAX_REDEALS}), or null for "
    "unlimited (RULES.md 3.6)",
    "build": "tableau building down one rank: alternate-colour, any-suit (rank only) or same-suit",
    "tableau_moves": "top-or-whole (top card or whole pile, RULES.md 3.4), whole-pile "
    "(only whole piles move between tableau piles; a top card may still go to its "
    "foundation) or any-run (any card with the cards on it); only single cards ever go "
    "to a foundation",
    "autofill": "empty tableau piles are filled from the reserve at once (RULES.md 3.7)",
    "empty_pile": "what may fill an empty pile when the reserve cannot: any or waste-only",
    "reserve_face_up": "the whole reserve is visible",
    "base": "dealt (the 14th card, D[13], starts the first foundation) or a fixed rank "
    "(A..K) whose four cards are taken out and start the foundations",
    "tableau_wrap": "modulo (a K may go on an A) or base-relative "
    "(no building across the base rank: nothing is built on a card of the base rank)",
}


class RulesError(ValueError):
    """An unknown variant, unknown option or invalid option value."""


@dataclass(frozen=True, slots=True)
class Rules:
    """One complete, validated set of Canfield options (RULES.md section 4).

    ``redeals`` is ``None`` for unlimited; ``base`` is ``"dealt"`` or a rank
    letter ``"A"``..``"K"``.  Construct through :func:`make_rules` or
    :meth:`from_dict` so that values are checked.
    """

    draw: int = 3
    redeals: int | None = None
    build: str = "alternate-colour"
    tableau_moves: str = "top-or-whole"
    autofill: bool = True
    empty_pile: str = "any"
    reserve_face_up: bool = False
    base: str = "dealt"
    tableau_wrap: str = "modulo"

    def __post_init__(self) -> None:
        _check(self)

    @property
    def fixed_base(self) -> int | None:
        """Rank number of a fixed base (0 = ace), or ``None`` when the base is dealt."""
        return None if self.base == "dealt" else RANKS.index(self.base)

    def to_dict(self) -> dict[str, Any]:
        """The options as a JSON-ready dict (``redeals`` ``None`` means unlimited)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Build from a dict of options (missing ones take the classic value); validates."""
        return make_rules("classic", **data)


OPTION_NAMES: Final = tuple(f.name for f in fields(Rules))


def _json_text(value: object) -> str:
    """The value as a client sent it, in JSON (``true``, ``null``, ``"x"``), not Python
    (``True``, ``None``, ``'x'``); ``repr`` for what JSON cannot write."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)


def _check(r: Rules) -> None:
    def bad(option: str, value: object, allowed: str) -> RulesError:
        return RulesError(f"invalid value {_json_text(value)} for option {option!r}: {allowed}")

    if type(r.draw) is not int or r.draw not in (1, 3):
        raise bad("draw", r.draw, "use 1 or 3")
    if r.redeals is not None and (type(r.redeals) is not int or not 0 <= r.redeals <= MAX_REDEALS):
        raise bad(
            "redeals", r.redeals, f"use a whole number 0..{MAX_REDEALS}, or null for unlimited"
        )
    if r.build not in BUILDS:
        raise bad("build", r.build, "use one of " + ", ".join(BUILDS))
    if r.tableau_moves not in TABLEAU_MOVES:
        raise bad("tableau_moves", r.tableau_moves, "use one of " + ", ".join(TABLEAU_MOVES))
    if type(r.autofill) is not bool:
        raise bad("autofill", r.autofill, "use true or false")
    if r.empty_pile not in EMPTY_PILE:
        raise bad("empty_pile", r.empty_pile, "use one of " + ", ".join(EMPTY_PILE))
    if type(r.reserve_face_up) is not bool:
        raise bad("reserve_face_up", r.reserve_face_up, "use true or false")
    if r.base != "dealt" and (not isinstance(r.base, str) or r.base not in RANKS):
        raise bad("base", r.base, "use 'dealt' or a rank A, 2..9, T (or 10), J, Q, K")
    if r.tableau_wrap not in TABLEAU_WRAP:
        raise bad("tableau_wrap", r.tableau_wrap, "use one of " + ", ".join(TABLEAU_WRAP))


CLASSIC: Final = Rules()

#: The presets of RULES.md section 4, with what each changes from classic.
PRESETS: Final[dict[str, Rules]] = {
    "classic": CLASSIC,
    "draw-one": replace(CLASSIC, draw=1),
    "superior": replace(CLASSIC, reserve_face_up=True, autofill=False),
    "rainbow": replace(CLASSIC, build="any-suit", draw=1, redeals=0),
    "storehouse": replace(CLASSIC, base="2", build="same-suit", draw=1, redeals=2),
    "one-pass": replace(CLASSIC, redeals=0),
}

#: Other names accepted for presets.
PRESET_ALIASES: Final = {"strict": "one-pass", "acey": "one-pass", "acey-canfield": "one-pass"}

PRESET_HELP: Final[dict[str, str]] = {
    "classic": "Canfield as RULES.md section 3 plays it: draw 3, unlimited redeals",
    "draw-one": "classic with draw 1",
    "superior": "the whole reserve face up; no auto-fill: any available card may fill a space",
    "rainbow": "build down by rank regardless of colour; draw 1; no redeal",
    "storehouse": "the four twos start the foundations; build down in suit; draw 1; two redeals",
    "one-pass": "classic with no redeal (also called strict or Acey Canfield)",
}


def option_word(value: Any) -> str:
    """An option's value as a word (RULES.md 4): ``None`` (unlimited redeals) is
    ``"unlimited"``, ``True``/``False`` are ``"yes"``/``"no"``, anything else its text
    (``3``, ``"any-suit"``, ``"dealt"``).  Used by the rating pools' keys and the API
    documentation's variant tables."""
    if value is None:
        return "unlimited"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def _normalise(option: str, value: Any) -> Any:
    if option == "base" and value != "dealt" and value is not None:
        try:
            return RANKS[parse_rank(str(value))]
        except CardError as exc:
            raise RulesError(
                f"invalid value {_json_text(value)} for option 'base': use 'dealt' or a rank A..K"
            ) from exc
    if option == "redeals" and isinstance(value, str) and value.lower() in ("unlimited", "none"):
        return None
    return value


def make_rules(variant: str = "classic", /, **options: Any) -> Rules:
    """Return the :class:`Rules` of preset ``variant`` with ``options`` overriding it.

    Example: ``make_rules("classic", draw=1, redeals=2)``.  Raises
    :class:`RulesError` for an unknown preset, an unknown option or a bad value.
    """
    name = PRESET_ALIASES.get(variant, variant)
    if name not in PRESETS:
        raise RulesError(f"unknown variant {variant!r}: use one of " + ", ".join(PRESETS))
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise RulesError(
            "unknown option(s) "
            + ", ".join(map(repr, unknown))
            + ": options are "
            + ", ".join(OPTION_NAMES)
        )
    norm = {k: _normalise(k, v) for k, v in options.items()}
    try:
        return replace(PRESETS[name], **norm)
    except TypeError as exc:  # pragma: no cover - guarded by the unknown-option check
        raise RulesError(str(exc)) from exc


def variant_name(rules: Rules) -> str | None:
    """The preset name whose options equal ``rules`` exactly, or ``None``."""
    for name, preset in PRESETS.items():
        if preset == rules:
            return name
    return None
