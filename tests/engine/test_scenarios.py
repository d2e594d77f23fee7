"""Scenario tests for every numbered rule of RULES.md 3.1-3.9, every option and preset.

Deals come from explicit decks (:func:`helpers.deal`); positions deep in a game
(empty reserve, nearly won, blocked) are written out pile by pile with
:func:`helpers.position`.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import (
    GameOverError,
    GameState,
    IllegalMoveError,
    layout_dict,
    new_game,
    player_view,
)
from tests.engine import reference
from tests.engine.helpers import deal, position


def refuse(state: GameState, move: str, reason: str | None = None) -> str:
    """Assert ``move`` is refused, not listed, and changes nothing; return the reason."""
    before = state.to_dict()
    history = len(state.history)
    assert move not in state.legal_moves()
    with pytest.raises(IllegalMoveError) as exc:
        state.play(move)
    assert exc.value.code == "illegal_move"
    assert state.to_dict() == before
    assert len(state.history) == history
    if reason is not None:
        assert exc.value.reason == reason
    return exc.value.reason


def agree(state: GameState) -> None:
    """The position's legal moves and status agree with the reference model."""
    pos = state.to_dict()
    assert set(state.legal_moves()) == reference.legal_moves(pos)
    assert state.status() == reference.status(pos)


# ------------------------------------------------------------------ 3.1


def test_3_1_available_cards_only() -> None:
    s = deal(reserve=["9D", "8S"], base="AC", tableau=["9H", "TC", "KD", "4S"], stock=["2H"])
    assert "8S>t1" in s.legal_moves()  # reserve top on 9H
    refuse(s, "9D>t2")  # second reserve card is face down
    s.play("8S>t1")
    assert s.to_dict()["reserve"][-1] == "9D"
    assert "9D>t2" in s.legal_moves()  # the next card is turned face up (3.5)
    # A tableau card under the top is not available on its own.
    refuse(
        s,
        "9H>f",
        "9H is not the top card of t1: only a pile's top card goes to a foundation",
    )
    agree(s)


def test_3_1_waste_top_only() -> None:
    s = deal(
        "draw-one", reserve=["2S"], base="AC", tableau=["9H", "TC", "KD", "4S"], stock=["3H", "3D"]
    )
    s.play("draw")
    s.play("draw")
    assert s.to_dict()["waste"] == ["3H", "3D"]
    assert "3D>t4" in s.legal_moves()
    reason = refuse(s, "3H>t4")
    assert reason == (
        "that card is not available: only the top cards of the reserve, the waste and the "
        "tableau piles can move"
    )


# ------------------------------------------------------------------ 3.2


@pytest.mark.parametrize("base", ["A", "2", "7", "Q", "K"])
def test_3_2_foundation_built_up_in_suit_wrapping(base: str) -> None:
    ranks = "A23456789TJQK"
    b = ranks.index(base)
    order = [ranks[(b + k) % 13] + "H" for k in range(13)]
    s = deal("draw-one", reserve=["2S"] if base != "2" else ["3S"], base=order[0], stock=order[1:])
    assert s.to_dict()["base_rank"] == base
    for card in order[1:]:
        s.play("draw")
        assert f"{card}>f" in s.legal_moves()
        s.play(f"{card}>f")
    assert s.to_dict()["foundations"]["H"] == order
    assert s.cards_home == 13
    if base != "A":
        assert order.index("KH") < order.index("AH")  # K then A: the wrap


def test_3_2_example_base_7() -> None:
    s = position(
        base_rank="7",
        home={"H": 6},  # 7H .. QH
        tableau=[["KH"], ["5C"], ["9S"], ["3D"]],
        waste=["AH"],
        leftovers="stock",
    )
    refuse(s, "AH>f", "AH cannot go to its foundation: it needs KH next")
    s.play("KH>f")
    assert s.to_dict()["foundations"]["H"][-1] == "KH"
    assert s.tableau[0] == []  # no reserve left: the pile stays empty
    agree(s)


def test_3_2_k_then_a_on_foundation() -> None:
    s = position(
        base_rank="7",
        home={"H": 7},  # 7H .. KH
        tableau=[["2C"], ["5C"], ["9S"], ["3D"]],
        waste=["AH"],
    )
    assert s.legal_moves()[0] == "AH>f"
    s.play("AH>f")
    assert s.to_dict()["foundations"]["H"][-2:] == ["KH", "AH"]
    agree(s)


