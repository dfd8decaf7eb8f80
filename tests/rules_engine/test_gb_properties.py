"""Property tests across the Great Battles procedures (seed 004): same seed, same
result; outcomes inside each chart's range; every modifier recorded.

One file per rule system (as test_pk_properties.py, test_n43_properties.py): the
properties are the same for every module, so they are stated once per system.

Part A: seed 004's charts; then § Movement, FAQ 41, FAQ 45 variant 2 and the red/black destroy die.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.dice import SeededDice
from rules_engine.great_battles.action_points import ActionPointInput, roll_action_points
from rules_engine.great_battles.activation import (
    ActivationAttempt,
    ActivationChoice,
    ActivationColumn,
    ActivationRuleError,
    InitiativeInput,
    InitiativeRow,
    ReactivationInput,
    roll_initiative_activation,
    roll_reactivation,
    spend_activation_points,
)
from rules_engine.great_battles.air_attack import AirAttackInput, Aircraft, roll_air_attack
from rules_engine.great_battles.barrage import BarrageEffect, BarrageRollInput, BarrageTarget, roll_barrage
from rules_engine.great_battles.combat import (
    CloseCombatInput,
    CloseCombatOutcome,
    FireInput,
    FireOutcome,
    FireTarget,
    FireWeapon,
    roll_close_combat,
    roll_fire,
)
from rules_engine.great_battles.common import ArmourClass, Cover, Quality
from rules_engine.great_battles.dawn import PlayerOrder, SightingInput, roll_sighting_distance
from rules_engine.great_battles.morale import MoraleInput, MoraleOutcome, RallyInput, roll_morale, roll_rally
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
from rules_engine.great_battles.weather import WeatherInput, roll_weather
from rules_engine.results import Applies
from rules_engine.vocab import Nation, Weather

seeds = st.integers(min_value=0, max_value=10**9)
qualities = st.sampled_from(Quality)
counts = st.integers(min_value=0, max_value=6)


def check_rolls(result):
    for rolled in result.roll_results():
        roll_mods = sum(m.value for m in rolled.modifiers if m.applies_to is Applies.ROLL)
        assert rolled.score == rolled.natural + roll_mods
        assert all(m.value != 0 for m in rolled.modifiers)
        assert rolled.line()
    assert result.to_dict()


def twice(procedure, inputs, seed):
    first = procedure(inputs, SeededDice(seed, "gb-a"))
    assert first == procedure(inputs, SeededDice(seed, "gb-a"))
    check_rolls(first)
    return first


@settings(max_examples=60)
@given(seeds, qualities, st.booleans(), st.booleans())
def test_action_points(seed, quality, hq, divisional):
    result = twice(roll_action_points, ActionPointInput(quality, hq, divisional), seed)
    assert result.outcome in (0, 1, 2)
    assert len(result.modifiers) == hq + divisional


@settings(max_examples=60)
@given(seeds, qualities, counts, counts, st.booleans(), st.sampled_from(Cover), counts)
def test_rally(seed, quality, suppressed, destroyed, hq, cover, in_cover):
    result = twice(roll_rally, RallyInput(quality, suppressed, destroyed, hq, cover, in_cover), seed)
    assert result.outcome is result.succeeded
    assert result.threshold == result.threshold_base + sum(m.value for m in result.modifiers)


@settings(max_examples=80)
@given(
    seeds,
    st.integers(1, 10),
    counts,
    counts,
    st.sampled_from(Cover),
    st.booleans(),
    st.sampled_from(Weather),
    st.booleans(),
    st.booleans(),
)
def test_morale(seed, stands, suppressions, eliminations, cover, c_ops, weather, variant, reactivated):
    inputs = MoraleInput(
        stands, suppressions + 1, eliminations, cover, c_ops, weather, quality_modifiers=variant,
        activated_by_roll=reactivated,
    )  # fmt: skip
    result = twice(roll_morale, inputs, seed)
    assert result.outcome in MoraleOutcome
    assert (result.outcome is MoraleOutcome.PASSES) is result.succeeded


@settings(max_examples=60)
@given(seeds, qualities, st.sampled_from(Nation), counts, counts, st.sampled_from(ActivationAttempt))
def test_reactivation(seed, quality, nation, suppressed, eliminated, attempt):
    result = twice(
        roll_reactivation, ReactivationInput(quality, nation, suppressed, eliminated, attempt), seed
    )
    assert 2 <= result.natural <= 20
    assert result.outcome is result.succeeded


@settings(max_examples=40)
@given(seeds, qualities, st.sampled_from([Nation.GERMAN, Nation.AMERICAN, Nation.BRITISH, Nation.SOVIET]))
def test_initiative(seed, quality, nation):
    result = twice(roll_initiative_activation, InitiativeInput(nation, quality), seed)
    assert result.outcome is result.succeeded


@settings(max_examples=40)
@given(seeds, st.sampled_from(BarrageTarget), st.integers(1, 6), st.booleans())
def test_barrage(seed, target, stands, variant):
    result = twice(roll_barrage, BarrageRollInput(target, stands, variant), seed)
    assert len(result.effects) == stands
    assert variant or BarrageEffect.DESTROYED not in result.effects


@settings(max_examples=40)
@given(seeds, st.integers(0, 3), st.integers(0, 3), st.integers(0, 4))
def test_weather(seed, a, b, c):
    result = twice(roll_weather, WeatherInput(a, a + b, a + b + c), seed)
    assert result.outcome in Weather


@settings(max_examples=40)
@given(seeds, st.integers(1, 10), st.sampled_from(PlayerOrder))
def test_sighting(seed, turn, player):
    result = twice(roll_sighting_distance, SightingInput(turn, player), seed)
    assert result.inches in (3, 6, 12)


@settings(max_examples=80)
@given(
    seeds,
    st.sampled_from(FireWeapon),
    st.floats(0, 12),
    st.sampled_from(FireTarget),
    st.booleans(),
    st.booleans(),
    st.integers(0, 2),
    qualities,
    st.sampled_from(Cover),
)
def test_fire(seed, weapon, range_inches, target, not_activated, op_fire, ammo, quality, cover):
    limit = {FireWeapon.INFANTRY: 8, FireWeapon.SMG: 8}.get(weapon, 12)
    inputs = FireInput(
        weapon,
        min(range_inches, limit),
        target,
        target_not_activated=not_activated,
        opportunity_fire=op_fire,
        ammo_low_markers=ammo,
        destroy_modifiers=True,
        target_quality=quality,
        target_cover=cover,
    )
    result = twice(roll_fire, inputs, seed)
    assert result.outcome in FireOutcome
    assert (result.outcome is FireOutcome.DESTROYED) == bool(result.to_destroy and result.to_destroy.outcome)


@settings(max_examples=60)
@given(
    seeds, qualities, qualities, counts, counts, st.sampled_from(ArmourClass), st.sampled_from(Cover), counts
)
def test_close_combat(seed, aq, dq, au, du, armour, cover, in_cover):
    result = twice(roll_close_combat, CloseCombatInput(aq, dq, au, du, armour, cover, in_cover), seed)
    attacker, defender = result.results
    expected = (
        CloseCombatOutcome.ATTACKER_WINS if attacker.score > defender.score
        else CloseCombatOutcome.DEFENDER_WINS if defender.score > attacker.score
        else CloseCombatOutcome.CONTINUES
    )  # fmt: skip
    assert result.outcome is expected


@given(
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(1, 3), st.integers(0, 10), st.sampled_from(ActivationColumn))),
)
def test_pool_never_goes_negative(pool, raw_choices):
    choices = [ActivationChoice(day, turn, column) for day, turn, column in raw_choices]
    try:
        ledger = spend_activation_points(pool, choices)
    except ActivationRuleError:
        return
    assert 0 <= ledger.remaining <= pool
    assert ledger.spent == sum(choice.cost for choice in choices)


@settings(max_examples=80)
@given(seeds, qualities, st.sampled_from(InitiativeRow), st.booleans())
def test_initiative_by_row_and_points(seed, quality, row, has_points):
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
