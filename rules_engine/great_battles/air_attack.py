"""Air attacks on one stand (FAQ 41): they can destroy, not only suppress.

One d10 for the stand: at or under the attack's destroy number destroys it;
otherwise it is read on the barrage roll (chart 5) for suppression (GB-A-27).
The call itself (pre-planned, pre-registered, on call) goes through the
barrage delay like any template.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.barrage import BARRAGE_ROLL, BarrageEffect, BarrageTarget
from rules_engine.great_battles.common import ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

AIR_ATTACK_RULE = ref("FAQ 41 (air attacks); 5. Barrage Roll [11.3]")


class AirAttackRow(enum.Enum):
    FIGHTER_BOMBER = "normal fighter bomber"
    ROCKETS = "rocket equipped"
    ROCKETS_VS_VEHICLE_OR_BUNKER = "rocket equipped attacking vehicle and/or bunker"


# Highest d10 face that destroys the stand.
AIR_ATTACK_DESTROY: dict[AirAttackRow, int] = table(
    "gb.air_attack_destroy",
    "Air attack: d10 at or under destroys the stand",
    AIR_ATTACK_RULE,
    {
        AirAttackRow.FIGHTER_BOMBER: 2,
        AirAttackRow.ROCKETS: 3,
        AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER: 4,
    },
)


class Aircraft(enum.Enum):
    FIGHTER_BOMBER = "fighter bomber"
    ROCKET_EQUIPPED = "rocket equipped"


@dataclass(frozen=True)
class AirAttackInput:
    aircraft: Aircraft
    target: BarrageTarget  # the stand's barrage-roll row
    target_is_vehicle: bool = False
    full_daylight: bool = True  # spotting out to 12"
    suppress_as_barrage: bool = True  # GB-A-27: a roll that does not destroy is read on chart 5


def air_attack_row(inputs: AirAttackInput) -> AirAttackRow:
    if inputs.aircraft is Aircraft.FIGHTER_BOMBER:
        return AirAttackRow.FIGHTER_BOMBER
    if inputs.target_is_vehicle or inputs.target is BarrageTarget.BUNKER:
        return AirAttackRow.ROCKETS_VS_VEHICLE_OR_BUNKER
    return AirAttackRow.ROCKETS


def air_attack_effect(inputs: AirAttackInput, face: int) -> BarrageEffect:
    if face <= AIR_ATTACK_DESTROY[air_attack_row(inputs)]:
        return BarrageEffect.DESTROYED
    if inputs.suppress_as_barrage and face <= BARRAGE_ROLL[inputs.target]:
        return BarrageEffect.SUPPRESSED
    return BarrageEffect.NO_EFFECT


@procedure("gb.air_attack", "Air attack on one stand", AIR_ATTACK_RULE)
def roll_air_attack(inputs: AirAttackInput, dice: DiceSource) -> RollResult:
    if not inputs.full_daylight:
        raise ValueError(
            f'{AIR_ATTACK_RULE.text()}: air attacks only in turns of full daylight (12" spotting)'
        )
    row = air_attack_row(inputs)
    cell = f"{row.value}: destroy 1-{AIR_ATTACK_DESTROY[row]}"
    if inputs.suppress_as_barrage:
        cell += f"; {inputs.target.value}: suppress 1-{BARRAGE_ROLL[inputs.target]}"
    thrown = roll(DiceKind.D10, dice)
    effect = air_attack_effect(inputs, thrown.total)
    return RollResult(
        title="Air attack",
        subject=f"{inputs.aircraft.value} on {'a vehicle' if inputs.target_is_vehicle else 'a stand'}",
        rule=AIR_ATTACK_RULE,
        rolls=(thrown,),
        cell=cell,
        outcome=effect,
        outcome_text=effect.value,
        inputs=asdict(inputs),
    )