def test_3_2_foundation_start_needs_base_rank_and_full_foundation_stops() -> None:
    s = deal(reserve=["6D"], base="5S", tableau=["5C", "KD", "AS", "7C"], stock=["2D"])
    refuse(s, "6D>f", "6D cannot start a foundation: the base rank is 5")
    refuse(s, "AS>f", "AS cannot go to its foundation: it needs 6S next")
    s.play("5C>f")
    assert s.to_dict()["foundations"]["C"] == ["5C"]
    # A foundation holds 13 cards and no more.
    full = position(base_rank="A", home={"C": 13}, tableau=[["2D"], ["5H"], ["9S"], ["3D"]])
    full_moves = full.legal_moves()
    assert not [m for m in full_moves if m.endswith("C>f")]
    assert full.to_dict()["foundations"]["C"][-1] == "KC"


def test_cards_never_leave_a_foundation() -> None:
    s = deal(reserve=["6D"], base="5S", tableau=["5C", "KD", "AS", "7C"], stock=["2D"])
    refuse(s, "5S>t1", "5S is already on its foundation")
    assert all(not m.startswith("5S") for m in s.legal_moves())


# ------------------------------------------------------------------ 3.3


def test_3_3_black_k_on_red_a_and_red_q_on_black_k() -> None:
    s = deal(reserve=["KS"], base="3C", tableau=["AH", "KC", "QD", "QS"], stock=["2D"])
    moves = s.legal_moves()
    assert "KS>t1" in moves  # wrap: K is one lower than A
    assert "QD>t2" in moves
    refuse(s, "QS>t2", "QS cannot go on KC: needs a red K")
    s.play("KS>t1")
    assert s.to_dict()["tableau"][0] == ["AH", "KS"]
    assert "QD>t1" in s.legal_moves()
    agree(s)


def test_3_3_wrap_does_not_stop_at_base_rank() -> None:
    # Base A: K on A is still building down by one, modulo 13.
    s = deal(reserve=["KC"], base="AS", tableau=["AD", "9C", "8C", "7C"], stock=["2D"])
    assert "KC>t1" in s.legal_moves()
    # Base 7: a 6 on a 7 is fine too.
    s = deal(reserve=["6S"], base="7C", tableau=["7H", "9C", "8C", "4C"], stock=["2D"])
    assert "6S>t1" in s.legal_moves()


def test_3_3_reason_names_what_is_needed() -> None:
    s = deal(reserve=["QH"], base="AC", tableau=["5C", "KH", "KS", "2D"], stock=["3D"])
    refuse(s, "QH>t1", "QH cannot go on 5C: needs a black K")
    refuse(s, "QH>t2", "QH cannot go on KH: needs a black K")
    assert "QH>t3" in s.legal_moves()


def test_base_relative_wrap_refuses_building_across_the_base() -> None:
    kw: dict[str, Any] = {
        "reserve": ["6S"],
        "base": "7C",
        "tableau": ["7H", "AD", "2C", "4C"],
        "stock": ["KC"],
    }
    modulo = deal(**kw)
    assert "6S>t1" in modulo.legal_moves()
    strict = deal(tableau_wrap="base-relative", **kw)
    refuse(strict, "6S>t1", "6S cannot go on 7H: no building across the base rank 7")
    strict.play("draw")  # waste: KC, 2D? draw 3 -> KC is first drawn
    agree(strict)


def test_base_relative_k_on_a_only_when_base_is_not_a() -> None:
    s = deal(tableau_wrap="base-relative", reserve=["KS"], base="7C", tableau=["AH", "2C"])
    assert "KS>t1" in s.legal_moves()
    s = deal(tableau_wrap="base-relative", reserve=["KS"], base="AC", tableau=["AH", "2C"])
    refuse(s, "KS>t1", "KS cannot go on AH: no building across the base rank A")
    # Nor on any other card: the reason no longer asks for "a red A", refused as well.
    s = deal(tableau_wrap="base-relative", reserve=["KS"], base="AC", tableau=["2H", "2C"])
    refuse(s, "KS>t1", "KS cannot go on 2H: no building across the base rank A")


# ------------------------------------------------------------------ 3.4


