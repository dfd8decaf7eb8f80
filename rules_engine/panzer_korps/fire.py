"""Fire dice, cover dice and their shifts, disengaging and indirect accuracy.

A fire exchange throws the target's cover die, then the firer's modified fire
die against it: over the cover score one disorder marker, double two, triple
three.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import (
    Band,
    Cover,
    Quality,
    band_for,
    band_result,
    inputs_of,
    markers_over,
    modifiers,
    per_item,
    ref,
    score_of,
)
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Comparison, Modifier, RollResult

INFANTRY_FIRE_RULE = ref("Infantry fire die")
AFV_FIRE_RULE = ref("AFV/AT formation fire die")
COVER_RULE = ref("Cover die")
COVER_SHIFT_RULE = ref("Cover die shifts")
DISENGAGE_RULE = ref("Disengage from fire fight")
ACCURACY_RULE = ref("Indirect accuracy d6")

# Infantry fire die by quality: (formed, suppressed); None: no fire when suppressed.
INFANTRY_FIRE_DIE: dict[Quality, tuple[DiceKind, DiceKind | None]] = table(
    "pk.infantry_fire_die",
    "Infantry fire die by quality, formed/suppressed",
    INFANTRY_FIRE_RULE,
    {
        Quality.HARDENED: (DiceKind.D12, DiceKind.D10),
        Quality.ELITE: (DiceKind.D12, DiceKind.D8),
        Quality.VETERAN: (DiceKind.D10, DiceKind.D8),
        Quality.REGULAR: (DiceKind.D10, DiceKind.D6),
        Quality.RESERVIST: (DiceKind.D8, DiceKind.D6),
        Quality.RECRUIT: (DiceKind.D8, DiceKind.D4),
        Quality.MILITIA: (DiceKind.D6, DiceKind.D4),
        Quality.PARTISAN: (DiceKind.D6, None),
    },
)


class Attachment(enum.Enum):
    """Attached companies and weapons counted "per attached" by the fire charts."""

    MMG = "MMG"
    HMG = "HMG"
    MORTAR = "mortar"
    SUPPORT_INFANTRY = "support infantry company"
    AT_VS_INFANTRY = "AT company vs infantry"
    IG_45MM_OR_LESS = "IG company 45mm or less"
    AFV_40MM_OR_LESS = "AFV company with 40mm gun or less"
    AFV_41MM_OR_MORE = "AFV company with 41mm gun or more"
    FLAMETHROWER = "flamethrower"
    AT_VS_AFV = "AT company vs AFV"
    IG_46MM_OR_MORE = "IG company 46mm or more"
    HMG_AT_SHORT_RANGE = "HMG at short range"  # infantry chart only: +2 in place of +1


_PLUS_ONE_ATTACHMENTS = (
    Attachment.MMG,
    Attachment.HMG,
    Attachment.MORTAR,
    Attachment.SUPPORT_INFANTRY,
    Attachment.AT_VS_INFANTRY,
    Attachment.IG_45MM_OR_LESS,
    Attachment.AFV_40MM_OR_LESS,
)
_PLUS_TWO_ATTACHMENTS = (
    Attachment.AFV_41MM_OR_MORE,
    Attachment.FLAMETHROWER,
    Attachment.AT_VS_AFV,
    Attachment.IG_46MM_OR_MORE,
)


@dataclass(frozen=True)
class FireModifierChart:
    attachments: dict[Attachment, int]  # each, per attached
    conditions: dict[str, int]


INFANTRY_FIRE_MODIFIERS: FireModifierChart = table(
    "pk.infantry_fire_modifiers",
    "Infantry fire die modifiers",
    INFANTRY_FIRE_RULE,
    FireModifierChart(
        attachments={
            **dict.fromkeys(_PLUS_ONE_ATTACHMENTS, 1),
            **dict.fromkeys(_PLUS_TWO_ATTACHMENTS, 2),
            Attachment.HMG_AT_SHORT_RANGE: 2,
        },
        conditions={
            "flank target": 1,
            "target moved": -1,
            "target entrenched": -2,
            "target is an AFV formation": -2,
        },
    ),
)

AFV_FIRE_MODIFIERS: FireModifierChart = table(
    "pk.afv_fire_modifiers",
    "AFV/AT fire dice modifiers",
    AFV_FIRE_RULE,
    FireModifierChart(
        attachments={**dict.fromkeys(_PLUS_ONE_ATTACHMENTS, 1), **dict.fromkeys(_PLUS_TWO_ATTACHMENTS, 2)},
        conditions={
            "moved": -1,
            "surprised": -1,
            "blind fire": -1,
            "target moving": -1,
            "target entrenched": -2,
            "flank AFV target": 1,
            "target in short range": 1,
            "rear AFV target": 2,
            "target in transit column": 2,
        },
    ),
)


class WeaponGrade(enum.Enum):
    INFERIOR = "inferior weapon"
    STANDARD = "standard weapon"
    SUPERIOR = "superior weapon"


@dataclass(frozen=True)
class CrewModifierChart:
    quality: dict[Quality, int]
    ss: int
    weapon: dict[WeaponGrade, int]


AFV_QUALITY_MODIFIERS: CrewModifierChart = table(
    "pk.afv_quality_modifiers",
    "AFV/AT quality fire die modifiers",
    AFV_FIRE_RULE,
    CrewModifierChart(
        quality={
            Quality.HARDENED: 2,
            Quality.ELITE: 2,
            Quality.VETERAN: 1,
            Quality.REGULAR: 1,
            Quality.RESERVIST: 0,
            Quality.RECRUIT: -1,
            Quality.MILITIA: -1,
            Quality.PARTISAN: -1,
        },
        ss=1,
        weapon={WeaponGrade.INFERIOR: -1, WeaponGrade.STANDARD: 0, WeaponGrade.SUPERIOR: 1},
    ),
)

# AFV/AT fire die by gun calibre (mm, MMG counts as 20mm or less): (formed, suppressed).
AFV_FIRE_DIE: tuple[Band[tuple[DiceKind, DiceKind | None]], ...] = table(
    "pk.afv_fire_die",
    "AFV/AT fire die by calibre, formed/suppressed",
    AFV_FIRE_RULE,
    (
        Band(0, 20, (DiceKind.D4, None)),  # suppressed cell blank (rules notes PK-08)
        Band(21, 50, (DiceKind.D6, DiceKind.D4)),
        Band(51, 76, (DiceKind.D8, DiceKind.D6)),
        Band(77, 105, (DiceKind.D10, DiceKind.D8)),
        Band(106, 160, (DiceKind.D12, DiceKind.D10)),
    ),
)

COVER_DIE: dict[Cover, DiceKind] = table(
    "pk.cover_die",
    "Cover die",
    COVER_RULE,
    {
        Cover.OPEN: DiceKind.D4,
        Cover.LIGHT: DiceKind.D6,
        Cover.MEDIUM: DiceKind.D8,
        Cover.HEAVY: DiceKind.D10,
        Cover.SUPER_HEAVY: DiceKind.D12,
    },
)
_COVER_DICE = tuple(COVER_DIE[c] for c in Cover)


class FireSource(enum.Enum):
    """Where fire comes from, for the cover die shifts against AFV targets."""

    DIRECT = "direct fire"
    INDIRECT_ARTILLERY = "indirect artillery"
    DIVE_BOMBERS = "dive bombers"
    LIGHT_BOMBERS = "light bombers"
    MEDIUM_BOMBERS = "medium bombers"
    HEAVY_BOMBERS = "heavy bombers"
    SUPER_HEAVY_BOMBERS = "super heavy bombers"
    BALLISTIC_MISSILE = "ballistic missile"


# Cover die steps up (+) or down (-) against AFV targets, by artillery calibre (mm).
ARTILLERY_COVER_SHIFT: tuple[Band[int], ...] = table(
    "pk.cover_shift_artillery",
    "Cover die shifts vs AFV: indirect artillery by calibre",
    COVER_SHIFT_RULE,
    (Band(None, 75, 3), Band(76, 149, 2), Band(150, 220, 1), Band(221, 319, 0), Band(320, None, -1)),
)

AIR_COVER_SHIFT: dict[FireSource, int] = table(
    "pk.cover_shift_air",
    "Cover die shifts vs AFV: bombers and missiles",
    COVER_SHIFT_RULE,
    {
        FireSource.DIVE_BOMBERS: 0,
        FireSource.LIGHT_BOMBERS: 3,
        FireSource.MEDIUM_BOMBERS: 2,
        FireSource.HEAVY_BOMBERS: 1,
        FireSource.SUPER_HEAVY_BOMBERS: 0,
        FireSource.BALLISTIC_MISSILE: -1,
    },
)


@dataclass(frozen=True)
class CoverDieInput:
    cover: Cover
    target_is_afv: bool = False
    source: FireSource = FireSource.DIRECT
    calibre_mm: int | None = None  # indirect artillery only


@dataclass(frozen=True)
class CoverDie:
    cover: Cover
    shift: int
    die: DiceKind

    def text(self) -> str:
        base = f"{self.cover.value} {COVER_DIE[self.cover].value}"
        if self.shift == 0:
            return base
        return f"{base} shifted {self.shift:+d} → {self.die.value}"

    def to_dict(self) -> dict[str, Any]:
        return {"cover": self.cover.value, "shift": self.shift, "die": self.die.value, "text": self.text()}


def cover_shift(inputs: CoverDieInput) -> int:
    """Shifts apply only against AFV targets, from artillery or the air (PK-10)."""
    if not inputs.target_is_afv or inputs.source is FireSource.DIRECT:
        return 0
    if inputs.source is FireSource.INDIRECT_ARTILLERY:
        if inputs.calibre_mm is None:
            raise ValueError("indirect artillery needs its calibre for the cover shift")
        return band_for(ARTILLERY_COVER_SHIFT, inputs.calibre_mm).value
    return AIR_COVER_SHIFT[inputs.source]


@procedure("pk.cover_die", "Cover die and shifts", COVER_RULE, rolls=False)
def lookup_cover_die(inputs: CoverDieInput) -> CoverDie:
    shift = cover_shift(inputs)
    # Shifts stop at the ends of the scale: d4 and d12.
    index = min(max(list(Cover).index(inputs.cover) + shift, 0), len(_COVER_DICE) - 1)
    return CoverDie(inputs.cover, shift, _COVER_DICE[index])


@dataclass(frozen=True)
class FireExchange:
    """Cover die, then fire die against it; markers are the disorder markers."""

    disorder_markers: int
    cover_roll: RollResult | None
    fire_roll: RollResult | None
    note: str = ""

    def roll_results(self) -> tuple[RollResult, ...]:
        return tuple(r for r in (self.cover_roll, self.fire_roll) if r is not None)

    def line(self) -> str:
        if self.fire_roll is None:
            return f"No fire ({self.note})"
        return "; ".join(r.line() for r in self.roll_results())

    def to_dict(self) -> dict[str, Any]:
        return {
            "disorder_markers": self.disorder_markers,
            "cover_roll": self.cover_roll.to_dict() if self.cover_roll else None,
            "fire_roll": self.fire_roll.to_dict() if self.fire_roll else None,
            "note": self.note,
            "line": self.line(),
        }


def markers_text(markers: int) -> str:
    if markers == 0:
        return "no effect"
    return f"{markers} disorder marker{'' if markers == 1 else 's'}"


def exchange_fire(
    *,
    title: str,
    rule: Any,
    subject: str,
    fire_die: DiceKind,
    fire_cell: str,
    fire_mods: tuple[Modifier, ...],
    cover: CoverDie,
    inputs: dict[str, Any],
    dice: DiceSource,
) -> FireExchange:
    cover_thrown = roll(cover.die, dice)
    cover_roll = RollResult(
        title="Cover die",
        subject=cover.cover.value,
        rule=COVER_RULE,
        rolls=(cover_thrown,),
        cell=cover.text(),
        outcome=cover_thrown.total,
        outcome_text=str(cover_thrown.total),
        inputs=inputs,
    )
    fire_thrown = roll(fire_die, dice)
    markers = markers_over(score_of(fire_thrown, fire_mods), cover_thrown.total)
    fire_roll = RollResult(
        title=title,
        subject=subject,
        rule=rule,
        rolls=(fire_thrown,),
        modifiers=fire_mods,
        threshold_base=cover_thrown.total,
        comparison=Comparison.GREATER_THAN,
        cell=fire_cell,
        outcome=markers,
        outcome_text=markers_text(markers),
        inputs=inputs,
    )
    return FireExchange(markers, cover_roll, fire_roll)


def attachment_modifiers(
    chart: FireModifierChart, attachments: tuple[Attachment, ...]
) -> tuple[Modifier, ...]:
    missing = [a for a in attachments if a not in chart.attachments]
    if missing:
        raise ValueError(f"not on this fire chart: {', '.join(a.value for a in missing)}")
    counted = [(a, attachments.count(a)) for a in Attachment if a in attachments]
    return modifiers(*(per_item(n, f"attached {a.value}", chart.attachments[a]) for a, n in counted))


@dataclass(frozen=True)
class InfantryFireInput:
    quality: Quality
    target_cover: Cover
    suppressed: bool = False
    attachments: tuple[Attachment, ...] = ()  # repeat an item once per attached company
    flank_target: bool = False
    target_moved: bool = False
    target_entrenched: bool = False
    target_is_afv: bool = False


@procedure("pk.infantry_fire", "Infantry fire vs cover", INFANTRY_FIRE_RULE)
def roll_infantry_fire(inputs: InfantryFireInput, dice: DiceSource) -> FireExchange:
    formed, suppressed = INFANTRY_FIRE_DIE[inputs.quality]
    die = suppressed if inputs.suppressed else formed
    state = "suppressed" if inputs.suppressed else "formed"
    if die is None:
        return FireExchange(0, None, None, note=f"{inputs.quality.value} {state}")
    chart = INFANTRY_FIRE_MODIFIERS
    mods = attachment_modifiers(chart, inputs.attachments) + modifiers(
        (inputs.flank_target, "flank target", chart.conditions["flank target"]),
        (inputs.target_moved, "target moved", chart.conditions["target moved"]),
        (inputs.target_entrenched, "target entrenched", chart.conditions["target entrenched"]),
        (inputs.target_is_afv, "target is AFV formation", chart.conditions["target is an AFV formation"]),
    )
    return exchange_fire(
        title="Infantry fire",
        rule=INFANTRY_FIRE_RULE,
        subject=f"{inputs.quality.value} {state}",
        fire_die=die,
        fire_cell=f"{inputs.quality.value} {state} {die.value}",
        fire_mods=mods,
        cover=lookup_cover_die(CoverDieInput(inputs.target_cover, inputs.target_is_afv)),
        inputs=inputs_of(inputs),
        dice=dice,
    )


@dataclass(frozen=True)
class AfvFireInput:
    calibre_mm: int  # main gun; 20 or less for MMG-armed vehicles
    target_cover: Cover
    crew_quality: Quality = Quality.REGULAR
    suppressed: bool = False
    ss: bool = False
    weapon: WeaponGrade = WeaponGrade.STANDARD
    attachments: tuple[Attachment, ...] = ()
    moved: bool = False
    surprised: bool = False
    blind_fire: bool = False
    target_moving: bool = False
    target_entrenched: bool = False
    flank_afv_target: bool = False
    rear_afv_target: bool = False
    short_range: bool = False
    target_in_transit_column: bool = False
    target_is_afv: bool = True
    # The suppressed cell of the MMG/20mm row is blank: no fire unless set (PK-08).
    suppressed_smallest_fires_d4: bool = False


def afv_fire_die(calibre_mm: int, suppressed: bool, smallest_fires_d4: bool) -> DiceKind | None:
    if calibre_mm > 160:
        raise ValueError(f"the AFV fire die chart stops at 160mm (got {calibre_mm}mm)")
    formed, reduced = band_for(AFV_FIRE_DIE, calibre_mm).value
    if not suppressed:
        return formed
    if reduced is None and smallest_fires_d4:
        return DiceKind.D4
    return reduced


@procedure("pk.afv_fire", "AFV/AT fire vs cover", AFV_FIRE_RULE)
def roll_afv_fire(inputs: AfvFireInput, dice: DiceSource) -> FireExchange:
    die = afv_fire_die(inputs.calibre_mm, inputs.suppressed, inputs.suppressed_smallest_fires_d4)
    state = "suppressed" if inputs.suppressed else "formed"
    if die is None:
        return FireExchange(0, None, None, note=f"{inputs.calibre_mm}mm {state}")
    chart, crew = AFV_FIRE_MODIFIERS.conditions, AFV_QUALITY_MODIFIERS
    mods = (
        modifiers(
            (True, f"{inputs.crew_quality.value} crew", crew.quality[inputs.crew_quality]),
            (inputs.ss, "SS", crew.ss),
            (True, inputs.weapon.value, crew.weapon[inputs.weapon]),
        )
        + attachment_modifiers(AFV_FIRE_MODIFIERS, inputs.attachments)
        + modifiers(
            (inputs.moved, "moved", chart["moved"]),
            (inputs.surprised, "surprised", chart["surprised"]),
            (inputs.blind_fire, "blind fire", chart["blind fire"]),
            (inputs.target_moving, "target moving", chart["target moving"]),
            (inputs.target_entrenched, "target entrenched", chart["target entrenched"]),
            (inputs.flank_afv_target, "flank AFV target", chart["flank AFV target"]),
            (inputs.rear_afv_target, "rear AFV target", chart["rear AFV target"]),
            (inputs.short_range, "short range", chart["target in short range"]),
            (inputs.target_in_transit_column, "target in transit column", chart["target in transit column"]),
        )
    )
    return exchange_fire(
        title="AFV/AT fire",
        rule=AFV_FIRE_RULE,
        subject=f"{inputs.calibre_mm}mm {state}",
        fire_die=die,
        fire_cell=f"{inputs.calibre_mm}mm {state} {die.value}",
        fire_mods=mods,
        cover=lookup_cover_die(CoverDieInput(inputs.target_cover, inputs.target_is_afv)),
        inputs=inputs_of(inputs),
        dice=dice,
    )


@dataclass(frozen=True)
class BombardmentInput:
    """Indirect artillery, bombers or missiles: the charts give their cover
    shifts but no fire die, so the club's fire die and modifier come in."""

    source: FireSource
    fire_die: DiceKind
    target_cover: Cover
    target_is_afv: bool = False
    calibre_mm: int | None = None
    fire_modifier: int = 0


