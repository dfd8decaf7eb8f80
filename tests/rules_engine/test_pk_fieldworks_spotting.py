"""003 § Fieldworks success table and § Spotting table d6 — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import Cover, Quality, band_for
from rules_engine.panzer_korps.fieldworks import (
    FIELDWORKS,
    FIELDWORKS_MODIFIERS,
    FIELDWORKS_SEGMENTS,
    FieldworksInput,
    FieldworksOutcome,
    roll_fieldworks,
)
from rules_engine.panzer_korps.spotting import (
    SPOTTING,
    SPOTTING_MODIFIERS,
    Spotter,
    SpottingInput,
    roll_spotting,
)
from rules_engine.vocab import LeaderRating, Nation

L = LeaderRating
FO = FieldworksOutcome


@pytest.mark.parametrize(
    ("score", "outcome", "segments"),
    [
        (-1, FO.NOT_ORGANISED, None),
        (1, FO.NOT_ORGANISED, None),
        (4, FO.NOT_ORGANISED, None),
        (5, FO.OFFICERS_LEAD, 2),
        (6, FO.NCOS_LEAD, 1),
        (8, FO.NCOS_LEAD, 1),
    ],
)
def test_fieldworks_cells(score, outcome, segments):
    assert band_for(FIELDWORKS, score).value is outcome
    assert FIELDWORKS_SEGMENTS[outcome] == segments


def test_fieldworks_printed_modifiers():
    assert FIELDWORKS_MODIFIERS == {"division leader A-D": -2, "leader F-H": 1, "Russian": 1}


@pytest.mark.parametrize(
    ("leader", "nation", "default_total"),
    [
        (L.A, None, 2),
        (L.B, None, 2),
        (L.C, None, 2),
        (L.D, None, 2),
        (L.E, None, 0),
        (L.F, None, -1),
        (L.G, None, -1),
        (L.H, None, -1),
        (L.E, Nation.SOVIET, -1),
        (L.H, Nation.SOVIET, -2),
        (L.A, Nation.SOVIET, 1),
    ],
)
def test_fieldworks_modifier_readings(leader, nation, default_total):
    default = roll_fieldworks(FieldworksInput(leader, nation), ScriptedDice([3]))
    printed = roll_fieldworks(FieldworksInput(leader, nation, printed_signs_on_die=True), ScriptedDice([3]))
    assert default.score == 3 + default_total
    assert printed.score == 3 - default_total


def test_fieldworks_good_leader_turns_a_three_into_officers():
    assert roll_fieldworks(FieldworksInput(L.B), ScriptedDice([3])).outcome is FO.OFFICERS_LEAD


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
