"""004 § Infantry Fire, SMG Fire, Gun Fire [14.4] (chart v4 range bands), To Hit
Modifiers [14.4.8], Destroy Modifiers (variant), FAQ 1, § Summary of Variants
(May 2003) Move/Supply, and § 9. Close Combat [14.8.2] — every cell.

Also the Gun Fire "Variant" box, All fire types Destroy Modifiers, Summary of Variants
(May 2003) Fire — the red/black 20-sided destroy die, every face; and Summary of
Variants (May 2003) Supply (Ammo) — -1 to hit per ammo-low marker in the fire roll.
"""

import pytest

from rules_engine.dice import DiceKind, ScriptedDice, roll
from rules_engine.great_battles import variants
from rules_engine.great_battles.combat import (
    CloseCombatInput,
    CloseCombatOutcome,
    FireInput,
    FireOutcome,
    FireTarget,
    FireWeapon,
    ammo_to_hit_modifier,
    close_combat_modifiers,
    read_red_black_die,
    roll_close_combat,
    roll_fire,
)
from rules_engine.great_battles.common import ArmourClass, Cover, Quality
from rules_engine.results import Applies

T = FireTarget
X = None  # printed "-"

# weapon: (range columns, to hit, {target: to destroy}) typed from the charts.
PRINTED_FIRE: dict[
    FireWeapon, tuple[tuple[float, ...], tuple[int, ...], dict[FireTarget, tuple[int | None, ...]]]
] = {
    FireWeapon.INFANTRY: (
        (1, 2, 3, 8),
        (6, 4, 2, 1),
        {T.DISMOUNTED: (6, 4, 2, 1), T.SOFT_VEHICLE: (6, 6, 6, 6), T.LIGHT_ARMOUR: (4, X, X, X),
         T.MEDIUM_ARMOUR: (4, X, X, X), T.HEAVY_ARMOUR: (4, X, X, X), T.SUPERHEAVY_ARMOUR: (4, X, X, X)},
    ),
    FireWeapon.SMG: (
        (1, 2, 8),
        (6, 4, 1),
        {T.DISMOUNTED: (6, 4, 1), T.SOFT_VEHICLE: (6, 6, 6), T.LIGHT_ARMOUR: (4, X, X),
         T.MEDIUM_ARMOUR: (4, X, X), T.HEAVY_ARMOUR: (4, X, X), T.SUPERHEAVY_ARMOUR: (4, X, X)},
    ),
    FireWeapon.LIGHT_GUN: (
        (3, 6, 9, 12),
        (8, 8, 4, 1),
        {T.DISMOUNTED: (2, 2, 2, 2), T.SOFT_VEHICLE: (6, 6, 6, 6), T.LIGHT_ARMOUR: (4, 3, 1, X),
         T.MEDIUM_ARMOUR: (1, X, X, X), T.HEAVY_ARMOUR: (X, X, X, X), T.SUPERHEAVY_ARMOUR: (X, X, X, X)},
    ),
    FireWeapon.MEDIUM_GUN: (
        (3, 6, 9, 12),
        (8, 8, 6, 3),
        {T.DISMOUNTED: (2, 2, 2, 2), T.SOFT_VEHICLE: (6, 6, 6, 6), T.LIGHT_ARMOUR: (6, 6, 5, 4),
         T.MEDIUM_ARMOUR: (3, 3, 2, X), T.HEAVY_ARMOUR: (1, X, X, X), T.SUPERHEAVY_ARMOUR: (X, X, X, X)},
    ),
    FireWeapon.HEAVY_GUN: (
        (3, 6, 9, 12),
        (8, 8, 6, 3),
        {T.DISMOUNTED: (2, 2, 2, 2), T.SOFT_VEHICLE: (6, 6, 6, 6), T.LIGHT_ARMOUR: (6, 6, 5, 5),
         T.MEDIUM_ARMOUR: (6, 6, 5, 4), T.HEAVY_ARMOUR: (4, 3, 2, 1), T.SUPERHEAVY_ARMOUR: (1, X, X, X)},
    ),
    FireWeapon.SUPERHEAVY_GUN: (
        (3, 6, 9, 12),
        (8, 8, 8, 5),
        {T.DISMOUNTED: (2, 2, 2, 2), T.SOFT_VEHICLE: (6, 6, 6, 6), T.LIGHT_ARMOUR: (6, 6, 6, 5),
         T.MEDIUM_ARMOUR: (6, 6, 6, 5), T.HEAVY_ARMOUR: (6, 6, 5, 5), T.SUPERHEAVY_ARMOUR: (6, 4, 2, 1)},
    ),
}  # fmt: skip


