"""003 § Air fire die (and modifiers), § Pilot skill initiative table, § Air
combat morale modifiers and results, § Air target die table, § Air damage
markers — every cell."""

import pytest

from rules_engine.dice import DiceKind, ScriptedDice
from rules_engine.panzer_korps.air_combat import (
    AIR_FIRE_DIE,
    AIR_MORALE_DIE,
    AIR_MORALE_RESULTS,
    AIR_TARGET_DIE,
    AircraftClass,
    AirFireInput,
    AirForce,
    AirMoraleInput,
    AirMoraleOutcome,
    AirSpeed,
    AirTargetType,
    PilotSkillInput,
    roll_air_fire,
    roll_air_morale,
    roll_pilot_skill_initiative,
)
from rules_engine.panzer_korps.common import Quality, Side, band_for

Q = Quality
D = DiceKind
A = AirForce


@pytest.mark.parametrize(
    ("quality", "die"),
    [
        (Q.HARDENED, D.D12),
        (Q.ELITE, D.D10),
        (Q.VETERAN, D.D10),
        (Q.REGULAR, D.D8),
        (Q.RESERVIST, D.D8),
        (Q.RECRUIT, D.D6),
        (Q.MILITIA, D.D6),
    ],
)
def test_air_fire_die_cells(quality, die):
    assert AIR_FIRE_DIE[quality] is die


def test_no_partisan_pilots():
    with pytest.raises(ValueError, match="no air fire die"):
        roll_air_fire(AirFireInput(Q.PARTISAN, A.GERMANY, 1943), ScriptedDice([1, 1]))


@pytest.mark.parametrize(
    ("kwargs", "value"),
    [
        ({"air_force": A.ITALY, "year": 1940}, -1),
        ({"air_force": A.ITALY, "year": 1942}, -1),
        ({"air_force": A.ITALY, "year": 1943}, 0),
        ({"air_force": A.JAPAN_ARMY, "year": 1936}, -1),
        ({"air_force": A.JAPAN_NAVY, "year": 1942}, -1),
        ({"air_force": A.JAPAN_NAVY, "year": 1943}, 0),
        ({"air_force": A.USA, "year": 1942}, -1),
        ({"air_force": A.USA, "year": 1943}, -1),
        ({"air_force": A.USA, "year": 1944}, 0),
        ({"air_force": A.RUSSIA, "year": 1939}, -1),
        ({"air_force": A.RUSSIA, "year": 1942}, -1),
        ({"air_force": A.RUSSIA, "year": 1943}, 0),
        ({"air_force": A.CHINA, "year": 1944}, -2),
        ({"non_frontline_fighters": True}, -1),
        ({"aircraft_class": AircraftClass.INFERIOR}, -1),
        ({"aircraft_class": AircraftClass.SUPERIOR}, 1),
        ({"target_type": AirTargetType.BOMBER}, -1),
        ({"target_type": AirTargetType.HEAVY_BOMBER}, -2),
        ({"target_type": AirTargetType.SUPER_HEAVY_BOMBER}, -3),
        ({"target_type": AirTargetType.JET}, -5),
    ],
)
def test_air_fire_modifiers(kwargs, value):
    inputs = AirFireInput(**{"pilot_quality": Q.REGULAR, "air_force": A.GERMANY, "year": 1943, **kwargs})
    result = roll_air_fire(inputs, ScriptedDice([1, 5]))
    assert result.fire_roll.score == 5 + value


@pytest.mark.parametrize(
    ("speed", "die"),
    [(AirSpeed.SLOW, D.D6), (AirSpeed.NORMAL, D.D8), (AirSpeed.FAST, D.D10), (AirSpeed.JET, D.D12)],
)
def test_air_target_die_cells(speed, die):
    assert AIR_TARGET_DIE[speed] is die
    result = roll_air_fire(AirFireInput(Q.REGULAR, A.GERMANY, 1943, target_speed=speed), ScriptedDice([1, 1]))
    assert result.target_roll.rolls[0].kind is die


@pytest.mark.parametrize(("fire", "target", "adm"), [(3, 3, 0), (4, 3, 1), (6, 3, 2), (9, 3, 3), (8, 2, 3)])
def test_air_damage_markers(fire, target, adm):
    result = roll_air_fire(AirFireInput(Q.HARDENED, A.GERMANY, 1943), ScriptedDice([target, fire]))
    assert result.air_damage_markers == adm


