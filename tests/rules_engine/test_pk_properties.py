"""Property tests for every Panzer Korps rolling procedure (seed 003): the same
seeded stream gives the same result, outcomes stay inside their chart, every
modifier is recorded and each score is the natural roll plus its roll
modifiers."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import rules_engine.panzer_korps  # noqa: F401  (registration)
from rules_engine.dice import DiceKind, SeededDice
from rules_engine.panzer_korps import (
    air_combat,
    arrival,
    close_assault,
    day_segments,
    decision_dice,
    fieldworks,
    fire,
    leaders,
    morale,
    movement,
    night,
    spotting,
    terrain,
    wind,
)
from rules_engine.panzer_korps.common import Band, BattlefieldCondition, Cover, Quality, band_for
from rules_engine.registry import PROCEDURES
from rules_engine.results import Applies
from rules_engine.vocab import DaySegment, LeaderRating, Nation

seeds = st.text(min_size=1, max_size=12)
small = st.integers(min_value=0, max_value=6)
years = st.integers(min_value=1936, max_value=1945)
conditions = st.lists(st.sampled_from(BattlefieldCondition), max_size=3).map(tuple)
leaders_ = st.sampled_from(LeaderRating)
ground_quality = st.sampled_from(Quality)
air_quality = st.sampled_from([q for q in Quality if q is not Quality.PARTISAN])


def check_scores(result: Any) -> None:
    for r in result.roll_results():
        roll_mods = [m for m in r.modifiers if m.applies_to is Applies.ROLL]
        assert all(m.value != 0 for m in r.modifiers)
        assert r.score == r.natural + sum(m.value for m in roll_mods)
        assert r.procedure.startswith("pk.")
        assert r.line()


def same_twice(func: Any, inputs: Any, seed: str) -> Any:
    first = func(inputs, SeededDice(seed, "pk"))
    assert first.to_dict() == func(inputs, SeededDice(seed, "pk")).to_dict()
    check_scores(first)
    return first


def in_bands(bands: tuple[Band[Any], ...], outcome: Any) -> bool:
    return outcome in {b.value for b in bands}


segment_inputs = st.builds(
    day_segments.SegmentTurnsInput,
    segment=st.sampled_from(DaySegment),
    co_ratings=st.lists(leaders_, min_size=1, max_size=4).map(tuple),
    conditions=conditions,
    battle_day=st.integers(1, 4),
    reservist_or_worse_percent=st.integers(0, 100),
    forcing_commander=st.none() | leaders_,
    average_rounding=st.sampled_from(day_segments.Rounding),
)


@given(segment_inputs, seeds)
def test_segment_turns(inputs, seed):
    result = same_twice(day_segments.roll_segment_turns, inputs, seed)
    assert 0 <= result.turns <= 4
    if result.turns_roll is not None:
        assert result.turns == band_for(day_segments.TURNS_PER_SEGMENT, result.turns_roll.score).value


@given(st.builds(day_segments.InitiativeInput, first_leader=leaders_, second_leader=leaders_), seeds)
def test_initiative(inputs, seed):
    result = same_twice(day_segments.roll_initiative, inputs, seed)
    a, b = result.throws[-2:]
    assert result.winner is None or (a.score > b.score) == (result.winner.value == "first")


@given(st.builds(leaders.CommandRollInput, leader=leaders_, conditions=conditions), seeds)
def test_command_roll(inputs, seed):
    result = same_twice(leaders.roll_command, inputs, seed)
    assert (result.outcome is leaders.CommandOutcome.PASSED) == result.succeeded


@given(st.builds(night.NightCommandInput, leader=leaders_), seeds)
def test_night_command(inputs, seed):
    result = same_twice(night.roll_night_command, inputs, seed)
    assert (result.outcome is leaders.CommandOutcome.PASSED) == result.succeeded
    assert not (inputs.surrounded and night.removes_force(result))


@given(st.builds(wind.WindInput), seeds)
def test_wind(inputs, seed):
    result = same_twice(wind.roll_wind, inputs, seed)
    assert result.velocity is band_for(wind.WIND_VELOCITY, result.velocity_roll.score).value
    assert result.direction_changed == (result.direction_roll.natural <= 8)


@given(st.builds(arrival.ForceAvailabilityInput, leader_rating=leaders_, conditions=conditions), seeds)
def test_force_availability(inputs, seed):
    result = same_twice(arrival.roll_force_availability, inputs, seed)
    assert result.outcome is band_for(arrival.availability_bands(inputs.no_show_from), result.score).value


@given(st.builds(arrival.DeploymentInput, leader_rating=leaders_), seeds)
def test_deployment(inputs, seed):
    result = same_twice(arrival.roll_deployment, inputs, seed)
    assert result.zone is not arrival.DeploymentZone.ENEMY_FLANK
    assert (result.flank_roll is not None) == (result.roll.score >= 7)


@given(
    st.builds(arrival.ArrivalInput, leader_rating=leaders_, segments_since_first_attempt=st.integers(0, 30)),
    seeds,
)
def test_arrival(inputs, seed):
    result = same_twice(arrival.roll_arrival, inputs, seed)
    assert (
        result.threshold
        == arrival.ARRIVAL_CHANCE[inputs.leader_rating] + 5 * inputs.segments_since_first_attempt
    )
    assert result.outcome is result.succeeded
    assert 1 <= result.score <= 100


attachments = st.lists(st.sampled_from(list(fire.Attachment)[:-1]), max_size=3).map(tuple)


@given(
    st.builds(
        fire.InfantryFireInput,
        quality=ground_quality,
        target_cover=st.sampled_from(Cover),
        attachments=attachments,
    ),
    seeds,
)
def test_infantry_fire(inputs, seed):
    result = same_twice(fire.roll_infantry_fire, inputs, seed)
    assert 0 <= result.disorder_markers <= 3


@given(
    st.builds(
        fire.AfvFireInput,
        calibre_mm=st.integers(0, 160),
        target_cover=st.sampled_from(Cover),
        crew_quality=ground_quality,
        attachments=attachments,
    ),
    seeds,
)
def test_afv_fire(inputs, seed):
    result = same_twice(fire.roll_afv_fire, inputs, seed)
    assert 0 <= result.disorder_markers <= 3


@given(
    st.builds(
        fire.BombardmentInput,
        source=st.sampled_from(fire.FireSource),
        fire_die=st.sampled_from([DiceKind.D6, DiceKind.D8, DiceKind.D10, DiceKind.D12]),
        target_cover=st.sampled_from(Cover),
        calibre_mm=st.integers(40, 400),
        fire_modifier=st.integers(-3, 3),
    ),
    seeds,
)
def test_bombardment(inputs, seed):
    assert 0 <= same_twice(fire.roll_bombardment_fire, inputs, seed).disorder_markers <= 3


@given(st.builds(fire.DisengageInput, quality=ground_quality), seeds)
def test_disengage(inputs, seed):
    result = same_twice(fire.roll_disengage, inputs, seed)
    assert result.outcome is result.succeeded


@given(st.builds(fire.IndirectAccuracyInput), seeds)
def test_indirect_accuracy(inputs, seed):
    result = same_twice(fire.roll_indirect_accuracy, inputs, seed)
    assert 0 <= result.inches <= 6


morale_inputs = st.builds(
    morale.MoraleInput,
    quality=ground_quality,
    disorder_markers=small,
    decorated_leaders=small,
    enemy_panics_seen=small,
    leader=st.none() | leaders_,
    red_markers=small,
)


@given(morale_inputs, seeds)
def test_morale(inputs, seed):
    result = same_twice(morale.roll_morale, inputs, seed)
    assert in_bands(morale.MORALE_RESULTS, result.outcome)
    assert result.outcome is band_for(morale.MORALE_RESULTS, result.roll.score).value
    assert (result.panic_move_roll is not None) == (result.outcome is morale.MoraleOutcome.PANIC)


assault_inputs = st.builds(
    close_assault.CloseAssaultInput,
    attacker=ground_quality,
    defender=ground_quality,
    attacker_units=st.integers(1, 4),
    defender_units=st.integers(1, 4),
    attacker_decorated_leaders=small,
    defender_decorated_leaders=small,
    attacker_nation=st.none() | st.sampled_from(Nation),
    defender_nation=st.none() | st.sampled_from(Nation),
    year=years,
)


@given(assault_inputs, seeds)
def test_close_assault(inputs, seed):
    result = same_twice(close_assault.roll_close_assault, inputs, seed)
    for side in (result.attacker, result.defender):
        assert 1 <= side.disorder_markers_inflicted <= 7
        assert side.letter in "ABCDEFG"


@given(
    st.builds(
        decision_dice.DecisionDieInput,
        colour=st.sampled_from(decision_dice.CommandColour),
        force_group_size=st.integers(1, 12),
        attached_leaders=small,
    ),
    seeds,
)
def test_decision_die(inputs, seed):
    result = same_twice(decision_dice.roll_decision_die, inputs, seed)
    assert 0 <= result.outcome["move_units"] <= 9


@given(
    st.builds(
        air_combat.AirFireInput,
        pilot_quality=air_quality,
        air_force=st.sampled_from(air_combat.AirForce),
        year=years,
    ),
    seeds,
)
def test_air_fire(inputs, seed):
    assert 0 <= same_twice(air_combat.roll_air_fire, inputs, seed).air_damage_markers <= 3


@given(
    st.builds(
        air_combat.PilotSkillInput,
        first_air_force=st.sampled_from(air_combat.AirForce),
        second_air_force=st.sampled_from(air_combat.AirForce),
        year=years,
    ),
    seeds,
)
def test_pilot_skill(inputs, seed):
    assert same_twice(air_combat.roll_pilot_skill_initiative, inputs, seed).winner is not None


@given(
    st.builds(
        air_combat.AirMoraleInput,
        pilot_quality=air_quality,
        air_damage_markers=small,
        decorated_pilots=small,
        dogfight_round=st.integers(1, 5),
    ),
    seeds,
)
def test_air_morale(inputs, seed):
    result = same_twice(air_combat.roll_air_morale, inputs, seed)
    assert result.outcome is band_for(air_combat.AIR_MORALE_RESULTS, result.roll.score).value


@given(
    st.builds(
        fieldworks.FieldworksInput, division_leader=leaders_, nation=st.none() | st.sampled_from(Nation)
    ),
    seeds,
)
def test_fieldworks(inputs, seed):
    result = same_twice(fieldworks.roll_fieldworks, inputs, seed)
    assert result.outcome is band_for(fieldworks.FIELDWORKS, result.score).value


@given(st.builds(spotting.SpottingInput, spotter_quality=st.none() | ground_quality), seeds)
def test_spotting(inputs, seed):
    result = same_twice(spotting.roll_spotting, inputs, seed)
    assert result.outcome is result.succeeded


@settings(max_examples=30)
@given(st.builds(terrain.TerrainGeneratorInput), seeds)
def test_terrain(inputs, seed):
    result = same_twice(terrain.roll_battlefield, inputs, seed)
    for placed in result.features:
        assert in_bands(terrain.TERRAIN_FEATURES[placed.terrain], placed.feature)


@given(
    st.builds(
        movement.TerrainDisorderInput,
        terrain=st.sampled_from([t for t, cost in movement.TERRAIN_MOVEMENT.items() if cost.disorder_roll]),
        year=st.integers(1936, 1946),
    ),
    seeds,
)
def test_terrain_disorder(inputs, seed):
    result = same_twice(movement.roll_terrain_disorder, inputs, seed)
    assert 1 <= result.outcome <= 4 + 2


def test_every_rolling_procedure_has_a_property_test():
    tested = {
        "pk.segment_turns", "pk.initiative", "pk.command_roll", "pk.wind", "pk.force_availability",
        "pk.deployment", "pk.arrival", "pk.infantry_fire", "pk.afv_fire", "pk.bombardment_fire",
        "pk.disengage", "pk.indirect_accuracy", "pk.morale", "pk.close_assault", "pk.decision_die",
        "pk.air_fire", "pk.pilot_skill_initiative", "pk.air_morale", "pk.fieldworks", "pk.spotting",
        "pk.terrain_generator", "pk.terrain_feature", "pk.night_command", "pk.terrain_disorder",
    }  # fmt: skip
    rolling = {key for key, entry in PROCEDURES.items() if key.startswith("pk.") and entry.rolls}
    assert rolling <= tested
