"""003 § Infantry fire die, § AFV/AT formation fire die (and quality modifiers),
§ Cover die, § Cover die shifts, § Disengage from fire fight, § Indirect
accuracy d6 — every cell."""

import pytest

from rules_engine.dice import DiceKind, ScriptedDice
from rules_engine.panzer_korps.common import Cover, Quality, band_for, markers_over
from rules_engine.panzer_korps.fire import (
    AFV_FIRE_DIE,
    COVER_DIE,
    INDIRECT_ACCURACY,
    INFANTRY_FIRE_DIE,
    AfvFireInput,
    Attachment,
    BombardmentInput,
    CoverDieInput,
    DisengageInput,
    Drift,
    FireSource,
    IndirectAccuracyInput,
    InfantryFireInput,
    WeaponGrade,
    afv_fire_die,
    lookup_cover_die,
    roll_afv_fire,
    roll_bombardment_fire,
    roll_disengage,
    roll_indirect_accuracy,
    roll_infantry_fire,
)

Q = Quality
D = DiceKind

INFANTRY = [
    (Q.HARDENED, D.D12, D.D10),
    (Q.ELITE, D.D12, D.D8),
    (Q.VETERAN, D.D10, D.D8),
    (Q.REGULAR, D.D10, D.D6),
    (Q.RESERVIST, D.D8, D.D6),
    (Q.RECRUIT, D.D8, D.D4),
    (Q.MILITIA, D.D6, D.D4),
    (Q.PARTISAN, D.D6, None),
]


@pytest.mark.parametrize(("quality", "formed", "suppressed"), INFANTRY)
def test_infantry_fire_die_cells(quality, formed, suppressed):
    assert INFANTRY_FIRE_DIE[quality] == (formed, suppressed)
    result = roll_infantry_fire(InfantryFireInput(quality, Cover.OPEN), ScriptedDice([1, 1]))
    assert result.fire_roll.rolls[0].kind is formed


def test_suppressed_partisans_do_not_fire():
    result = roll_infantry_fire(InfantryFireInput(Q.PARTISAN, Cover.OPEN, suppressed=True), ScriptedDice([]))
    assert result.disorder_markers == 0
    assert result.roll_results() == ()


@pytest.mark.parametrize(
    ("attachment", "value"),
    [
        (Attachment.MMG, 1),
        (Attachment.HMG, 1),
        (Attachment.MORTAR, 1),
        (Attachment.SUPPORT_INFANTRY, 1),
        (Attachment.AT_VS_INFANTRY, 1),
        (Attachment.IG_45MM_OR_LESS, 1),
        (Attachment.AFV_40MM_OR_LESS, 1),
        (Attachment.AFV_41MM_OR_MORE, 2),
        (Attachment.FLAMETHROWER, 2),
        (Attachment.AT_VS_AFV, 2),
        (Attachment.IG_46MM_OR_MORE, 2),
        (Attachment.HMG_AT_SHORT_RANGE, 2),
    ],
)
def test_infantry_attachment_modifiers(attachment, value):
    one = roll_infantry_fire(
        InfantryFireInput(Q.REGULAR, Cover.OPEN, attachments=(attachment,)), ScriptedDice([1, 1])
    )
    two = roll_infantry_fire(
        InfantryFireInput(Q.REGULAR, Cover.OPEN, attachments=(attachment, attachment)), ScriptedDice([1, 1])
    )
    assert one.fire_roll.score == 1 + value
    assert two.fire_roll.score == 1 + 2 * value  # per attached


@pytest.mark.parametrize(
    ("kwargs", "value"),
    [
        ({"flank_target": True}, 1),
        ({"target_moved": True}, -1),
        ({"target_entrenched": True}, -2),
        ({"target_is_afv": True}, -2),
    ],
)
def test_infantry_condition_modifiers(kwargs, value):
    result = roll_infantry_fire(InfantryFireInput(Q.REGULAR, Cover.OPEN, **kwargs), ScriptedDice([1, 5]))
    assert result.fire_roll.score == 5 + value


AFV = [
    (0, D.D4, None),
    (20, D.D4, None),
    (21, D.D6, D.D4),
    (50, D.D6, D.D4),
    (51, D.D8, D.D6),
    (76, D.D8, D.D6),
    (77, D.D10, D.D8),
    (105, D.D10, D.D8),
    (106, D.D12, D.D10),
    (160, D.D12, D.D10),
]


