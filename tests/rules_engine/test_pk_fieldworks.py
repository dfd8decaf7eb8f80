"""003 § Fieldworks success table — every cell."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.panzer_korps.common import band_for
from rules_engine.panzer_korps.fieldworks import (
    FIELDWORKS,
    FIELDWORKS_MODIFIERS,
    FIELDWORKS_SEGMENTS,
    FieldworksInput,
    FieldworksOutcome,
    roll_fieldworks,
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