def whole_pile_deal(**options: Any) -> GameState:
    return deal(
        reserve=["JC", "QC"],
        base="AC",
        tableau=["5H", "6S", "7D", "KH"],
        stock=["2D", "3S", "4D"],
        **options,
    )


def test_3_4_top_card_then_whole_pile_with_autofill() -> None:
    s = whole_pile_deal()
    s.play("5H>t2")  # top card onto 6S; t1 empties and is filled from the reserve
    lay = layout_dict(s)
    assert lay["tableau"] == [["QC"], ["6S", "5H"], ["7D"], ["KH"]]
    assert lay["reserve"][-1] == "JC"
    assert len(lay["reserve"]) == 12
    s.play("6S>t3")  # the whole pile: its bottom card 6S fits on 7D
    lay = layout_dict(s)
    assert lay["tableau"] == [["QC"], ["JC"], ["7D", "6S", "5H"], ["KH"]]
    assert len(lay["reserve"]) == 11
    agree(s)


def test_3_4_part_of_a_pile_never_moves() -> None:
    s = whole_pile_deal()
    s.play("5H>t2")
    s.play("6S>t3")
    refuse(
        s,
        "6S>t4",
        "6S is neither the top nor the bottom card of t3: part of a pile never moves",
    )
    refuse(s, "7D>f", "7D is not the top card of t3: only a pile's top card goes to a foundation")
    refuse(s, "5H>t3", "5H is already on t3")


def test_tableau_moves_whole_pile_option() -> None:
    s = whole_pile_deal(tableau_moves="whole-pile")
    s.play("5H>t2")  # a one-card pile is a whole pile
    assert s.to_dict()["tableau"][1] == ["6S", "5H"]
    # The top card of a longer pile may not move to another pile ...
    s2 = position(
        base_rank="4",
        home={"H": 1},
        tableau=[["6S", "5H"], ["6C"], ["9D"], ["KD"]],
        tableau_moves="whole-pile",
        leftovers="reserve",
    )
    refuse(
        s2,
        "5H>t2",
        "5H is not the bottom card of t1: only whole piles move between tableau piles",
    )
    # ... but it may still go to its foundation.
    assert "5H>f" in s2.legal_moves()
    agree(s2)
    assert (
        "5H>t2"
        in position(
            base_rank="4",
            home={"H": 1},
            tableau=[["6S", "5H"], ["6C"], ["9D"], ["KD"]],
            leftovers="reserve",
        ).legal_moves()
    )


def test_tableau_moves_any_run_option() -> None:
    piles = [["9S", "8H", "7C", "6D"], ["8D"], ["QS"], ["KD"]]
    s = position(base_rank="A", tableau=piles, tableau_moves="any-run", leftovers="reserve")
    assert "7C>t2" in s.legal_moves()
    s.play("7C>t2")
    assert s.to_dict()["tableau"][:2] == [["9S", "8H"], ["8D", "7C", "6D"]]
    agree(s)
    classic = position(base_rank="A", tableau=piles, leftovers="reserve")
    refuse(classic, "7C>t2")


# ------------------------------------------------------------------ 3.5


def test_3_5_reserve_top_to_foundation_and_tableau_then_next_turns_up() -> None:
    s = deal(reserve=["9D", "6S", "5S"], base="5C", tableau=["7H", "KC", "2D", "3H"])
    view = player_view(s)
    assert view["reserve"] == {"count": 13, "face_down": 12, "cards": ["5S"]}
    s.play("5S>f")
    assert player_view(s)["reserve"]["cards"] == ["6S"]
    s.play("6S>t1")
    assert player_view(s)["reserve"] == {"count": 11, "face_down": 10, "cards": ["9D"]}


# ------------------------------------------------------------------ 3.6


def test_3_6_draw_three_and_a_short_last_draw() -> None:
    s = new_game("classic", seed="12345")
    stock = s.to_dict()["stock"]
    assert len(stock) == 34
    for _ in range(11):
        s.play("draw")
    assert len(s.stock) == 1
    assert s.to_dict()["waste"] == stock[:33]
    s.play("draw")  # fewer than three remain: one is turned
    assert s.to_dict()["waste"] == stock
    assert s.stock == []
    assert s.legal_moves()[-1] == "redeal"
    refuse(s, "draw", "stock is empty: redeal first")
    s.play("redeal")
    assert s.to_dict()["stock"] == stock  # same order, not shuffled
    assert s.waste == []
    refuse(s, "redeal", "stock is not empty: redeal only when the stock is empty")
    s.play("draw")
    assert s.to_dict()["waste"] == stock[:3]


