"""000 § 5) Off-Board Artillery (planned fire, requested fire support) and
§ 6) Counterbattery Fire — every cell, every modifier, the worked examples."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.artillery import (
    COUNTERBATTERY_CATEGORIES,
    PLANNED_FIRE,
    PLANNED_FIRE_MODIFIERS,
    SUPPORT_FIRE,
    SUPPORT_FIRE_MODIFIERS,
    CounterbatteryCategory,
    CounterbatteryInput,
    CounterbatteryTech,
    FieldStrengthInput,
    FireColumn,
    PlannedFireInput,
    SupportFireInput,
    allotment,
    allotment_words,
    count_field_strength,
    counterbattery_category,
    counterbattery_tech,
    fire_column,
    fire_multiplier,
    roll_counterbattery,
    roll_planned_fire,
    roll_support_fire,
)
from rules_engine.nineteen43.common import BattleRole, BattleType
from rules_engine.vocab import Front, Nation

# Both tables print the same cells: rows 2, 3-5, 6-9, 10-11, 12; columns
# Local Attack att/def, Major Offensive att/def, Stalemated, Meeting.
FIRE_PRINTED = {
    (2, 2): ".15 .00 .25 .15 .10 .00",
    (3, 5): ".20 .05 .30 .20 .15 .05",
    (6, 9): ".25 .10 .45 .30 .15 .10",
    (10, 11): ".35 .15 .60 .45 .15 .12",
    (12, 12): ".40 .20 .80 .60 .20 .15",
}
COLUMNS = [
    (BattleType.LOCAL_ATTACK, BattleRole.ATTACKER),
    (BattleType.LOCAL_ATTACK, BattleRole.DEFENDER),
    (BattleType.MAJOR_OFFENSIVE, BattleRole.ATTACKER),
    (BattleType.MAJOR_OFFENSIVE, BattleRole.DEFENDER),
    (BattleType.STALEMATED_FRONT, None),
    (BattleType.MEETING_ENGAGEMENT, None),
]
CELLS = [
    (score, battle, role, round(float(cell) * 100))
    for (low, high), row in FIRE_PRINTED.items()
    for score in range(low, high + 1)
    for (battle, role), cell in zip(COLUMNS, row.split(), strict=True)
]


@pytest.mark.parametrize("rows", [PLANNED_FIRE, SUPPORT_FIRE], ids=["planned", "support"])
@pytest.mark.parametrize(("score", "battle", "role", "hundredths"), CELLS)
def test_fire_tables_every_cell(rows, score, battle, role, hundredths):
    assert fire_multiplier(rows, fire_column(battle, role), score)[1] == hundredths


@pytest.mark.parametrize(("score", "read_as"), [(-3, 2), (1, 2), (13, 12), (16, 12)])
def test_off_chart_scores_read_end_rows(score, read_as):
    column = FireColumn.MAJOR_OFFENSIVE_ATTACKER
    assert (
        fire_multiplier(PLANNED_FIRE, column, score)[1] == fire_multiplier(PLANNED_FIRE, column, read_as)[1]
    )


def test_both_sides_columns_ignore_role():
    assert fire_column(BattleType.STALEMATED_FRONT, BattleRole.DEFENDER) is FireColumn.STALEMATED_FRONT
    assert fire_column(BattleType.MEETING_ENGAGEMENT, None) is FireColumn.MEETING_ENGAGEMENT
    with pytest.raises(ValueError, match="role"):
        fire_column(BattleType.LOCAL_ATTACK, None)


def test_worked_example_planned_fire_23_units_at_45_is_10_barrages():
    # 000 § 5 example: .45 × 23 = 10.35 → 10 barrages. Major Offensive attacker, 6-9 row.
    inputs = PlannedFireInput(BattleType.MAJOR_OFFENSIVE, Nation.FRENCH, 1939, 23, BattleRole.ATTACKER)
    result = roll_planned_fire(inputs, ScriptedDice([3, 4]))
    assert result.outcome == 10
    assert ".45" in (result.cell or "")
    assert "10.35" in result.line()
    assert "10 barrages" in result.line()
    assert allotment(45, 23) == 10


def test_worked_example_field_strength_is_23_infantry_or_tank_units():
    # 000 § 5 example: French 2 × 4 infantry and a tank unit, Germans 3 × 4 infantry and two
    # assault units: 23. Their HQs, heavy weapons, guns and transport are not counted (N43-24).
    inputs = FieldStrengthInput(infantry=20, armour=3, hq=5, heavy_weapons=2, at_gun=1, transport=4)
    strength = count_field_strength(inputs)
    assert (strength.units, strength.stands) == (23, 35)
    assert strength.roll_results() == ()


def test_recce_counts_unless_the_club_says_not():
    assert count_field_strength(FieldStrengthInput(infantry=4, recce=2)).units == 6
    assert count_field_strength(FieldStrengthInput(infantry=4, recce=2, recce_counts=False)).units == 4


@pytest.mark.parametrize(
    ("hundredths", "units", "expected"),
    [(50, 1, 1), (25, 2, 1), (15, 10, 2), (15, 9, 1), (12, 4, 0), (12, 5, 1), (0, 40, 0), (80, 30, 24)],
)
def test_standard_rounding_half_up(hundredths, units, expected):
    assert allotment(hundredths, units) == expected


def test_amphibious_shore_defender_gets_no_planned_fire():
    inputs = PlannedFireInput(
        BattleType.MAJOR_OFFENSIVE,
        Nation.JAPANESE,
        1944,
        30,
        BattleRole.DEFENDER,
        amphibious_shore_defender=True,
    )
    result = roll_planned_fire(inputs, ScriptedDice([]))
    assert result.outcome == 0
    assert result.rolls == ()


# 000 § 5 Planned Fire Die Roll Modifiers: (year, nation, front or None, value).
PLANNED_PRINTED = [
    (1939, Nation.JAPANESE, Front.ASIA, -2),
    (1940, Nation.ITALIAN, Front.NORTH_AFRICA, -5),
    (1940, Nation.BRITISH, Front.NORTH_AFRICA, -4),
    (1940, Nation.BRITISH, Front.WEST, -3),
    (1940, Nation.FRENCH, None, -1),
    (1941, Nation.ITALIAN, Front.NORTH_AFRICA, -3),
    (1941, Nation.BRITISH, Front.NORTH_AFRICA, -2),
    (1941, Nation.BRITISH, Front.ASIA, -2),
    (1941, Nation.GERMAN, Front.NORTH_AFRICA, -2),
    (1941, Nation.JAPANESE, None, -1),
    (1942, Nation.JAPANESE, None, -1),
    (1942, Nation.ITALIAN, Front.NORTH_AFRICA, -2),
    (1942, Nation.BRITISH, Front.NORTH_AFRICA, -2),
    (1943, Nation.JAPANESE, None, -1),
    (1943, Nation.SOVIET, None, 2),
    (1944, Nation.JAPANESE, None, -2),
    (1944, Nation.GERMAN, None, -1),
    (1944, Nation.SOVIET, None, 3),
    (1944, Nation.BRITISH, None, 2),
    (1944, Nation.AMERICAN, None, 3),
    (1945, Nation.JAPANESE, None, -3),
    (1945, Nation.GERMAN, None, -2),
    (1945, Nation.AMERICAN, None, 2),
    (1945, Nation.SOVIET, None, 4),
]
# 000 § 5 Fire Support Die Roll Modifiers.
SUPPORT_PRINTED = [
    (1939, Nation.JAPANESE, Front.ASIA, -2),
    (1940, Nation.ITALIAN, Front.NORTH_AFRICA, -5),
    (1940, Nation.BRITISH, Front.NORTH_AFRICA, -4),
    (1940, Nation.BRITISH, Front.WEST, -2),
    (1940, Nation.FRENCH, None, -1),
    (1941, Nation.ITALIAN, Front.NORTH_AFRICA, -3),
    (1941, Nation.BRITISH, Front.NORTH_AFRICA, -3),
    (1941, Nation.BRITISH, Front.ASIA, -3),
    (1941, Nation.GERMAN, None, 1),
    (1941, Nation.SOVIET, None, -4),
    (1942, Nation.JAPANESE, None, -1),
    (1942, Nation.ITALIAN, Front.NORTH_AFRICA, -2),
    (1942, Nation.GERMAN, Front.EAST, 1),
    (1942, Nation.SOVIET, None, -3),
    (1943, Nation.JAPANESE, None, -1),
    (1943, Nation.GERMAN, Front.NORTH_AFRICA, -1),
    (1943, Nation.GERMAN, Front.EAST, 2),
    (1943, Nation.SOVIET, None, -2),
    (1944, Nation.JAPANESE, None, -2),
    (1944, Nation.GERMAN, None, -1),
    (1944, Nation.BRITISH, None, 2),
    (1944, Nation.AMERICAN, None, 3),
    (1945, Nation.JAPANESE, None, -3),
    (1945, Nation.GERMAN, None, -2),
    (1945, Nation.AMERICAN, None, 2),
    (1945, Nation.SOVIET, None, 1),
]


def _fire_modifier_sum(procedure, input_type, year, nation, front):
    inputs = input_type(BattleType.MEETING_ENGAGEMENT, nation, year, 10, front=front)
    return sum(m.value for m in procedure(inputs, ScriptedDice([3, 3])).modifiers)


@pytest.mark.parametrize(("year", "nation", "front", "value"), PLANNED_PRINTED)
def test_planned_fire_modifier_every_entry(year, nation, front, value):
    assert _fire_modifier_sum(roll_planned_fire, PlannedFireInput, year, nation, front) == value


@pytest.mark.parametrize(("year", "nation", "front", "value"), SUPPORT_PRINTED)
def test_support_fire_modifier_every_entry(year, nation, front, value):
    assert _fire_modifier_sum(roll_support_fire, SupportFireInput, year, nation, front) == value


def test_modifier_lists_hold_nothing_unprinted():
    assert len(PLANNED_FIRE_MODIFIERS) == len(PLANNED_PRINTED) - 1  # "North Africa/Asia" is one entry
    assert len(SUPPORT_FIRE_MODIFIERS) == len(SUPPORT_PRINTED) - 1


def test_place_qualified_modifier_needs_the_place():
    assert _fire_modifier_sum(roll_planned_fire, PlannedFireInput, 1940, Nation.ITALIAN, None) == 0
    assert (
        _fire_modifier_sum(roll_planned_fire, PlannedFireInput, 1940, Nation.ITALIAN, Front.MEDITERRANEAN)
        == 0
    )
    assert (
        _fire_modifier_sum(roll_support_fire, SupportFireInput, 1942, Nation.GERMAN, Front.NORTH_AFRICA) == 0
    )


@pytest.mark.parametrize("nation", [Nation.COMMONWEALTH, Nation.CANADIAN])
def test_commonwealth_reads_british_modifiers_unless_switched_off(nation):
    assert _fire_modifier_sum(roll_planned_fire, PlannedFireInput, 1944, nation, Front.WEST) == 2
    inputs = PlannedFireInput(BattleType.MEETING_ENGAGEMENT, nation, 1944, 10, commonwealth_as_british=False)
    assert roll_planned_fire(inputs, ScriptedDice([3, 3])).modifiers == ()


def test_long_lull_extra_rolls():
    planned = PlannedFireInput(BattleType.STALEMATED_FRONT, Nation.FRENCH, 1939, 10, long_lull_reroll=True)
    support = SupportFireInput(BattleType.STALEMATED_FRONT, Nation.FRENCH, 1939, 10, long_lull_reroll=True)
    assert [m.value for m in roll_planned_fire(planned, ScriptedDice([3, 3])).modifiers] == [-2]
    assert [m.value for m in roll_support_fire(support, ScriptedDice([3, 3])).modifiers] == [-3]


def test_support_fire_uses_modified_roll():
    # 1940 Italians (North Africa) -5: 6+6-5 = 7 → 6-9 row, Local Attack defender .10 × 40 = 4.
    inputs = SupportFireInput(
        BattleType.LOCAL_ATTACK, Nation.ITALIAN, 1940, 40, BattleRole.DEFENDER, Front.NORTH_AFRICA
    )
    result = roll_support_fire(inputs, ScriptedDice([6, 6]))
    assert result.score == 7
    assert result.outcome == 4
    assert "4 batteries" in result.outcome_text


# 000 § 6 table: 1D6 faces per tech column, "-" none.
COUNTERBATTERY_PRINTED = {
    CounterbatteryCategory.A: "Capable Capable Capable Advanced Advanced Advanced",
    CounterbatteryCategory.B: "Primitive Primitive Capable Capable Capable Capable",
    CounterbatteryCategory.C: "Nonexistent Nonexistent Primitive Primitive Primitive Capable",
    CounterbatteryCategory.D: "Nonexistent Nonexistent Nonexistent Nonexistent Primitive Primitive",
}


@pytest.mark.parametrize(
    ("category", "face", "tech"),
    [(c, face + 1, t) for c, row in COUNTERBATTERY_PRINTED.items() for face, t in enumerate(row.split())],
)
def test_counterbattery_every_cell(category, face, tech):
    assert counterbattery_tech(category, face) is CounterbatteryTech(tech)


# 000 § 6 categories: (year, nation, front, category).
CATEGORIES_PRINTED = [
    (1939, Nation.GERMAN, None, "B"),
    (1939, Nation.POLISH, None, "C"),
    (1940, Nation.ITALIAN, None, "D"),
    (1940, Nation.BRITISH, Front.NORTH_AFRICA, "D"),
    (1940, Nation.BRITISH, Front.WEST, "C"),
    (1940, Nation.GERMAN, None, "B"),
    (1940, Nation.FRENCH, None, "C"),
    (1941, Nation.JAPANESE, None, "D"),
    (1941, Nation.ITALIAN, None, "D"),
    (1941, Nation.BRITISH, None, "C"),
    (1941, Nation.SOVIET, None, "D"),
    (1941, Nation.GERMAN, None, "B"),
    (1941, Nation.AMERICAN, None, "D"),
    (1942, Nation.JAPANESE, None, "D"),
    (1942, Nation.ITALIAN, None, "D"),
    (1942, Nation.BRITISH, None, "B"),
    (1942, Nation.SOVIET, None, "D"),
    (1942, Nation.GERMAN, None, "B"),
    (1942, Nation.AMERICAN, None, "C"),
    (1943, Nation.JAPANESE, None, "D"),
    (1943, Nation.ITALIAN, None, "C"),
    (1943, Nation.BRITISH, None, "B"),
    (1943, Nation.SOVIET, None, "C"),
    (1943, Nation.GERMAN, None, "B"),
    (1943, Nation.AMERICAN, None, "C"),
    (1944, Nation.JAPANESE, None, "D"),
    (1944, Nation.BRITISH, None, "A"),
    (1944, Nation.SOVIET, None, "B"),
    (1944, Nation.GERMAN, None, "B"),  # "B or C": first printed by default
    (1944, Nation.AMERICAN, None, "A"),
    (1945, Nation.JAPANESE, None, "D"),
    (1945, Nation.BRITISH, None, "A"),
    (1945, Nation.SOVIET, None, "B"),
    (1945, Nation.GERMAN, None, "C"),
    (1945, Nation.AMERICAN, None, "A"),
]


@pytest.mark.parametrize(("year", "nation", "front", "category"), CATEGORIES_PRINTED)
def test_counterbattery_category_every_entry(year, nation, front, category):
    assert counterbattery_category(CounterbatteryInput(nation, year, front)).value == category


def test_category_list_has_nothing_unprinted():
    assert len(COUNTERBATTERY_CATEGORIES) == len(CATEGORIES_PRINTED)


def test_german_1944_either_or():
    pick_c = CounterbatteryInput(Nation.GERMAN, 1944, either_or_pick=CounterbatteryCategory.C)
    assert counterbattery_category(pick_c) is CounterbatteryCategory.C
    with pytest.raises(ValueError, match="not one of the listed"):
        counterbattery_category(
            CounterbatteryInput(Nation.GERMAN, 1944, either_or_pick=CounterbatteryCategory.A)
        )


def test_unlisted_nation_year_needs_a_category():
    with pytest.raises(ValueError, match="no counterbattery category"):
        counterbattery_category(CounterbatteryInput(Nation.ITALIAN, 1944))
    given = CounterbatteryInput(Nation.ITALIAN, 1944, category=CounterbatteryCategory.C)
    assert counterbattery_category(given) is CounterbatteryCategory.C


def test_worked_example_british_italy_1944_roll_5_is_advanced():
    result = roll_counterbattery(
        CounterbatteryInput(Nation.BRITISH, 1944, Front.MEDITERRANEAN), ScriptedDice([5])
    )
    assert result.cell == "category A"
    assert result.outcome is CounterbatteryTech.ADVANCED


def test_worked_example_italian_north_africa_1942_roll_2_is_nonexistent():
    # The example names line C, the category list D (notes N43-12); a 2 is Nonexistent on both.
    listed = CounterbatteryInput(Nation.ITALIAN, 1942, Front.NORTH_AFRICA)
    as_example = CounterbatteryInput(
        Nation.ITALIAN, 1942, Front.NORTH_AFRICA, category=CounterbatteryCategory.C
    )
    for inputs in (listed, as_example):
        assert roll_counterbattery(inputs, ScriptedDice([2])).outcome is CounterbatteryTech.NONEXISTENT


def test_an_allotment_in_words_leaves_out_the_units_it_counted():
    assert allotment_words("n43.planned_fire", 3) == "3 barrages"
    assert allotment_words("n43.support_fire", 1) == "1 battery"
    assert allotment_words("n43.counterbattery", 1) is None
