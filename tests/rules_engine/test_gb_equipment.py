"""004 § Weapon/Armor Data (Armor Year Stats, Field Guns, AT Guns Class, Soft
Vehicles, Generic AFV), § Unit Type Capabilities and Attachment Notes, FAQ 43.

The armour list is typed in again here as printed: nation, name, year, stats.
"""

from fractions import Fraction

import pytest

from rules_engine.great_battles.equipment import (
    ATTACHMENT_LIMITS,
    RULEBOOK_BASES,
    UNIT_TYPES,
    VEHICLES,
    AttachmentInput,
    AttachmentSlot,
    EquipmentKind,
    GunClassInput,
    TrailedGun,
    UnitType,
    VehicleQuery,
    check_attachments,
    equipment_rows,
    lookup_gun_class,
    lookup_vehicles,
)
from rules_engine.vocab import Nation

G, IT, J, B, US, SU = (
    Nation.GERMAN,
    Nation.ITALIAN,
    Nation.JAPANESE,
    Nation.BRITISH,
    Nation.AMERICAN,
    Nation.SOVIET,
)

PRINTED = """
G|Pz I|35|I-L-M
G|Pz II|35|L-L-M
G|Pz 38t|39|L-L-S
G|Pz IIIE-H|39|L-M-M
G|Pz IIIF-N|41|M-M-M
G|Pz IV D-F1|40|M-M-M
G|Pz IV F2-H|42/43|H-M-M
G|Pz V Panther|43|H-H-M
G|Pz VI Tiger I|42|H-H-M
G|Pz VI Tiger II|44|S-S-S
G|StG III D/E|41|M-M-M
G|StG III F-H|42|H-H-M
G|StPz IV Brmbaer|44|H-H-S
G|Bison||H-L-M
G|PzJg I|40|L-L-S
G|JgPz 38 Hetzer|44|H-H-S
G|JgPz IV|44|H-H-M
G|JgPz V|44|S-H-M
G|Elephant|43|S-S-S
G|JgPz VI|44|S-S-S
G|Ostwind|45|M-L-M
G|Wirblewind|44|H-L-M
G|Wespe|43|H-L-S
G|Hummel|43|S-L-M
G|Marder II|42|H-L-M
G|Marder III|42|H-L-S
G|Nashorn|43|S-L-M
IT|L3|33|I-L-S
IT|M11|39|L-L-S
IT|M13|40|L-L-S
IT|M15|43|L-M-M
J|T97||L-L-F
B|Matilda|40|L-H-S
B|Comet|45|H-M-F
B|Archer|44|H-L-S
B|Achilles|44|H-L-M
B|Lee/Grant|42|M-M-M
B|Firefly|44|H-M-M
B|Cromwell|44|M-M-M
B|Churchill|42|M-H-S
B|Sexton|43|H-L-M
B|Tetrarch|39|L-L-F
B|Valentine II|41|L-M-S
B|Valentine VIII|42|M-M-S
US|M4 Sherman|42|M-M-M
US|Sherman 105|44|H-M-M
US|M4E3E8 Easy 8|45|H-M-M
US|M10|42|H-M-M
US|M36|44|H-M-M
US|M5|42|L-L-F
US|M24 Chafee|45|M-L-F
US|M7 Priest|42|H-L-M
US|M26E1 Pershing|45|H-H-M
SU|BT5/7|33/36|L-L-F
SU|T26|31|L-L-M
SU|T70|42|L-M-F
SU|T34|40|M-M-F
SU|T34/85|44|H-M-F
SU|KV-I|40|M-H-S
SU|KV-II|40|H-H-S
SU|KV85|43|H-H-M
SU|JSII|44|H-S-M
SU|SU-76|43|M-M-M
SU|SU-85|43|H-H-F
SU|SU-100|45|H-H-M
SU|SU-122|43|H-H-M
SU|SU-152|43|S-S-M
"""
NATIONS = {"G": G, "IT": IT, "J": J, "B": B, "US": US, "SU": SU}
ROWS = [line.split("|") for line in PRINTED.strip().splitlines()]


def test_no_row_missing_or_extra():
    assert [(r.nation, r.name) for r in VEHICLES] == [(NATIONS[n], name) for n, name, _, _ in ROWS]


@pytest.mark.parametrize(("nation", "name", "year", "codes"), ROWS, ids=[r[1] for r in ROWS])
def test_every_vehicle_row(nation, name, year, codes):
    row = next(r for r in VEHICLES if r.name == name and r.nation is NATIONS[nation])
    assert (row.year_text, row.codes) == (year, codes)
    assert row.first_year == (1900 + int(year.split("/")[0]) if year else None)
    assert row.source.section.startswith("Weapon/Armor Data")


def test_headings_kept():
    assert {r.heading for r in VEHICLES if r.nation is G} == {"Tanks", "Assault Gun", "Misc."}
    assert next(r for r in VEHICLES if r.name == "SU-76").heading == "Assault Gun"


@pytest.mark.parametrize(
    ("name", "codes"), [("All", "0-0-W"), ("Armored Car", "L-L-W"), ("Halftrack", "I-L-H")]
)
def test_generic_vehicles(name, codes):
    row = next(r for r in equipment_rows() if r.name == name)
    assert row.codes == codes
    assert row.nation is None