@pytest.mark.parametrize(("calibre", "formed", "suppressed"), AFV)
def test_afv_fire_die_cells(calibre, formed, suppressed):
    assert band_for(AFV_FIRE_DIE, calibre).value == (formed, suppressed)
    assert afv_fire_die(calibre, False, False) is formed
    assert afv_fire_die(calibre, True, False) is suppressed


def test_afv_mmg_suppressed_setting():
    assert afv_fire_die(20, True, True) is D.D4
    result = roll_afv_fire(AfvFireInput(20, Cover.OPEN, suppressed=True), ScriptedDice([]))
    assert result.fire_roll is None


def test_afv_fire_beyond_chart_refused():
    with pytest.raises(ValueError, match="stops at 160mm"):
        afv_fire_die(170, False, False)


@pytest.mark.parametrize(
    ("quality", "value"),
    [
        (Q.HARDENED, 2),
        (Q.ELITE, 2),
        (Q.VETERAN, 1),
        (Q.REGULAR, 1),
        (Q.RESERVIST, 0),
        (Q.RECRUIT, -1),
        (Q.MILITIA, -1),
        (Q.PARTISAN, -1),
    ],
)
def test_afv_quality_modifiers(quality, value):
    result = roll_afv_fire(AfvFireInput(75, Cover.OPEN, crew_quality=quality), ScriptedDice([1, 4]))
    assert result.fire_roll.score == 4 + value


@pytest.mark.parametrize(
    ("kwargs", "value"),
    [
        ({"ss": True}, 1),
        ({"weapon": WeaponGrade.INFERIOR}, -1),
        ({"weapon": WeaponGrade.SUPERIOR}, 1),
        ({"moved": True}, -1),
        ({"surprised": True}, -1),
        ({"blind_fire": True}, -1),
        ({"target_moving": True}, -1),
        ({"target_entrenched": True}, -2),
        ({"flank_afv_target": True}, 1),
        ({"short_range": True}, 1),
        ({"rear_afv_target": True}, 2),
        ({"target_in_transit_column": True}, 2),
        ({"attachments": (Attachment.MMG,)}, 1),
        ({"attachments": (Attachment.AT_VS_INFANTRY,)}, 1),
        ({"attachments": (Attachment.AFV_40MM_OR_LESS,)}, 1),
        ({"attachments": (Attachment.AFV_41MM_OR_MORE,)}, 2),
        ({"attachments": (Attachment.FLAMETHROWER,)}, 2),
        ({"attachments": (Attachment.AT_VS_AFV,)}, 2),
        ({"attachments": (Attachment.IG_46MM_OR_MORE,)}, 2),
    ],
)
def test_afv_fire_modifiers(kwargs, value):
    result = roll_afv_fire(
        AfvFireInput(75, Cover.OPEN, crew_quality=Q.RESERVIST, **kwargs), ScriptedDice([1, 4])
    )
    assert result.fire_roll.score == 4 + value


def test_afv_chart_has_no_hmg_short_range_line():
    with pytest.raises(ValueError, match="not on this fire chart"):
        roll_afv_fire(
            AfvFireInput(75, Cover.OPEN, attachments=(Attachment.HMG_AT_SHORT_RANGE,)), ScriptedDice([1, 1])
        )


@pytest.mark.parametrize(
    ("cover", "die"),
    [
        (Cover.OPEN, D.D4),
        (Cover.LIGHT, D.D6),
        (Cover.MEDIUM, D.D8),
        (Cover.HEAVY, D.D10),
        (Cover.SUPER_HEAVY, D.D12),
    ],
)
def test_cover_die_cells(cover, die):
    assert COVER_DIE[cover] is die
    assert lookup_cover_die(CoverDieInput(cover)).die is die


@pytest.mark.parametrize(
    ("calibre", "shift"),
    [(50, 3), (75, 3), (76, 2), (149, 2), (150, 1), (220, 1), (221, 0), (319, 0), (320, -1), (400, -1)],
)
def test_artillery_cover_shifts_vs_afv(calibre, shift):
    result = lookup_cover_die(CoverDieInput(Cover.LIGHT, True, FireSource.INDIRECT_ARTILLERY, calibre))
    assert result.shift == shift
    assert result.die is [D.D4, D.D6, D.D8, D.D10, D.D12][1 + shift]


