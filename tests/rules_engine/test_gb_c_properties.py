"""Property tests for the Great Battles part C procedures (seed 004 § Movement,
FAQ 41, FAQ 45 variant 2, the red/black destroy die): same seed, same result;
outcomes inside each chart's range; every modifier recorded."""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.dice import SeededDice
from rules_engine.great_battles.activation import InitiativeInput, InitiativeRow, roll_initiative_activation
from rules_engine.great_battles.air_attack import AirAttackInput, Aircraft, roll_air_attack
from rules_engine.great_battles.barrage import BarrageEffect, BarrageTarget
from rules_engine.great_battles.combat import FireInput, FireOutcome, FireTarget, FireWeapon, roll_fire
from rules_engine.great_battles.common import Cover, Quality
from rules_engine.great_battles.movement import (
    MOVEMENT_RATES,
    BadGoingChoice,
    BadGoingSuppressionInput,
    Formation,
    Going,
    MovementInput,
    Mover,
    lookup_movement_rate,
    roll_bad_going_suppression,
)
from rules_engine.results import Applies
from rules_engine.vocab import Nation

seeds = st.integers(min_value=0, max_value=10**9)
qualities = st.sampled_from(Quality)


def twice(procedure, inputs, seed):
    first = procedure(inputs, SeededDice(seed, "gb-c"))
    assert first == procedure(inputs, SeededDice(seed, "gb-c"))
    for rolled in first.roll_results():
        roll_mods = sum(m.value for m in rolled.modifiers if m.applies_to is Applies.ROLL)
        assert rolled.score == rolled.natural + roll_mods
        assert all(m.value != 0 for m in rolled.modifiers)
        assert rolled.line()
    assert first.to_dict()
    return first


@settings(max_examples=80)
@given(seeds, qualities, st.sampled_from(InitiativeRow), st.booleans())
def test_initiative(seed, quality, row, has_points):
    inputs = InitiativeInput(Nation.POLISH, quality, row=row, side_has_activation_points=has_points)
    result = twice(roll_initiative_activation, inputs, seed)
    assert 1 <= result.natural <= (10 if has_points else 20)
    assert result.outcome is (result.natural <= result.threshold)


@settings(max_examples=80)
@given(
    seeds,
    st.sampled_from(FireWeapon),
    st.floats(0, 12),
    st.sampled_from(FireTarget),
    st.integers(0, 3),
    qualities,
    st.sampled_from(Cover),
    st.booleans(),
)
def test_fire_with_red_black_die(seed, weapon, range_inches, target, ammo, quality, cover, every_shot):
    limit = {FireWeapon.INFANTRY: 8, FireWeapon.SMG: 8}.get(weapon, 12)
    inputs = FireInput(
        weapon,
        min(range_inches, limit),
        target,
        ammo_low_markers=ammo,
        red_black_destroy_die=True,
        destroy_modifiers=every_shot,
        target_quality=quality,
        target_cover=cover,
    )
    result = twice(roll_fire, inputs, seed)
    assert result.outcome in FireOutcome
    assert result.to_hit.threshold == result.to_hit.threshold_base + sum(
        m.value for m in result.to_hit.modifiers
    )
    destroy = result.to_destroy
    if destroy is not None:
        assert 1 <= destroy.natural <= 10
        assert destroy.rolls[0].faces[0] in (destroy.natural, destroy.natural + 10)
        red = destroy.rolls[0].faces[0] > 10
        if not (red or every_shot):
            assert destroy.modifiers == ()
        assert destroy.outcome is (destroy.natural <= destroy.threshold)


@settings(max_examples=80)
@given(
    st.lists(st.sampled_from(Mover), min_size=1, max_size=4),
    st.sampled_from(Going),
    st.sampled_from(Formation),
    st.booleans(),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_movement_rate_is_a_chart_cell_or_its_variant(
    movers, going, formation, suppressed, set_up, rolling, cells
):
    choice = (
        BadGoingChoice.ROLL_FOR_SUPPRESSION if rolling and going is Going.BAD else BadGoingChoice.PRINTED_RATE
    )
    inputs = MovementInput(
        tuple(movers),
        going,
        formation,
        suppressed_stands=suppressed,
        set_up_weapons=set_up,
        bad_going_choice=choice,
        foot_cells_include_reduction=cells,
    )
    rate = lookup_movement_rate(inputs)
    assert rate == lookup_movement_rate(inputs)
    assert rate.inches == min(r.inches for r in rate.rates)
    printed = {cell for row in MOVEMENT_RATES.values() for cell in row.values() if cell is not None}
    for mover_rate in rate.rates:
        assert mover_rate.printed in printed
        assert mover_rate.inches in (
            mover_rate.printed,
            mover_rate.printed * 1.5,
            mover_rate.printed + 0.5,
            mover_rate.printed - 0.5,
        )
        assert mover_rate.inches > 0
        assert (mover_rate.inches != mover_rate.printed) <= bool(mover_rate.adjustment)
    assert rate.to_dict()["line"] == rate.line()


@settings(max_examples=80)
@given(seeds, st.integers(1, 14))
def test_bad_going_suppression(seed, stands):
    result = twice(roll_bad_going_suppression, BadGoingSuppressionInput(stands), seed)
    assert result.outcome is None or 1 <= result.outcome <= min(stands, 10)
    assert (result.outcome is not None) is result.succeeded


@settings(max_examples=80)
@given(seeds, st.sampled_from(Aircraft), st.sampled_from(BarrageTarget), st.booleans(), st.booleans())
def test_air_attack(seed, aircraft, target, vehicle, suppress):
    inputs = AirAttackInput(aircraft, target, vehicle, suppress_as_barrage=suppress)
    result = twice(roll_air_attack, inputs, seed)
    assert result.outcome in BarrageEffect
    if not suppress:
        assert result.outcome is not BarrageEffect.SUPPRESSED