@pytest.mark.parametrize(
    ("weapon", "range_inches", "number"),
    [(w, r, n) for w, (ranges, hits, _) in PRINTED_FIRE.items() for r, n in zip(ranges, hits, strict=False)],
)
def test_to_hit_every_cell(weapon, range_inches, number):
    inputs = FireInput(weapon, range_inches, FireTarget.DISMOUNTED)
    assert roll_fire(inputs, ScriptedDice([number, 10])).to_hit.outcome is True
    if number < 10:
        assert roll_fire(inputs, ScriptedDice([number + 1])).outcome is FireOutcome.MISS


@pytest.mark.parametrize(
    ("weapon", "range_inches", "target", "number"),
    [
        (w, r, target, n)
        for w, (ranges, _, destroy) in PRINTED_FIRE.items()
        for target, row in destroy.items()
        for r, n in zip(ranges, row, strict=False)
    ],
)
def test_to_destroy_every_cell(weapon, range_inches, target, number):
    inputs = FireInput(weapon, range_inches, target)
    if number is None:
        result = roll_fire(inputs, ScriptedDice([1]))
        assert (result.outcome, result.to_destroy) == (FireOutcome.SUPPRESSED, None)
        return
    assert roll_fire(inputs, ScriptedDice([1, number])).outcome is FireOutcome.DESTROYED
    if number < 10:
        assert roll_fire(inputs, ScriptedDice([1, number + 1])).outcome is FireOutcome.SUPPRESSED


@pytest.mark.parametrize(
    ("weapon", "range_inches", "column_top"),
    [(FireWeapon.INFANTRY, 2.5, 3), (FireWeapon.INFANTRY, 4, 8), (FireWeapon.SMG, 1.5, 2),
     (FireWeapon.LIGHT_GUN, 4, 6), (FireWeapon.HEAVY_GUN, 10, 12)],
)  # fmt: skip
def test_ranges_between_columns_read_the_next_column(weapon, range_inches, column_top):
    result = roll_fire(FireInput(weapon, range_inches, FireTarget.DISMOUNTED), ScriptedDice([10]))
    assert result.to_hit.cell == f'{weapon.value} ≤{column_top}"'


@pytest.mark.parametrize(
    ("weapon", "range_inches"), [(FireWeapon.INFANTRY, 8.5), (FireWeapon.MEDIUM_GUN, 13)]
)
def test_out_of_range(weapon, range_inches):
    with pytest.raises(ValueError, match="out of range"):
        roll_fire(FireInput(weapon, range_inches, FireTarget.DISMOUNTED), ScriptedDice([1]))


def test_indirect_fire_reads_8_inches_even_when_closer():
    result = roll_fire(
        FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, indirect=True), ScriptedDice([2])
    )
    assert result.to_hit.cell == 'Infantry Fire ≤8"'
    assert result.outcome is FireOutcome.MISS


def test_unmodified_1_always_hits_in_range():
    inputs = FireInput(FireWeapon.INFANTRY, 8, FireTarget.DISMOUNTED, opportunity_fire=True)
    result = roll_fire(inputs, ScriptedDice([1, 10]))
    assert result.to_hit.outcome is True
    assert "a 1 always hits" in result.to_hit.outcome_text


