"""004 § Movement [14.3] (chart pg. 2) with its footnote, § 7. Choose Action
Move (All), Play Aids Set Up Wpns, and Summary of Variants (May 2003) Move —
every cell, the rules under the chart and the 4-stand worked example."""

import pytest

from rules_engine.dice import ScriptedDice
from rules_engine.great_battles.equipment import Speed
from rules_engine.great_battles.movement import (
    MOVEMENT_RATES,
    BadGoingChoice,
    BadGoingSuppressionInput,
    Formation,
    Going,
    MovementColumn,
    MovementInput,
    Mover,
    lookup_movement_rate,
    roll_bad_going_suppression,
)

X = None  # printed "-"
M = Mover
ROLL = BadGoingChoice.ROLL_FOR_SUPPRESSION

# Paved, Dirt, Good Column/Assault/Defensive, Bad Column/Assault/Defensive, as printed.
PRINTED = {
    M.SLOW_AFV: (15, 10, 8, 5, 3, 2, 1, 1),
    M.MEDIUM_AFV: (21, 14, 10, 7, 4, 5, 3, 1),
    M.FAST_AFV: (27, 18, 12, 9, 4, 6, 4, 2),
    M.HALFTRACK: (27, 18, 10, 7, 4, 6, 3, 2),
    M.WHEELED: (36, 24, 6, 4, 2, 2, 1, 1),
    M.HORSE_DRAWN: (12, 12, 4, 2, 1, 2, 1, 1),
    M.FOOT: (9, 9, 6, 3, 2, 5.5, 2.5, 1.5),
    M.AT_GUN: (X, X, 1, 1, 1, 0.5, 0.5, 0.5),
}
# How each printed column is reached: (going, formation).
CHART_COLUMNS = (
    (Going.PAVED_ROAD, Formation.COLUMN),
    (Going.DIRT_ROAD, Formation.COLUMN),
    (Going.GOOD, Formation.COLUMN),
    (Going.GOOD, Formation.ASSAULT),
    (Going.GOOD, Formation.DEFENSIVE),
    (Going.BAD, Formation.COLUMN),
    (Going.BAD, Formation.ASSAULT),
    (Going.BAD, Formation.DEFENSIVE),
)
CELLS = [
    (mover, going, formation, inches)
    for mover, row in PRINTED.items()
    for (going, formation), inches in zip(CHART_COLUMNS, row, strict=True)
]


def cell_id(mover, going, formation, inches):
    return f"{mover.value}-{going.value}-{formation.value}"


@pytest.mark.parametrize(("mover", "going", "formation", "inches"), CELLS, ids=[cell_id(*c) for c in CELLS])
def test_every_cell_is_read(mover, going, formation, inches):
    rate = lookup_movement_rate(MovementInput((mover,), going, formation))
    if inches is None:
        # "-": no road rate; an AT/Gun stand on a road moves as in good going column.
        assert rate.inches == PRINTED[mover][2]
        assert rate.slowest.column is MovementColumn.GOOD_COLUMN
    else:
        assert rate.inches == inches
        assert rate.slowest.printed == inches
    assert rate.suppression_roll is False
    assert rate.roll_results() == ()


def test_table_matches_print():
    assert {m: tuple(row.values()) for m, row in MOVEMENT_RATES.items()} == PRINTED
    assert all(tuple(row) == tuple(MovementColumn) for row in MOVEMENT_RATES.values())


@pytest.mark.parametrize(
    ("going", "formation", "column"),
    [
        (Going.PAVED_ROAD, Formation.ASSAULT, MovementColumn.GOOD_ASSAULT),
        (Going.PAVED_ROAD, Formation.DEFENSIVE, MovementColumn.GOOD_DEFENSIVE),
        (Going.DIRT_ROAD, Formation.ASSAULT, MovementColumn.GOOD_ASSAULT),
        (Going.DIRT_ROAD, Formation.DEFENSIVE, MovementColumn.GOOD_DEFENSIVE),
    ],
)
def test_road_rate_needs_column(going, formation, column):
    rate = lookup_movement_rate(MovementInput((M.WHEELED,), going, formation))
    assert rate.slowest.column is column