def test_3_6_stock_of_two_cards() -> None:
    s = position(
        base_rank="A",
        home={"C": 13, "D": 13, "H": 12},
        tableau=[["QS"], ["JS"], ["TS"], ["9S"]],
        stock=["2S", "KH"],
        waste=["AS"],
        leftovers="reserve",
    )
    s.play("draw")
    assert s.to_dict()["waste"] == ["AS", "2S", "KH"]
    assert s.stock == []
    s.undo()
    assert s.to_dict()["stock"] == ["2S", "KH"]


def test_draw_one_option() -> None:
    s = new_game("draw-one", seed="12345")
    stock = s.to_dict()["stock"]
    s.play("draw")
    assert s.to_dict()["waste"] == stock[:1]
    s = new_game("classic", seed="12345", draw=1)
    s.play("draw")
    s.play("draw")
    assert s.to_dict()["waste"] == stock[:2]


def run_out(s: GameState) -> None:
    while s.stock:
        s.play("draw")


@pytest.mark.parametrize(("preset", "allowed"), [("one-pass", 0), ("rainbow", 0)])
def test_no_redeal_presets(preset: str, allowed: int) -> None:
    s = new_game(preset, seed="777")
    run_out(s)
    assert "redeal" not in s.legal_moves()
    assert "draw" not in s.legal_moves()
    assert s.redeals_left == 0
    refuse(s, "redeal", f"no redeals left (this game allows {allowed})")
    refuse(s, "draw", "stock is empty and no redeals left")


def test_two_redeals() -> None:
    s = new_game("classic", seed="777", redeals=2)
    for used in range(2):
        run_out(s)
        assert s.redeals_left == 2 - used
        s.play("redeal")
    run_out(s)
    assert s.redeals_left == 0
    refuse(s, "redeal", "no redeals left (this game allows 2)")
    assert s.redeals_used == 2


def test_unlimited_redeals() -> None:
    s = new_game("classic", seed="777")
    for _ in range(6):
        run_out(s)
        s.play("redeal")
    assert s.redeals_used == 6
    assert s.redeals_left is None


def test_nothing_to_draw_or_redeal() -> None:
    s = position(
        base_rank="A",
        home={"C": 13, "D": 13, "H": 12},
        tableau=[["QS"], ["JS"], ["TS"], ["9S"]],
        leftovers="reserve",
    )
    refuse(s, "draw", "stock and waste are empty: there is nothing to draw")
    refuse(s, "redeal", "waste is empty: there is nothing to redeal")


# ------------------------------------------------------------------ 3.7


def test_3_7_reserve_runs_out_then_empty_pile_stays_empty() -> None:
    s = position(
        base_rank="3",
        home={"H": 1},
        reserve=["9C"],
        tableau=[["4H"], ["KS"], ["QD"], ["8C"]],
        stock=["JH", "2C", "TC"],
    )
    s.play("4H>f")  # t1 empties: the last reserve card fills it
    assert s.to_dict()["tableau"][0] == ["9C"]
    assert s.reserve == []
    s.play("QD>t2")  # t3 empties and stays empty
    assert s.to_dict()["tableau"] == [["9C"], ["KS", "QD"], [], ["8C"]]
    moves = s.legal_moves()
    # Any available card or whole pile may fill it.
    for m in ("9C>t3", "KS>t3", "QD>t3", "8C>t3"):
        assert m in moves
    s.play("draw")
    assert "TC>t3" in s.legal_moves()
    s.play("KS>t3")
    assert s.to_dict()["tableau"] == [["9C"], [], ["KS", "QD"], ["8C"]]
    agree(s)


def test_empty_pile_waste_only_option() -> None:
    s = position(
        base_rank="3",
        home={"H": 1},
        reserve=[],
        tableau=[["9C"], ["KS", "QD"], [], ["8C"]],
        stock=["JH", "2C", "TC"],
        empty_pile="waste-only",
    )
    msg = "t3 is empty: only the waste top may fill an empty pile"
    refuse(s, "9C>t3", msg)
    refuse(s, "KS>t3", msg)
    refuse(s, "QD>t3", msg)
    s.play("draw")
    assert [m for m in s.legal_moves() if m.endswith("t3")] == ["TC>t3"]
    s.play("TC>t3")
    agree(s)