@pytest.mark.parametrize(
    ("flag", "shift"),
    [
        ("target_on_road", 2),
        ("target_in_column", 1),
        ("target_not_activated", -2),
        ("opportunity_fire", -3),
        ("outside_front_arc", -2),
        ("heavy_weapons_bonus", 2),
        ("target_in_cover_to_hit", -1),
        ("target_riding_on_tanks", 2),
    ],
)
def test_to_hit_modifiers(flag, shift):
    inputs = FireInput(FireWeapon.INFANTRY, 2, FireTarget.DISMOUNTED, **{flag: True})
    assert roll_fire(inputs, ScriptedDice([10])).to_hit.threshold == 4 + shift


def test_ammo_low_markers_minus_1_each():
    inputs = FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, ammo_low_markers=2)
    assert roll_fire(inputs, ScriptedDice([10])).to_hit.threshold == 4


def test_heavy_weapons_bonus_is_infantry_only():
    with pytest.raises(ValueError, match="infantry only"):
        roll_fire(
            FireInput(FireWeapon.LIGHT_GUN, 2, FireTarget.DISMOUNTED, heavy_weapons_bonus=True),
            ScriptedDice([1]),
        )


@pytest.mark.parametrize(
    ("quality", "cover", "shift"),
    [
        (Quality.RAW, Cover.OPEN, 1), (Quality.INFERIOR, Cover.OPEN, 1), (Quality.AVERAGE, Cover.OPEN, 0),
        (Quality.EXPERIENCED, Cover.OPEN, -1), (Quality.VETERAN, Cover.OPEN, -1),
        (Quality.AVERAGE, Cover.SOFT, -1), (Quality.AVERAGE, Cover.HARD, -1),
        (Quality.AVERAGE, Cover.BUNKER, -2), (Quality.RAW, Cover.BUNKER, -1),
    ],
)  # fmt: skip
def test_destroy_modifiers_variant(quality, cover, shift):
    inputs = FireInput(
        FireWeapon.INFANTRY,
        1,
        FireTarget.DISMOUNTED,
        destroy_modifiers=True,
        target_quality=quality,
        target_cover=cover,
    )
    result = roll_fire(inputs, ScriptedDice([1, 10]))
    assert result.to_destroy is not None
    assert result.to_destroy.threshold == 6 + shift
    stock = roll_fire(
        FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, target_quality=quality),
        ScriptedDice([1, 10]),
    )
    assert stock.to_destroy is not None
    assert stock.to_destroy.threshold == 6


def _mods(**kwargs):
    base = {"attacker_quality": Quality.AVERAGE, "defender_quality": Quality.AVERAGE,
            "attacker_unsuppressed": 3, "defender_unsuppressed": 3}  # fmt: skip
    attacker, defender = close_combat_modifiers(CloseCombatInput(**(base | kwargs)))
    return sum(m.value for m in attacker), sum(m.value for m in defender)


