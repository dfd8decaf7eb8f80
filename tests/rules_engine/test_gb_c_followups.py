"""Part C follow-ups, seed 004:

* FAQ 45 variant 2) "Initiative" Activation — the 1D20 roll with no activation
  points left, every cell of the nation x morale chart;
* Gun Fire "Variant" box, All fire types Destroy Modifiers, Summary of Variants
  (May 2003) Fire — the red/black 20-sided destroy die, every face;
* Summary of Variants (May 2003) Supply (Ammo) — -1 to hit per ammo-low marker
  in the fire roll;
* FAQ 41 — air attacks, every destroy number and every barrage-roll row.
"""

import pytest

from rules_engine.dice import DiceKind, DiceRoll, ScriptedDice, roll, total_range
from rules_engine.great_battles import variants
from rules_engine.great_battles.activation import InitiativeInput, InitiativeRow, roll_initiative_activation
from rules_engine.great_battles.air_attack import (
    AIR_ATTACK_DESTROY,
    AirAttackInput,
    AirAttackRow,
    Aircraft,
    roll_air_attack,
)
from rules_engine.great_battles.barrage import BarrageEffect, BarrageTarget
from rules_engine.great_battles.combat import (
    FireInput,
    FireOutcome,
    FireTarget,
    FireWeapon,
    ammo_to_hit_modifier,
    read_red_black_die,
    roll_fire,
)
from rules_engine.great_battles.common import Cover, Quality
from rules_engine.results import Applies
from rules_engine.vocab import Nation

QUALITIES = (Quality.RAW, Quality.INFERIOR, Quality.AVERAGE, Quality.EXPERIENCED, Quality.VETERAN)
# FAQ 45 variant 2, "Morale: R I A E V", typed from the seed.
INITIATIVE = {
    InitiativeRow.GERMAN: (4, 5, 6, 7, 8),
    InitiativeRow.US: (3, 4, 5, 6, 7),
    InitiativeRow.COMMONWEALTH: (2, 3, 4, 5, 6),
    InitiativeRow.SOVIET: (1, 2, 3, 4, 5),
}


def test_d20_kind():
    assert DiceKind.D20.value == "d20"
    assert total_range(DiceKind.D20) == (1, 20)
    assert roll(DiceKind.D20, ScriptedDice([20])).total == 20


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
        "d20 14 ≤ 6 [German Average] → not activated"
    )


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
        "To destroy, Dismounted target: d20 [15]=5 ≤ 4 (6 -1 Veteran target -1 target in hard cover) "
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


# --- FAQ 41 air attacks ----------------------------------------------------------------

# FAQ 41 destroy numbers; chart 5 barrage-roll suppression numbers, typed from the seed.
DESTROY = {
    AirAttackRow.FIGHTER_BOMBER: 2,
    AirAttackRow.ROCKETS: 3,
    AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER: 4,
}
SUPPRESS = {
    BarrageTarget.ACTIVATED_IN_OPEN: 8,
    BarrageTarget.NOT_ACTIVATED_OR_SOFT_COVER: 6,
    BarrageTarget.HARD_COVER: 4,
    BarrageTarget.BUNKER: 2,
}
ATTACKS = {
    AirAttackRow.FIGHTER_BOMBER: (Aircraft.FIGHTER_BOMBER, False),
    AirAttackRow.ROCKETS: (Aircraft.ROCKET_EQUIPPED, False),
    AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER: (Aircraft.ROCKET_EQUIPPED, True),
}


def test_air_attack_table_matches_print():
    assert AIR_ATTACK_DESTROY == DESTROY


@pytest.mark.parametrize(
    ("row", "target", "face"),
    [(row, target, face) for row in DESTROY for target in SUPPRESS for face in range(1, 11)],
)
def test_air_attack_every_row_target_and_face(row, target, face):
    aircraft, vehicle = ATTACKS[row]
    if target is BarrageTarget.BUNKER and aircraft is Aircraft.ROCKET_EQUIPPED:
        row = AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER  # rockets on a bunker read the "4" line
    result = roll_air_attack(AirAttackInput(aircraft, target, vehicle), ScriptedDice([face]))
    if face <= DESTROY[row]:
        expected = BarrageEffect.DESTROYED
    elif face <= SUPPRESS[target]:
        expected = BarrageEffect.SUPPRESSED
    else:
        expected = BarrageEffect.NO_EFFECT
    assert result.outcome is expected
    assert result.cell.startswith(f"{row.value}: destroy 1-{DESTROY[row]}")


def test_air_attack_without_barrage_suppression():
    inputs = AirAttackInput(
        Aircraft.FIGHTER_BOMBER, BarrageTarget.ACTIVATED_IN_OPEN, suppress_as_barrage=False
    )
    assert roll_air_attack(inputs, ScriptedDice([3])).outcome is BarrageEffect.NO_EFFECT
    assert roll_air_attack(inputs, ScriptedDice([2])).outcome is BarrageEffect.DESTROYED


def test_air_attack_only_in_full_daylight():
    with pytest.raises(ValueError, match="full daylight"):
        roll_air_attack(
            AirAttackInput(Aircraft.FIGHTER_BOMBER, BarrageTarget.HARD_COVER, full_daylight=False),
            ScriptedDice([1]),
        )


def test_air_attack_line():
    result = roll_air_attack(
        AirAttackInput(Aircraft.ROCKET_EQUIPPED, BarrageTarget.HARD_COVER, target_is_vehicle=True),
        ScriptedDice([4]),
    )
    assert result.line() == (
        "Air attack, rocket equipped on a vehicle: d10 4 [rocket equipped attacking vehicle and/or "
        "bunker: destroy 1-4; In Hard Cover: suppress 1-4] → destroyed"
    )
    assert isinstance(result.rolls[0], DiceRoll)
    assert result.to_dict()["outcome"] == "destroyed"
