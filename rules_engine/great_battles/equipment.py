"""Unit types, attachment limits and weapon/armour data by nation and year
(chart pg. 4 and Weapon/Armor Data).

Every vehicle and trailed-gun class is one :class:`EquipmentRow`, a plain frozen
record a data migration can load as it is (:func:`equipment_rows`).  Names and
year cells are kept as printed, misspellings included, so the umpire can find
them on the chart.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rules_engine.great_battles.common import ArmourClass, GunClass, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RuleRef, to_jsonable
from rules_engine.vocab import Nation

DATA_RULE = ref("Weapon/Armor Data")
ARMOR_RULE = ref("Weapon/Armor Data, Armor Year Stats")
FIELD_GUN_RULE = ref("Weapon/Armor Data, Field Guns")
AT_GUN_RULE = ref("Weapon/Armor Data, AT Guns Class")
UNIT_RULE = ref("Unit Type Capabilities")
ATTACHMENT_RULE = ref("Unit Type Capabilities, Attachment Notes")
BASES_RULE = ref("FAQ 43 Bases, Important Notes 1")


class Speed(enum.Enum):
    SLOW = "S"
    MEDIUM = "M"
    FAST = "F"
    HALFTRACK = "H"
    WHEELED = "W"


class EquipmentKind(enum.Enum):
    VEHICLE = "vehicle"
    GENERIC_AFV = "generic AFV"
    SOFT_VEHICLE = "soft vehicle"
    FIELD_GUN = "field gun"
    AT_GUN = "AT gun"


@dataclass(frozen=True)
class EquipmentRow:
    """One printed row.  Trailed guns carry only a gun class and a calibre band."""

    kind: EquipmentKind
    name: str
    gun: GunClass
    armour: ArmourClass | None = None
    speed: Speed | None = None
    nation: Nation | None = None
    heading: str = ""  # "Tanks", "Assault Gun", "Misc." as printed; "" where none
    year_text: str = ""  # as printed: "42/43", "33/36", "" when blank
    calibre_min_mm: float | None = None
    calibre_max_mm: float | None = None
    source: RuleRef = DATA_RULE

    @property
    def first_year(self) -> int | None:
        """The first year printed (19xx), None when the cell is blank."""
        return 1900 + int(self.year_text.split("/")[0]) if self.year_text else None

    @property
    def codes(self) -> str:
        if self.armour is None or self.speed is None:
            return self.gun.value
        return f"{self.gun.value}-{self.armour.value}-{self.speed.value}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "name": self.name,
            "nation": to_jsonable(self.nation),
            "heading": self.heading,
            "year_text": self.year_text,
            "first_year": self.first_year,
            "codes": self.codes,
            "gun": self.gun.value,
            "armour": to_jsonable(self.armour),
            "speed": to_jsonable(self.speed),
            "calibre_min_mm": self.calibre_min_mm,
            "calibre_max_mm": self.calibre_max_mm,
            "source": self.source.to_dict(),
        }


def _stats(codes: str) -> tuple[GunClass, ArmourClass, Speed]:
    gun, armour, speed = codes.split("-")
    return GunClass(gun), ArmourClass(armour), Speed(speed)


def _vehicles(nation: Nation, heading: str, *rows: tuple[str, str, str]) -> tuple[EquipmentRow, ...]:
    """Rows of (name, year cell, gun-armour-speed) as printed."""
    built = []
    for name, year_text, codes in rows:
        gun, armour, speed = _stats(codes)
        built.append(
            EquipmentRow(
                EquipmentKind.VEHICLE, name, gun, armour, speed, nation, heading, year_text, source=ARMOR_RULE
            )
        )
    return tuple(built)


VEHICLES: tuple[EquipmentRow, ...] = table(
    "gb.equipment.vehicles",
    "Armour year and gun-armour-speed stats by nation",
    ARMOR_RULE,
    (
        *_vehicles(
            Nation.GERMAN,
            "Tanks",
            ("Pz I", "35", "I-L-M"),
            ("Pz II", "35", "L-L-M"),
            ("Pz 38t", "39", "L-L-S"),
            ("Pz IIIE-H", "39", "L-M-M"),
            ("Pz IIIF-N", "41", "M-M-M"),
            ("Pz IV D-F1", "40", "M-M-M"),
            ("Pz IV F2-H", "42/43", "H-M-M"),
            ("Pz V Panther", "43", "H-H-M"),
            ("Pz VI Tiger I", "42", "H-H-M"),
            ("Pz VI Tiger II", "44", "S-S-S"),
        ),
        *_vehicles(
            Nation.GERMAN,
            "Assault Gun",
            ("StG III D/E", "41", "M-M-M"),
            ("StG III F-H", "42", "H-H-M"),
            ("StPz IV Brmbaer", "44", "H-H-S"),
            ("Bison", "", "H-L-M"),
            ("PzJg I", "40", "L-L-S"),
            ("JgPz 38 Hetzer", "44", "H-H-S"),
            ("JgPz IV", "44", "H-H-M"),
            ("JgPz V", "44", "S-H-M"),
            ("Elephant", "43", "S-S-S"),
            ("JgPz VI", "44", "S-S-S"),
        ),
        *_vehicles(
            Nation.GERMAN,
            "Misc.",
            ("Ostwind", "45", "M-L-M"),
            ("Wirblewind", "44", "H-L-M"),
            ("Wespe", "43", "H-L-S"),
            ("Hummel", "43", "S-L-M"),
            ("Marder II", "42", "H-L-M"),
            ("Marder III", "42", "H-L-S"),
            ("Nashorn", "43", "S-L-M"),
        ),
        *_vehicles(
            Nation.ITALIAN,
            "Tanks",
            ("L3", "33", "I-L-S"),
            ("M11", "39", "L-L-S"),
            ("M13", "40", "L-L-S"),
            ("M15", "43", "L-M-M"),
        ),
        *_vehicles(Nation.JAPANESE, "", ("T97", "", "L-L-F")),
        *_vehicles(
            Nation.BRITISH,
            "",
            ("Matilda", "40", "L-H-S"),
            ("Comet", "45", "H-M-F"),
            ("Archer", "44", "H-L-S"),
            ("Achilles", "44", "H-L-M"),
            ("Lee/Grant", "42", "M-M-M"),
            ("Firefly", "44", "H-M-M"),
            ("Cromwell", "44", "M-M-M"),
            ("Churchill", "42", "M-H-S"),
            ("Sexton", "43", "H-L-M"),
            ("Tetrarch", "39", "L-L-F"),
            ("Valentine II", "41", "L-M-S"),
            ("Valentine VIII", "42", "M-M-S"),
        ),
        *_vehicles(
            Nation.AMERICAN,
            "",
            ("M4 Sherman", "42", "M-M-M"),
            ("Sherman 105", "44", "H-M-M"),
            ("M4E3E8 Easy 8", "45", "H-M-M"),
            ("M10", "42", "H-M-M"),
            ("M36", "44", "H-M-M"),
            ("M5", "42", "L-L-F"),
            ("M24 Chafee", "45", "M-L-F"),
            ("M7 Priest", "42", "H-L-M"),
            ("M26E1 Pershing", "45", "H-H-M"),
        ),
        *_vehicles(
            Nation.SOVIET,
            "",
            ("BT5/7", "33/36", "L-L-F"),
            ("T26", "31", "L-L-M"),
            ("T70", "42", "L-M-F"),
            ("T34", "40", "M-M-F"),
            ("T34/85", "44", "H-M-F"),
            ("KV-I", "40", "M-H-S"),
            ("KV-II", "40", "H-H-S"),
            ("KV85", "43", "H-H-M"),
            ("JSII", "44", "H-S-M"),
        ),
        *_vehicles(
            Nation.SOVIET,
            "Assault Gun",
            ("SU-76", "43", "M-M-M"),
            ("SU-85", "43", "H-H-F"),
            ("SU-100", "45", "H-H-M"),
            ("SU-122", "43", "H-H-M"),
            ("SU-152", "43", "S-S-M"),
        ),
    ),
)

GENERIC_VEHICLES: tuple[EquipmentRow, ...] = table(
    "gb.equipment.generic_vehicles",
    "Soft vehicles and generic AFVs (unless the order of battle says otherwise)",
    DATA_RULE,
    (
        EquipmentRow(EquipmentKind.SOFT_VEHICLE, "All", *_stats("0-0-W")),
        EquipmentRow(EquipmentKind.GENERIC_AFV, "Armored Car", *_stats("L-L-W")),
        EquipmentRow(EquipmentKind.GENERIC_AFV, "Halftrack", *_stats("I-L-H")),
    ),
)

# Calibre bands (mm), lowest first; None = open-ended.
FIELD_GUNS: tuple[EquipmentRow, ...] = table(
    "gb.equipment.field_gun_classes",
    "Field gun class by calibre",
    FIELD_GUN_RULE,
    (
        EquipmentRow(
            EquipmentKind.FIELD_GUN,
            "Infantry Guns ≤ 75mm",
            GunClass.LIGHT,
            calibre_max_mm=75,
            source=FIELD_GUN_RULE,
        ),
        EquipmentRow(
            EquipmentKind.FIELD_GUN,
            "Infantry Guns 80-105mm",
            GunClass.MEDIUM,
            calibre_min_mm=80,
            calibre_max_mm=105,
            source=FIELD_GUN_RULE,
        ),
        EquipmentRow(
            EquipmentKind.FIELD_GUN,
            "Infantry Guns 122mm +",
            GunClass.HEAVY,
            calibre_min_mm=122,
            source=FIELD_GUN_RULE,
        ),
    ),
)

AT_GUNS: tuple[EquipmentRow, ...] = table(
    "gb.equipment.at_gun_classes",
    "AT gun class by calibre",
    AT_GUN_RULE,
    (
        EquipmentRow(
            EquipmentKind.AT_GUN,
            "34-44mm (2 pounder)",
            GunClass.LIGHT,
            calibre_min_mm=34,
            calibre_max_mm=44,
            source=AT_GUN_RULE,
        ),
        EquipmentRow(
            EquipmentKind.AT_GUN,
            "45-59mm (6 pounder)",
            GunClass.MEDIUM,
            calibre_min_mm=45,
            calibre_max_mm=59,
            source=AT_GUN_RULE,
        ),
        EquipmentRow(
            EquipmentKind.AT_GUN,
            "60-80mm (17 pounder)",
            GunClass.HEAVY,
            calibre_min_mm=60,
            calibre_max_mm=80,
            source=AT_GUN_RULE,
        ),
        EquipmentRow(
            EquipmentKind.AT_GUN, "81mm +", GunClass.SUPERHEAVY, calibre_min_mm=81, source=AT_GUN_RULE
        ),
    ),
)


def equipment_rows() -> tuple[EquipmentRow, ...]:
    """Every vehicle and trailed-gun row, for loading into the database."""
    return (*VEHICLES, *GENERIC_VEHICLES, *FIELD_GUNS, *AT_GUNS)


# --- look-ups -----------------------------------------------------------------------

# Nations fielding another nation's printed list (GB-B-31).
_LIST_FOR: dict[Nation, Nation] = {Nation.CANADIAN: Nation.BRITISH, Nation.COMMONWEALTH: Nation.BRITISH}


@dataclass(frozen=True)
class VehicleQuery:
    nation: Nation
    year: int  # 1942 or 42
    name_contains: str = ""
    # Rows with a blank year cell (Bison, T97) are listed unless this is False.
    include_undated: bool = True


@procedure("gb.equipment.vehicles", "Vehicles by nation and year", ARMOR_RULE, rolls=False)
def lookup_vehicles(inputs: VehicleQuery) -> tuple[EquipmentRow, ...]:
    """Vehicles whose first printed year is no later than the year asked."""
    year = inputs.year + 1900 if inputs.year < 100 else inputs.year
    nation = _LIST_FOR.get(inputs.nation, inputs.nation)
    needle = inputs.name_contains.casefold()
    return tuple(
        row
        for row in VEHICLES
        if row.nation is nation
        and needle in row.name.casefold()
        and (inputs.include_undated if row.first_year is None else row.first_year <= year)
    )


class TrailedGun(enum.Enum):
    FIELD = "field gun"
    ANTI_TANK = "AT gun"


@dataclass(frozen=True)
class GunClassInput:
    kind: TrailedGun
    calibre_mm: float
    # A calibre between printed bands (76mm field gun) takes the band below (GB-B-30).
    gap_takes_band_above: bool = False


@procedure("gb.equipment.gun_class", "Trailed gun class by calibre", DATA_RULE, rolls=False)
def lookup_gun_class(inputs: GunClassInput) -> EquipmentRow:
    bands = FIELD_GUNS if inputs.kind is TrailedGun.FIELD else AT_GUNS
    calibre = inputs.calibre_mm
    # The last band starting at or below the calibre; smaller than all: the lightest.
    started = [b for b in bands if b.calibre_min_mm is None or b.calibre_min_mm <= calibre]
    band = started[-1] if started else bands[0]
    in_gap = band.calibre_max_mm is not None and calibre > band.calibre_max_mm
    if in_gap and inputs.gap_takes_band_above:
        return bands[bands.index(band) + 1]  # only the last band is open-ended
    return band


# --- unit types and attachments ------------------------------------------------------


class UnitType(enum.Enum):
    INFANTRY = "Infantry"
    ARMOR = "Armor"
    ANTI_TANK = "Anti Tank"
    FIELD_GUN = "Field Gun"
    HEAVY_WEAPONS = "Hvy Wpns"
    HQ = "HQ"
    TRANSPORT = "Transport"
    C_OPS = "C Ops"
    FUP = "FUP"


class AttachmentSlot(enum.Enum):
    HQ = "HQ"  # ■, at most 1
    HEAVY_WEAPONS = "Hvy Wpns"  # ■, at most 1
    OTHER = "other"  # ■ ■, at most 2


@dataclass(frozen=True)
class UnitTypeRow:
    unit_type: UnitType
    base_width_inches: Fraction
    base_depth_inches: Fraction
    fires: bool
    rear_rank_ok: bool  # fires or gives its bonus from the rear rank
    attachment: AttachmentSlot | None  # None: not an attachment
    barrage_immune: bool = False
    can_be_fired_at: bool = True


UNIT_TYPES: dict[UnitType, UnitTypeRow] = table(
    "gb.unit_types",
    "Unit type base sizes, fire and attachment marks",
    UNIT_RULE,
    {
        row.unit_type: row
        for row in (
            UnitTypeRow(UnitType.INFANTRY, Fraction(".5"), Fraction("1.5"), True, False, None),
            UnitTypeRow(UnitType.ARMOR, Fraction("1"), Fraction("1.5"), True, False, AttachmentSlot.OTHER),
            UnitTypeRow(UnitType.ANTI_TANK, Fraction("1"), Fraction("1"), True, False, AttachmentSlot.OTHER),
            UnitTypeRow(
                UnitType.FIELD_GUN, Fraction(".75"), Fraction("1"), True, False, AttachmentSlot.OTHER
            ),
            UnitTypeRow(
                UnitType.HEAVY_WEAPONS,
                Fraction(".75"),
                Fraction(".75"),
                False,
                True,
                AttachmentSlot.HEAVY_WEAPONS,
                barrage_immune=True,
            ),
            UnitTypeRow(
                UnitType.HQ,
                Fraction("1"),
                Fraction(".75"),
                False,
                True,
                AttachmentSlot.HQ,
                barrage_immune=True,
            ),
            UnitTypeRow(UnitType.TRANSPORT, Fraction(".75"), Fraction(".5"), False, False, None),
            UnitTypeRow(
                UnitType.C_OPS, Fraction("1"), Fraction("1"), False, False, None, can_be_fired_at=False
            ),
            UnitTypeRow(UnitType.FUP, Fraction("2"), Fraction("2"), False, False, None),
        )
    },
)

# The chart shows one club's bases; the rulebook's own sizes differ for three types.
RULEBOOK_BASES: dict[UnitType, tuple[Fraction, Fraction]] = table(
    "gb.unit_types.rulebook_bases",
    "Rulebook base sizes where the chart differs",
    BASES_RULE,
    {
        UnitType.HEAVY_WEAPONS: (Fraction(".5"), Fraction("1")),
        UnitType.HQ: (Fraction(".5"), Fraction("1")),
        UnitType.FIELD_GUN: (Fraction("1"), Fraction("1")),
    },
)

ATTACHMENT_LIMITS: dict[AttachmentSlot, int] = table(
    "gb.attachment_limits",
    "Infantry battalion attachments: 1 HQ, 1 Hvy Wpns, 2 others",
    ATTACHMENT_RULE,
    {AttachmentSlot.HQ: 1, AttachmentSlot.HEAVY_WEAPONS: 1, AttachmentSlot.OTHER: 2},
)


@dataclass(frozen=True)
class AttachmentInput:
    """The stands attached to one infantry battalion (transport is never counted)."""

    attachments: tuple[UnitType, ...]


@dataclass(frozen=True)
class AttachmentCheck:
    legal: bool
    problems: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"legal": self.legal, "problems": list(self.problems)}


@procedure("gb.attachment_check", "Infantry battalion attachment limits", ATTACHMENT_RULE, rolls=False)
def check_attachments(inputs: AttachmentInput) -> AttachmentCheck:
    problems: list[str] = []
    counts = dict.fromkeys(AttachmentSlot, 0)
    for unit_type in inputs.attachments:
        slot = UNIT_TYPES[unit_type].attachment
        if slot is None:
            problems.append(f"{unit_type.value} is not an attachment")
        else:
            counts[slot] += 1
    for slot, limit in ATTACHMENT_LIMITS.items():
        if counts[slot] > limit:
            problems.append(f"{counts[slot]} {slot.value} attachments, at most {limit}")
    return AttachmentCheck(not problems, tuple(problems))
