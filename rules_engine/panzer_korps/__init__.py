"""Panzer Korps charts (seed 003): importing this package registers the whole slice."""

from rules_engine.panzer_korps import (
    air_combat,
    arrival,
    close_assault,
    day_segments,
    decision_dice,
    fieldworks,
    fire,
    leaders,
    morale,
    movement,
    night,
    ranges,
    spotting,
    terrain,
    wind,
)

__all__ = [
    "air_combat",
    "arrival",
    "close_assault",
    "day_segments",
    "decision_dice",
    "fieldworks",
    "fire",
    "leaders",
    "morale",
    "movement",
    "night",
    "ranges",
    "spotting",
    "terrain",
    "wind",
]