def test_empty_pile_with_reserve_left_is_filled_by_reserve_only() -> None:
    # Not reachable under autofill (the reserve fills a pile at once), but a
    # stored position may hold it: nothing else may go there.
    s = position(
        base_rank="3",
        reserve=["9C", "5D"],
        tableau=[["9H"], ["KS"], [], ["8C"]],
        waste=["TC"],
        stock=["2C"],
    )
    refuse(s, "TC>t3", "t3 is empty: the reserve fills it")


def test_autofill_is_part_of_the_move_and_undone_with_it() -> None:
    s = whole_pile_deal()
    before = s.to_dict()
    s.play("5H>t2")
    assert len(s.history) == 1
    s.undo()
    assert s.to_dict() == before


# ------------------------------------------------------------------ presets


def test_superior_reserve_visible_and_free_spaces() -> None:
    s = deal("superior", reserve=["4D", "QC"], base="AC", tableau=["5H", "6S", "7D", "KH"])
    view = player_view(s)
    assert view["reserve"]["cards"] == s.to_dict()["reserve"]
    assert view["reserve"]["face_down"] == 0
    assert len(view["reserve"]["cards"]) == 13
    s.play("5H>t2")  # no auto-fill
    assert s.to_dict()["tableau"][0] == []
    assert len(s.reserve) == 13
    moves = s.legal_moves()
    assert "QC>t1" in moves  # the reserve top may fill the space ...
    assert "7D>t1" in moves  # ... or a tableau card or whole pile
    assert "6S>t1" in moves
    s.play("draw")
    assert s.to_dict()["waste"][-1] + ">t1" in s.legal_moves()  # ... or the waste top
    agree(s)


def test_rainbow_any_colour_building() -> None:
    s = deal("rainbow", reserve=["5H"], base="AC", tableau=["6H", "6D", "6C", "7S"])
    moves = s.legal_moves()
    for m in ("5H>t1", "5H>t2", "5H>t3", "6H>t4", "6D>t4", "6C>t4"):
        assert m in moves
    assert s.rules.draw == 1
    assert s.rules.redeals == 0
    classic = deal(reserve=["5H"], base="AC", tableau=["6H", "6D", "6C", "7S"])
    refuse(classic, "5H>t1", "5H cannot go on 6H: needs a black 6")
    refuse(classic, "6H>t2", "6H cannot go on 6D: needs a black 7")
    any_suit = deal(build="any-suit", reserve=["5H"], base="AC", tableau=["6H", "9D", "6C", "7S"])
    refuse(any_suit, "5H>t2", "5H cannot go on 9D: needs a 6")


def test_storehouse_same_suit_twos_and_draw_one() -> None:
    s = deal("storehouse", reserve=["5S"], tableau=["6S", "6H", "3C", "KD"], stock=["QD", "4H"])
    lay = layout_dict(s)
    assert lay["foundations"] == {x: ["2" + x] for x in "CDHS"}
    assert lay["base_rank"] == "2"
    assert len(lay["reserve"]) + 4 + len(lay["stock"]) == 48
    assert len(lay["stock"]) == 31
    assert s.cards_home == 4
    assert s.casino_score == -32
    moves = s.legal_moves()
    assert "5S>t1" in moves
    assert "3C>f" in moves
    refuse(s, "5S>t2", "5S cannot go on 6H: needs the 6S")
    s.play("draw")
    assert s.to_dict()["waste"] == ["QD"]
    assert "QD>t4" in s.legal_moves()
    assert s.rules.redeals == 2
    agree(s)


def test_fixed_base_option_on_classic() -> None:
    s = new_game("classic", seed="5", base="K")
    lay = layout_dict(s)
    assert lay["foundations"] == {x: ["K" + x] for x in "CDHS"}
    assert all(c[0] != "K" for c in lay["reserve"] + lay["stock"])
    assert len(lay["stock"]) == 31