@pytest.mark.parametrize(
    ("going", "formation", "inches"),
    [
        (Going.PAVED_ROAD, Formation.COLUMN, 2),
        (Going.DIRT_ROAD, Formation.COLUMN, 2),
        (Going.GOOD, Formation.COLUMN, 2),
        (Going.GOOD, Formation.ASSAULT, 1),
        (Going.GOOD, Formation.DEFENSIVE, 1),
        (Going.BAD, Formation.ASSAULT, 1),
    ],
)
def test_suppressed_battalion_moves_as_if_bad_going(going, formation, inches):
    rate = lookup_movement_rate(MovementInput((M.WHEELED,), going, formation, suppressed_stands=True))
    assert rate.inches == inches
    assert rate.slowest.column.value.startswith("Bad Going")


@pytest.mark.parametrize(
    ("going", "suppressed", "inches"),
    [
        (Going.PAVED_ROAD, False, 1),
        (Going.DIRT_ROAD, False, 1),
        (Going.GOOD, False, 1),
        (Going.BAD, False, 0.5),
        (Going.GOOD, True, 0.5),
        (Going.PAVED_ROAD, True, 0.5),
    ],
)
def test_set_up_weapons_hold_the_battalion_to_the_at_gun_line(going, suppressed, inches):
    inputs = MovementInput(
        (M.FOOT, M.HALFTRACK), going, Formation.COLUMN, suppressed_stands=suppressed, set_up_weapons=True
    )
    rate = lookup_movement_rate(inputs)
    assert rate.inches == inches
    assert rate.slowest.mover is M.AT_GUN
    assert "set-up weapons: AT/Gun line" in rate.conditions


@pytest.mark.parametrize(
    ("movers", "going", "inches", "slowest"),
    [
        ((M.FOOT, M.WHEELED), Going.PAVED_ROAD, 9, M.FOOT),
        ((M.FOOT, M.WHEELED), Going.GOOD, 6, M.FOOT),
        ((M.FOOT, M.WHEELED), Going.BAD, 2, M.WHEELED),
        ((M.FAST_AFV, M.HALFTRACK, M.SLOW_AFV), Going.DIRT_ROAD, 10, M.SLOW_AFV),
        ((M.HORSE_DRAWN, M.FOOT), Going.PAVED_ROAD, 9, M.FOOT),
    ],
)
def test_battalion_moves_at_rate_of_slowest(movers, going, inches, slowest):
    rate = lookup_movement_rate(MovementInput(movers, going))
    assert (rate.inches, rate.slowest.mover) == (inches, slowest)


# Bad going: printed foot cells carry the ½" reduction (GB-A-22).
@pytest.mark.parametrize(
    ("formation", "printed_choice", "rolling"),
    [(Formation.COLUMN, 5.5, 6), (Formation.ASSAULT, 2.5, 3), (Formation.DEFENSIVE, 1.5, 2)],
)
def test_bad_going_infantry_choice(formation, printed_choice, rolling):
    reduced = lookup_movement_rate(MovementInput((M.FOOT,), Going.BAD, formation))
    assert (reduced.inches, reduced.suppression_roll) == (printed_choice, False)
    rolled = lookup_movement_rate(MovementInput((M.FOOT,), Going.BAD, formation, bad_going_choice=ROLL))
    assert (rolled.inches, rolled.suppression_roll) == (rolling, True)
    # A club reading the ½" as extra to the printed cell.
    extra = lookup_movement_rate(
        MovementInput((M.FOOT,), Going.BAD, formation, foot_cells_include_reduction=False)
    )
    assert extra.inches == printed_choice - 0.5
    extra_rolled = lookup_movement_rate(
        MovementInput(
            (M.FOOT,), Going.BAD, formation, bad_going_choice=ROLL, foot_cells_include_reduction=False
        )
    )
    assert (extra_rolled.inches, extra_rolled.suppression_roll) == (printed_choice, True)


VEHICLES = (M.SLOW_AFV, M.MEDIUM_AFV, M.FAST_AFV, M.HALFTRACK, M.WHEELED)
BAD_FORMATIONS = (Formation.COLUMN, Formation.ASSAULT, Formation.DEFENSIVE)


