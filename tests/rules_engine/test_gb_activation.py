"""004 § 3. Activation Cost [9.0], the Activation Choices record chart and its
worked example (Barrage Rounds & Activation Point Charts Examples), FAQ 2 and
§ Summary of Variants (May 2003) Activation, FAQ 45 variant 2 "Initiative" Activation
(the 1D20 roll with no activation points left, every cell of the nation x morale chart).
"""

import pytest

from rules_engine.dice import DiceKind, ScriptedDice
from rules_engine.great_battles.activation import (
    ActivationAttempt,
    ActivationChoice,
    ActivationColumn,
    ActivationColumnsMixed,
    ActivationCostInput,
    ActivationPoolInput,
    ActivationPoolOverspent,
    ActivationRuleError,
    ActivationTiming,
    InitiativeInput,
    InitiativeRow,
    ReactivationInput,
    lookup_activation_cost,
    lookup_activation_pool,
    roll_initiative_activation,
    roll_reactivation,
    spend_activation_points,
)
from rules_engine.great_battles.common import Quality
from rules_engine.vocab import Nation

BN, BG, BG2, BG3 = (
    ActivationColumn.ONE_BATTALION,
    ActivationColumn.ONE_BATTLEGROUP,
    ActivationColumn.TWO_BATTLEGROUPS,
    ActivationColumn.THREE_BATTLEGROUPS,
)
DAWN, DAY = ActivationTiming.START_OF_DAY, ActivationTiming.DURING_DAY


@pytest.mark.parametrize(
    ("column", "timing", "points"),
    [
        (BN, DAWN, 1), (BG, DAWN, 2), (BG2, DAWN, 6), (BG3, DAWN, 10),
        (BN, DAY, 2), (BG, DAY, 4), (BG2, DAY, 12), (BG3, DAY, 20),
    ],
)  # fmt: skip
def test_activation_cost_every_cell(column, timing, points):
    assert lookup_activation_cost(ActivationCostInput(column, timing)).points == points


def test_record_chart_worked_example_12_points_leaves_3():
    """1 Bg at dawn (2), 1 Bg turn 3 (4), 1 Bn turn 6 (2): day 1 is 8; the Bn went to
    ground and is reactivated at dawn of day 2 for 1: 9 spent, 3 left of 12."""
    ledger = spend_activation_points(
        12,
        [
            ActivationChoice(1, 0, BG),
            ActivationChoice(1, 3, BG),
            ActivationChoice(1, 6, BN),
            ActivationChoice(2, 0, BN),
        ],
    )
    assert [entry.cost for entry in ledger.entries] == [2, 4, 2, 1]
    assert ledger.spent_by_day() == {1: 8, 2: 1}
    assert (ledger.spent, ledger.remaining) == (9, 3)


def test_worked_example_through_the_cli_strings():
    ledger = lookup_activation_pool(ActivationPoolInput(12, ("1/D/1bg", "1/3/1 Bg", "1/6/1bn", "2/D/1bn")))
    assert ledger.remaining == 3
    assert ledger.line() == "Activation points: 12 - 9 (day 1 8, day 2 1) → 3 left"


def test_only_one_column_per_turn_1_bn_and_1_bg_is_refused():
    with pytest.raises(ActivationColumnsMixed, match=r"3\. Activation Cost"):
        spend_activation_points(12, [ActivationChoice(1, 0, BN), ActivationChoice(1, 0, BG)])


def test_same_column_twice_in_a_turn_is_refused_unless_the_club_allows_it():
    choices = [ActivationChoice(1, 2, BN), ActivationChoice(1, 2, BN)]
    with pytest.raises(ActivationColumnsMixed):
        spend_activation_points(12, choices)
    assert spend_activation_points(12, choices, allow_repeated_column=True).remaining == 8


def test_pool_cannot_go_below_zero():
    with pytest.raises(ActivationPoolOverspent, match="costs 4 but only 2"):
        spend_activation_points(3, [ActivationChoice(1, 0, BN), ActivationChoice(1, 1, BG)])


def test_exact_spend_to_zero_is_allowed():
    assert spend_activation_points(10, [ActivationChoice(1, 0, BG3)]).remaining == 0


def test_errors_are_value_errors():
    assert issubclass(ActivationPoolOverspent, ValueError)
    assert issubclass(ActivationColumnsMixed, ActivationRuleError)


@pytest.mark.parametrize("text", ["1/D", "x/D/1bn", "1/D/4bgs", "1/11/1bn"])
def test_unreadable_or_impossible_choices(text):
    with pytest.raises(ActivationRuleError):
        lookup_activation_pool(ActivationPoolInput(12, (text,)))


def test_reactivation_worked_example_british_experienced_two_suppressed_rolls_7_fails():
    result = roll_reactivation(
        ReactivationInput(Quality.EXPERIENCED, Nation.BRITISH, suppressed=2), ScriptedDice([4, 3])
    )
    assert result.threshold == 7
    assert result.score == 7
    assert result.outcome is False
    assert result.succeeded is False


