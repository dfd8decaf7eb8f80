"""000 § 2) Air Superiority, § 3) Air Presence, § 4) Air Assets — every cell.

Cells typed from seed 000 (blank vs "-" placement in the air assets table
settled from seed 001).
"""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.nineteen43.air import (
    AIR_ASSETS,
    AIR_PRESENCE,
    AIR_SUPERIORITY_MODIFIERS,
    AirAssetRow,
    AirAssetsInput,
    AirAttack,
    AirPresenceInput,
    AirSuperiority,
    AirSuperiorityFront,
    AirSuperiorityInput,
    AssetMark,
    axis_modifier,
    lookup_air_assets,
    presence_cell,
    roll_air_presence,
    roll_air_superiority,
)
from rules_engine.nineteen43.common import AirCoverPriority, AirSide, BattleType
from rules_engine.vocab import Nation

# 000 § 2, columns 1939 .. 1945 as printed.
SUPERIORITY_PRINTED = {
    AirSuperiorityFront.RUSSIA_POLAND: "+8 - +7 +3 0 -4 -9",
    AirSuperiorityFront.FRANCE_BELGIUM: "- +2 - - - -7 -9",
    AirSuperiorityFront.AFRICA_ITALY: "- 0 0 -2 -4 -6 -8",
    AirSuperiorityFront.MAINLAND_CHINA: "+9 +9 +9 +7 +3 0 -1",
    AirSuperiorityFront.PACIFIC_FIELD_FORCE: "- - +4 0 -2 -5 -8",
    AirSuperiorityFront.ISLAND_GARRISON: "- - +2 -1 -5 -7 -9",
    AirSuperiorityFront.MALAYA_BURMA: "- - +3 +2 0 -4 -6",
}


@pytest.mark.parametrize(
    ("front", "year", "printed"),
    [
        (front, 1939 + i, cell)
        for front, row in SUPERIORITY_PRINTED.items()
        for i, cell in enumerate(row.split())
    ],
)
def test_air_superiority_every_cell(front, year, printed):
    expected = None if printed == "-" else int(printed)
    assert axis_modifier(front, year) == expected


def test_air_superiority_table_has_only_the_printed_rows():
    assert set(AIR_SUPERIORITY_MODIFIERS) == set(SUPERIORITY_PRINTED)


def test_axis_modifier_applies_to_axis_only_and_high_roller_wins():
    # Russia/Poland 1941: axis +7; axis throws 3+4, allies 5+6 → 14 v 11.
    result = roll_air_superiority(
        AirSuperiorityInput(AirSuperiorityFront.RUSSIA_POLAND, 1941), ScriptedDice([3, 4, 5, 6])
    )
    axis, allies = result.results
    assert axis.score == 14
    assert [m.value for m in axis.modifiers] == [7]
    assert allies.score == 11
    assert allies.modifiers == ()
    assert result.outcome == AirSuperiority(winner=AirSide.AXIS, margin=3)
    assert result.outcome_text == "air superiority to the Axis by 3"
    assert axis.outcome == 3
    assert allies.outcome == -3


def test_tie_is_parity():
    # Mainland China 1944 prints 0: 4+4 v 5+3.
    result = roll_air_superiority(
        AirSuperiorityInput(AirSuperiorityFront.MAINLAND_CHINA, 1944), ScriptedDice([4, 4, 5, 3])
    )
    assert result.outcome.winner is None
    assert result.outcome_text == "air parity"
    assert [r.outcome for r in result.results] == [0, 0]


def test_dash_cell_reads_as_no_modifier_by_default_and_is_settable():
    inputs = AirSuperiorityInput(AirSuperiorityFront.FRANCE_BELGIUM, 1939)
    assert roll_air_superiority(inputs, ScriptedDice([1, 1, 1, 1])).results[0].modifiers == ()
    club = AirSuperiorityInput(AirSuperiorityFront.FRANCE_BELGIUM, 1939, unprinted_year_modifier=-3)
    assert roll_air_superiority(club, ScriptedDice([1, 1, 1, 1])).results[0].score == -1


@pytest.mark.parametrize(
    ("battle_type", "bonus"),
    [(BattleType.MAJOR_OFFENSIVE, 4), (BattleType.LOCAL_ATTACK, 2), (BattleType.STALEMATED_FRONT, 0)],
)
def test_suggested_attacker_bonus(battle_type, bonus):
    inputs = AirSuperiorityInput(
        AirSuperiorityFront.AFRICA_ITALY, 1941, battle_type, AirSide.ALLIES, use_suggested_attacker_bonus=True
    )
    allies = roll_air_superiority(inputs, ScriptedDice([1, 1, 1, 1])).results[1]
    assert allies.score == 2 + bonus
    off = AirSuperiorityInput(AirSuperiorityFront.AFRICA_ITALY, 1941, battle_type, AirSide.ALLIES)
    assert roll_air_superiority(off, ScriptedDice([1, 1, 1, 1])).results[1].score == 2


# 000 § 3, columns -1, 0, +1, +2, +3, +4, +5 or more.
PRESENCE_PRINTED = {
    AirCoverPriority.TOP: "1D6 2D6 2D6 2D6 2D6 3D6 3D6",
    AirCoverPriority.HIGH: "5,6 ½D6 1D6 2D6 1D6 2D6 2D6",
    AirCoverPriority.MODEST: "6 5,6 ½D6 ½D6 1D6 1D6 2D6",
    AirCoverPriority.LOWEST: "None 6 ½D6 ½D6 ½D6 ½D6 1D6",
}


