"""004 § 9. Losers of Close Combat (& Rally) [14.7] and FAQ 4 (one rally number
per battalion), § 10. Morale [15.0] — every cell and modifier."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.common import Cover, Quality
from rules_engine.great_battles.morale import (
    MoraleInput,
    MoraleOutcome,
    RallyInput,
    RallyPurpose,
    lookup_rally_number,
    morale_cell,
    roll_morale,
    roll_rally,
)
from rules_engine.vocab import Weather


@pytest.mark.parametrize(
    ("quality", "number"),
    [
        (Quality.RAW, 6),
        (Quality.INFERIOR, 7),
        (Quality.AVERAGE, 8),
        (Quality.EXPERIENCED, 9),
        (Quality.VETERAN, 10),
    ],
)
def test_rally_number_every_cell(quality, number):
    assert lookup_rally_number(RallyInput(quality)).number == number
    assert roll_rally(RallyInput(quality), ScriptedDice([number])).outcome is True
    if number < 10:
        assert roll_rally(RallyInput(quality), ScriptedDice([number + 1])).outcome is False


@pytest.mark.parametrize(
    ("suppressed", "destroyed", "hq", "expected"),
    [(1, 0, False, 7), (3, 0, False, 5), (0, 1, False, 6), (0, 2, True, 5), (0, 0, True, 9)],
)
def test_rally_score_modifiers(suppressed, destroyed, hq, expected):
    inputs = RallyInput(Quality.AVERAGE, suppressed, destroyed, hq)
    assert lookup_rally_number(inputs).number == expected


# Cover rows, printed columns "1 stand", "2+ stands" (third printed column equals the second).
@pytest.mark.parametrize(
    ("cover", "stands", "bonus"),
    [
        (Cover.SOFT, 1, 0), (Cover.SOFT, 2, 1), (Cover.SOFT, 4, 1),
        (Cover.CREST, 1, 0), (Cover.CREST, 3, 1),
        (Cover.HARD, 1, 1), (Cover.HARD, 2, 2), (Cover.HARD, 5, 2),
        (Cover.BUNKER, 1, 2), (Cover.BUNKER, 2, 3), (Cover.BUNKER, 3, 3),
        (Cover.OPEN, 3, 0), (Cover.HARD, 0, 0),
    ],
)  # fmt: skip
def test_rally_cover_modifiers(cover, stands, bonus):
    inputs = RallyInput(Quality.AVERAGE, cover=cover, stands_in_cover=stands)
    assert lookup_rally_number(inputs).number == 8 + bonus


def test_close_combat_loser_already_suppressed_is_eliminated():
    inputs = RallyInput(Quality.RAW, purpose=RallyPurpose.CLOSE_COMBAT_LOSS, stand_already_suppressed=True)
    assert roll_rally(inputs, ScriptedDice([7])).outcome_text == "eliminated"
    assert roll_rally(inputs, ScriptedDice([6])).outcome_text == "holds"


# Rows: count 1..10; columns: stands started 1..8; None is "-".
PRINTED_MORALE: list[list[int | None]] = [
    [17, 83, 93, 96, 98, 98, 98, 99],
    [None, 17, 50, 83, 85, 93, 95, 96],
    [None, 4, 17, 33, 72, 83, 88, 91],
    [None, None, 7, 17, 28, 50, 76, 83],
    [None, None, 2, 9, 17, 26, 37, 67],
    [None, None, None, 4, 10, 17, 24, 33],
    [None, None, None, 1, 5, 11, 17, 23],
    [None, None, None, None, 2, 6, 11, 17],
    [None, None, None, None, 1, 3, 8, 12],
    [None, None, None, None, None, 1, 5, 9],
]


@pytest.mark.parametrize(
    ("count", "stands", "cell"),
    [
        (count, stands, cell)
        for count, row in enumerate(PRINTED_MORALE, start=1)
        for stands, cell in enumerate(row, start=1)
    ],
)
def test_morale_every_cell(count, stands, cell):
    assert morale_cell(count, stands) == cell
    inputs = MoraleInput(stands, suppressions=count)
    if cell is None:
        assert roll_morale(inputs, ScriptedDice([1])).outcome is MoraleOutcome.GOES_TO_GROUND
    else:
        assert roll_morale(inputs, ScriptedDice([cell])).outcome is MoraleOutcome.PASSES
        assert roll_morale(inputs, ScriptedDice([cell + 1])).outcome is MoraleOutcome.GOES_TO_GROUND


def test_elimination_counts_two():
    # 1 suppression + 1 elimination = count 3; 5 stands started: 72.
    result = roll_morale(MoraleInput(5, suppressions=1, eliminations=1), ScriptedDice([72]))
    assert result.threshold == 72
    assert result.outcome is MoraleOutcome.PASSES


def test_counts_past_the_table_have_no_chance_and_big_battalions_read_column_8():
    assert morale_cell(11, 8) is None
    assert morale_cell(1, 10) == 99


@pytest.mark.parametrize(
    ("kwargs", "shift"),
    [
        ({"cover": Cover.SOFT}, 10),
        ({"cover": Cover.CREST}, 10),
        ({"cover": Cover.HARD}, 20),
        ({"cover": Cover.BUNKER}, 30),
        ({"c_ops_within_12": False}, -10),
        ({"weather": Weather.DRIZZLE}, -10),
        ({"weather": Weather.FOG}, -20),
        ({"rain": True}, -20),
        ({"weather": Weather.OVERCAST}, 0),
        ({"quality_modifiers": True, "quality": Quality.VETERAN}, 10),
        ({"quality_modifiers": True, "quality": Quality.EXPERIENCED}, 5),
        ({"quality_modifiers": True, "quality": Quality.AVERAGE}, 0),
        ({"quality_modifiers": True, "quality": Quality.INFERIOR}, -5),
        ({"quality_modifiers": True, "quality": Quality.RAW}, -10),
        ({"quality": Quality.RAW}, 0),  # variant off
        ({"activated_by_roll": True}, -20),
        ({"activated_by_roll": True, "activated_by_roll_penalty": -15}, -15),
    ],
)
def test_morale_score_modifiers(kwargs, shift):
    # count 3 with 4 stands started: printed 33.
    result = roll_morale(MoraleInput(4, suppressions=3, **kwargs), ScriptedDice([50]))
    assert result.threshold == 33 + shift


def test_dash_is_no_chance_even_in_a_bunker_unless_the_club_reads_it_as_0():
    stock = roll_morale(MoraleInput(1, suppressions=2, cover=Cover.BUNKER), ScriptedDice([1]))
    assert stock.outcome is MoraleOutcome.GOES_TO_GROUND
    assert stock.modifiers == ()
    club = MoraleInput(1, suppressions=2, cover=Cover.BUNKER, dash_allows_modifiers=True)
    assert roll_morale(club, ScriptedDice([30])).outcome is MoraleOutcome.PASSES


def test_no_count_no_test():
    with pytest.raises(ValueError, match="no morale test"):
        roll_morale(MoraleInput(4), ScriptedDice([1]))


def test_morale_line():
    result = roll_morale(
        MoraleInput(4, suppressions=1, eliminations=1, weather=Weather.DRIZZLE), ScriptedDice([40])
    )
    assert result.line() == (
        "Morale test, count 3: d100 [40] = 40 ≤ 23 (33 -10 drizzle) [count 3, 4 stands: 33] "
        '→ fails: retreat 3" and go to ground'
    )