@pytest.mark.parametrize(
    ("kwargs", "expected"),
    [
        ({"attacker_armour": ArmourClass.MEDIUM}, (4, 0)),
        ({"attacker_armour": ArmourClass.HEAVY, "defender_cover": Cover.HARD}, (1, 0)),
        ({"attacker_armour": ArmourClass.LIGHT}, (3, 0)),
        ({"attacker_armour": ArmourClass.LIGHT, "defender_cover": Cover.SOFT}, (0, 0)),
        ({"attacker_armour": ArmourClass.SUPERHEAVY}, (5, 0)),
        ({"defender_cover": Cover.SOFT, "defender_stands_in_cover": 2}, (0, 2)),
        ({"defender_cover": Cover.SOFT, "defender_stands_in_cover": 1}, (0, 0)),
        ({"defender_cover": Cover.HARD, "defender_stands_in_cover": 3}, (0, 3)),
        ({"defender_cover": Cover.BUNKER, "defender_stands_in_cover": 2}, (0, 4)),
        ({"defender_cover": Cover.CREST, "defender_stands_in_cover": 2}, (0, 0)),
        ({"defender_at_gun_attached": True}, (0, 2)),
        ({"defender_heavy_weapons_attached": True}, (0, 2)),
        ({"attacker_smg": True}, (2, 0)),
        ({"defender_smg": True}, (0, 2)),
        ({"attacker_quality": Quality.VETERAN}, (2, 0)),
        ({"defender_quality": Quality.EXPERIENCED, "attacker_quality": Quality.RAW}, (0, 3)),
        ({"attacker_unsuppressed": 5}, (2, 0)),
        ({"defender_unsuppressed": 4}, (0, 1)),
    ],
)
def test_close_combat_modifiers(kwargs, expected):
    assert _mods(**kwargs) == expected


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [((6, 5), CloseCombatOutcome.ATTACKER_WINS), ((5, 6), CloseCombatOutcome.DEFENDER_WINS),
     ((5, 5), CloseCombatOutcome.CONTINUES)],
)  # fmt: skip
def test_close_combat_higher_score_wins(faces, outcome):
    inputs = CloseCombatInput(Quality.AVERAGE, Quality.AVERAGE, 3, 3)
    assert roll_close_combat(inputs, ScriptedDice(list(faces))).outcome is outcome


def test_close_combat_modifiers_decide():
    inputs = CloseCombatInput(
        Quality.AVERAGE, Quality.AVERAGE, 3, 3, defender_cover=Cover.BUNKER, defender_stands_in_cover=2
    )
    result = roll_close_combat(inputs, ScriptedDice([9, 6]))
    assert [r.score for r in result.results] == [9, 10]
    assert result.outcome is CloseCombatOutcome.DEFENDER_WINS


# --- the red/black destroy die ------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "number", "red"),
    [(f, f, False) for f in range(1, 11)] + [(f, f - 10, True) for f in range(11, 21)],
)
def test_red_black_die_every_face(face, number, red):
    read, is_red = read_red_black_die(roll(DiceKind.D20, ScriptedDice([face])))
    assert (read.faces, read.total, is_red) == ((face,), number, red)


VETERAN_IN_HARD_COVER = {"target_quality": Quality.VETERAN, "target_cover": Cover.HARD}


@pytest.mark.parametrize(
    ("destroy_face", "outcome"),
    [(6, FireOutcome.DESTROYED), (7, FireOutcome.SUPPRESSED), (10, FireOutcome.SUPPRESSED)],
)
def test_black_number_reads_the_stock_chart(destroy_face, outcome):
    inputs = FireInput(
        FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, red_black_destroy_die=True, **VETERAN_IN_HARD_COVER
    )
    result = roll_fire(inputs, ScriptedDice([1, destroy_face]))
    assert result.to_destroy is not None
    assert result.to_destroy.modifiers == ()
    assert result.to_destroy.cell.endswith("black number")
    assert result.outcome is outcome


@pytest.mark.parametrize(
    ("destroy_face", "outcome"),
    [(11, FireOutcome.DESTROYED), (14, FireOutcome.DESTROYED), (15, FireOutcome.SUPPRESSED)],
)
def test_red_number_brings_in_the_destroy_modifiers(destroy_face, outcome):
    inputs = FireInput(
        FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, red_black_destroy_die=True, **VETERAN_IN_HARD_COVER
    )
    result = roll_fire(inputs, ScriptedDice([1, destroy_face]))
    destroy = result.to_destroy
    assert destroy is not None
    assert [(m.name, m.value) for m in destroy.modifiers] == [
        ("Veteran target", -1),
        ("target in hard cover", -1),
    ]
    assert destroy.threshold == 4
    assert destroy.natural == destroy_face - 10
    assert destroy.cell.endswith("red number")
    assert result.outcome is outcome


