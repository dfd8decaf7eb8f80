"""003 § Battlefield segment simulator, § chart & modifiers, § Initiative modifiers,
§ Sequence of play — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import BattlefieldCondition, Side, TieRule, band_for
from rules_engine.panzer_korps.day_segments import (
    CO_LEADER_VALUES,
    DAY_SEGMENTS,
    INITIATIVE_MODIFIERS,
    SEQUENCE_OF_PLAY,
    TURNS_PER_SEGMENT,
    InitiativeInput,
    Phase,
    Rounding,
    SegmentRule,
    SegmentTurnsInput,
    co_average_modifier,
    roll_initiative,
    roll_segment_turns,
)
from rules_engine.vocab import DaySegment, LeaderRating

L = LeaderRating

# Modified d6 → turns, as printed: 7+ = 4, 5-6 = 3, 3-4 = 2, 0-2 = 1, -1 or less = 0.
TURNS = [(-5, 0), (-1, 0), (0, 1), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 4), (12, 4)]


@pytest.mark.parametrize(("score", "turns"), TURNS)
def test_turns_chart_every_cell(score, turns):
    assert band_for(TURNS_PER_SEGMENT, score).value == turns


@pytest.mark.parametrize(
    ("rating", "value"),
    [(L.A, 4), (L.B, 3), (L.C, 2), (L.D, 1), (L.E, 0), (L.F, -1), (L.G, -2), (L.H, -3)],
)
def test_co_leader_values(rating, value):
    assert CO_LEADER_VALUES[rating] == value
    assert co_average_modifier((rating,), Rounding.HALF_UP) == value


@pytest.mark.parametrize(
    ("ratings", "rounding", "expected"),
    [
        ((L.A, L.B), Rounding.HALF_UP, 4),  # 3.5
        ((L.A, L.B), Rounding.DOWN, 3),
        ((L.A, L.B), Rounding.UP, 4),
        ((L.A, L.B), Rounding.TOWARD_ZERO, 3),
        ((L.F, L.G), Rounding.HALF_UP, -1),  # -1.5
        ((L.F, L.G), Rounding.DOWN, -2),
        ((L.F, L.G), Rounding.TOWARD_ZERO, -1),
        ((L.A, L.C, L.E), Rounding.HALF_UP, 2),  # 2
        ((L.A, L.E, L.E), Rounding.HALF_UP, 1),  # 1.33
    ],
)
def test_co_average_rounding(ratings, rounding, expected):
    assert co_average_modifier(ratings, rounding) == expected


def _modifier_map(result):
    return {m.name: m.value for m in result.turns_roll.modifiers}


@pytest.mark.parametrize(
    ("kwargs", "name", "value"),
    [
        ({"air_superiority": True}, "air superiority", 1),
        ({"conditions": (BattlefieldCondition.RAIN,)}, "rain, sand, mud", -1),
        ({"conditions": (BattlefieldCondition.SAND,)}, "rain, sand, mud", -1),
        ({"conditions": (BattlefieldCondition.MUD,)}, "rain, sand, mud", -1),
        ({"conditions": (BattlefieldCondition.SNOW,)}, "snow, fog, ice, marsh", -2),
        ({"conditions": (BattlefieldCondition.FOG,)}, "snow, fog, ice, marsh", -2),
        ({"conditions": (BattlefieldCondition.ICE,)}, "snow, fog, ice, marsh", -2),
        ({"conditions": (BattlefieldCondition.MARSH,)}, "snow, fog, ice, marsh", -2),
        ({"out_of_supply": True}, "out of supply", -1),
        ({"battle_day": 2}, "second or successive day", -1),
        ({"battle_day": 3}, "second or successive day", -1),
        ({"arrived_day_before": True}, "arrived the day before", 1),
        ({"reservist_or_worse_percent": 60}, "60%+ reservists or worse", -1),
    ],
)
def test_other_modifiers_each_cell(kwargs, name, value):
    inputs = SegmentTurnsInput(DaySegment.MIDDAY, (L.E,), **kwargs)
    result = roll_segment_turns(inputs, ScriptedDice([4]))
    assert _modifier_map(result) == {name: value}
    assert result.turns_roll.score == 4 + value


def test_modifiers_not_applied_below_their_thresholds():
    inputs = SegmentTurnsInput(DaySegment.MIDDAY, (L.E,), battle_day=1, reservist_or_worse_percent=59)
    assert _modifier_map(roll_segment_turns(inputs, ScriptedDice([4]))) == {}


def test_condition_lines_stack_once_each():
    conditions = (BattlefieldCondition.RAIN, BattlefieldCondition.MUD, BattlefieldCondition.SNOW)
    result = roll_segment_turns(
        SegmentTurnsInput(DaySegment.MORNING, (L.C,), conditions=conditions), ScriptedDice([6])
    )
    assert _modifier_map(result) == {
        "CO average (Inspirational)": 2,
        "rain, sand, mud": -1,
        "snow, fog, ice, marsh": -2,
    }
    assert result.turns == 3  # 6 + 2 - 3 = 5


def test_full_turns_roll_line():
    inputs = SegmentTurnsInput(DaySegment.AFTERNOON, (L.A, L.C), air_superiority=True)
    result = roll_segment_turns(inputs, ScriptedDice([4]))
    assert result.turns == 4  # 4 + 3 + 1 = 8
    assert result.turns_roll.line() == (
        "Turns per segment, afternoon: d6 [4] = 4 +3 CO average (Legendary, Inspirational) "
        "+1 air superiority = 8 [7+] → 4 turns"
    )


def test_zero_turns_means_roll_next_segment():
    result = roll_segment_turns(
        SegmentTurnsInput(DaySegment.MORNING, (L.H,), out_of_supply=True), ScriptedDice([2])
    )
    assert result.turns == 0
    assert "roll next segment" in result.turns_roll.outcome_text


@pytest.mark.parametrize(
    ("segment", "hours"),
    [
        (DaySegment.EARLY_MORNING, "6am-8am"),
        (DaySegment.MORNING, "8am-10am"),
        (DaySegment.LATE_MORNING, "10am-12 noon"),
        (DaySegment.MIDDAY, "12 noon-2pm"),
        (DaySegment.AFTERNOON, "2pm-4pm"),
        (DaySegment.EVENING, "4pm-6pm"),
        (DaySegment.DUSK, "6pm-8pm"),
        (DaySegment.NIGHT, "8pm-12am"),
        (DaySegment.NIGHT_SEGMENT, "12am-6am"),
    ],
)
def test_segment_hours(segment, hours):
    assert DAY_SEGMENTS[segment].hours == hours


def test_segment_special_rules():
    assert DAY_SEGMENTS[DaySegment.EARLY_MORNING].rules == {SegmentRule.FOG_AND_VISIBILITY}
    assert DAY_SEGMENTS[DaySegment.EARLY_MORNING].start_must_be_forced
    for plain in (DaySegment.MORNING, DaySegment.LATE_MORNING, DaySegment.MIDDAY, DaySegment.AFTERNOON):
        assert DAY_SEGMENTS[plain].rules == frozenset()
    assert DAY_SEGMENTS[DaySegment.EVENING].rules == frozenset()
    assert DAY_SEGMENTS[DaySegment.DUSK].rules == {SegmentRule.VISIBILITY}
    assert DAY_SEGMENTS[DaySegment.NIGHT].rules == {
        SegmentRule.NIGHT_RULES,
        SegmentRule.WITHDRAWAL_LOSES_CAPTURED_EQUIPMENT,
    }
    night = DAY_SEGMENTS[DaySegment.NIGHT_SEGMENT]
    assert night.fixed_turns == 1
    assert {
        SegmentRule.NIGHT_AIRCRAFT_ONLY,
        SegmentRule.FAILED_COMMAND_REMOVED,
        SegmentRule.DOUBLE_MOVE_BEYOND_6_INCHES,
    } <= night.rules


def test_night_segment_is_one_turn_without_dice():
    dice = ScriptedDice([])
    result = roll_segment_turns(SegmentTurnsInput(DaySegment.NIGHT_SEGMENT), dice)
    assert result.turns == 1
    assert result.roll_results() == ()


def test_night_rolls_turns_with_night_rules():
    result = roll_segment_turns(SegmentTurnsInput(DaySegment.NIGHT, (L.D,)), ScriptedDice([3]))
    assert result.turns == 2
    assert SegmentRule.NIGHT_RULES in result.rules


@pytest.mark.parametrize(
    ("face", "starts"), [(1, False), (2, False), (3, False), (4, True), (5, True), (6, True)]
)
@pytest.mark.parametrize("commander", [L.A, L.B, L.C])
def test_early_morning_forced_start_faces(commander, face, starts):
    dice = ScriptedDice([face, 6] if starts else [face])
    result = roll_segment_turns(
        SegmentTurnsInput(DaySegment.EARLY_MORNING, (L.E,), forcing_commander=commander), dice
    )
    assert result.start_roll.outcome is starts
    assert (result.turns_roll is not None) is starts
    assert result.turns == (3 if starts else 0)
    assert SegmentRule.FOG_AND_VISIBILITY in result.rules


@pytest.mark.parametrize("commander", [None, L.D, L.E, L.F, L.G, L.H])
def test_early_morning_needs_an_a_to_c_commander(commander):
    dice = ScriptedDice([])
    result = roll_segment_turns(
        SegmentTurnsInput(DaySegment.EARLY_MORNING, (L.A,), forcing_commander=commander), dice
    )
    assert result.turns == 0
    assert result.roll_results() == ()


def test_turns_roll_needs_a_co():
    with pytest.raises(ValueError, match="at least one CO"):
        roll_segment_turns(SegmentTurnsInput(DaySegment.MORNING), ScriptedDice([3]))


@pytest.mark.parametrize(
    ("rating", "value"),
    [(L.A, 3), (L.B, 2), (L.C, 1), (L.D, 0), (L.E, 0), (L.F, -1), (L.G, -2), (L.H, -3)],
)
def test_initiative_modifiers(rating, value):
    assert INITIATIVE_MODIFIERS[rating] == value
    result = roll_initiative(InitiativeInput(rating, L.E), ScriptedDice([3, 3, 4, 1]))
    first = result.throws[0]
    assert first.score == 3 + value


def test_initiative_line_and_winner():
    result = roll_initiative(InitiativeInput(L.A, L.H, "Axis", "Soviets"), ScriptedDice([2, 5]))
    assert result.winner is Side.FIRST
    assert result.winner_name == "Axis"
    assert result.line() == (
        "Initiative, Axis: d6 [2] = 2 +3 led by Legendary (rating A) = 5 → 5; "
        "Initiative, Soviets: d6 [5] = 5 -3 led by Unreliable (rating H) = 2 → 2 ⇒ Axis wins"
    )


def test_initiative_tie_rerolls_or_stands():
    rerolled = roll_initiative(InitiativeInput(L.D, L.E), ScriptedDice([4, 4, 1, 2]))
    assert rerolled.winner is Side.SECOND
    assert len(rerolled.throws) == 4
    tied = roll_initiative(InitiativeInput(L.D, L.E, tie_rule=TieRule.NO_WINNER), ScriptedDice([4, 4]))
    assert tied.winner is None


def test_sequence_of_play():
    assert SEQUENCE_OF_PLAY["day segment"] == (Phase.SEGMENT_TURNS, Phase.INITIATIVE)
    assert SEQUENCE_OF_PLAY["tactical turn"] == (
        Phase.LOGISTICS,
        Phase.AIR_AND_BOMBARDMENT,
        Phase.MOVEMENT,
        Phase.FIRE,
        Phase.CLOSE_COMBAT,
        Phase.MORALE,
    )
