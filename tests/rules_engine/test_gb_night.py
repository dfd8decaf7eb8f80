"""004 § Night Phase (steps 1-8, replacements table [16.2.3] and the
McFarlane clarification / FAQ 20), § Airborne Supply 1-2, FAQ 11, 23, 38.

Expected values are typed in from the printed chart, not read from the module.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine.dice import DiceKind, ScriptedDice, SeededDice
from rules_engine.great_battles.common import Quality
from rules_engine.great_battles.night import (
    ReplacementInput,
    StandFate,
    SupplySituationInput,
    lookup_supply_situation,
    replacement_cell,
    roll_replacements,
)
from rules_engine.results import Comparison
from rules_engine.vocab import SupplyQuality, SupplySituation

P, INF, A, SR, SB = (
    SupplyQuality.POOR,
    SupplyQuality.INFERIOR,
    SupplyQuality.AVERAGE,
    SupplyQuality.SUPERIOR,
    SupplyQuality.SUPERB,
)

# Printed rows: Poor, Inferior, Average, Superior, Superb.
PRINTED = {
    SupplySituation.SEPARATED: (0, 0, 1, 1, 2),
    SupplySituation.OK: (1, 2, 2, 3, 3),
    SupplySituation.RESERVE: (3, 5, 6, 7, 9),
}


@pytest.mark.parametrize(
    ("situation", "supply", "printed"),
    [(sit, q, row[i]) for sit, row in PRINTED.items() for i, q in enumerate((P, INF, A, SR, SB))],
    ids=lambda v: getattr(v, "value", str(v)),
)
def test_every_rolling_cell(situation, supply, printed):
    cell = replacement_cell(situation, supply)
    assert (cell.roll_at_most, cell.extra_stands_lost) == (printed, 0)


@pytest.mark.parametrize("supply", [P, INF, A, SR, SB], ids=lambda q: q.value)
def test_every_isolated_cell_is_no_roll_and_one_more_lost(supply):
    cell = replacement_cell(SupplySituation.ISOLATED, supply)
    assert (cell.roll_at_most, cell.extra_stands_lost, cell.rolls) == (0, 1, False)
    assert cell.text() == "0/-1"


@pytest.mark.parametrize(
    ("situation", "supply", "printed"),
    [(sit, q, row[i]) for sit, row in PRINTED.items() for i, q in enumerate((P, INF, A, SR, SB)) if row[i]],
    ids=lambda v: getattr(v, "value", str(v)),
)
def test_roll_at_or_under_the_cell_on_a_d10(situation, supply, printed):
    inputs = ReplacementInput(situation, supply, destroyed_grades=(Quality.AVERAGE, Quality.AVERAGE))
    result = roll_replacements(inputs, ScriptedDice([printed, printed + 1]))
    assert [s.fate for s in result.stands] == [StandFate.REPLACED, StandFate.NOT_REPLACED]
    first = result.stands[0].roll
    assert first is not None
    assert first.rolls[0].kind is DiceKind.D10
    assert (first.threshold, first.comparison) == (printed, Comparison.AT_MOST)
    assert result.replaced == 1
    assert result.extra_stands_lost == 0


def test_printed_zero_is_no_chance_and_rolls_nothing():
    dice = ScriptedDice([])
    result = roll_replacements(ReplacementInput(SupplySituation.SEPARATED, P, (Quality.RAW,)), dice)
    assert result.stands[0].fate is StandFate.NO_CHANCE
    assert result.roll_results() == ()


def test_isolated_no_roll_and_one_more_stand_lost():
    dice = ScriptedDice([])
    inputs = ReplacementInput(SupplySituation.ISOLATED, SB, (Quality.VETERAN, Quality.VETERAN))
    result = roll_replacements(inputs, dice)
    assert [s.fate for s in result.stands] == [StandFate.ISOLATED] * 2
    assert result.extra_stands_lost == 1
    assert "1 more stand lost" in result.to_dict()["outcome_text"]


def test_isolated_without_losses_setting():
    inputs = ReplacementInput(SupplySituation.ISOLATED, A)
    assert roll_replacements(inputs, ScriptedDice([])).extra_stands_lost == 1
    strict = ReplacementInput(SupplySituation.ISOLATED, A, extra_loss_needs_destroyed_stand=True)
    assert roll_replacements(strict, ScriptedDice([])).extra_stands_lost == 0


def test_attached_stands_are_never_replaced():
    inputs = ReplacementInput(
        SupplySituation.RESERVE,
        SB,
        destroyed_grades=(Quality.AVERAGE, Quality.VETERAN),
        destroyed_attached=(False, True),
    )
    result = roll_replacements(inputs, ScriptedDice([1]))
    assert [s.fate for s in result.stands] == [StandFate.REPLACED, StandFate.ATTACHED]
    assert len(result.roll_results()) == 1


def test_attached_flags_must_match_stands():
    with pytest.raises(ValueError, match="one flag per destroyed stand"):
        ReplacementInput(SupplySituation.OK, A, (Quality.RAW,), (False, True))


def test_wiped_out_battalion_waits_a_full_day():
    inputs = ReplacementInput(SupplySituation.ISOLATED, A, (Quality.VETERAN,) * 3, wiped_out=True)
    result = roll_replacements(inputs, ScriptedDice([]))
    assert [s.fate for s in result.stands] == [StandFate.WAITING_IN_RESERVE] * 3
    assert result.situation is SupplySituation.RESERVE
    assert result.extra_stands_lost == 0


def test_wiped_out_battalion_rolls_at_reserve_rate_one_grade_lower():
    inputs = ReplacementInput(
        SupplySituation.SEPARATED,
        A,
        (Quality.VETERAN, Quality.RAW, Quality.EXPERIENCED),
        wiped_out=True,
        full_days_waited=1,
    )
    # Reserve / Average is 6: 6 and 1 return, 7 does not.
    result = roll_replacements(inputs, ScriptedDice([6, 7, 1]))
    assert [s.fate for s in result.stands] == [
        StandFate.REPLACED,
        StandFate.NOT_REPLACED,
        StandFate.REPLACED,
    ]
    assert result.stands[0].returns_as is Quality.EXPERIENCED
    assert result.stands[2].returns_as is Quality.AVERAGE
    assert result.cell.roll_at_most == 6


def test_airborne_without_c_ops_isolated_but_no_extra_loss():
    inputs = ReplacementInput(SupplySituation.OK, SB, (Quality.VETERAN,), airborne_without_c_ops=True)
    result = roll_replacements(inputs, ScriptedDice([]))
    assert result.situation is SupplySituation.ISOLATED
    assert result.stands[0].fate is StandFate.ISOLATED
    assert result.extra_stands_lost == 0


def test_line_reads_for_the_umpire():
    inputs = ReplacementInput(SupplySituation.OK, A, (Quality.AVERAGE,), battalion="A1")
    line = roll_replacements(inputs, ScriptedDice([2])).roll_results()[0].line()
    assert line.startswith("Replacement, A1 stand 1: d10 [2] = 2 ≤ 2")
    assert "replaced" in line


def test_a_named_stand_is_rolled_for_by_its_name():
    """The service passes the destroyed stands' names: the roll says which stand came back
    ("2. Kp of A1"), not its place among the destroyed; without names (a roll recorded before
    they were passed) the subject is as it was recorded, so it still replays."""
    inputs = ReplacementInput(
        SupplySituation.OK, A, (Quality.AVERAGE,) * 2, destroyed_labels=("2. Kp", "PzB 41"), battalion="A1"
    )
    subjects = [roll.subject for roll in roll_replacements(inputs, ScriptedDice([2, 9])).roll_results()]
    assert subjects == ["2. Kp of A1", "PzB 41 of A1"]
    with pytest.raises(ValueError, match="one name per destroyed stand"):
        ReplacementInput(SupplySituation.OK, A, (Quality.AVERAGE,), destroyed_labels=("2. Kp", "3. Kp"))


@pytest.mark.parametrize(
    ("distance", "expected"),
    [
        (0, SupplySituation.OK),
        (12, SupplySituation.OK),
        (12.5, SupplySituation.SEPARATED),
        (35, SupplySituation.SEPARATED),
        (36, SupplySituation.ISOLATED),
        (50, SupplySituation.ISOLATED),
    ],
)
def test_supply_situation_rows(distance, expected):
    assert lookup_supply_situation(SupplySituationInput(distance)) is expected


def test_supply_situation_no_line_reserve_and_overrun():
    assert (
        lookup_supply_situation(SupplySituationInput(3, line_of_communication=False))
        is SupplySituation.ISOLATED
    )
    assert lookup_supply_situation(SupplySituationInput(3, c_ops_overrun=True)) is SupplySituation.ISOLATED
    assert lookup_supply_situation(SupplySituationInput(99, in_reserve=True)) is SupplySituation.RESERVE


_inputs = st.builds(
    ReplacementInput,
    situation=st.sampled_from(SupplySituation),
    supply_quality=st.sampled_from(SupplyQuality),
    destroyed_grades=st.lists(st.sampled_from(Quality), max_size=6).map(tuple),
    wiped_out=st.booleans(),
    full_days_waited=st.integers(0, 2),
)


@given(_inputs, st.text(min_size=1, max_size=8))
def test_same_seed_same_result(inputs, seed):
    assert roll_replacements(inputs, SeededDice(seed, "night")) == roll_replacements(
        inputs, SeededDice(seed, "night")
    )


@given(_inputs, st.integers(0, 10_000))
def test_outcomes_within_table(inputs, seed):
    result = roll_replacements(inputs, SeededDice(seed))
    assert len(result.stands) == len(inputs.destroyed_grades)
    assert 0 <= result.replaced <= len(inputs.destroyed_grades)
    assert result.extra_stands_lost in (0, 1)
    for roll in result.roll_results():
        assert 1 <= roll.score <= 10
        assert roll.score == roll.natural
        assert roll.succeeded is (roll.outcome is StandFate.REPLACED)