PILOT_SKILL = [
    (A.JAPAN_ARMY, 1937, 1),
    (A.JAPAN_ARMY, 1941, 1),
    (A.JAPAN_ARMY, 1942, 0),
    (A.JAPAN_ARMY, 1944, -1),
    (A.JAPAN_NAVY, 1944, -1),
    (A.JAPAN_NAVY, 1945, -2),
    (A.JAPAN_NAVY, 1939, 1),
    (A.JAPAN_NAVY, 1942, 1),
    (A.JAPAN_NAVY, 1943, 0),
    (A.GERMANY, 1938, 1),
    (A.GERMANY, 1940, 1),
    (A.GERMANY, 1941, 0),
    (A.GERMANY, 1945, -1),
    (A.ITALY, 1937, 1),
    (A.ITALY, 1940, 1),
    (A.ITALY, 1941, 0),
    (A.RUSSIA, 1939, -1),
    (A.RUSSIA, 1941, -1),
    (A.RUSSIA, 1942, 0),
    (A.USA, 1942, -1),
    (A.USA, 1943, 0),
    (A.USA, 1944, 1),
    (A.USA, 1945, 1),
    (A.POLAND, 1939, -1),
    (A.CHINA, 1940, -2),
    (A.AVG, 1942, 2),
    (A.FINLAND, 1938, 1),
    (A.FINLAND, 1940, 1),
    (A.FINLAND, 1941, 0),
    (A.BRITAIN, 1940, 0),
    (A.BRITAIN, 1941, 1),
    (A.BRITAIN, 1945, 1),
    (A.COMMONWEALTH, 1943, 1),
    (A.OTHER, 1943, 0),
]


@pytest.mark.parametrize(("air_force", "year", "value"), PILOT_SKILL)
def test_pilot_skill_modifiers(air_force, year, value):
    result = roll_pilot_skill_initiative(
        PilotSkillInput(air_force, A.OTHER, year), ScriptedDice([3, 3, 6, 1])
    )
    assert result.throws[0].score == 3 + value


def test_pilot_skill_high_roll_wins_and_ties_reroll():
    inputs = PilotSkillInput(A.AVG, A.JAPAN_ARMY, 1942, "AVG", "JAAF")
    result = roll_pilot_skill_initiative(inputs, ScriptedDice([2, 4, 1, 5]))
    assert [t.score for t in result.throws] == [4, 4, 3, 5]
    assert result.winner is Side.SECOND
    assert result.winner_name == "JAAF"


@pytest.mark.parametrize(
    ("quality", "die", "bonus"),
    [
        (Q.HARDENED, D.D12, 3),
        (Q.ELITE, D.D12, 0),
        (Q.VETERAN, D.D10, 2),
        (Q.REGULAR, D.D10, 0),
        (Q.RESERVIST, D.D8, 1),
        (Q.RECRUIT, D.D8, 0),
        (Q.MILITIA, D.D6, 0),
    ],
)
def test_air_morale_die_cells(quality, die, bonus):
    assert (AIR_MORALE_DIE[quality].die, AIR_MORALE_DIE[quality].bonus) == (die, bonus)
    result = roll_air_morale(AirMoraleInput(quality), ScriptedDice([3]))
    assert result.roll.rolls[0].kind is die
    assert result.roll.score == 3 + bonus


@pytest.mark.parametrize(
    ("score", "outcome", "adm"),
    [
        (0, AirMoraleOutcome.ABORT, 4),
        (1, AirMoraleOutcome.ABORT, 4),
        (2, AirMoraleOutcome.THREE_ADM, 3),
        (3, AirMoraleOutcome.TWO_ADM, 2),
        (4, AirMoraleOutcome.ONE_ADM, 1),
        (5, AirMoraleOutcome.NO_EFFECT, 0),
    ],
)
def test_air_morale_result_cells(score, outcome, adm):
    assert band_for(AIR_MORALE_RESULTS, score).value is outcome
    if score >= 1:
        result = roll_air_morale(AirMoraleInput(Q.MILITIA), ScriptedDice([score]))
        assert result.outcome is outcome
        assert result.air_damage_markers_added == adm


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        ({"decorated_pilots": 2}, 2),
        ({"dogfight_round": 1}, 0),
        ({"dogfight_round": 3}, -2),
        ({"in_entrenchments": True}, 2),
        ({"air_damage_markers": 2}, -2),
        ({"under_aa_fire": True}, -1),
        ({"no_other_friendly_squadron": True}, -1),
        ({"fanatics": True}, 3),
        ({"commencing_bombing_run": True}, 0),
        ({"commencing_bombing_run": True, "under_aa_fire": True}, -2),
    ],
)
def test_air_morale_modifiers(kwargs, total):
    result = roll_air_morale(AirMoraleInput(Q.MILITIA, **kwargs), ScriptedDice([4]))
    assert result.roll.score == 4 + total
