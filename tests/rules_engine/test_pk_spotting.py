"""003 § Spotting table d6 — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import Cover, Quality
from rules_engine.panzer_korps.spotting import (
    SPOTTING,
    SPOTTING_MODIFIERS,
    Spotter,
    SpottingInput,
    roll_spotting,
)


@pytest.mark.parametrize(
    ("spotter", "needed"),
    [(Spotter.INFANTRY, 4), (Spotter.RECCE, 3), (Spotter.AFV, 2), (Spotter.DEPLOYED_GUNS, 4)],
)
def test_spotting_cells(spotter, needed):
    assert SPOTTING[spotter] == needed
    # A light-cover target gives +1, so the natural face needed is one less.
    assert roll_spotting(SpottingInput(spotter, Cover.LIGHT), ScriptedDice([needed - 1])).outcome is True
    assert roll_spotting(SpottingInput(spotter, Cover.LIGHT), ScriptedDice([needed])).outcome is False


@pytest.mark.parametrize(
    ("kwargs", "modifiers"),
    [
        ({"target_moved": True}, {"target moved": -2, "target in cover": 1}),
        ({"target_fired": True}, {"target fired": -3, "target in cover": 1}),
        ({"spotter_moved": True}, {"spotter moved": 1, "target in cover": 1}),
        ({"target_entrenched": True}, {"target entrenched": 2, "target in cover": 1}),
        ({"target_cover": Cover.OPEN}, {"target in open": -2}),
        ({"target_cover": Cover.HEAVY}, {"target in cover": 1}),
        ({"spotter_quality": Quality.VETERAN}, {"spotter Veteran or higher": -1, "target in cover": 1}),
        ({"spotter_quality": Quality.HARDENED}, {"spotter Veteran or higher": -1, "target in cover": 1}),
        ({"spotter_quality": Quality.REGULAR}, {"target in cover": 1}),
    ],
)
def test_spotting_modifiers(kwargs, modifiers):
    inputs = SpottingInput(**{"spotter": Spotter.INFANTRY, "target_cover": Cover.MEDIUM, **kwargs})
    result = roll_spotting(inputs, ScriptedDice([4]))
    assert {m.name: m.value for m in result.modifiers} == modifiers
    assert result.score == 4 + sum(modifiers.values())


def test_spotting_modifier_table():
    assert SPOTTING_MODIFIERS == {
        "target moved": -2,
        "target fired": -3,
        "unit spotting moved": 1,
        "target entrenched": 2,
        "target in open": -2,
        "target in cover": 1,
        "spotter is Veteran or higher": -1,
    }