@pytest.mark.parametrize(
    ("quality", "nation", "suppressed", "eliminated", "needed_below"),
    [
        (Quality.RAW, Nation.AMERICAN, 0, 0, 6),
        (Quality.INFERIOR, Nation.SOVIET, 1, 0, 6),
        (Quality.AVERAGE, Nation.BRITISH, 0, 1, 6),
        (Quality.EXPERIENCED, Nation.GERMAN, 2, 0, 9),  # +2 German
        (Quality.VETERAN, Nation.GERMAN, 1, 1, 9),
    ],
)
def test_reactivation_threshold(quality, nation, suppressed, eliminated, needed_below):
    inputs = ReactivationInput(quality, nation, suppressed, eliminated, ActivationAttempt.INITIATIVE)
    just_under = roll_reactivation(inputs, ScriptedDice([1, needed_below - 2]))
    at = roll_reactivation(inputs, ScriptedDice([1, needed_below - 1]))
    assert (just_under.outcome, at.outcome) == (True, False)


INITIATIVE = {
    InitiativeRow.GERMAN: (4, 5, 6, 7, 8),
    InitiativeRow.US: (3, 4, 5, 6, 7),
    InitiativeRow.COMMONWEALTH: (2, 3, 4, 5, 6),
    InitiativeRow.SOVIET: (1, 2, 3, 4, 5),
}
QUALITIES = (Quality.RAW, Quality.INFERIOR, Quality.AVERAGE, Quality.EXPERIENCED, Quality.VETERAN)


@pytest.mark.parametrize(
    ("row", "quality", "number"),
    [(row, q, n) for row, numbers in INITIATIVE.items() for q, n in zip(QUALITIES, numbers, strict=False)],
)
def test_initiative_every_cell(row, quality, number):
    inputs = InitiativeInput(Nation.POLISH, quality, row=row)
    assert roll_initiative_activation(inputs, ScriptedDice([number])).outcome is True
    if number < 10:
        assert roll_initiative_activation(inputs, ScriptedDice([number + 1])).outcome is False


@pytest.mark.parametrize(
    ("nation", "row"),
    [
        (Nation.GERMAN, InitiativeRow.GERMAN),
        (Nation.AMERICAN, InitiativeRow.US),
        (Nation.BRITISH, InitiativeRow.COMMONWEALTH),
        (Nation.CANADIAN, InitiativeRow.COMMONWEALTH),
        (Nation.SOVIET, InitiativeRow.SOVIET),
    ],
)
def test_initiative_nation_rows(nation, row):
    result = roll_initiative_activation(InitiativeInput(nation, Quality.AVERAGE), ScriptedDice([1]))
    assert result.cell == f"{row.value} Average"


def test_initiative_nation_without_a_row_needs_one():
    with pytest.raises(ValueError, match="no row for Italian"):
        roll_initiative_activation(InitiativeInput(Nation.ITALIAN, Quality.AVERAGE), ScriptedDice([1]))


# --- initiative on 1D20 ---------------------------------------------------------


@pytest.mark.parametrize(
    ("row", "quality", "number"),
    [(row, q, n) for row, numbers in INITIATIVE.items() for q, n in zip(QUALITIES, numbers, strict=True)],
    ids=[f"{row.value}-{q.value}" for row in INITIATIVE for q in QUALITIES],
)
def test_initiative_without_activation_points_rolls_d20_every_cell(row, quality, number):
    inputs = InitiativeInput(Nation.POLISH, quality, row=row, side_has_activation_points=False)
    passed = roll_initiative_activation(inputs, ScriptedDice([number]))
    assert passed.outcome is True
    assert passed.rolls[0].kind is DiceKind.D20
    assert passed.threshold == number
    assert passed.outcome_text == "battlegroup activated (no AP to spend)"
    failed = roll_initiative_activation(inputs, ScriptedDice([number + 1]))
    assert failed.outcome is False
    # Faces above 10 exist on the d20 and never activate: half the chance.
    assert roll_initiative_activation(inputs, ScriptedDice([20])).outcome is False


def test_initiative_with_points_still_rolls_d10():
    result = roll_initiative_activation(InitiativeInput(Nation.GERMAN, Quality.AVERAGE), ScriptedDice([6]))
    assert result.rolls[0].kind is DiceKind.D10
    assert result.outcome_text == "battlegroup activated for 1 AP"


def test_initiative_d20_line():
    inputs = InitiativeInput(Nation.GERMAN, Quality.AVERAGE, side_has_activation_points=False)
    assert roll_initiative_activation(inputs, ScriptedDice([14])).line() == (
        "Initiative activation, no AP left (1D20, both actions), German Average HQ battalion: "
        "d20 [14] = 14 ≤ 6 [German Average] → not activated"
    )