def test_same_suit_k_on_a_wrap() -> None:
    s = deal("storehouse", reserve=["KS"], tableau=["AS", "AH", "3C", "9D"])
    assert "KS>t1" in s.legal_moves()
    refuse(s, "KS>t2", "KS cannot go on AH: needs the AS")


# ------------------------------------------------------------------ 3.8


def test_3_8_every_refusal_changes_nothing() -> None:
    s = new_game("classic", seed="42")
    s.play("draw")
    legal = set(s.legal_moves())
    for move in reference.all_card_moves():
        if move not in legal:
            refuse(s, move)
    assert len(s.history) == 1


# ------------------------------------------------------------------ 3.9


def blocked_position(**kw: Any) -> GameState:
    """Hearts/spades left, heart tops, a harmless KH on the reserve: only draws matter."""
    base: dict[str, Any] = {
        "base_rank": "A",
        "home": {"C": 13, "D": 13},
        "reserve": ["KH"],
        "tableau": [["9H"], ["7H"], ["5H"], ["3H"]],
        "leftovers": "reserve",
    }
    base.update(kw)
    return position(**base)


def test_3_9_blocked_when_nothing_reachable_plays() -> None:
    s = blocked_position(stock=["TS", "QS", "KS", "JH", "QH"], waste=["2H"])
    assert set(s.legal_moves()) == {"draw"}
    assert s.status() == "blocked"
    assert reference.status(s.to_dict()) == "blocked"


def test_3_9_not_blocked_when_a_later_draw_plays() -> None:
    s = blocked_position(stock=["TS", "QS", "KS", "JH", "8S", "QH"], draw=1)
    assert s.legal_moves() == ["draw"]
    assert s.status() == "playing"  # 8S on 9H after five draws
    agree(s)


def test_3_9_draw_three_never_exposes_a_middle_card() -> None:
    s = blocked_position(stock=["TS", "QS", "KS", "JH", "8S", "QH"])
    assert s.status() == "blocked"  # 8S is never the waste top with draw 3
    agree(s)
    s = blocked_position(stock=["TS", "QS", "8S"], redeals=0)
    assert s.status() == "playing"  # 8S is the third card: turned up
    agree(s)


@pytest.mark.parametrize(
    ("options", "used", "expected"),
    [
        ({"redeals": 0}, 0, "blocked"),
        ({"redeals": None}, 0, "playing"),
        ({"redeals": 1}, 1, "blocked"),
        ({"redeals": 2}, 1, "playing"),
    ],
)
def test_3_9_blocked_depends_on_redeals_left(
    options: dict[str, Any], used: int, expected: str
) -> None:
    s = blocked_position(waste=["8S", "KS"], redeals_used=used, draw=1, **options)
    assert s.status() == expected  # 8S turns up again only after a redeal
    agree(s)
    assert s.legal_moves() == (["redeal"] if s.redeals_left != 0 else [])


def test_3_9_draw_three_redeal_turns_both_cards_at_once() -> None:
    # After a redeal, one draw of three turns 8S and KS together: KS stays on top.
    s = blocked_position(waste=["8S", "KS"])
    assert s.legal_moves() == ["redeal"]
    assert s.status() == "blocked"
    agree(s)


def test_3_9_won() -> None:
    s = position(base_rank="A", home={"C": 13, "D": 13, "S": 13, "H": 12}, waste=["KH"])
    assert s.status() == "playing"
    s.play("KH>f")
    assert s.status() == "won"
    assert s.legal_moves() == []
    assert s.cards_home == 52
    assert s.casino_score == 208
    assert player_view(s)["status"] == "won"


@pytest.mark.parametrize("how", ["resigned", "timed_out"])
def test_3_9_resign_and_timeout(how: str) -> None:
    s = new_game("classic", seed="3")
    s.play("draw")
    s.end(how)
    assert s.status() == how
    assert s.legal_moves() == []
    with pytest.raises(GameOverError) as exc:
        s.play("draw")
    assert exc.value.code == "game_over"
    with pytest.raises(GameOverError):
        s.undo()
    s.end("resigned" if how == "timed_out" else "timed_out")
    assert s.status() == how  # the first ending stays
    assert GameState.from_json(s.to_json()).status() == how


def test_end_rejects_other_values() -> None:
    with pytest.raises(ValueError, match="resigned, timed_out"):
        new_game(seed="3").end("won")


