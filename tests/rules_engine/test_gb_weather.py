"""004 § 1. Weather (scenario chances, default GB-A-01)."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.weather import WeatherInput, roll_weather
from rules_engine.vocab import Weather

CLEAR, DRIZZLE, OVERCAST, FOG = Weather.CLEAR, Weather.DRIZZLE, Weather.OVERCAST, Weather.FOG


@pytest.mark.parametrize(
    ("face", "weather"),
    [
        (1, CLEAR),
        (2, CLEAR),
        (3, CLEAR),
        (4, CLEAR),
        (5, DRIZZLE),
        (6, DRIZZLE),
        (7, OVERCAST),
        (8, OVERCAST),
        (9, FOG),
        (10, FOG),
    ],
)
def test_default_weather_chances(face, weather):
    assert roll_weather(WeatherInput(), ScriptedDice([face])).outcome is weather


def test_scenario_chances_override_and_zero_chance_band():
    # A desert scenario: clear on 1-8, no drizzle, overcast 9, fog 10.
    chances = WeatherInput(clear_max=8, drizzle_max=8, overcast_max=9)
    assert [roll_weather(chances, ScriptedDice([f])).outcome for f in (8, 9, 10)] == [CLEAR, OVERCAST, FOG]


def test_weather_chances_must_rise():
    with pytest.raises(ValueError, match=r"1\. Weather"):
        roll_weather(WeatherInput(clear_max=7, drizzle_max=5), ScriptedDice([1]))
