"""Property tests for the Great Battles part A procedures (seed 004): same seed,
same result; outcomes inside each chart's range; every modifier recorded."""

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
    ReactivationInput,
    roll_initiative_activation,
    roll_reactivation,
    spend_activation_points,
)
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
