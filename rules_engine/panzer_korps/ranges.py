"""Direct and indirect fire ranges, in inches, as umpire aids (no dice).

Calibre bands are printed as ranges of whole millimetres with gaps between them
(40mm then 41mm); a calibre in a gap (40.5mm) reads with the band it exceeds the
top of, as equipment calibres are printed whole (PK-32 in the rules notes).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.panzer_korps.common import ref
from rules_engine.registry import procedure, table

DIRECT_RANGES_RULE = ref("AFV & AT direct fire ranges")
SMALL_ARMS_RULE = ref("Small arms/MG/ATR ranges")
INDIRECT_RANGES_RULE = ref("Indirect fire ranges & factors")


@dataclass(frozen=True)
class CalibreBand:
    low_mm: int | None  # None: no lower bound printed
    high_mm: int | None  # None: open-ended
    label: str

    def holds(self, calibre_mm: float) -> bool:
        # A calibre between two printed bands belongs to the lower one (PK-32).
        return (self.low_mm is None or calibre_mm >= self.low_mm) and (
            self.high_mm is None or calibre_mm < self.high_mm + 1
        )


@dataclass(frozen=True)
class DirectRange:
    short_inches: int
    long_inches: int


def _band(low: int | None, high: int | None) -> CalibreBand:
    if high is None:
        return CalibreBand(low, None, f"{low}mm+")
    return CalibreBand(low, high, f"{low}mm-{high}mm")


AFV_AT_DIRECT_RANGES: tuple[tuple[CalibreBand, DirectRange], ...] = table(
    "pk.afv_at_direct_ranges",
    "AFV and AT gun direct fire ranges by calibre (short/long, inches)",
    DIRECT_RANGES_RULE,
    (
        (_band(20, 40), DirectRange(12, 18)),
        (_band(41, 60), DirectRange(18, 35)),
        (_band(61, 80), DirectRange(24, 42)),
        (_band(81, 100), DirectRange(32, 62)),
        (_band(101, 125), DirectRange(38, 72)),
        (_band(126, 150), DirectRange(44, 82)),
    ),
)

# Hand-held AT launchers are printed beside the calibre bands, not by calibre.
ROCKET_LAUNCHER_RANGE: DirectRange = table(
    "pk.rocket_launcher_range",
    "Bazooka and Panzerschreck ranges (short/long, inches)",
    DIRECT_RANGES_RULE,
    DirectRange(2, 3),
)


class SmallArm(enum.Enum):
    ANTI_TANK_RIFLE = "anti-tank rifle"
    SMALL_ARMS_SHORT = "small arms and MG, short"
    SMALL_ARMS_LONG = "small arms and MG, long"
    AFV_COAX = "AFV co-axial close support"
    FLAMETHROWER = "flamethrower"


SMALL_ARMS_RANGES: dict[SmallArm, int] = table(
    "pk.small_arms_ranges",
    "Small arms, MG, ATR, co-axial and flamethrower ranges (inches)",
    SMALL_ARMS_RULE,
    {
        SmallArm.ANTI_TANK_RIFLE: 2,
        SmallArm.SMALL_ARMS_SHORT: 6,
        SmallArm.SMALL_ARMS_LONG: 12,
        SmallArm.AFV_COAX: 2,
        SmallArm.FLAMETHROWER: 2,
    },
)

INDIRECT_FIRE_RANGES: tuple[tuple[CalibreBand, int], ...] = table(
    "pk.indirect_fire_ranges",
    "Indirect fire maximum range by calibre (inches)",
    INDIRECT_RANGES_RULE,
    (
        (_band(40, 60), 60),
        (_band(61, 90), 90),
        (_band(91, 110), 120),
        (_band(111, 155), 160),
        (_band(156, 210), 200),
        (_band(211, 340), 290),
        (_band(341, None), 360),
    ),
)


class RangeBand(enum.Enum):
    SHORT = "short"
    LONG = "long"
    OUT_OF_RANGE = "out of range"


@dataclass(frozen=True)
class DirectRangeInput:
    calibre_mm: float
    distance_inches: float
    rocket_launcher: bool = False  # bazooka or Panzerschreck: their own row


@dataclass(frozen=True)
class DirectRangeReading:
    band: str  # the calibre band read, or "bazooka/Panzerschreck"
    short_inches: int
    long_inches: int
    reading: RangeBand

    def to_dict(self) -> dict[str, Any]:
        return {
            "band": self.band,
            "short_inches": self.short_inches,
            "long_inches": self.long_inches,
            "reading": self.reading.value,
        }


class CalibreOutOfChart(ValueError):
    """A calibre the chart prints no band for."""


def _calibre_row(rows: tuple[tuple[CalibreBand, Any], ...], calibre_mm: float) -> tuple[CalibreBand, Any]:
    for band, value in rows:
        if band.holds(calibre_mm):
            return band, value
    printed = ", ".join(band.label for band, _ in rows)
    raise CalibreOutOfChart(f"{calibre_mm:g}mm is on no band of the chart ({printed})")


@procedure("pk.direct_fire_range", "AFV/AT direct fire range band", DIRECT_RANGES_RULE, rolls=False)
def read_direct_range(inputs: DirectRangeInput) -> DirectRangeReading:
    if inputs.rocket_launcher:
        label, ranges = "bazooka/Panzerschreck", ROCKET_LAUNCHER_RANGE
    else:
        band, ranges = _calibre_row(AFV_AT_DIRECT_RANGES, inputs.calibre_mm)
        label = band.label
    if inputs.distance_inches <= ranges.short_inches:
        reading = RangeBand.SHORT
    elif inputs.distance_inches <= ranges.long_inches:
        reading = RangeBand.LONG
    else:
        reading = RangeBand.OUT_OF_RANGE
    return DirectRangeReading(label, ranges.short_inches, ranges.long_inches, reading)


@dataclass(frozen=True)
class IndirectRangeInput:
    calibre_mm: float


@dataclass(frozen=True)
class IndirectRangeReading:
    band: str
    max_inches: int

    def to_dict(self) -> dict[str, Any]:
        return {"band": self.band, "max_inches": self.max_inches}


@procedure("pk.indirect_fire_range", "Indirect fire maximum range", INDIRECT_RANGES_RULE, rolls=False)
def read_indirect_range(inputs: IndirectRangeInput) -> IndirectRangeReading:
    band, inches = _calibre_row(INDIRECT_FIRE_RANGES, inputs.calibre_mm)
    return IndirectRangeReading(band.label, inches)