@pytest.mark.parametrize(
    ("priority", "score", "printed"),
    [(p, i - 1, cell) for p, row in PRESENCE_PRINTED.items() for i, cell in enumerate(row.split())],
)
def test_air_presence_every_cell(priority, score, printed):
    assert presence_cell(priority, score).text() == printed


def test_air_presence_table_shape():
    assert all(len(row) == 7 for row in AIR_PRESENCE.values())


@pytest.mark.parametrize("score", [5, 6, 9])
def test_five_or_more_column(score):
    assert presence_cell(AirCoverPriority.LOWEST, score).text() == "1D6"


def test_losing_by_two_or_more_gives_no_presence():
    result = roll_air_presence(AirPresenceInput(AirCoverPriority.TOP, -2), ScriptedDice([]))
    assert result.outcome == 0
    assert result.rolls == ()


@pytest.mark.parametrize(("face", "points"), [(4, 0), (5, 1), (6, 1)])
def test_single_die_chance_cell(face, points):
    result = roll_air_presence(AirPresenceInput(AirCoverPriority.HIGH, -1), ScriptedDice([face]))
    assert result.outcome == points


@pytest.mark.parametrize(("face", "points"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3)])
def test_half_d6_cell_rounds_up(face, points):
    result = roll_air_presence(AirPresenceInput(AirCoverPriority.MODEST, 1), ScriptedDice([face]))
    assert result.outcome == points


def test_dice_cell_sums():
    result = roll_air_presence(AirPresenceInput(AirCoverPriority.TOP, 4), ScriptedDice([6, 5, 4]))
    assert result.outcome == 15


# 000 § 4 (blank boxes from 001): dive bombing, rocket, AT cannon.
ASSETS_PRINTED = {
    AirAssetRow.GERMAN_WEST_1940: ("Yes", "-", ""),
    AirAssetRow.GERMAN_WEST_1944_45: ("-", "Yes", ""),
    AirAssetRow.GERMAN_EAST_1941_42: ("Yes", "-", "Yes*"),
    AirAssetRow.GERMAN_EAST_1943_45: ("-", "Yes", "Yes"),
    AirAssetRow.GERMAN_SOUTHERN_EUROPE_1944: ("Yes*", "", ""),
    AirAssetRow.GERMAN_NORTH_AFRICA_MED_1941_42: ("Yes", "-", ""),
    AirAssetRow.GERMAN_NORTH_AFRICA_MED_1943_44: ("Yes*", "-", ""),
    AirAssetRow.RUSSIAN_1941_42: ("-", "-", ""),
    AirAssetRow.RUSSIAN_1943: ("-", "-", ""),
    AirAssetRow.RUSSIAN_1944_45: ("-", "Yes", "Yes"),
    AirAssetRow.AMERICAN_PACIFIC_1941_43: ("Yes", "-", ""),
    AirAssetRow.AMERICAN_PACIFIC_1944_45: ("Yes", "Yes", ""),
    AirAssetRow.AMERICAN_MED_1943: ("", "-", ""),
    AirAssetRow.AMERICAN_WEST_ITALY_1944_45: ("", "Yes", ""),
    AirAssetRow.JAPANESE_MAINLAND_CHINA: ("Yes", "-", ""),
    AirAssetRow.JAPANESE_PACIFIC_ASIA_1941_43: ("Yes", "-", ""),
    AirAssetRow.JAPANESE_PACIFIC_ASIA_1944_45: ("Yes", "-", "Yes*"),
    AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1940_41: ("-", "-", "-"),
    AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1942_43: ("-", "-", "Yes"),
    AirAssetRow.COMMONWEALTH_MED_1944_45: ("-", "Yes", "Yes"),
    AirAssetRow.COMMONWEALTH_WEST_1940: ("-", "-", "-"),
    AirAssetRow.COMMONWEALTH_WEST_1944: ("-", "Yes", "Yes"),
    AirAssetRow.FRENCH_1940_FIELD_FORCE: ("-", "-", "-"),
    AirAssetRow.FRENCH_1940_FORTRESS: ("-", "-", "-"),
}


@pytest.mark.parametrize(
    ("row", "attack", "printed"),
    [
        (row, attack, cell)
        for row, cells in ASSETS_PRINTED.items()
        for attack, cell in zip(
            (AirAttack.DIVE_BOMBING, AirAttack.ROCKET, AirAttack.AT_CANNON), cells, strict=True
        )
    ],
)
def test_air_assets_every_cell(row, attack, printed):
    assets = lookup_air_assets(AirAssetsInput(row))
    assert dict(assets.marks)[attack].value == printed
    assert (attack in assets.available) == printed.startswith("Yes")


def test_air_assets_rows_complete_and_strafing_everywhere():
    assert set(AIR_ASSETS) == set(ASSETS_PRINTED)
    for row in AirAssetRow:
        available = lookup_air_assets(AirAssetsInput(row)).available
        assert AirAttack.STRAFING in available
        assert AirAttack.LEVEL_BOMBING in available


def test_rare_marked_in_to_dict():
    assets = lookup_air_assets(AirAssetsInput(AirAssetRow.JAPANESE_PACIFIC_ASIA_1944_45))
    assert assets.to_dict()["rare"] == ["AT Cannon"]
    assert AirAssetRow.JAPANESE_PACIFIC_ASIA_1944_45.nation is Nation.JAPANESE
    assert AssetMark.RARE.available