@pytest.mark.parametrize(
    ("source", "shift"),
    [
        (FireSource.DIVE_BOMBERS, 0),
        (FireSource.LIGHT_BOMBERS, 3),
        (FireSource.MEDIUM_BOMBERS, 2),
        (FireSource.HEAVY_BOMBERS, 1),
        (FireSource.SUPER_HEAVY_BOMBERS, 0),
        (FireSource.BALLISTIC_MISSILE, -1),
    ],
)
def test_air_cover_shifts_vs_afv(source, shift):
    assert lookup_cover_die(CoverDieInput(Cover.LIGHT, True, source)).shift == shift


def test_light_to_medium_example_and_clamping():
    # The chart's own example: "up from light to Medium AFV".
    assert lookup_cover_die(CoverDieInput(Cover.LIGHT, True, FireSource.HEAVY_BOMBERS)).die is D.D8
    assert lookup_cover_die(CoverDieInput(Cover.HEAVY, True, FireSource.LIGHT_BOMBERS)).die is D.D12
    assert lookup_cover_die(CoverDieInput(Cover.OPEN, True, FireSource.BALLISTIC_MISSILE)).die is D.D4


def test_shifts_only_against_afv():
    assert lookup_cover_die(CoverDieInput(Cover.LIGHT, False, FireSource.LIGHT_BOMBERS)).shift == 0


def test_artillery_shift_needs_calibre():
    with pytest.raises(ValueError, match="needs its calibre"):
        lookup_cover_die(CoverDieInput(Cover.LIGHT, True, FireSource.INDIRECT_ARTILLERY))


@pytest.mark.parametrize(
    ("fire", "cover", "markers"),
    [
        (3, 3, 0),
        (2, 3, 0),
        (4, 3, 1),
        (5, 3, 1),
        (6, 3, 2),
        (8, 3, 2),
        (9, 3, 3),
        (12, 1, 3),
        (2, 1, 2),
        (3, 1, 3),
    ],
)
def test_fire_vs_cover_results(fire, cover, markers):
    assert markers_over(fire, cover) == markers


def test_infantry_fire_exchange_line():
    result = roll_infantry_fire(
        InfantryFireInput(Q.REGULAR, Cover.MEDIUM, attachments=(Attachment.MMG,)), ScriptedDice([3, 7])
    )
    assert result.disorder_markers == 2
    assert result.line() == (
        "Cover die, medium cover: d8 [3] = 3 [medium cover d8] → 3; "
        "Infantry fire, Regulars formed: d10 [7] = 7 +1 attached MMG = 8 > 3 [Regulars formed d10]"
        " → 2 disorder markers"
    )


def test_bombardment_uses_shifted_cover():
    inputs = BombardmentInput(FireSource.INDIRECT_ARTILLERY, D.D10, Cover.LIGHT, True, 105, fire_modifier=1)
    result = roll_bombardment_fire(inputs, ScriptedDice([9, 9]))
    assert result.cover_roll.rolls[0].kind is D.D10
    assert result.disorder_markers == 1


@pytest.mark.parametrize(
    ("quality", "needed"),
    [
        (Q.HARDENED, 8),
        (Q.ELITE, 7),
        (Q.VETERAN, 5),
        (Q.REGULAR, 5),
        (Q.RESERVIST, 5),
        (Q.RECRUIT, 5),
        (Q.MILITIA, 3),
        (Q.PARTISAN, 3),
    ],
)
def test_disengage_cells(quality, needed):
    assert roll_disengage(DisengageInput(quality), ScriptedDice([needed])).outcome is True
    assert roll_disengage(DisengageInput(quality), ScriptedDice([needed + 1])).outcome is False


@pytest.mark.parametrize(
    ("face", "drift"),
    [
        (1, Drift.ON_TARGET),
        (2, Drift.ON_TARGET),
        (3, Drift.RIGHT),
        (4, Drift.LEFT),
        (5, Drift.CLOSER),
        (6, Drift.FARTHER),
    ],
)
def test_indirect_accuracy_cells(face, drift):
    assert band_for(INDIRECT_ACCURACY, face).value is drift
    result = roll_indirect_accuracy(IndirectAccuracyInput(), ScriptedDice([face, 4]))
    assert result.drift is drift
    assert result.inches == (0 if drift is Drift.ON_TARGET else 4)
