"""Property tests for every rolling "1943" procedure (seeds 000 and 002):
same seed → same result; outcomes inside the table's range; every modifier
recorded and the score equal to natural + recorded roll modifiers."""

from dataclasses import dataclass
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rules_engine.nineteen43  # noqa: F401  (registers the slice)
from rules_engine.dice import SeededDice
from rules_engine.nineteen43.air import AirPresenceInput, AirSuperiorityFront, AirSuperiorityInput
from rules_engine.nineteen43.artillery import (
    CounterbatteryInput,
    CounterbatteryTech,
    PlannedFireInput,
    SupportFireInput,
)
from rules_engine.nineteen43.battle import AttackerDecisionInput
from rules_engine.nineteen43.common import (
    AirCoverPriority,
    AirSide,
    BattleRole,
    BattleType,
    CommandSystem,
    PlaceTime,
    ProximityTerrain,
    ReactionProfile,
    TableScale,
    Training,
)
from rules_engine.nineteen43.defences import DefensiveWorksInput
from rules_engine.nineteen43.fuel import FuelSupplyInput
from rules_engine.nineteen43.lulls import LullCheckInput, LullFeatureInput, LullLength
from rules_engine.nineteen43.movement import CommandAction, CommandTestInput, DangerousTerrainInput
from rules_engine.nineteen43.setup import ProximityInput, TroopReactionInput
from rules_engine.registry import PROCEDURES
from rules_engine.results import Applies
from rules_engine.vocab import Front, Nation

years = st.integers(1939, 1945)
fronts = st.none() | st.sampled_from(Front)
fire_fields: dict[str, Any] = {
    "battle_type": st.sampled_from(BattleType),
    "nation": st.sampled_from(Nation),
    "year": years,
    "total_units": st.integers(0, 200),
    "role": st.sampled_from(BattleRole),
    "front": fronts,
    "long_lull_reroll": st.booleans(),
}

INPUTS: dict[str, st.SearchStrategy[Any]] = {
    "n43.attacker_decision": st.builds(
        AttackerDecisionInput, st.sampled_from([BattleType.LOCAL_ATTACK, BattleType.MAJOR_OFFENSIVE])
    ),
    "n43.air_superiority": st.builds(
        AirSuperiorityInput,
        st.sampled_from(AirSuperiorityFront),
        years,
        st.sampled_from(BattleType),
        st.none() | st.sampled_from(AirSide),
        st.booleans(),
    ),
    "n43.air_presence": st.builds(AirPresenceInput, st.sampled_from(AirCoverPriority), st.integers(-4, 9)),
    "n43.planned_fire": st.builds(PlannedFireInput, amphibious_shore_defender=st.booleans(), **fire_fields),
    "n43.support_fire": st.builds(SupportFireInput, **fire_fields),
    "n43.counterbattery": st.builds(
        CounterbatteryInput,
        st.sampled_from([Nation.GERMAN, Nation.BRITISH, Nation.JAPANESE]),
        st.integers(1941, 1945),
        fronts,
    ),
    "n43.setup_proximity": st.builds(
        ProximityInput, st.sampled_from(ProximityTerrain), st.sampled_from(TableScale)
    ),
    "n43.troop_reaction": st.builds(
        TroopReactionInput, st.sampled_from(CommandSystem), st.sampled_from(Training)
    ),
    "n43.lull_check": st.builds(LullCheckInput, st.integers(1, 20), st.integers(1, 6)),
    "n43.lull_feature": st.builds(LullFeatureInput),
    "n43.defensive_works": st.builds(
        DefensiveWorksInput,
        total_bases=st.integers(0, 500),
        row=st.sampled_from([row for row in PlaceTime if row is not PlaceTime.COMMONWEALTH_BURMA_1943_45]),
        role=st.sampled_from(BattleRole),
    ),
    "n43.fuel_supply": st.builds(FuelSupplyInput, st.sampled_from(PlaceTime), out_of_fuel=st.booleans()),
    "n43.command_test": st.builds(
        CommandTestInput,
        st.sampled_from(CommandAction),
        st.integers(1, 7),
        st.booleans(),
        st.integers(0, 3),
        st.integers(0, 3),
        st.booleans(),
        st.booleans(),
        st.none() | st.sampled_from(ReactionProfile),
    ),
    "n43.dangerous_terrain": st.builds(DangerousTerrainInput, st.integers(2, 12), st.integers(2, 12)),
}