@procedure("pk.bombardment_fire", "Bombardment vs shifted cover", COVER_SHIFT_RULE)
def roll_bombardment_fire(inputs: BombardmentInput, dice: DiceSource) -> FireExchange:
    cover = lookup_cover_die(
        CoverDieInput(inputs.target_cover, inputs.target_is_afv, inputs.source, inputs.calibre_mm)
    )
    return exchange_fire(
        title="Bombardment",
        rule=COVER_SHIFT_RULE,
        subject=inputs.source.value,
        fire_die=inputs.fire_die,
        fire_cell=f"{inputs.source.value} {inputs.fire_die.value}",
        fire_mods=modifiers((True, "fire modifier", inputs.fire_modifier)),
        cover=cover,
        inputs=inputs_of(inputs),
        dice=dice,
    )


DISENGAGE: dict[str, int] = table(
    "pk.disengage",
    "Disengage from fire fight (d10 at or under)",
    DISENGAGE_RULE,
    {"base": 5, "Elite": 2, "Hardened": 3, "Militia or lower": -2},
)


@dataclass(frozen=True)
class DisengageInput:
    quality: Quality


@procedure("pk.disengage", "Disengage from fire fight", DISENGAGE_RULE)
def roll_disengage(inputs: DisengageInput, dice: DiceSource) -> RollResult:
    quality = inputs.quality
    mods = modifiers(
        (quality is Quality.ELITE, "Elite", DISENGAGE["Elite"]),
        (quality is Quality.HARDENED, "Hardened", DISENGAGE["Hardened"]),
        (quality.at_most(Quality.MILITIA), quality.value, DISENGAGE["Militia or lower"]),
        applies=Applies.THRESHOLD,
    )
    thrown = roll(DiceKind.D10, dice)
    succeeded = thrown.total <= DISENGAGE["base"] + sum(m.value for m in mods)
    return RollResult(
        title="Disengage",
        subject=quality.value,
        rule=DISENGAGE_RULE,
        rolls=(thrown,),
        modifiers=mods,
        threshold_base=DISENGAGE["base"],
        comparison=Comparison.AT_MOST,
        outcome=succeeded,
        outcome_text="disengages" if succeeded else "stays engaged",
        inputs=inputs_of(inputs),
    )


