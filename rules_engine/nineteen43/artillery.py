"""Off-board artillery (000 § 5: planned and support fire) and counterbattery (000 § 6)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import (
    COMMONWEALTH_NATIONS,
    BattleRole,
    BattleType,
    Span,
    as_inputs,
    check_year,
    column_for,
    ref,
    round_half_up,
    span_text,
)
from rules_engine.nineteen43.lulls import LONG_LULL_PLANNED_FIRE_MODIFIER, LONG_LULL_SUPPORT_FIRE_MODIFIER
from rules_engine.registry import procedure, table
from rules_engine.results import Modifier, RollResult, RuleRef
from rules_engine.vocab import Front, Nation

PLANNED_RULE = ref("5) Off-Board Artillery Fire: Planned Fire")
SUPPORT_RULE = ref("5) Off-Board Artillery Fire: Requested Fire Support")
COUNTERBATTERY_RULE = ref("6) Counterbattery Fire")


class FireColumn(enum.Enum):
    """Columns of the planned and support fire tables."""

    LOCAL_ATTACK_ATTACKER = "Local Attack, Attacker"
    LOCAL_ATTACK_DEFENDER = "Local Attack, Defender"
    MAJOR_OFFENSIVE_ATTACKER = "Major Offensive, Attacker"
    MAJOR_OFFENSIVE_DEFENDER = "Major Offensive, Defender"
    STALEMATED_FRONT = "Stalemated Front, Both sides"
    MEETING_ENGAGEMENT = "Meeting Engagement, Both Sides"


def fire_column(battle_type: BattleType, role: BattleRole | None) -> FireColumn:
    if not battle_type.has_roles:
        if battle_type is BattleType.STALEMATED_FRONT:
            return FireColumn.STALEMATED_FRONT
        return FireColumn.MEETING_ENGAGEMENT
    if role is None:
        raise ValueError(f"a {battle_type.value} needs the side's role (attacker or defender)")
    return FireColumn(f"{battle_type.value}, {role.value.capitalize()}")


@dataclass(frozen=True)
class FireRow:
    low: int
    high: int
    hundredths: dict[FireColumn, int]  # .45 is 45


def _fire_rows() -> tuple[FireRow, ...]:
    printed: tuple[tuple[int, int, tuple[int, ...]], ...] = (
        (2, 2, (15, 0, 25, 15, 10, 0)),
        (3, 5, (20, 5, 30, 20, 15, 5)),
        (6, 9, (25, 10, 45, 30, 15, 10)),
        (10, 11, (35, 15, 60, 45, 15, 12)),
        (12, 12, (40, 20, 80, 60, 20, 15)),
    )
    return tuple(
        FireRow(low, high, dict(zip(FireColumn, cells, strict=True))) for low, high, cells in printed
    )


# The two tables print identical cells; each keeps its own registration and rule.
PLANNED_FIRE: tuple[FireRow, ...] = table(
    "n43.planned_fire", "Planned artillery fire: barrages per unit on the table", PLANNED_RULE, _fire_rows()
)
SUPPORT_FIRE: tuple[FireRow, ...] = table(
    "n43.support_fire", "Support fire: batteries per unit on the table", SUPPORT_RULE, _fire_rows()
)


@dataclass(frozen=True)
class NationModifier:
    """One "year: nation (place) ±n" entry under a table; no fronts means anywhere."""

    year: int
    nation: Nation
    value: int
    fronts: tuple[Front, ...] = ()

    def label(self) -> str:
        where = f" ({'/'.join(front.value for front in self.fronts)})" if self.fronts else ""
        return f"{self.year} {self.nation.value}{where}"


J, IT, B, G, F, S, A = (
    Nation.JAPANESE,
    Nation.ITALIAN,
    Nation.BRITISH,
    Nation.GERMAN,
    Nation.FRENCH,
    Nation.SOVIET,
    Nation.AMERICAN,
)
CHINA = (Front.ASIA,)  # "Japanese (China)"
NORTH_AFRICA = (Front.NORTH_AFRICA,)
FRANCE = (Front.WEST,)
RUSSIA = (Front.EAST,)
NORTH_AFRICA_ASIA = (Front.NORTH_AFRICA, Front.ASIA)

PLANNED_FIRE_MODIFIERS: tuple[NationModifier, ...] = table(
    "n43.planned_fire_modifiers",
    "Planned fire die roll modifiers by year and nation",
    PLANNED_RULE,
    (
        NationModifier(1939, J, -2, CHINA),
        NationModifier(1940, IT, -5, NORTH_AFRICA),
        NationModifier(1940, B, -4, NORTH_AFRICA),
        NationModifier(1940, B, -3, FRANCE),
        NationModifier(1940, F, -1),
        NationModifier(1941, IT, -3, NORTH_AFRICA),
        NationModifier(1941, B, -2, NORTH_AFRICA_ASIA),
        NationModifier(1941, G, -2, NORTH_AFRICA),
        NationModifier(1941, J, -1),
        NationModifier(1942, J, -1),
        NationModifier(1942, IT, -2, NORTH_AFRICA),
        NationModifier(1942, B, -2, NORTH_AFRICA),
        NationModifier(1943, J, -1),
        NationModifier(1943, S, 2),
        NationModifier(1944, J, -2),
        NationModifier(1944, G, -1),
        NationModifier(1944, S, 3),
        NationModifier(1944, B, 2),
        NationModifier(1944, A, 3),
        NationModifier(1945, J, -3),
        NationModifier(1945, G, -2),
        NationModifier(1945, A, 2),
        NationModifier(1945, S, 4),
    ),
)

SUPPORT_FIRE_MODIFIERS: tuple[NationModifier, ...] = table(
    "n43.support_fire_modifiers",
    "Fire support die roll modifiers by year and nation",
    SUPPORT_RULE,
    (
        NationModifier(1939, J, -2, CHINA),
        NationModifier(1940, IT, -5, NORTH_AFRICA),
        NationModifier(1940, B, -4, NORTH_AFRICA),
        NationModifier(1940, B, -2, FRANCE),
        NationModifier(1940, F, -1),
        NationModifier(1941, IT, -3, NORTH_AFRICA),
        NationModifier(1941, B, -3, NORTH_AFRICA_ASIA),
        NationModifier(1941, G, 1),
        NationModifier(1941, S, -4),
        NationModifier(1942, J, -1),
        NationModifier(1942, IT, -2, NORTH_AFRICA),
        NationModifier(1942, G, 1, RUSSIA),
        NationModifier(1942, S, -3),
        NationModifier(1943, J, -1),
        NationModifier(1943, G, -1, NORTH_AFRICA),
        NationModifier(1943, G, 2, RUSSIA),
        NationModifier(1943, S, -2),
        NationModifier(1944, J, -2),
        NationModifier(1944, G, -1),
        NationModifier(1944, B, 2),
        NationModifier(1944, A, 3),
        NationModifier(1945, J, -3),
        NationModifier(1945, G, -2),
        NationModifier(1945, A, 2),
        NationModifier(1945, S, 1),
    ),
)


def seed_nation(nation: Nation, commonwealth_as_british: bool) -> Nation:
    """The nation a modifier list names: Commonwealth forces read "British" (N43-04)."""
    if commonwealth_as_british and nation in COMMONWEALTH_NATIONS:
        return Nation.BRITISH
    return nation


def matching_entries(
    entries: tuple[Any, ...], nation: Nation, year: int, front: Front | None
) -> tuple[Any, ...]:
    """Entries for this nation and year whose place (if any) is the given front (N43-08)."""
    return tuple(
        entry
        for entry in entries
        if entry.year == year and entry.nation is nation and (not entry.fronts or front in entry.fronts)
    )


# --- Field strength: the units planned and support fire are multiplied by --------------

FIELD_STRENGTH_RULE = ref(
    "5) Off-Board Artillery Fire: Planned Fire, infantry or tank units and worked example"
)


class UnitClass(enum.Enum):
    """How a stand counts towards the "infantry or tank units present on the battlefield"."""

    INFANTRY = "infantry unit"
    TANK = "tank unit"
    RECCE = "recce (counted unless the club says not)"
    NOT_COUNTED = "not counted"


# A campaign stand is a company, which the set-up page's example counts as one unit
# (a tank unit of three bases is one of its 23 units); rules notes N43-24.
FIELD_STRENGTH_CLASSES: dict[str, UnitClass] = table(
    "n43.field_strength_classes",
    "Which stands are infantry or tank units for planned and support fire",
    FIELD_STRENGTH_RULE,
    {
        "infantry": UnitClass.INFANTRY,
        "smg": UnitClass.INFANTRY,
        "engineer": UnitClass.INFANTRY,
        "recce": UnitClass.RECCE,
        "armour": UnitClass.TANK,
        "at_gun": UnitClass.NOT_COUNTED,
        "field_gun": UnitClass.NOT_COUNTED,
        "heavy_weapons": UnitClass.NOT_COUNTED,
        "hq": UnitClass.NOT_COUNTED,
        "transport": UnitClass.NOT_COUNTED,
    },
)


@dataclass(frozen=True)
class FieldStrengthInput:
    """Stands present on the table, both sides together, by kind of stand."""

    infantry: int = 0
    smg: int = 0
    engineer: int = 0
    recce: int = 0
    armour: int = 0
    at_gun: int = 0
    field_gun: int = 0
    heavy_weapons: int = 0
    hq: int = 0
    transport: int = 0
    recce_counts: bool = True  # N43-24


@dataclass(frozen=True)
class FieldStrength:
    units: int  # the "total_units" of planned and support fire
    stands: int
    inputs: FieldStrengthInput

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        return f"Field strength: {self.units} infantry or tank units of {self.stands} stands on the table"

    def to_dict(self) -> dict[str, object]:
        return {"title": "Field strength", "units": self.units, "stands": self.stands, "line": self.line()}


@procedure("n43.field_strength", "Field strength (infantry or tank units)", FIELD_STRENGTH_RULE, rolls=False)
def count_field_strength(inputs: FieldStrengthInput) -> FieldStrength:
    counted = {UnitClass.INFANTRY, UnitClass.TANK} | ({UnitClass.RECCE} if inputs.recce_counts else set())
    stands = {kind: getattr(inputs, kind) for kind in FIELD_STRENGTH_CLASSES}
    if any(count < 0 for count in stands.values()):
        raise ValueError(f"{FIELD_STRENGTH_RULE.text()}: stand counts cannot be negative")
    units = sum(count for kind, count in stands.items() if FIELD_STRENGTH_CLASSES[kind] in counted)
    return FieldStrength(units=units, stands=sum(stands.values()), inputs=inputs)


@dataclass(frozen=True)
class PlannedFireInput:
    battle_type: BattleType
    nation: Nation
    year: int
    total_units: int  # infantry and tank units on the table, both sides (n43.field_strength)
    role: BattleRole | None = None
    front: Front | None = None
    amphibious_shore_defender: bool = False
    long_lull_reroll: bool = False
    commonwealth_as_british: bool = True


@dataclass(frozen=True)
class SupportFireInput:
    battle_type: BattleType
    nation: Nation
    year: int
    total_units: int
    role: BattleRole | None = None
    front: Front | None = None
    long_lull_reroll: bool = False
    commonwealth_as_british: bool = True


@dataclass(frozen=True)
class _FireTable:
    key: str
    title: str
    unit: str
    units: str
    rule: RuleRef
    rows: tuple[FireRow, ...]
    modifiers: tuple[NationModifier, ...]
    lull_modifier: int


_PLANNED = _FireTable(
    "n43.planned_fire", "Planned fire", "barrage", "barrages", PLANNED_RULE, PLANNED_FIRE,
    PLANNED_FIRE_MODIFIERS, LONG_LULL_PLANNED_FIRE_MODIFIER,
)  # fmt: skip
_SUPPORT = _FireTable(
    "n43.support_fire", "Support fire", "battery", "batteries", SUPPORT_RULE, SUPPORT_FIRE,
    SUPPORT_FIRE_MODIFIERS, LONG_LULL_SUPPORT_FIRE_MODIFIER,
)  # fmt: skip


def allotment_words(procedure: str, count: int) -> str | None:
    """A planned or support fire allotment in words without the units it multiplies ("3
    barrages"): what a side reads of its own allotment where the enemy's strength is hidden;
    None for any other procedure."""
    spec = next((spec for spec in (_PLANNED, _SUPPORT) if spec.key == procedure), None)
    if spec is None:
        return None
    return f"{count} {spec.unit if count == 1 else spec.units}"


def fire_multiplier(rows: tuple[FireRow, ...], column: FireColumn, score: int) -> tuple[FireRow, int]:
    """Row and multiplier (hundredths) for a modified 2D6 score; off-chart scores
    read the end rows (N43-09)."""
    clamped = min(max(score, rows[0].low), rows[-1].high)
    row = next(row for row in rows if row.low <= clamped <= row.high)
    return row, row.hundredths[column]


def allotment(hundredths: int, total_units: int) -> int:
    """Multiplier times units, with standard rounding (.5 up, N43-10)."""
    return round_half_up(hundredths * total_units, 100)


def _roll_fire(
    spec: _FireTable,
    inputs: PlannedFireInput | SupportFireInput,
    dice: DiceSource,
    *,
    none_reason: str | None,
) -> RollResult:
    check_year(inputs.year)
    if inputs.total_units < 0:
        raise ValueError("total_units cannot be negative")
    column = fire_column(inputs.battle_type, inputs.role)
    common: dict[str, Any] = {
        "procedure": spec.key,
        "title": spec.title,
        "subject": f"{inputs.nation.value} {inputs.year}, {column.value}",
        "rule": spec.rule,
        "inputs": as_inputs(inputs),
    }
    if none_reason is not None:
        return RollResult(rolls=(), cell=none_reason, outcome=0, outcome_text=f"no {spec.units}", **common)
    listed_as = seed_nation(inputs.nation, inputs.commonwealth_as_british)
    modifiers = [
        Modifier(entry.label(), entry.value)
        for entry in matching_entries(spec.modifiers, listed_as, inputs.year, inputs.front)
    ]
    if inputs.long_lull_reroll:
        modifiers.append(Modifier("long lull extra roll", spec.lull_modifier))
    thrown = roll(DiceKind.TWO_D6, dice)
    score = thrown.total + sum(m.value for m in modifiers)
    row, hundredths = fire_multiplier(spec.rows, column, score)
    count = allotment(hundredths, inputs.total_units)
    product = hundredths * inputs.total_units
    return RollResult(
        rolls=(thrown,),
        modifiers=tuple(modifiers),
        cell=f"{span_text(row.low, row.high, 12)} / {column.value}: .{hundredths:02d}",
        outcome=count,
        outcome_text=(
            f"{count} {spec.unit if count == 1 else spec.units}"
            f" (.{hundredths:02d} × {inputs.total_units} units = {product // 100}.{product % 100:02d})"
        ),
        **common,
    )


@procedure("n43.planned_fire", "Planned artillery fire", PLANNED_RULE)
def roll_planned_fire(inputs: PlannedFireInput, dice: DiceSource) -> RollResult:
    shore = inputs.amphibious_shore_defender
    return _roll_fire(
        _PLANNED, inputs, dice, none_reason="amphibious landing: shore defender" if shore else None
    )


@procedure("n43.support_fire", "Requested (support) artillery fire", SUPPORT_RULE)
def roll_support_fire(inputs: SupportFireInput, dice: DiceSource) -> RollResult:
    return _roll_fire(_SUPPORT, inputs, dice, none_reason=None)


class CounterbatteryCategory(enum.Enum):
    A = "A"
    B = "B"
    C = "C"
    D = "D"


class CounterbatteryTech(enum.Enum):
    NONEXISTENT = "Nonexistent"
    PRIMITIVE = "Primitive"
    CAPABLE = "Capable"
    ADVANCED = "Advanced"


# 1D6 range for each tech column (Nonexistent, Primitive, Capable, Advanced); None is "-".
COUNTERBATTERY: dict[CounterbatteryCategory, tuple[Span | None, ...]] = table(
    "n43.counterbattery",
    "Counterbattery tech by die roll category",
    COUNTERBATTERY_RULE,
    {
        CounterbatteryCategory.A: (None, None, (1, 3), (4, 6)),
        CounterbatteryCategory.B: (None, (1, 2), (3, 6), None),
        CounterbatteryCategory.C: ((1, 2), (3, 5), (6, 6), None),
        CounterbatteryCategory.D: ((1, 4), (5, 6), None, None),
    },
)


@dataclass(frozen=True)
class CategoryEntry:
    """A "year: nation (place) = category" entry; two categories where it reads "B or C"."""

    year: int
    nation: Nation
    categories: tuple[CounterbatteryCategory, ...]
    fronts: tuple[Front, ...] = ()


CA, CB, CC, CD = (
    CounterbatteryCategory.A,
    CounterbatteryCategory.B,
    CounterbatteryCategory.C,
    CounterbatteryCategory.D,
)
P = Nation.POLISH

COUNTERBATTERY_CATEGORIES: tuple[CategoryEntry, ...] = table(
    "n43.counterbattery_categories",
    "Counterbattery die roll category by year and nation",
    COUNTERBATTERY_RULE,
    (
        CategoryEntry(1939, G, (CB,)),
        CategoryEntry(1939, P, (CC,)),
        CategoryEntry(1940, IT, (CD,)),
        CategoryEntry(1940, B, (CD,), NORTH_AFRICA),
        CategoryEntry(1940, B, (CC,), FRANCE),
        CategoryEntry(1940, G, (CB,)),
        CategoryEntry(1940, F, (CC,)),
        CategoryEntry(1941, J, (CD,)),
        CategoryEntry(1941, IT, (CD,)),
        CategoryEntry(1941, B, (CC,)),
        CategoryEntry(1941, S, (CD,)),
        CategoryEntry(1941, G, (CB,)),
        CategoryEntry(1941, A, (CD,)),
        CategoryEntry(1942, J, (CD,)),
        CategoryEntry(1942, IT, (CD,)),
        CategoryEntry(1942, B, (CB,)),
        CategoryEntry(1942, S, (CD,)),
        CategoryEntry(1942, G, (CB,)),
        CategoryEntry(1942, A, (CC,)),
        CategoryEntry(1943, J, (CD,)),
        CategoryEntry(1943, IT, (CC,)),
        CategoryEntry(1943, B, (CB,)),
        CategoryEntry(1943, S, (CC,)),
        CategoryEntry(1943, G, (CB,)),
        CategoryEntry(1943, A, (CC,)),
        CategoryEntry(1944, J, (CD,)),
        CategoryEntry(1944, B, (CA,)),
        CategoryEntry(1944, S, (CB,)),
        CategoryEntry(1944, G, (CB, CC)),
        CategoryEntry(1944, A, (CA,)),
        CategoryEntry(1945, J, (CD,)),
        CategoryEntry(1945, B, (CA,)),
        CategoryEntry(1945, S, (CB,)),
        CategoryEntry(1945, G, (CC,)),
        CategoryEntry(1945, A, (CA,)),
    ),
)


@dataclass(frozen=True)
class CounterbatteryInput:
    nation: Nation
    year: int
    front: Front | None = None
    # Where the list reads "B or C": which one (default the first printed, N43-11).
    either_or_pick: CounterbatteryCategory | None = None
    # For a nation/year the list does not name, or a club ruling (N43-12).
    category: CounterbatteryCategory | None = None
    commonwealth_as_british: bool = True


def counterbattery_category(inputs: CounterbatteryInput) -> CounterbatteryCategory:
    if inputs.category is not None:
        return inputs.category
    check_year(inputs.year)
    listed_as = seed_nation(inputs.nation, inputs.commonwealth_as_british)
    entries = matching_entries(COUNTERBATTERY_CATEGORIES, listed_as, inputs.year, inputs.front)
    if not entries:
        raise ValueError(
            f"no counterbattery category listed for {inputs.nation.value} {inputs.year}"
            f"{'' if inputs.front is None else ' (' + inputs.front.value + ')'}: set category"
        )
    choices: tuple[CounterbatteryCategory, ...] = entries[0].categories
    if inputs.either_or_pick is None:
        return choices[0]
    if inputs.either_or_pick not in choices:
        raise ValueError(
            f"{inputs.either_or_pick.value} is not one of the listed {[c.value for c in choices]}"
        )
    return inputs.either_or_pick


def counterbattery_tech(category: CounterbatteryCategory, face: int) -> CounterbatteryTech:
    column = column_for(COUNTERBATTERY[category], face)
    if column is None:
        raise ValueError(f"no counterbattery cell for {face} on line {category.value}")
    return list(CounterbatteryTech)[column]


@procedure("n43.counterbattery", "Counterbattery assets", COUNTERBATTERY_RULE)
def roll_counterbattery(inputs: CounterbatteryInput, dice: DiceSource) -> RollResult:
    category = counterbattery_category(inputs)
    thrown = roll(DiceKind.D6, dice)
    tech = counterbattery_tech(category, thrown.total)
    return RollResult(
        title="Counterbattery assets",
        subject=f"{inputs.nation.value} {inputs.year}",
        rule=COUNTERBATTERY_RULE,
        rolls=(thrown,),
        cell=f"category {category.value}",
        outcome=tech,
        outcome_text=tech.value,
        inputs=as_inputs(inputs),
    )