# ------------------------------------------------------------------ scoring


def test_scores_at_start() -> None:
    s = new_game("classic", seed="12345")
    assert s.cards_home == 1
    assert s.casino_score == -47
    assert player_view(s)["casino_score"] == -47


# ------------------------------------------------------------------ 7: hidden information


def test_hidden_card_refusals_are_identical() -> None:
    s = new_game("classic", seed="12345")
    d = s.to_dict()
    face_down = d["reserve"][0]
    in_stock = d["stock"][5]
    for dest in ("f", "t1", "t2"):
        with pytest.raises(IllegalMoveError) as a:
            s.play(f"{face_down}>{dest}")
        with pytest.raises(IllegalMoveError) as b:
            s.play(f"{in_stock}>{dest}")
        # Identical, and neither names the hidden card (RULES.md 7).
        assert a.value.reason == b.value.reason
        assert face_down not in a.value.reason
        assert in_stock not in b.value.reason


def test_player_view_never_shows_hidden_cards() -> None:
    for seed in ("1", "2", "42", "12345", "game-7"):
        s = new_game("classic", seed=seed)
        for step in range(40):
            d = s.to_dict()
            hidden = d["reserve"][:-1] + d["stock"]
            text = json.dumps(player_view(s))
            for card in hidden:
                assert card not in text, (seed, step, card)
            view = player_view(s)
            assert view["stock"] == {"count": len(d["stock"])}
            assert view["reserve"]["face_down"] == max(0, len(d["reserve"]) - 1)
            moves = s.legal_moves()
            s.play(moves[step % len(moves)])


def test_new_game_defaults() -> None:
    s = new_game()
    assert s.rules == new_game("classic", seed="1").rules


def _autofill_move(prefix: str = "af") -> tuple[str, str]:
    """The first classic seed ``{prefix}-N`` with a move at the deal that empties a
    tableau pile (which the reserve then fills): ``(seed, move)``."""
    from games.engine import new_game

    for n in range(3000):
        state = new_game("classic", seed=f"{prefix}-{n}")
        for move in state.legal_moves():
            if ">" not in move:
                continue
            card = move.split(">")[0]
            if any(pile == [card] for pile in state.to_dict()["tableau"]):
                return f"{prefix}-{n}", move
    raise AssertionError("no such seed")


def test_last_autofill_names_the_pile_and_the_reserve_card() -> None:
    """RULES.md 3.7: the reserve's top card fills a pile the move emptied, as part of it."""
    from games.engine import new_game

    seed, move = _autofill_move()
    state = new_game("classic", seed=seed)
    reserve_top = state.to_dict()["reserve"][-1]
    card = move.split(">")[0]
    pile = next(i for i, p in enumerate(state.to_dict()["tableau"], 1) if p == [card])
    assert state.last_autofill() is None  # nothing played yet
    state.play(move)
    assert state.last_autofill() == (pile, reserve_top)
    assert state.to_dict()["tableau"][pile - 1] == [reserve_top]
    state.play("draw")
    assert state.last_autofill() is None  # the last move filled nothing


def test_last_draw_names_the_cards_turned_onto_the_waste() -> None:
    """RULES.md 3.6: draw turns the next three cards (fewer when fewer remain); the last
    one turned is the waste's top card.  Seed 7's stock turns 7H 5D JS first and, 34
    cards being 11 draws of three and one more, KS alone at the twelfth draw."""
    state = new_game("classic", seed="7")
    assert state.last_draw() is None  # nothing played yet
    state.play("draw")
    assert state.last_draw() == ["7H", "5D", "JS"]
    assert state.to_dict()["waste"][-1] == "JS"
    for _ in range(10):
        state.play("draw")
    assert state.last_draw() == ["3D", "9H", "6D"]
    state.play("draw")
    assert state.last_draw() == ["KS"]  # the last card of the stock, alone
    state.play("KH>t2")
    assert state.last_draw() is None  # the last move drew nothing
    state.undo()
    assert state.last_draw() == ["KS"]  # the draw before it is the last move again
    state.play("redeal")
    assert state.last_draw() is None
    one = new_game("draw-one", seed="7")
    one.play("draw")
    assert one.last_draw() == ["7H"]
    assert GameState.from_dict(one.to_dict()).last_draw() is None  # no history loaded