class Drift(enum.Enum):
    ON_TARGET = "on target"
    RIGHT = "right"
    LEFT = "left"
    CLOSER = "closer"
    FARTHER = "farther"


INDIRECT_ACCURACY: tuple[Band[Drift], ...] = table(
    "pk.indirect_accuracy",
    "Indirect accuracy (d6; off target drifts d6 inches)",
    ACCURACY_RULE,
    (
        Band(1, 2, Drift.ON_TARGET),
        Band(3, 3, Drift.RIGHT),
        Band(4, 4, Drift.LEFT),
        Band(5, 5, Drift.CLOSER),
        Band(6, 6, Drift.FARTHER),
    ),
)


@dataclass(frozen=True)
class IndirectAccuracyInput:
    firer: str = ""


@dataclass(frozen=True)
class IndirectAccuracy:
    drift: Drift
    inches: int
    roll: RollResult
    distance_roll: RollResult | None

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self.roll,) if self.distance_roll is None else (self.roll, self.distance_roll)

    def line(self) -> str:
        verdict = "on target" if self.drift is Drift.ON_TARGET else f'{self.inches}" {self.drift.value}'
        return "; ".join(r.line() for r in self.roll_results()) + f" ⇒ {verdict}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "drift": self.drift.value,
            "inches": self.inches,
            "rolls": [r.to_dict() for r in self.roll_results()],
            "line": self.line(),
        }


@procedure("pk.indirect_accuracy", "Indirect fire accuracy", ACCURACY_RULE)
def roll_indirect_accuracy(inputs: IndirectAccuracyInput, dice: DiceSource) -> IndirectAccuracy:
    record = inputs_of(inputs)
    drift, direction_roll = band_result(
        title="Indirect accuracy",
        subject=inputs.firer,
        rule=ACCURACY_RULE,
        bands=INDIRECT_ACCURACY,
        thrown=roll(DiceKind.D6, dice),
        mods=(),
        text=lambda d: d.value,
        inputs=record,
    )
    if drift is Drift.ON_TARGET:
        return IndirectAccuracy(drift, 0, direction_roll, None)
    distance = roll(DiceKind.D6, dice)
    distance_roll = RollResult(
        title="Drift distance",
        subject=inputs.firer,
        rule=ACCURACY_RULE,
        rolls=(distance,),
        outcome=distance.total,
        outcome_text=f'{distance.total}" {drift.value}',
        inputs=record,
    )
    return IndirectAccuracy(drift, distance.total, direction_roll, distance_roll)