def test_every_rolling_procedure_has_a_strategy():
    rolling = {key for key, entry in PROCEDURES.items() if key.startswith("n43.") and entry.rolls}
    assert rolling == set(INPUTS)


@dataclass(frozen=True)
class Case:
    key: str
    inputs: Any
    seed: int


cases = st.sampled_from(sorted(INPUTS)).flatmap(
    lambda key: st.builds(Case, st.just(key), INPUTS[key], st.integers(0, 10**6))
)


def _run(case: Case) -> Any:
    return PROCEDURES[case.key].func(case.inputs, SeededDice(case.seed, "n43", case.key))


@settings(max_examples=400, deadline=None)
@given(cases)
def test_same_seed_same_result(case):
    assert _run(case).to_dict() == _run(case).to_dict()


@settings(max_examples=400, deadline=None)
@given(cases)
def test_score_is_natural_plus_recorded_modifiers(case):
    for result in _run(case).roll_results():
        roll_mods = sum(m.value for m in result.modifiers if m.applies_to is Applies.ROLL)
        assert result.score == result.natural + roll_mods
        assert result.rule.seed_file in ("000_37d048cd6b3f801d.txt", "002_aa433387fee19918.txt")
        assert result.line()


@settings(max_examples=300, deadline=None)
@given(
    st.builds(PlannedFireInput, amphibious_shore_defender=st.booleans(), **fire_fields), st.integers(0, 10**6)
)
def test_planned_fire_within_table_range(inputs, seed):
    result = PROCEDURES["n43.planned_fire"].func(inputs, SeededDice(seed))
    # The largest multiplier is .80; nothing is negative.
    assert 0 <= result.outcome <= (80 * inputs.total_units + 50) // 100
    applied = {m.name for m in result.modifiers}
    if inputs.long_lull_reroll and not inputs.amphibious_shore_defender:
        assert "long lull extra roll" in applied


@settings(max_examples=200, deadline=None)
@given(INPUTS["n43.air_presence"], st.integers(0, 10**6))
def test_air_presence_within_range(inputs, seed):
    assert 0 <= PROCEDURES["n43.air_presence"].func(inputs, SeededDice(seed)).outcome <= 18


@settings(max_examples=200, deadline=None)
@given(INPUTS["n43.air_superiority"], st.integers(0, 10**6))
def test_air_superiority_scores_mirror(inputs, seed):
    result = PROCEDURES["n43.air_superiority"].func(inputs, SeededDice(seed))
    axis, allies = result.results
    assert axis.outcome == -allies.outcome == axis.score - allies.score


@settings(max_examples=200, deadline=None)
@given(INPUTS["n43.counterbattery"], st.integers(0, 10**6))
def test_counterbattery_outcome_is_a_tech(inputs, seed):
    assert isinstance(
        PROCEDURES["n43.counterbattery"].func(inputs, SeededDice(seed)).outcome, CounterbatteryTech
    )


@settings(max_examples=200, deadline=None)
@given(INPUTS["n43.fuel_supply"], st.integers(0, 10**6))
def test_fuel_within_columns(inputs, seed):
    supply = PROCEDURES["n43.fuel_supply"].func(inputs, SeededDice(seed))
    if inputs.out_of_fuel:
        assert supply.turns_of_fuel == 0
    else:
        assert 4 <= supply.turns_of_fuel <= 8
    assert 2 <= supply.refuel_delay_turns <= 6
    assert supply.refuel_bases_per_turn in (3, 6, 9, 12, 15)


@settings(max_examples=200, deadline=None)
@given(INPUTS["n43.lull_check"], st.integers(0, 10**6))
def test_lull_only_on_six_from_start_turn(inputs, seed):
    result = PROCEDURES["n43.lull_check"].func(inputs, SeededDice(seed))
    if inputs.turn < inputs.start_turn:
        assert result.outcome is None
        assert not result.rolls
    elif result.natural == 6:
        assert result.outcome is (LullLength.LONG if inputs.turn >= 7 else LullLength.SHORT)
    else:
        assert result.outcome is None
