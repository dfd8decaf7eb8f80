"""004 § Barrage Rounds & Activation Point Charts Examples (chart pg. 13),
FAQ 44 Malta Scenario and House Rules/Clarifications for Malta, FAQ 45 variant 1
(carry-over, 20-point cap), § Unit Type Capabilities C Ops (10 points lost).
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.dice import DiceKind, ScriptedDice, SeededDice
from rules_engine.great_battles.barrage import BarrageOrder
from rules_engine.great_battles.campaign_pools import (
    C_OPS_OVERRUN_POINTS_LOST,
    MALTA,
    BarrageRoundsInput,
    BarrageTurnInput,
    CarryOverInput,
    MaltaAirSupportInput,
    MaltaBarrageOrdersInput,
    MaltaCarryOverInput,
    MaltaDayEndInput,
    MaltaReserveInput,
    MaltaSide,
    carry_over_score,
    gain_points,
    lookup_barrage_rounds,
    lookup_barrage_turn_limit,
    lookup_malta_barrage_orders,
    lose_points,
    roll_carry_over,
    roll_malta_air_support,
    roll_malta_carry_over,
    roll_malta_day_end,
    roll_malta_reserve_delay,
)
from rules_engine.results import Comparison

# --- barrage rounds -----------------------------------------------------------------


def test_worked_example_15_rounds_plus_5_a_day_3_fired():
    ledger = lookup_barrage_rounds(BarrageRoundsInput(15, 5, spent_by_day=(3,)))
    assert ledger.days[0].at_dawn == 15
    assert ledger.days[0].carried_over == 12
    assert ledger.next_dawn == 17  # rounds are not lost at the end of the day


def test_rounds_carry_over_across_several_days():
    ledger = lookup_barrage_rounds(BarrageRoundsInput(15, 5, spent_by_day=(15, 0, 5)))
    assert [d.at_dawn for d in ledger.days] == [15, 5, 10]
    assert ledger.next_dawn == 10


def test_cannot_fire_more_rounds_than_held():
    with pytest.raises(ValueError, match="16 rounds spent but 15 available"):
        lookup_barrage_rounds(BarrageRoundsInput(15, 5, spent_by_day=(16,)))


def test_ten_templates_fire_at_most_ten_rounds_a_turn():
    assert lookup_barrage_turn_limit(BarrageTurnInput(10, 0, rounds_left=15)).most_rounds_this_turn == 10
    limit = lookup_barrage_turn_limit(BarrageTurnInput(10, templates_done_today=4, rounds_left=15))
    assert (limit.templates_available, limit.most_rounds_this_turn) == (6, 6)
    assert lookup_barrage_turn_limit(BarrageTurnInput(10, 0, rounds_left=3)).most_rounds_this_turn == 3


# --- activation points gained and lost ------------------------------------------------


def test_pool_capped_at_20():
    change = gain_points(18, 4)
    assert (change.after, change.lost_to_cap) == (20, 2)
    assert gain_points(18, 4, cap=None).after == 22


def test_c_ops_overrun_loses_10_points_not_below_zero():
    assert C_OPS_OVERRUN_POINTS_LOST == 10
    assert lose_points(12, C_OPS_OVERRUN_POINTS_LOST).after == 2
    assert lose_points(6, C_OPS_OVERRUN_POINTS_LOST).after == 0


# --- Malta ---------------------------------------------------------------------------


def test_malta_worked_example_end_of_day_2_axis_6_allied_5():
    axis = MALTA.sides[MaltaSide.AXIS]
    allied = MALTA.sides[MaltaSide.ALLIED]
    assert carry_over_score(axis.carry_over_base, axis.carry_over_shift_per_day, 2) == 6
    assert carry_over_score(allied.carry_over_base, allied.carry_over_shift_per_day, 2) == 5
    axis_roll = roll_malta_carry_over(MaltaCarryOverInput(MaltaSide.AXIS, 1, 2), ScriptedDice([6]))
    allied_roll = roll_malta_carry_over(MaltaCarryOverInput(MaltaSide.ALLIED, 1, 2), ScriptedDice([6]))
    assert axis_roll.score_needed == 6
    assert axis_roll.carried == 1
    assert allied_roll.score_needed == 5
    assert allied_roll.carried == 0


def test_malta_printed_numbers():
    assert MALTA.sides[MaltaSide.AXIS].starting_points == 8
    assert MALTA.sides[MaltaSide.ALLIED].starting_points == 3
    assert MALTA.points_per_port == 2
    assert MALTA.air_support_at_most == 3
    assert MALTA.day_end_turns == (7, 8, 9, 10)
    assert MALTA.entrench_action_points == 5


@pytest.mark.parametrize(
    ("side", "day", "score"),
    [(MaltaSide.AXIS, d, 8 - d) for d in range(1, 7)] + [(MaltaSide.ALLIED, d, 3 + d) for d in range(1, 7)],
)
def test_malta_carry_over_score_each_day(side, day, score):
    result = roll_malta_carry_over(MaltaCarryOverInput(side, 2, day), ScriptedDice([1, 10]))
    assert result.score_needed == score
    assert [r.threshold for r in result.rolls] == [score, score]
    assert result.carried == (1 if score < 10 else 2)


def test_carry_over_one_roll_per_point_and_cap():
    result = roll_carry_over(CarryOverInput(22, 1, 20, 0), ScriptedDice([1] * 22))
    assert len(result.rolls) == 22
    assert (result.carried, result.lost_to_cap) == (20, 2)


@pytest.mark.parametrize(("face", "received"), [(1, True), (3, True), (4, False), (10, False)])
def test_malta_air_support_on_3_or_less(face, received):
    result = roll_malta_air_support(MaltaAirSupportInput(MaltaSide.ALLIED), ScriptedDice([face]))
    assert result.outcome is received
    assert result.threshold == 3


@pytest.mark.parametrize(
    ("turn", "face", "over"),
    [(7, 7, True), (7, 6, False), (8, 10, True), (9, 8, False), (10, 10, True), (10, 9, False)],
)
def test_malta_day_end_roll_at_least_turn(turn, face, over):
    result = roll_malta_day_end(MaltaDayEndInput(turn), ScriptedDice([face]))
    assert result is not None
    assert result.outcome is over
    assert result.comparison is Comparison.AT_LEAST


def test_malta_no_day_end_roll_before_turn_7():
    assert roll_malta_day_end(MaltaDayEndInput(6), ScriptedDice([])) is None


@pytest.mark.parametrize(
    ("faces", "turns"),
    [((1, 1), 6), ((2, 2), 4), ((5, 5), 10), ((6, 6), 8), ((3, 4), 7)],
)
def test_malta_reserve_average_dice(faces, turns):
    result = roll_malta_reserve_delay(MaltaReserveInput("Axis reserve"), ScriptedDice(list(faces)))
    assert result.outcome == turns
    assert all(r.kind is DiceKind.AVERAGE_D6 for r in result.rolls)


@given(st.integers(0, 10_000))
def test_malta_reserve_always_4_to_10_turns(seed):
    result = roll_malta_reserve_delay(MaltaReserveInput(), SeededDice(seed))
    assert 4 <= result.outcome <= 10
    assert result.outcome == result.score


def test_malta_axis_on_call_only_on_day_1():
    assert lookup_malta_barrage_orders(MaltaBarrageOrdersInput(MaltaSide.AXIS, 1)) == (BarrageOrder.ON_CALL,)
    assert set(lookup_malta_barrage_orders(MaltaBarrageOrdersInput(MaltaSide.AXIS, 2))) == set(BarrageOrder)
    assert set(lookup_malta_barrage_orders(MaltaBarrageOrdersInput(MaltaSide.ALLIED, 1))) == set(BarrageOrder)


_carry = st.builds(
    CarryOverInput,
    points=st.integers(0, 25),
    day_ending=st.integers(1, 10),
    base_score=st.integers(0, 10),
    shift_per_day=st.sampled_from((-1, 1)),
)


@given(_carry, st.text(min_size=1, max_size=6))
def test_carry_over_same_seed_same_result(inputs, seed):
    assert roll_carry_over(inputs, SeededDice(seed)) == roll_carry_over(inputs, SeededDice(seed))


@given(_carry, st.integers(0, 10_000))
def test_carry_over_within_range(inputs, seed):
    result = roll_carry_over(inputs, SeededDice(seed))
    assert len(result.rolls) == inputs.points
    assert 0 <= result.carried <= min(inputs.points, 20)
    for r in result.rolls:
        assert r.score == r.natural
        assert r.succeeded is r.outcome
