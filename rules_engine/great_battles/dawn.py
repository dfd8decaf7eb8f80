"""Dawn sequence sighting distances (step 7) and deployment casualties (chart 2)."""

from __future__ import annotations

import enum
import math
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import read_band, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult, to_jsonable

SIGHTING_RULE = ref("Dawn Sequence step 7; Hidden Units Spotted")
DEPLOYMENT_RULE = ref("2. Deployment Chart [10.0]")


class PlayerOrder(enum.Enum):
    """The scenario's 1st player (the attacker) and 2nd player (rules notes GB-A-02)."""

    FIRST = "1st"
    SECOND = "2nd"


# Sighting distance in inches by turn row, for the 1st and the 2nd player.
# Turn 3 of the 1st player depends on an odd or even d10; turn 4 on is 12".
SIGHTING_DISTANCE: dict[str, dict[PlayerOrder, int]] = table(
    "gb.sighting_distance",
    "Sighting distance by turn",
    SIGHTING_RULE,
    {
        "1": {PlayerOrder.FIRST: 3, PlayerOrder.SECOND: 3},
        "2": {PlayerOrder.FIRST: 6, PlayerOrder.SECOND: 6},
        "3 odd": {PlayerOrder.FIRST: 6, PlayerOrder.SECOND: 12},
        "3 even": {PlayerOrder.FIRST: 12, PlayerOrder.SECOND: 12},
        "4+": {PlayerOrder.FIRST: 12, PlayerOrder.SECOND: 12},
    },
)

# A stationary, non-firing hidden stand in cover is spotted only this close.
IN_COVER_SIGHTING = 1

LAST_TURN = 10


@dataclass(frozen=True)
class SightingInput:
    turn: int
    player: PlayerOrder = PlayerOrder.FIRST
    target_in_cover: bool = False


@dataclass(frozen=True)
class SightingDistance:
    inches: int
    row: str
    roll: RollResult | None  # only the 1st player's turn 3 rolls

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,) if self.roll else ()

    def to_dict(self) -> dict[str, object]:
        return {
            "inches": self.inches,
            "row": self.row,
            "roll": self.roll.to_dict() if self.roll else None,
        }


def sighting_row(turn: int, even_roll: bool) -> str:
    """The table row for ``turn``; only turn 3 reads the parity of the d10."""
    if not 1 <= turn <= LAST_TURN:
        raise ValueError(f"{SIGHTING_RULE.text()}: a day has turns 1..{LAST_TURN}, got {turn}")
    if turn == 3:
        return "3 even" if even_roll else "3 odd"
    return str(turn) if turn < 3 else "4+"


def sighting_inches(row: str, player: PlayerOrder, target_in_cover: bool) -> int:
    distance = SIGHTING_DISTANCE[row][player]
    return min(distance, IN_COVER_SIGHTING) if target_in_cover else distance


@procedure("gb.sighting_distance", "Sighting distance", SIGHTING_RULE)
def roll_sighting_distance(inputs: SightingInput, dice: DiceSource) -> SightingDistance:
    # Only the 1st player's turn 3 rolls: the 2nd player's reads 12" either way.
    if inputs.turn != 3 or inputs.player is PlayerOrder.SECOND:
        row = sighting_row(inputs.turn, even_roll=True)
        inches = sighting_inches(row, inputs.player, inputs.target_in_cover)
        return SightingDistance(inches=inches, row=row, roll=None)
    thrown = roll(DiceKind.D10, dice)
    even = thrown.total % 2 == 0
    row = sighting_row(3, even)
    inches = sighting_inches(row, inputs.player, inputs.target_in_cover)
    result = RollResult(
        title="Turn 3 sighting roll",
        subject=f"{inputs.player.value} player",
        rule=SIGHTING_RULE,
        rolls=(thrown,),
        cell=f"turn {row}",
        outcome=inches,
        outcome_text=f'{"even" if even else "odd"}: sighting {inches}"',
        inputs=asdict(inputs),
    )
    return SightingDistance(inches=inches, row=row, roll=result)


class DeploymentTime(enum.Enum):
    DAWN = "Dawn Phase"
    DURING_DAY = "During Day"


@dataclass(frozen=True)
class DeploymentCasualties:
    """A chart 2 cell: stands destroyed, stands suppressed, inches to retreat."""

    destroyed: int = 0
    suppressed: int = 0
    retreat_inches: int = 0

    def text(self) -> str:
        parts = [
            f"{self.destroyed}d" if self.destroyed else "",
            f"{self.suppressed}s" if self.suppressed else "",
            f'-{self.retreat_inches}"' if self.retreat_inches else "",
        ]
        return "/".join(part for part in parts if part) or "no effect"


_NO_EFFECT = DeploymentCasualties()
_CLOSE = DeploymentCasualties(destroyed=1, suppressed=1, retreat_inches=3)

# (range to nearest enemy at most, casualties) per deployment time.
DEPLOYMENT_CASUALTIES: dict[DeploymentTime, tuple[tuple[float, DeploymentCasualties], ...]] = table(
    "gb.deployment_casualties",
    "Deployment casualties by range to nearest enemy",
    DEPLOYMENT_RULE,
    {
        DeploymentTime.DAWN: (
            (3, _CLOSE),
            (6, DeploymentCasualties(suppressed=2)),
            (9, DeploymentCasualties(suppressed=1)),
            (12, _NO_EFFECT),
            (math.inf, _NO_EFFECT),
        ),
        DeploymentTime.DURING_DAY: (
            (3, _CLOSE),
            (6, DeploymentCasualties(suppressed=3)),
            (9, DeploymentCasualties(suppressed=2)),
            (12, DeploymentCasualties(suppressed=1)),
            (math.inf, _NO_EFFECT),
        ),
    },
)


@dataclass(frozen=True)
class DeploymentInput:
    range_inches: float
    time: DeploymentTime = DeploymentTime.DAWN
    friendly_intervening: bool = False


@dataclass(frozen=True)
class DeploymentResult:
    casualties: DeploymentCasualties
    cell: str
    inputs: DeploymentInput

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        return f"Deployment casualties [{self.cell}] → {self.casualties.text()}"

    def to_dict(self) -> dict[str, object]:
        return {
            "destroyed": self.casualties.destroyed,
            "suppressed": self.casualties.suppressed,
            "retreat_inches": self.casualties.retreat_inches,
            "cell": self.cell,
            "inputs": to_jsonable(self.inputs),
            "line": self.line(),
        }


@procedure("gb.deployment_casualties", "Deployment casualties", DEPLOYMENT_RULE, rolls=False)
def lookup_deployment_casualties(inputs: DeploymentInput) -> DeploymentResult:
    if inputs.range_inches < 0:
        raise ValueError(f"{DEPLOYMENT_RULE.text()}: range cannot be negative")
    bands = DEPLOYMENT_CASUALTIES[inputs.time]
    casualties = read_band(bands, inputs.range_inches)
    assert casualties is not None  # the last band is unbounded
    column = next(top for top, _ in bands if inputs.range_inches <= top)
    column_name = 'over 12"' if math.isinf(column) else f'{column:g}"'
    if inputs.friendly_intervening:
        casualties, column_name = _NO_EFFECT, "friendly intervening"
    return DeploymentResult(casualties=casualties, cell=f"{inputs.time.value}, {column_name}", inputs=inputs)
