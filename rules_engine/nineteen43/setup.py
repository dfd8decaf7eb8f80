"""Set-up proximity and table scale (000 § 7); troop reaction (000 § 8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceRoll, DiceSource, roll
from rules_engine.nineteen43.common import (
    CommandSystem,
    ProximityTerrain,
    ReactionProfile,
    TableScale,
    Training,
    as_inputs,
    ref,
)
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

PROXIMITY_RULE = ref("7) Setup Proximity")
REACTION_RULE = ref("8) Troop Reaction")

# Nearest approach in yards for 1D6 faces 1..6.
SETUP_PROXIMITY: dict[ProximityTerrain, tuple[int, ...]] = table(
    "n43.setup_proximity",
    "Set-up proximity in yards by terrain and 1D6",
    PROXIMITY_RULE,
    {
        ProximityTerrain.CONSTRICTED: (100, 200, 300, 400, 600, 800),
        ProximityTerrain.OPEN: (400, 500, 600, 700, 900, 1100),
        ProximityTerrain.WIDE_OPEN: (700, 800, 900, 1000, 1200, 1600),
    },
)

YARDS_PER_INCH: dict[TableScale, int] = table(
    "n43.table_scales",
    "Yards per inch at each table scale",
    PROXIMITY_RULE,
    {TableScale.LARGE: 20, TableScale.MEDIUM: 30, TableScale.SMALL: 40},
)


def yards_to_inches(yards: int, scale: TableScale) -> float:
    """Table inches for a distance in yards, to two decimals."""
    return round(yards / YARDS_PER_INCH[scale], 2)


@dataclass(frozen=True)
class Proximity:
    yards: int
    inches: float
    scale: TableScale
    lull_checks_from_turn: int  # the unmodified die

    def to_dict(self) -> dict[str, Any]:
        return {
            "yards": self.yards,
            "inches": self.inches,
            "scale": self.scale.value,
            "lull_checks_from_turn": self.lull_checks_from_turn,
        }


@dataclass(frozen=True)
class ProximityInput:
    terrain: ProximityTerrain
    scale: TableScale = TableScale.MEDIUM


@procedure("n43.setup_proximity", "Set-up proximity", PROXIMITY_RULE)
def roll_setup_proximity(inputs: ProximityInput, dice: DiceSource) -> RollResult:
    thrown = roll(DiceKind.D6, dice)
    yards = SETUP_PROXIMITY[inputs.terrain][thrown.total - 1]
    found = Proximity(
        yards=yards,
        inches=yards_to_inches(yards, inputs.scale),
        scale=inputs.scale,
        lull_checks_from_turn=thrown.total,
    )
    return RollResult(
        title="Set-up proximity",
        subject=inputs.terrain.value,
        rule=PROXIMITY_RULE,
        rolls=(thrown,),
        cell=f"{inputs.terrain.value} / {thrown.total}: {yards} yds",
        outcome=found,
        outcome_text=(
            f'attacker no nearer than {yards} yds ({found.inches:g}" at {inputs.scale.value} scale);'
            f" lull checks from turn {thrown.total}"
        ),
        inputs=as_inputs(inputs),
    )


@dataclass(frozen=True)
class YardsInput:
    yards: int
    scale: TableScale = TableScale.MEDIUM


@dataclass(frozen=True)
class Inches:
    yards: int
    scale: TableScale
    inches: float

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def to_dict(self) -> dict[str, Any]:
        return {"yards": self.yards, "scale": self.scale.value, "inches": self.inches}


@procedure("n43.yards_to_inches", "Yards to table inches", PROXIMITY_RULE, rolls=False)
def lookup_yards_to_inches(inputs: YardsInput) -> Inches:
    return Inches(inputs.yards, inputs.scale, yards_to_inches(inputs.yards, inputs.scale))


P = ReactionProfile

# (worse, better) profile for each training column; the two differ only for Average.
REACTION_TABLE: dict[CommandSystem, dict[Training, tuple[ReactionProfile, ReactionProfile]]] = table(
    "n43.reaction_table",
    "Troop reaction profile by command system and training",
    REACTION_RULE,
    {
        CommandSystem.FLEXIBLE: {
            Training.POOR: (P.C, P.C),
            Training.MARGINAL: (P.B, P.B),
            Training.AVERAGE: (P.B, P.A),
            Training.GREAT: (P.A, P.A),
            Training.OUTSTANDING: (P.A, P.A),
        },
        CommandSystem.NORMAL: {
            Training.POOR: (P.D, P.D),
            Training.MARGINAL: (P.C, P.C),
            Training.AVERAGE: (P.C, P.B),
            Training.GREAT: (P.B, P.B),
            Training.OUTSTANDING: (P.A, P.A),
        },
        CommandSystem.RIGID: {
            Training.POOR: (P.D, P.D),
            Training.MARGINAL: (P.D, P.D),
            Training.AVERAGE: (P.D, P.C),
            Training.GREAT: (P.C, P.C),
            Training.OUTSTANDING: (P.B, P.B),
        },
    },
)

WORSE_LETTER_UP_TO = 3  # average training: 1-3 the worse letter, 4-6 the better


@dataclass(frozen=True)
class TroopReactionInput:
    command_system: CommandSystem
    training: Training


@procedure("n43.troop_reaction", "Troop reaction profile", REACTION_RULE)
def roll_troop_reaction(inputs: TroopReactionInput, dice: DiceSource) -> RollResult:
    """Average training throws 1D6 between the two letters; others roll nothing."""
    worse, better = REACTION_TABLE[inputs.command_system][inputs.training]
    printed = worse.value if worse is better else f"{worse.value}/{better.value}"
    rolls: tuple[DiceRoll, ...] = ()
    profile = worse
    if worse is not better:
        thrown = roll(DiceKind.D6, dice)
        rolls = (thrown,)
        profile = worse if thrown.total <= WORSE_LETTER_UP_TO else better
    return RollResult(
        title="Troop reaction",
        subject=f"{inputs.command_system.value} command, {inputs.training.value} training",
        rule=REACTION_RULE,
        rolls=rolls,
        cell=printed,
        outcome=profile,
        outcome_text=f"{profile.label} (reaction profile {profile.value})",
        inputs=as_inputs(inputs),
    )
