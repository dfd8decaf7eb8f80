"""Spotting table: d6 at or under the spotter's number."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import Cover, Quality, inputs_of, modifiers, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, Modifier, RollResult

SPOTTING_RULE = ref("Spotting table d6")


class Spotter(enum.Enum):
    INFANTRY = "Infantry"
    RECCE = "Recce"
    AFV = "AFV"
    DEPLOYED_GUNS = "Deployed guns"


SPOTTING: dict[Spotter, int] = table(
    "pk.spotting",
    "Spotting: d6 at or under",
    SPOTTING_RULE,
    {Spotter.INFANTRY: 4, Spotter.RECCE: 3, Spotter.AFV: 2, Spotter.DEPLOYED_GUNS: 4},
)

SPOTTING_MODIFIERS: dict[str, int] = table(
    "pk.spotting_modifiers",
    "Spotting modifiers to the d6",
    SPOTTING_RULE,
    {
        "target moved": -2,
        "target fired": -3,
        "unit spotting moved": 1,
        "target entrenched": 2,
        "target in open": -2,
        "target in cover": 1,
        "spotter is Veteran or higher": -1,
    },
)


@dataclass(frozen=True)
class SpottingInput:
    spotter: Spotter
    target_cover: Cover = Cover.OPEN  # any cover class but open counts as cover
    target_moved: bool = False
    target_fired: bool = False
    spotter_moved: bool = False
    target_entrenched: bool = False
    spotter_quality: Quality | None = None


def spotting_modifiers(inputs: SpottingInput) -> tuple[Modifier, ...]:
    chart = SPOTTING_MODIFIERS
    in_open = inputs.target_cover is Cover.OPEN
    veteran = inputs.spotter_quality is not None and inputs.spotter_quality.at_least(Quality.VETERAN)
    return modifiers(
        (inputs.target_moved, "target moved", chart["target moved"]),
        (inputs.target_fired, "target fired", chart["target fired"]),
        (inputs.spotter_moved, "spotter moved", chart["unit spotting moved"]),
        (inputs.target_entrenched, "target entrenched", chart["target entrenched"]),
        (in_open, "target in open", chart["target in open"]),
        (not in_open, "target in cover", chart["target in cover"]),
        (veteran, "spotter Veteran or higher", chart["spotter is Veteran or higher"]),
    )


@procedure("pk.spotting", "Spotting", SPOTTING_RULE)
def roll_spotting(inputs: SpottingInput, dice: DiceSource) -> RollResult:
    thrown = roll(DiceKind.D6, dice)
    mods = spotting_modifiers(inputs)
    needed = SPOTTING[inputs.spotter]
    spotted = thrown.total + sum(m.value for m in mods) <= needed
    return RollResult(
        title="Spotting",
        subject=inputs.spotter.value,
        rule=SPOTTING_RULE,
        rolls=(thrown,),
        modifiers=mods,
        threshold_base=needed,
        comparison=Comparison.AT_MOST,
        outcome=spotted,
        outcome_text="spotted" if spotted else "not spotted",
        inputs=inputs_of(inputs),
    )