@pytest.mark.parametrize(
    ("quality", "shift"), [(Quality.RAW, 1), (Quality.INFERIOR, 1), (Quality.AVERAGE, 0)]
)
def test_red_number_quality_modifiers(quality, shift):
    inputs = FireInput(
        FireWeapon.INFANTRY, 2, FireTarget.DISMOUNTED, red_black_destroy_die=True, target_quality=quality
    )
    destroy = roll_fire(inputs, ScriptedDice([1, 20])).to_destroy
    assert destroy is not None
    assert destroy.threshold == 4 + shift


def test_faq1_override_applies_modifiers_on_a_black_number_too():
    inputs = FireInput(
        FireWeapon.INFANTRY,
        1,
        FireTarget.DISMOUNTED,
        red_black_destroy_die=True,
        destroy_modifiers=True,
        **VETERAN_IN_HARD_COVER,
    )
    destroy = roll_fire(inputs, ScriptedDice([1, 5])).to_destroy
    assert destroy is not None
    assert destroy.threshold == 4
    assert destroy.cell.endswith("black number")


def test_red_black_die_line():
    inputs = FireInput(
        FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, red_black_destroy_die=True, **VETERAN_IN_HARD_COVER
    )
    destroy = roll_fire(inputs, ScriptedDice([1, 15])).to_destroy
    assert destroy is not None
    assert destroy.line() == (
        "To destroy, Dismounted target: d20 [15] = 5 ≤ 4 (6 -1 Veteran target -1 target in hard cover) "
        '[Infantry Fire ≤1" Dismounted, red number] → suppressed'
    )


def test_no_destroy_die_on_a_miss_or_a_dash():
    inputs = FireInput(FireWeapon.INFANTRY, 2, FireTarget.MEDIUM_ARMOUR, red_black_destroy_die=True)
    dice = ScriptedDice([1])
    assert roll_fire(inputs, dice).outcome is FireOutcome.SUPPRESSED
    assert dice.remaining == 0
    miss = roll_fire(
        FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, red_black_destroy_die=True),
        ScriptedDice([7]),
    )
    assert miss.to_destroy is None


# --- ammo-low markers --------------------------------------------------------------


@pytest.mark.parametrize(("markers", "needed"), [(0, 6), (1, 5), (2, 4), (3, 3)])
def test_ammo_low_markers_recorded_on_the_to_hit_number(markers, needed):
    inputs = FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, ammo_low_markers=markers)
    to_hit = roll_fire(inputs, ScriptedDice([10])).to_hit
    assert to_hit.threshold == needed
    expected = [(f"ammo low ×{markers}", -markers, Applies.THRESHOLD)] if markers else []
    assert [(m.name, m.value, m.applies_to) for m in to_hit.modifiers] == expected


def test_ammo_low_modifier_is_one_helper():
    assert variants.ammo_to_hit_modifier is ammo_to_hit_modifier
    inputs = FireInput(FireWeapon.MEDIUM_GUN, 5, FireTarget.LIGHT_ARMOUR, ammo_low_markers=2)
    assert roll_fire(inputs, ScriptedDice([10])).to_hit.modifiers == (ammo_to_hit_modifier(2),)


def test_ammo_low_below_one_still_hits_on_a_natural_1():
    inputs = FireInput(FireWeapon.INFANTRY, 8, FireTarget.DISMOUNTED, ammo_low_markers=2)
    to_hit = roll_fire(inputs, ScriptedDice([1, 10])).to_hit
    assert to_hit.threshold == -1
    assert to_hit.outcome is True
    assert "ammo low ×2" in to_hit.line()


def test_negative_ammo_markers_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        roll_fire(
            FireInput(FireWeapon.INFANTRY, 1, FireTarget.DISMOUNTED, ammo_low_markers=-1), ScriptedDice([1])
        )
