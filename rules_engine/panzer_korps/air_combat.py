"""Air combat: air fire die vs air target die, pilot skill initiative, air morale."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import (
    Band,
    NationYearModifier,
    OpposedRoll,
    Quality,
    TieRule,
    band_result,
    inputs_of,
    markers_over,
    modifiers,
    nation_year_modifiers,
    per_item,
    ref,
    roll_opposed,
    score_of,
)
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, Modifier, RollResult

AIR_FIRE_RULE = ref("Air fire die")
AIR_TARGET_RULE = ref("Air target die table")
PILOT_SKILL_RULE = ref("Pilot skill initiative table")
AIR_MORALE_RULE = ref("Air combat morale modifiers")


class AirForce(enum.Enum):
    """Air forces as the air charts name them (finer than the shared Nation)."""

    GERMANY = "Germany"
    ITALY = "Italy"
    JAPAN_ARMY = "Japan Army"
    JAPAN_NAVY = "Japan Navy"
    USA = "USA"
    AVG = "AVG"
    BRITAIN = "Britain"
    COMMONWEALTH = "Commonwealth"
    RUSSIA = "Russia"
    POLAND = "Poland"
    FINLAND = "Finland"
    CHINA = "China"
    OTHER = "other"


_JAPAN = frozenset({AirForce.JAPAN_ARMY, AirForce.JAPAN_NAVY})


def _only(force: AirForce) -> frozenset[AirForce]:
    return frozenset({force})


AIR_FIRE_DIE: dict[Quality, DiceKind] = table(
    "pk.air_fire_die",
    "Air fire die by pilot morale",
    AIR_FIRE_RULE,
    {
        Quality.HARDENED: DiceKind.D12,
        Quality.ELITE: DiceKind.D10,
        Quality.VETERAN: DiceKind.D10,
        Quality.REGULAR: DiceKind.D8,
        Quality.RESERVIST: DiceKind.D8,
        Quality.RECRUIT: DiceKind.D6,
        Quality.MILITIA: DiceKind.D6,
    },
)

AIR_FIRE_NATION_MODIFIERS: tuple[NationYearModifier[AirForce], ...] = table(
    "pk.air_fire_nation_modifiers",
    "Air fire die nation/year modifiers",
    AIR_FIRE_RULE,
    (
        NationYearModifier("Italy 1940-1942", _only(AirForce.ITALY), -1, 1940, 1942),
        NationYearModifier("Japan 36-42", _JAPAN, -1, 1936, 1942),
        NationYearModifier("American 42-43", _only(AirForce.USA), -1, 1942, 1943),
        NationYearModifier("Russia 39-42", _only(AirForce.RUSSIA), -1, 1939, 1942),
        NationYearModifier("China", _only(AirForce.CHINA), -2),
    ),
)


class AircraftClass(enum.Enum):
    INFERIOR = "inferior class"
    STANDARD = "standard class"
    SUPERIOR = "superior class"


class AirTargetType(enum.Enum):
    FIGHTER = "fighters"
    BOMBER = "bombers"
    HEAVY_BOMBER = "heavy bombers"
    SUPER_HEAVY_BOMBER = "super heavy bombers"
    JET = "jets"


class AirSpeed(enum.Enum):
    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"
    JET = "jet"


@dataclass(frozen=True)
class AirFireModifierChart:
    non_frontline_fighters: int
    aircraft_class: dict[AircraftClass, int]
    versus: dict[AirTargetType, int]


AIR_FIRE_MODIFIERS: AirFireModifierChart = table(
    "pk.air_fire_modifiers",
    "Air fire die modifiers",
    AIR_FIRE_RULE,
    AirFireModifierChart(
        non_frontline_fighters=-1,
        aircraft_class={AircraftClass.INFERIOR: -1, AircraftClass.STANDARD: 0, AircraftClass.SUPERIOR: 1},
        versus={
            AirTargetType.FIGHTER: 0,
            AirTargetType.BOMBER: -1,
            AirTargetType.HEAVY_BOMBER: -2,
            AirTargetType.SUPER_HEAVY_BOMBER: -3,
            AirTargetType.JET: -5,
        },
    ),
)

AIR_TARGET_DIE: dict[AirSpeed, DiceKind] = table(
    "pk.air_target_die",
    "Air target die by speed",
    AIR_TARGET_RULE,
    {
        AirSpeed.SLOW: DiceKind.D6,
        AirSpeed.NORMAL: DiceKind.D8,
        AirSpeed.FAST: DiceKind.D10,
        AirSpeed.JET: DiceKind.D12,
    },
)


@dataclass(frozen=True)
class AirFireInput:
    pilot_quality: Quality
    air_force: AirForce
    year: int
    target_type: AirTargetType = AirTargetType.FIGHTER
    target_speed: AirSpeed = AirSpeed.NORMAL
    aircraft_class: AircraftClass = AircraftClass.STANDARD
    non_frontline_fighters: bool = False
    squadron: str = ""


@dataclass(frozen=True)
class AirFire:
    air_damage_markers: int
    target_roll: RollResult
    fire_roll: RollResult

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.target_roll, self.fire_roll)

    def line(self) -> str:
        return f"{self.target_roll.line()}; {self.fire_roll.line()}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "air_damage_markers": self.air_damage_markers,
            "target_roll": self.target_roll.to_dict(),
            "fire_roll": self.fire_roll.to_dict(),
            "line": self.line(),
        }


def air_fire_modifiers(inputs: AirFireInput) -> tuple[Modifier, ...]:
    chart = AIR_FIRE_MODIFIERS
    return nation_year_modifiers(AIR_FIRE_NATION_MODIFIERS, inputs.air_force, inputs.year) + modifiers(
        (inputs.non_frontline_fighters, "non-frontline fighters", chart.non_frontline_fighters),
        (True, inputs.aircraft_class.value, chart.aircraft_class[inputs.aircraft_class]),
        (True, f"vs {inputs.target_type.value}", chart.versus[inputs.target_type]),
    )


@procedure("pk.air_fire", "Air fire vs air target die", AIR_FIRE_RULE)
def roll_air_fire(inputs: AirFireInput, dice: DiceSource) -> AirFire:
    if inputs.pilot_quality not in AIR_FIRE_DIE:
        raise ValueError(f"no air fire die for {inputs.pilot_quality.value} pilots")
    record = inputs_of(inputs)
    target_thrown = roll(AIR_TARGET_DIE[inputs.target_speed], dice)
    target_roll = RollResult(
        title="Air target die",
        subject=inputs.target_speed.value,
        rule=AIR_TARGET_RULE,
        rolls=(target_thrown,),
        outcome=target_thrown.total,
        outcome_text=str(target_thrown.total),
        inputs=record,
    )
    die = AIR_FIRE_DIE[inputs.pilot_quality]
    mods = air_fire_modifiers(inputs)
    fire_thrown = roll(die, dice)
    markers = markers_over(score_of(fire_thrown, mods), target_thrown.total)
    fire_roll = RollResult(
        title="Air fire",
        subject=inputs.squadron or f"{inputs.pilot_quality.value} pilots",
        rule=AIR_FIRE_RULE,
        rolls=(fire_thrown,),
        modifiers=mods,
        threshold_base=target_thrown.total,
        comparison=Comparison.GREATER_THAN,
        cell=f"{inputs.pilot_quality.value} {die.value}",
        outcome=markers,
        outcome_text="no damage"
        if markers == 0
        else f"{markers} air damage marker{'' if markers == 1 else 's'}",
        inputs=record,
    )
    return AirFire(markers, target_roll, fire_roll)


PILOT_SKILL_MODIFIERS: tuple[NationYearModifier[AirForce], ...] = table(
    "pk.pilot_skill_modifiers",
    "Pilot skill initiative (d6, high wins) modifiers",
    PILOT_SKILL_RULE,
    (
        NationYearModifier("Japan Army 37-41", _only(AirForce.JAPAN_ARMY), 1, 1937, 1941),
        NationYearModifier("Japan 1944", _JAPAN, -1, 1944, 1944),
        NationYearModifier("Japan 1945", _JAPAN, -2, 1945, 1945),
        NationYearModifier("Japan Navy 39-42", _only(AirForce.JAPAN_NAVY), 1, 1939, 1942),
        NationYearModifier("Germany 38-40", _only(AirForce.GERMANY), 1, 1938, 1940),
        NationYearModifier("Germany 1945", _only(AirForce.GERMANY), -1, 1945, 1945),
        NationYearModifier("Italy 37-40", _only(AirForce.ITALY), 1, 1937, 1940),
        NationYearModifier("Russia 39-41", _only(AirForce.RUSSIA), -1, 1939, 1941),
        NationYearModifier("USA 1942", _only(AirForce.USA), -1, 1942, 1942),
        NationYearModifier("USA 1944-1945", _only(AirForce.USA), 1, 1944, 1945),
        NationYearModifier("Poland '39", _only(AirForce.POLAND), -1, 1939, 1939),
        NationYearModifier("China", _only(AirForce.CHINA), -2),
        NationYearModifier("AVG", _only(AirForce.AVG), 2),
        NationYearModifier("Finland 38-40", _only(AirForce.FINLAND), 1, 1938, 1940),
        NationYearModifier("Britain 41-45", _only(AirForce.BRITAIN), 1, 1941, 1945),
        NationYearModifier("Commonwealth", _only(AirForce.COMMONWEALTH), 1),
    ),
)


@dataclass(frozen=True)
class PilotSkillInput:
    first_air_force: AirForce
    second_air_force: AirForce
    year: int
    first_name: str = "first side"
    second_name: str = "second side"
    tie_rule: TieRule = TieRule.REROLL  # "high roll wins" names no tie (PK-18)


@procedure("pk.pilot_skill_initiative", "Pilot skill initiative", PILOT_SKILL_RULE)
def roll_pilot_skill_initiative(inputs: PilotSkillInput, dice: DiceSource) -> OpposedRoll:
    return roll_opposed(
        title="Pilot skill initiative",
        rule=PILOT_SKILL_RULE,
        kind=DiceKind.D6,
        first=(
            inputs.first_name,
            nation_year_modifiers(PILOT_SKILL_MODIFIERS, inputs.first_air_force, inputs.year),
        ),
        second=(
            inputs.second_name,
            nation_year_modifiers(PILOT_SKILL_MODIFIERS, inputs.second_air_force, inputs.year),
        ),
        tie_rule=inputs.tie_rule,
        inputs=inputs_of(inputs),
        dice=dice,
    )


@dataclass(frozen=True)
class AirMoraleProfile:
    die: DiceKind
    bonus: int


AIR_MORALE_DIE: dict[Quality, AirMoraleProfile] = table(
    "pk.air_morale_die",
    "Air combat morale die by pilot quality",
    AIR_MORALE_RULE,
    {
        Quality.HARDENED: AirMoraleProfile(DiceKind.D12, 3),
        Quality.ELITE: AirMoraleProfile(DiceKind.D12, 0),
        Quality.VETERAN: AirMoraleProfile(DiceKind.D10, 2),
        Quality.REGULAR: AirMoraleProfile(DiceKind.D10, 0),
        Quality.RESERVIST: AirMoraleProfile(DiceKind.D8, 1),
        Quality.RECRUIT: AirMoraleProfile(DiceKind.D8, 0),
        Quality.MILITIA: AirMoraleProfile(DiceKind.D6, 0),
    },
)


class AirMoraleOutcome(enum.Enum):
    NO_EFFECT = "no effect"
    ONE_ADM = "add one air damage marker"
    TWO_ADM = "add two air damage markers"
    THREE_ADM = "add three air damage markers"
    ABORT = "disengage/abort to base, add four air damage markers"


# 5 and over is unprinted and reads no effect, as on the ground chart (PK-11).
AIR_MORALE_RESULTS: tuple[Band[AirMoraleOutcome], ...] = table(
    "pk.air_morale_results",
    "Air combat morale results",
    AIR_MORALE_RULE,
    (
        Band(None, 1, AirMoraleOutcome.ABORT),
        Band(2, 2, AirMoraleOutcome.THREE_ADM),
        Band(3, 3, AirMoraleOutcome.TWO_ADM),
        Band(4, 4, AirMoraleOutcome.ONE_ADM),
        Band(5, None, AirMoraleOutcome.NO_EFFECT),
    ),
)

AIR_MORALE_ADM: dict[AirMoraleOutcome, int] = {
    AirMoraleOutcome.NO_EFFECT: 0,
    AirMoraleOutcome.ONE_ADM: 1,
    AirMoraleOutcome.TWO_ADM: 2,
    AirMoraleOutcome.THREE_ADM: 3,
    AirMoraleOutcome.ABORT: 4,
}

AIR_MORALE_MODIFIERS: dict[str, int] = table(
    "pk.air_morale_modifiers",
    "Air combat morale modifiers",
    AIR_MORALE_RULE,
    {
        "each decorated pilot": 1,
        "each round of dogfighting after the first": -1,
        "formation in entrenchments": 2,  # printed on the air chart (PK-17)
        "each air damage marker": -1,
        "anti-aircraft fire": -1,
        "no other friendly squadron": -1,
        "fanatics": 3,
        "testing to commence bombing run under AA fire": -1,
    },
)


@dataclass(frozen=True)
class AirMoraleInput:
    pilot_quality: Quality
    air_damage_markers: int = 0
    decorated_pilots: int = 0
    dogfight_round: int = 1
    under_aa_fire: bool = False
    no_other_friendly_squadron: bool = False
    fanatics: bool = False
    commencing_bombing_run: bool = False  # only counts under AA fire
    in_entrenchments: bool = False
    squadron: str = ""


@dataclass(frozen=True)
class AirMorale:
    outcome: AirMoraleOutcome
    air_damage_markers_added: int
    roll: RollResult

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,)

    def line(self) -> str:
        return self.roll.line()

    def to_dict(self) -> dict[str, Any]:
        return {
            "outcome": self.outcome.value,
            "air_damage_markers_added": self.air_damage_markers_added,
            "roll": self.roll.to_dict(),
            "line": self.line(),
        }


def air_morale_modifiers(inputs: AirMoraleInput) -> tuple[Modifier, ...]:
    chart = AIR_MORALE_MODIFIERS
    profile = AIR_MORALE_DIE[inputs.pilot_quality]
    return modifiers(
        (True, inputs.pilot_quality.value, profile.bonus),
        per_item(inputs.decorated_pilots, "decorated pilot", chart["each decorated pilot"]),
        per_item(
            max(inputs.dogfight_round - 1, 0),
            "round after the first",
            chart["each round of dogfighting after the first"],
        ),
        (inputs.in_entrenchments, "in entrenchments", chart["formation in entrenchments"]),
        per_item(inputs.air_damage_markers, "air damage marker", chart["each air damage marker"]),
        (inputs.under_aa_fire, "AA fire", chart["anti-aircraft fire"]),
        (
            inputs.no_other_friendly_squadron,
            "no other friendly squadron",
            chart["no other friendly squadron"],
        ),
        (inputs.fanatics, "fanatics", chart["fanatics"]),
        (
            inputs.commencing_bombing_run and inputs.under_aa_fire,
            "bombing run under AA fire",
            chart["testing to commence bombing run under AA fire"],
        ),
    )


@procedure("pk.air_morale", "Air combat morale", AIR_MORALE_RULE)
def roll_air_morale(inputs: AirMoraleInput, dice: DiceSource) -> AirMorale:
    if inputs.pilot_quality not in AIR_MORALE_DIE:
        raise ValueError(f"no air morale die for {inputs.pilot_quality.value} pilots")
    outcome, result = band_result(
        title="Air morale",
        subject=inputs.squadron or f"{inputs.pilot_quality.value} pilots",
        rule=AIR_MORALE_RULE,
        bands=AIR_MORALE_RESULTS,
        thrown=roll(AIR_MORALE_DIE[inputs.pilot_quality].die, dice),
        mods=air_morale_modifiers(inputs),
        text=lambda o: o.value,
        inputs=inputs_of(inputs),
    )
    return AirMorale(outcome, AIR_MORALE_ADM[outcome], result)
