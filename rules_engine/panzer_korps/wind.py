"""Wind velocity and direction, rolled once per day segment."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import Band, band_result, inputs_of, modifiers, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult
from rules_engine.vocab import DaySegment, Season

WIND_RULE = ref("Wind direction & velocity")


class WindVelocity(enum.Enum):
    NONE = "no wind"
    LIGHT_BREEZE = "light breeze"
    LIGHT_WIND = "light wind"
    MEDIUM_WIND = "medium wind"
    HEAVY_WIND = "heavy wind"


class WindDirection(enum.Enum):
    NORTH = "North"
    NORTH_EAST = "North-East"
    EAST = "East"
    SOUTH_EAST = "South-East"
    SOUTH = "South"
    SOUTH_WEST = "South-West"
    WEST = "West"
    NORTH_WEST = "North-West"


# Modified d6; the ends are open because the season modifiers reach past 0..6.
WIND_VELOCITY: tuple[Band[WindVelocity], ...] = table(
    "pk.wind_velocity",
    "Wind velocity (d6)",
    WIND_RULE,
    (
        Band(None, 2, WindVelocity.NONE),
        Band(3, 3, WindVelocity.LIGHT_BREEZE),
        Band(4, 4, WindVelocity.LIGHT_WIND),
        Band(5, 5, WindVelocity.MEDIUM_WIND),
        Band(6, None, WindVelocity.HEAVY_WIND),
    ),
)

# Unmodified d10; 9-10 is "no change" (None).
WIND_DIRECTION: tuple[Band[WindDirection | None], ...] = table(
    "pk.wind_direction",
    "Wind direction (d10)",
    WIND_RULE,
    (
        Band(1, 1, WindDirection.NORTH),
        Band(2, 2, WindDirection.NORTH_EAST),
        Band(3, 3, WindDirection.EAST),
        Band(4, 4, WindDirection.SOUTH_EAST),
        Band(5, 5, WindDirection.SOUTH),
        Band(6, 6, WindDirection.SOUTH_WEST),
        Band(7, 7, WindDirection.WEST),
        Band(8, 8, WindDirection.NORTH_WEST),
        Band(9, 10, None),
    ),
)

WIND_SEASON_MODIFIERS: dict[str, int] = table(
    "pk.wind_season_modifiers",
    "Wind velocity modifiers by season",
    WIND_RULE,
    {"summer": -2, "late summer": -1, "fall": 1},
)


@dataclass(frozen=True)
class WindInput:
    season: Season
    # "Lt. Summer": the shared Season has no late summer, so it is a flag; when
    # set, its -1 replaces the season's modifier (rules notes PK-05).
    late_summer: bool = False
    previous_direction: WindDirection | None = None  # kept on "no change"
    segment: DaySegment | None = None


@dataclass(frozen=True)
class Wind:
    velocity: WindVelocity
    direction: WindDirection | None  # None: no change from an unknown direction
    direction_changed: bool
    velocity_roll: RollResult
    direction_roll: RollResult

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.velocity_roll, self.direction_roll)

    def line(self) -> str:
        direction = self.direction.value if self.direction else None
        words = (
            wind_words(self.velocity.value, direction)
            if direction
            else f"{self.velocity.value}, direction unchanged"
        )
        return f"{self.velocity_roll.line()}; {self.direction_roll.line()} ⇒ {words}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "velocity": self.velocity.value,
            "direction": self.direction.value if self.direction else None,
            "direction_changed": self.direction_changed,
            "velocity_roll": self.velocity_roll.to_dict(),
            "direction_roll": self.direction_roll.to_dict(),
            "line": self.line(),
        }


def wind_words(velocity: str | None, direction: str | None) -> str:
    """The wind as people say it, wherever it is shown: "light breeze from the South-East", "no
    wind" (a calm has no direction, whatever direction the day carries on); empty before a roll."""
    if velocity == WindVelocity.NONE.value:
        return WindVelocity.NONE.value
    if velocity and direction:
        return f"{velocity} from the {direction}"
    return velocity or (f"wind from the {direction}" if direction else "")


def season_modifiers(season: Season, late_summer: bool) -> tuple[Any, ...]:
    return modifiers(
        (late_summer, "late summer", WIND_SEASON_MODIFIERS["late summer"]),
        (not late_summer and season is Season.SUMMER, "summer", WIND_SEASON_MODIFIERS["summer"]),
        (not late_summer and season is Season.AUTUMN, "fall", WIND_SEASON_MODIFIERS["fall"]),
    )


@procedure("pk.wind", "Wind velocity and direction", WIND_RULE)
def roll_wind(inputs: WindInput, dice: DiceSource) -> Wind:
    record = inputs_of(inputs)
    subject = inputs.segment.value if inputs.segment else ""
    velocity, velocity_roll = band_result(
        title="Wind velocity",
        subject=subject,
        rule=WIND_RULE,
        bands=WIND_VELOCITY,
        thrown=roll(DiceKind.D6, dice),
        mods=season_modifiers(inputs.season, inputs.late_summer),
        text=lambda v: v.value,
        inputs=record,
    )
    rolled_direction, direction_roll = band_result(
        title="Wind direction",
        subject=subject,
        rule=WIND_RULE,
        bands=WIND_DIRECTION,
        thrown=roll(DiceKind.D10, dice),
        mods=(),
        text=lambda d: d.value if d else "no change",
        inputs=record,
    )
    direction = rolled_direction if rolled_direction is not None else inputs.previous_direction
    return Wind(velocity, direction, rolled_direction is not None, velocity_roll, direction_roll)
