"""003 § Morale results table (morale die, panic recovery, results, modifiers)
and § Disruption recovery — every cell."""

import pytest

from rules_engine.dice import DiceKind, ScriptedDice
from rules_engine.panzer_korps.common import Quality, band_for
from rules_engine.panzer_korps.morale import (
    MORALE_DIE,
    MORALE_RESULTS,
    DisorderRecoveryInput,
    MoraleInput,
    MoraleOutcome,
    Position,
    lookup_disorder_recovery,
    panic_forces_retirement,
    roll_morale,
)
from rules_engine.vocab import LeaderRating

Q = Quality
D = DiceKind


@pytest.mark.parametrize(
    ("quality", "die", "recovery"),
    [
        (Q.HARDENED, D.D12, 4),
        (Q.ELITE, D.D12, 4),
        (Q.VETERAN, D.D10, 3),
        (Q.REGULAR, D.D10, 3),
        (Q.RESERVIST, D.D8, 2),
        (Q.RECRUIT, D.D8, 2),
        (Q.MILITIA, D.D6, 1),
        (Q.PARTISAN, D.D6, 0),
    ],
)
def test_morale_die_and_panic_recovery_cells(quality, die, recovery):
    assert (MORALE_DIE[quality].die, MORALE_DIE[quality].panic_recovery) == (die, recovery)
    assert not panic_forces_retirement(quality, recovery)
    assert panic_forces_retirement(quality, recovery + 1)


@pytest.mark.parametrize(
    ("score", "outcome", "markers"),
    [
        (-3, MoraleOutcome.PANIC, 4),
        (1, MoraleOutcome.PANIC, 4),
        (2, MoraleOutcome.FALL_BACK, 3),
        (3, MoraleOutcome.TWO_DISORDER, 2),
        (4, MoraleOutcome.ONE_DISORDER, 1),
        (5, MoraleOutcome.NO_EFFECT, 0),
        (12, MoraleOutcome.NO_EFFECT, 0),
    ],
)
def test_morale_result_cells(score, outcome, markers):
    assert band_for(MORALE_RESULTS, score).value is outcome
    if 1 <= score <= 10:
        check = roll_morale(MoraleInput(Q.REGULAR), ScriptedDice([score, 1]))
        assert check.outcome is outcome
        assert check.disorder_markers_added == markers


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        ({"decorated_leaders": 1}, 1),
        ({"decorated_leaders": 2}, 2),
        ({"enemy_panics_seen": 1}, 1),
        ({"enemy_panics_seen": 3}, 3),
        ({"enemy_panics_seen": 5}, 3),  # up to +3
        ({"position": Position.COVER}, 1),
        ({"position": Position.ENTRENCHED}, 2),
        ({"disorder_markers": 1}, -1),
        ({"disorder_markers": 3}, -3),
        ({"under_artillery_fire": True}, -1),
        ({"quality": Q.PARTISAN}, -1),
        ({"ss": True}, 3),
        ({"fanatics": True}, 3),
        ({"quality": Q.HARDENED}, 3),
        ({"quality": Q.HARDENED, "fanatics": True}, 3),
        ({"leader": LeaderRating.F}, 0),
        ({"leader": LeaderRating.G}, -1),
        ({"leader": LeaderRating.H}, -2),
    ],
)
def test_morale_modifiers(kwargs, total):
    inputs = MoraleInput(**{"quality": Q.MILITIA, **kwargs})
    check = roll_morale(inputs, ScriptedDice([6, 1]))
    assert sum(m.value for m in check.roll.modifiers) == total
    assert check.roll.score == 6 + total


def test_panic_rolls_extra_move_and_marks_red():
    foot = roll_morale(MoraleInput(Q.MILITIA, red_markers=0), ScriptedDice([1, 4]))
    assert foot.outcome is MoraleOutcome.PANIC
    assert foot.panic_move_roll.rolls[0].kind is D.D6
    assert foot.panic_move_roll.outcome == 4
    assert foot.red_markers == 1
    assert not foot.must_retire
    mounted = roll_morale(MoraleInput(Q.MILITIA, mounted=True, red_markers=1), ScriptedDice([1, 9]))
    assert mounted.panic_move_roll.rolls[0].kind is D.D10
    assert mounted.red_markers == 2
    assert mounted.must_retire


def test_partisans_retire_on_first_panic():
    assert roll_morale(MoraleInput(Q.PARTISAN), ScriptedDice([1, 1])).must_retire


@pytest.mark.parametrize(
    ("kwargs", "removed"),
    [
        ({"moved": False}, 1),
        ({"auto_rally": 2}, 2),
        ({"decorated_leaders": 1}, 1),
        ({"quality": Q.REGULAR}, 1),
        ({"quality": Q.VETERAN}, 1),
        ({"quality": Q.ELITE}, 2),
        ({"quality": Q.HARDENED}, 2),
        ({"quality": Q.RESERVIST}, 0),
        ({"divisional_hq_attached": True}, 2),
    ],
)
def test_disorder_recovery_lines(kwargs, removed):
    inputs = DisorderRecoveryInput(**{"quality": Q.RECRUIT, "disorder_markers": 10, "moved": True, **kwargs})
    result = lookup_disorder_recovery(inputs)
    assert result.removed == removed
    assert result.remaining == 10 - removed


def test_disorder_recovery_stops_at_zero():
    result = lookup_disorder_recovery(DisorderRecoveryInput(Q.HARDENED, 1, divisional_hq_attached=True))
    assert (result.removed, result.remaining) == (1, 0)