@pytest.mark.parametrize(
    ("kind", "calibre", "letter"),
    [
        (TrailedGun.FIELD, 75, "L"),
        (TrailedGun.FIELD, 50, "L"),
        (TrailedGun.FIELD, 80, "M"),
        (TrailedGun.FIELD, 105, "M"),
        (TrailedGun.FIELD, 122, "H"),
        (TrailedGun.FIELD, 150, "H"),
        (TrailedGun.ANTI_TANK, 34, "L"),
        (TrailedGun.ANTI_TANK, 40, "L"),  # 2 pounder
        (TrailedGun.ANTI_TANK, 44, "L"),
        (TrailedGun.ANTI_TANK, 45, "M"),
        (TrailedGun.ANTI_TANK, 57, "M"),  # 6 pounder
        (TrailedGun.ANTI_TANK, 59, "M"),
        (TrailedGun.ANTI_TANK, 60, "H"),
        (TrailedGun.ANTI_TANK, 76.2, "H"),  # 17 pounder
        (TrailedGun.ANTI_TANK, 80, "H"),
        (TrailedGun.ANTI_TANK, 81, "S"),
        (TrailedGun.ANTI_TANK, 88, "S"),
    ],
)
def test_every_gun_class_band(kind, calibre, letter):
    assert lookup_gun_class(GunClassInput(kind, calibre)).gun.value == letter


@pytest.mark.parametrize(
    ("kind", "calibre", "below", "above"),
    [
        (TrailedGun.FIELD, 76.2, "L", "M"),
        (TrailedGun.FIELD, 114, "M", "H"),
        (TrailedGun.ANTI_TANK, 44.5, "L", "M"),
        (TrailedGun.ANTI_TANK, 25, "L", "L"),  # smaller than any band
    ],
)
def test_gun_class_gaps(kind, calibre, below, above):
    assert lookup_gun_class(GunClassInput(kind, calibre)).gun.value == below
    assert lookup_gun_class(GunClassInput(kind, calibre, gap_takes_band_above=True)).gun.value == above


def test_vehicles_by_nation_and_year():
    names = {r.name for r in lookup_vehicles(VehicleQuery(G, 1941))}
    assert {"Pz IIIF-N", "StG III D/E", "Bison"} <= names
    assert "Pz IV F2-H" not in names
    assert "Pz V Panther" not in names
    assert "Bison" not in {r.name for r in lookup_vehicles(VehicleQuery(G, 41, include_undated=False))}
    assert [r.name for r in lookup_vehicles(VehicleQuery(Nation.CANADIAN, 43, "church"))] == ["Churchill"]
    assert lookup_vehicles(VehicleQuery(Nation.FRENCH, 1944)) == ()


def test_equipment_rows_cover_every_printed_row():
    rows = equipment_rows()
    assert len(rows) == len(ROWS) + 3 + 3 + 4
    assert sum(r.kind is EquipmentKind.AT_GUN for r in rows) == 4
    assert all(r.source.seed_file.startswith("004_") for r in rows)
    assert rows[0].to_dict()["codes"] == "I-L-M"


# Unit types: base size as printed (width x depth), fires, attachment mark.
UNITS = {
    UnitType.INFANTRY: (".5", "1.5", True, None),
    UnitType.ARMOR: ("1", "1.5", True, AttachmentSlot.OTHER),
    UnitType.ANTI_TANK: ("1", "1", True, AttachmentSlot.OTHER),
    UnitType.FIELD_GUN: (".75", "1", True, AttachmentSlot.OTHER),
    UnitType.HEAVY_WEAPONS: (".75", ".75", False, AttachmentSlot.HEAVY_WEAPONS),
    UnitType.HQ: ("1", ".75", False, AttachmentSlot.HQ),
    UnitType.TRANSPORT: (".75", ".5", False, None),
    UnitType.C_OPS: ("1", "1", False, None),
    UnitType.FUP: ("2", "2", False, None),
}


@pytest.mark.parametrize(("unit", "printed"), UNITS.items(), ids=lambda v: getattr(v, "value", ""))
def test_every_unit_type(unit, printed):
    row = UNIT_TYPES[unit]
    width, depth, fires, slot = printed
    assert (row.base_width_inches, row.base_depth_inches) == (Fraction(width), Fraction(depth))
    assert (row.fires, row.attachment) == (fires, slot)
    assert row.barrage_immune is (unit in (UnitType.HQ, UnitType.HEAVY_WEAPONS))


def test_rulebook_bases():
    assert RULEBOOK_BASES[UnitType.HQ] == (Fraction(1, 2), Fraction(1))
    assert RULEBOOK_BASES[UnitType.FIELD_GUN] == (Fraction(1), Fraction(1))


def test_attachment_limits_1_hq_1_hvy_2_others():
    assert ATTACHMENT_LIMITS == {
        AttachmentSlot.HQ: 1,
        AttachmentSlot.HEAVY_WEAPONS: 1,
        AttachmentSlot.OTHER: 2,
    }
    full = (UnitType.HQ, UnitType.HEAVY_WEAPONS, UnitType.ARMOR, UnitType.ANTI_TANK)
    assert check_attachments(AttachmentInput(full)).legal


@pytest.mark.parametrize(
    "attachments",
    [
        (UnitType.HQ, UnitType.HQ),
        (UnitType.HEAVY_WEAPONS, UnitType.HEAVY_WEAPONS),
        (UnitType.ARMOR, UnitType.ANTI_TANK, UnitType.FIELD_GUN),
        (UnitType.INFANTRY,),
        (UnitType.TRANSPORT,),
    ],
)
def test_illegal_attachments(attachments):
    check = check_attachments(AttachmentInput(attachments))
    assert not check.legal
    assert len(check.problems) == 1