@pytest.mark.parametrize(
    ("mover", "formation", "printed"),
    [(m, f, PRINTED[m][5 + i]) for m in VEHICLES for i, f in enumerate(BAD_FORMATIONS)],
)
def test_vehicles_at_150_percent_of_bad_going_with_suppression_roll(mover, formation, printed):
    rate = lookup_movement_rate(MovementInput((mover,), Going.BAD, formation, bad_going_choice=ROLL))
    assert rate.inches == printed * 1.5
    assert rate.suppression_roll is True
    assert lookup_movement_rate(MovementInput((mover,), Going.BAD, formation)).inches == printed


def test_horse_drawn_is_not_a_vehicle_unless_the_club_says_so():
    stock = lookup_movement_rate(MovementInput((M.HORSE_DRAWN,), Going.BAD, bad_going_choice=ROLL))
    assert (stock.inches, stock.suppression_roll) == (2, False)
    club = lookup_movement_rate(
        MovementInput((M.HORSE_DRAWN,), Going.BAD, bad_going_choice=ROLL, horse_drawn_is_vehicle=True)
    )
    assert (club.inches, club.suppression_roll) == (3, True)


def test_at_gun_line_never_takes_the_variant():
    rate = lookup_movement_rate(MovementInput((M.AT_GUN,), Going.BAD, bad_going_choice=ROLL))
    assert (rate.inches, rate.suppression_roll) == (0.5, False)


def test_suppression_roll_choice_only_in_real_bad_going():
    with pytest.raises(ValueError, match="bad going only"):
        lookup_movement_rate(
            MovementInput((M.FOOT,), Going.GOOD, suppressed_stands=True, bad_going_choice=ROLL)
        )


def test_no_movers_is_refused():
    with pytest.raises(ValueError, match="at least one mover"):
        lookup_movement_rate(MovementInput(()))


@pytest.mark.parametrize(
    ("speed", "mover"),
    [
        (Speed.SLOW, M.SLOW_AFV),
        (Speed.MEDIUM, M.MEDIUM_AFV),
        (Speed.FAST, M.FAST_AFV),
        (Speed.HALFTRACK, M.HALFTRACK),
        (Speed.WHEELED, M.WHEELED),
    ],
)
def test_speed_letters_name_the_rows(speed, mover):
    assert Mover.for_speed(speed) is mover


def test_line_and_dict():
    rate = lookup_movement_rate(
        MovementInput((M.FOOT, M.WHEELED), Going.BAD, Formation.ASSAULT, bad_going_choice=ROLL)
    )
    assert rate.line() == (
        'Movement rate, bad going, assault: Foot 3" [Bad Going Assault, no 0.5" reduction], '
        'Wheeled 1.5" [Bad Going Assault, 150%] → 1.5" (slowest: Wheeled), roll for suppression'
    )
    data = rate.to_dict()
    assert data["inches"] == 1.5
    assert data["slowest"] == "Wheeled"
    assert data["inputs"]["bad_going_choice"] == "roll for suppression"


# --- the suppression roll: 1 in 10 per stand; the 4-stand worked example ------


@pytest.mark.parametrize(("face", "stand"), [(1, 1), (2, 2), (3, 3), (4, 4), (5, None), (10, None)])
def test_worked_example_four_stands_suppressed_on_4_or_less(face, stand):
    result = roll_bad_going_suppression(BadGoingSuppressionInput(4, "A1"), ScriptedDice([face]))
    assert result.outcome == stand
    assert result.threshold == 4
    assert result.succeeded is (stand is not None)


@pytest.mark.parametrize("stands", range(1, 13))
def test_suppression_chance_is_one_in_ten_per_stand(stands):
    suppressing = [
        face
        for face in range(1, 11)
        if roll_bad_going_suppression(BadGoingSuppressionInput(stands), ScriptedDice([face])).outcome
    ]
    assert len(suppressing) == min(stands, 10)


def test_suppression_roll_line():
    result = roll_bad_going_suppression(BadGoingSuppressionInput(4, "A1"), ScriptedDice([3]))
    assert result.line() == (
        "Bad going suppression roll, A1: d10 [3] = 3 ≤ 4 [4 stands] → stand 3 from the left/front suppressed"
    )


def test_suppression_roll_needs_a_stand():
    with pytest.raises(ValueError, match="at least one stand"):
        roll_bad_going_suppression(BadGoingSuppressionInput(0), ScriptedDice([1]))
