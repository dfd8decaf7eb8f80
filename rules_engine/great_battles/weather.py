"""Weather at dawn (chart 1): the scenario sets the chances, the chart the four kinds."""

from __future__ import annotations

import itertools
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import read_band, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult
from rules_engine.vocab import Weather

WEATHER_RULE = ref("1. Weather; Dawn Sequence step 2")

# Highest d10 face for each weather, in the chart's column order C, D, O, F.
# The chart leaves the chances to the scenario; this default (rules notes
# GB-A-01) is what a scenario that says nothing gets.
DEFAULT_WEATHER_CHANCES: tuple[tuple[int, Weather], ...] = table(
    "gb.weather_default_chances",
    "Dawn weather, default d10 chances when the scenario gives none",
    WEATHER_RULE,
    (
        (4, Weather.CLEAR),
        (6, Weather.DRIZZLE),
        (8, Weather.OVERCAST),
        (10, Weather.FOG),
    ),
)

_DEFAULT_TOPS = {weather: top for top, weather in DEFAULT_WEATHER_CHANCES}


@dataclass(frozen=True)
class WeatherInput:
    """Highest d10 face giving each weather; fog takes the rest up to 10.

    Equal tops give a weather no chance, e.g. ``drizzle_max=clear_max``.
    """

    clear_max: int = _DEFAULT_TOPS[Weather.CLEAR]
    drizzle_max: int = _DEFAULT_TOPS[Weather.DRIZZLE]
    overcast_max: int = _DEFAULT_TOPS[Weather.OVERCAST]

    def bands(self) -> tuple[tuple[int, Weather], ...]:
        tops = (0, self.clear_max, self.drizzle_max, self.overcast_max, 10)
        if any(low > high for low, high in itertools.pairwise(tops)):
            raise ValueError(
                f"{WEATHER_RULE.text()}: weather chances must rise within 0..10, "
                f"got clear≤{self.clear_max}, drizzle≤{self.drizzle_max}, "
                f"overcast≤{self.overcast_max}"
            )
        return (
            (self.clear_max, Weather.CLEAR),
            (self.drizzle_max, Weather.DRIZZLE),
            (self.overcast_max, Weather.OVERCAST),
            (10, Weather.FOG),
        )


_WEATHER_NAMES = {
    Weather.CLEAR: "clear",
    Weather.DRIZZLE: "drizzle",
    Weather.OVERCAST: "overcast",
    Weather.FOG: "fog",
}


@procedure("gb.weather", "Dawn weather", WEATHER_RULE)
def roll_weather(inputs: WeatherInput, dice: DiceSource) -> RollResult:
    bands = inputs.bands()
    thrown = roll(DiceKind.D10, dice)
    weather = read_band(bands, thrown.total)
    assert weather is not None  # the last band reaches 10
    low, high = _face_span(bands, weather)
    return RollResult(
        title="Dawn weather",
        rule=WEATHER_RULE,
        rolls=(thrown,),
        cell=f"{weather.value} {low}-{high}",
        outcome=weather,
        outcome_text=_WEATHER_NAMES[weather],
        inputs=asdict(inputs),
    )


def _face_span(bands: tuple[tuple[int, Weather], ...], weather: Weather) -> tuple[int, int]:
    """Lowest and highest d10 face giving ``weather``, for the audit line."""
    previous_top = 0
    for top, entry in bands:
        if entry is weather:
            return previous_top + 1, top
        previous_top = top
    raise KeyError(weather)
