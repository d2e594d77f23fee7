"""The seeded shuffle, the shared vectors and deck/seed validation (RULES.md 2.1, 2.2, 7)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from games.engine import (
    CARD_NAMES,
    DeckError,
    check_seed,
    commitment,
    deal_deck,
    layout_dict,
    new_game,
    parse_deck,
    random_seed,
)
from games.engine.deal import random_stream, shuffle_order

VECTORS = Path(__file__).resolve().parents[2].parent / "shared" / "vectors" / "deals.json"


def load_vectors() -> dict[str, Any]:
    if not VECTORS.is_file():
        pytest.fail(f"the shared deal vectors are missing: expected {VECTORS}")
    data: dict[str, Any] = json.loads(VECTORS.read_text(encoding="utf-8"))
    return data


DATA = load_vectors()
DEALS = DATA["deals"]


def test_vectors_file_has_classic_and_storehouse_layouts() -> None:
    assert len(DEALS) >= 9
    assert sum("classic" in d for d in DEALS) >= 9
    assert sum("storehouse" in d for d in DEALS) >= 2


@pytest.mark.parametrize("entry", [d for d in DEALS if "deck" in d], ids=lambda d: d["seed"])
def test_vector_deck_byte_for_byte(entry: dict[str, Any]) -> None:
    assert " ".join(deal_deck(entry["seed"])) == entry["deck"]


@pytest.mark.parametrize("entry", [d for d in DEALS if "commitment" in d], ids=lambda d: d["seed"])
def test_vector_commitment(entry: dict[str, Any]) -> None:
    assert commitment(entry["seed"]) == entry["commitment"]
    assert commitment(entry["seed"]) == hashlib.sha256(entry["seed"].encode()).hexdigest()


def test_vector_stream_first_eight_values() -> None:
    stream = random_stream("1")
    got = [str(next(stream)) for _ in range(8)]
    assert got == DATA["stream_seed_1_first_8_uint64"]


def test_stream_is_sha256_counter_blocks() -> None:
    stream = random_stream("abc")
    values = [next(stream) for _ in range(8)]
    for k in range(2):
        block = hashlib.sha256(f"abc:{k}".encode()).digest()
        expect = [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
        assert values[4 * k : 4 * k + 4] == expect


LAYOUTS = [(d["seed"], v, d[v]) for d in DEALS for v in ("classic", "storehouse") if v in d]


@pytest.mark.parametrize(("seed", "variant", "expected"), LAYOUTS, ids=lambda x: str(x)[:12])
def test_vector_layout(seed: str, variant: str, expected: dict[str, Any]) -> None:
    assert layout_dict(new_game(variant, seed=seed)) == expected


def test_layout_positions_of_deal_order() -> None:
    deck = deal_deck("layout")
    lay = layout_dict(new_game("classic", deck=deck))
    assert lay["reserve"] == deck[0:13]  # D[0] at the bottom, D[12] on top
    assert lay["base_rank"] == deck[13][0]
    assert lay["foundations"] == {deck[13][1]: [deck[13]]}
    assert lay["tableau"] == [[deck[14]], [deck[15]], [deck[16]], [deck[17]]]
    assert lay["stock"] == deck[18:]  # D[18] drawn first
    assert lay["waste"] == []


def test_storehouse_lays_out_48_cards() -> None:
    deck = deal_deck("store")
    rest = [c for c in deck if c[0] != "2"]
    lay = layout_dict(new_game("storehouse", deck=deck))
    assert lay["foundations"] == {s: ["2" + s] for s in "CDHS"}
    assert lay["reserve"] == rest[:13]
    assert lay["tableau"] == [[c] for c in rest[13:17]]
    assert lay["stock"] == rest[17:]
    assert len(lay["stock"]) == 31


def test_shuffle_is_a_permutation_and_seed_dependent() -> None:
    a, b = shuffle_order("x1"), shuffle_order("x2")
    assert sorted(a) == list(range(52))
    assert sorted(b) == list(range(52))
    assert a != b
    assert shuffle_order("x1") == a


def test_random_seed_is_32_hex_and_valid() -> None:
    seeds = {random_seed() for _ in range(20)}
    assert len(seeds) == 20
    for s in seeds:
        assert len(s) == 32
        assert all(ch in "0123456789abcdef" for ch in s)
        assert check_seed(s) == s


@pytest.mark.parametrize("seed", ["1", "12345", "a" * 64, "A_b-9", "-", "_"])
def test_valid_seeds(seed: str) -> None:
    assert check_seed(seed) == seed
    assert len(deal_deck(seed)) == 52


@pytest.mark.parametrize(
    "seed", ["", "a" * 65, "a b", "a.b", "é", "abc\n", "12345\n", "\n12345", "a/b", 12345, None]
)
def test_invalid_seeds(seed: Any) -> None:
    with pytest.raises(DeckError, match="a seed is 1 to 64 characters"):
        check_seed(seed)
    with pytest.raises(DeckError, match="invalid seed"):
        new_game("classic", seed=seed) if isinstance(seed, str) and seed else deal_deck(seed)


def test_seed_and_deck_are_exclusive() -> None:
    with pytest.raises(DeckError, match="exactly one of seed or deck"):
        new_game("classic", seed="1", deck=deal_deck("1"))


def test_new_game_without_seed_or_deck_deals_a_random_game() -> None:
    a, b = new_game(), new_game()
    assert a.to_dict() != b.to_dict()


# ------------------------------------------------------------- explicit decks

GOOD = list(CARD_NAMES)


def test_explicit_deck_forms() -> None:
    assert parse_deck(GOOD) == list(range(52))
    text = " ".join(GOOD).replace("T", "10").lower()
    assert parse_deck(text) == list(range(52))
    assert parse_deck(",".join(GOOD)) == list(range(52))


def test_deck_missing_card_named() -> None:
    deck = GOOD[:-1]
    with pytest.raises(DeckError) as exc:
        parse_deck(deck)
    assert str(exc.value) == "invalid deck: a deck has 52 cards, got 51; missing: KS"


def test_deck_repeated_card_named() -> None:
    deck = [*GOOD[:-1], "QH"]
    with pytest.raises(DeckError) as exc:
        parse_deck(deck)
    assert str(exc.value) == "invalid deck: repeated: QH; missing: KS"


def test_deck_bad_names() -> None:
    deck = [*GOOD[:-2], "ZZ", "1S"]
    with pytest.raises(DeckError) as exc:
        parse_deck(deck)
    msg = str(exc.value)
    assert "not cards: 'ZZ', '1S'" in msg
    assert msg.startswith("invalid deck: ")


def test_deck_non_string_entry() -> None:
    with pytest.raises(DeckError, match=r"not cards: 7"):
        parse_deck([*GOOD[:-1], 7])  # type: ignore[list-item]


def test_deck_too_long() -> None:
    with pytest.raises(DeckError, match=r"a deck has 52 cards, got 53; repeated: AC"):
        parse_deck([*GOOD, "AC"])


def test_deck_empty() -> None:
    with pytest.raises(DeckError, match="a deck has 52 cards, got 0"):
        parse_deck([])


def test_new_game_with_bad_deck() -> None:
    with pytest.raises(DeckError, match="missing: KS"):
        new_game("classic", deck=GOOD[:-1])
