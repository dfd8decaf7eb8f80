"""Fieldworks success table."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import Band, band_result, inputs_of, modifiers, ref
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult
from rules_engine.vocab import LeaderRating, Nation

FIELDWORKS_RULE = ref("Fieldworks success table")


class FieldworksOutcome(enum.Enum):
    NOT_ORGANISED = "officers cannot organise work parties"
    OFFICERS_LEAD = "officers lead: complete in 2 day segments"
    NCOS_LEAD = "NCOs lead: complete in 1 day segment"


FIELDWORKS_SEGMENTS: dict[FieldworksOutcome, int | None] = {
    FieldworksOutcome.NOT_ORGANISED: None,
    FieldworksOutcome.OFFICERS_LEAD: 2,
    FieldworksOutcome.NCOS_LEAD: 1,
}

FIELDWORKS: tuple[Band[FieldworksOutcome], ...] = table(
    "pk.fieldworks",
    "Fieldworks success (d6 per unit)",
    FIELDWORKS_RULE,
    (
        Band(None, 4, FieldworksOutcome.NOT_ORGANISED),
        Band(5, 5, FieldworksOutcome.OFFICERS_LEAD),
        Band(6, None, FieldworksOutcome.NCOS_LEAD),
    ),
)

# As printed; how they apply to the die is rules notes PK-20.
FIELDWORKS_MODIFIERS: dict[str, int] = table(
    "pk.fieldworks_modifiers",
    "Fieldworks modifiers as printed",
    FIELDWORKS_RULE,
    {"division leader A-D": -2, "leader F-H": 1, "Russian": 1},
)

_A_TO_D = frozenset({LeaderRating.A, LeaderRating.B, LeaderRating.C, LeaderRating.D})
_F_TO_H = frozenset({LeaderRating.F, LeaderRating.G, LeaderRating.H})


@dataclass(frozen=True)
class FieldworksInput:
    division_leader: LeaderRating
    nation: Nation | None = None
    # False: the printed values move the 1-4 failure band, so they reach the
    # die with the opposite sign; True: added to the die as printed (PK-20).
    printed_signs_on_die: bool = False
    unit: str = ""


def fieldworks_modifiers(inputs: FieldworksInput) -> tuple[Modifier, ...]:
    sign = 1 if inputs.printed_signs_on_die else -1
    chart = FIELDWORKS_MODIFIERS
    return modifiers(
        (
            inputs.division_leader in _A_TO_D,
            f"{inputs.division_leader.value} leader",
            sign * chart["division leader A-D"],
        ),
        (
            inputs.division_leader in _F_TO_H,
            f"{inputs.division_leader.value} leader",
            sign * chart["leader F-H"],
        ),
        (inputs.nation is Nation.SOVIET, "Russian", sign * chart["Russian"]),
    )


@procedure("pk.fieldworks", "Fieldworks", FIELDWORKS_RULE)
def roll_fieldworks(inputs: FieldworksInput, dice: DiceSource) -> RollResult:
    _, result = band_result(
        title="Fieldworks",
        subject=inputs.unit,
        rule=FIELDWORKS_RULE,
        bands=FIELDWORKS,
        thrown=roll(DiceKind.D6, dice),
        mods=fieldworks_modifiers(inputs),
        text=lambda o: o.value,
        inputs=inputs_of(inputs),
    )
    return result
