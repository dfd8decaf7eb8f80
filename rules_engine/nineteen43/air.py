"""Air superiority (000 § 2), air presence (000 § 3) and air assets (000 § 4)."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import (
    COMMONWEALTH_NATIONS,
    FIRST_YEAR,
    ROW_NATIONS,
    AirCoverPriority,
    AirSide,
    BattleType,
    as_inputs,
    check_year,
    dice_label,
    ref,
)
from rules_engine.registry import procedure, table
from rules_engine.results import Comparison, CompoundResult, Modifier, RollResult, to_jsonable
from rules_engine.vocab import Front, Nation, label_of

SUPERIORITY_RULE = ref("2) Air Superiority")
PRESENCE_RULE = ref("3) Air Presence")
ASSETS_RULE = ref("4) Air Assets")


class AirSuperiorityFront(enum.Enum):
    """Rows of the air superiority table: where the axis side is fighting.

    The rows are campaign areas, not vocab ``Front`` s (France/Belgium and
    Africa/Italy each straddle two fronts), so they get their own enum.
    """

    RUSSIA_POLAND = "Germany/Italy: Russia/Poland"
    FRANCE_BELGIUM = "Germany/Italy: France/Belgium"
    AFRICA_ITALY = "Germany/Italy: Africa/Italy"
    MAINLAND_CHINA = "Japan: Mainland China"
    PACIFIC_FIELD_FORCE = "Japan: Pacific Field Force"
    ISLAND_GARRISON = "Japan: Island Garrison"
    MALAYA_BURMA = "Japan: Malaya/Burma"


# Axis die roll modifier per year 1939..1945; None is a printed "-".
AIR_SUPERIORITY_MODIFIERS: dict[AirSuperiorityFront, tuple[int | None, ...]] = table(
    "n43.air_superiority_modifiers",
    "Air superiority: axis die roll modifier by front and year (1939-1945)",
    SUPERIORITY_RULE,
    {
        AirSuperiorityFront.RUSSIA_POLAND: (8, None, 7, 3, 0, -4, -9),
        AirSuperiorityFront.FRANCE_BELGIUM: (None, 2, None, None, None, -7, -9),
        AirSuperiorityFront.AFRICA_ITALY: (None, 0, 0, -2, -4, -6, -8),
        AirSuperiorityFront.MAINLAND_CHINA: (9, 9, 9, 7, 3, 0, -1),
        AirSuperiorityFront.PACIFIC_FIELD_FORCE: (None, None, 4, 0, -2, -5, -8),
        AirSuperiorityFront.ISLAND_GARRISON: (None, None, 2, -1, -5, -7, -9),
        AirSuperiorityFront.MALAYA_BURMA: (None, None, 3, 2, 0, -4, -6),
    },
)

SUGGESTED_ATTACKER_BONUS: dict[BattleType, int] = table(
    "n43.air_superiority_attacker_bonus",
    "Air superiority: suggested modifier for the attacker",
    SUPERIORITY_RULE,
    {BattleType.MAJOR_OFFENSIVE: 4, BattleType.LOCAL_ATTACK: 2},
)


def axis_modifier(front: AirSuperiorityFront, year: int) -> int | None:
    check_year(year)
    return AIR_SUPERIORITY_MODIFIERS[front][year - FIRST_YEAR]


@dataclass(frozen=True)
class AirSuperiorityInput:
    front: AirSuperiorityFront
    year: int
    battle_type: BattleType = BattleType.MEETING_ENGAGEMENT
    attacker: AirSide | None = None
    # The attacker bonus is the seed's suggestion for big-attack scenarios (N43-03).
    use_suggested_attacker_bonus: bool = False
    # A "-" cell: that side did not fight there that year; read as no modifier (N43-02).
    unprinted_year_modifier: int = 0


@dataclass(frozen=True)
class AirSuperiority:
    """Who won, and by how much: the margin is the winner's superiority score."""

    winner: AirSide | None  # None: parity
    margin: int

    def score_for(self, side: AirSide) -> int:
        """A side's superiority score (000 § 3 column): won by +n, lost by -n."""
        if self.winner is None:
            return 0
        return self.margin if side is self.winner else -self.margin


@procedure("n43.air_superiority", "Air superiority", SUPERIORITY_RULE)
def roll_air_superiority(inputs: AirSuperiorityInput, dice: DiceSource) -> CompoundResult:
    printed = axis_modifier(inputs.front, inputs.year)
    thrown = {side: roll(DiceKind.TWO_D6, dice) for side in AirSide}
    modifiers: dict[AirSide, list[Modifier]] = {side: [] for side in AirSide}
    axis_value = inputs.unprinted_year_modifier if printed is None else printed
    if axis_value:
        label = f"{inputs.front.value} {inputs.year}"
        modifiers[AirSide.AXIS].append(Modifier(label if printed is not None else f"{label} (-)", axis_value))
    bonus = SUGGESTED_ATTACKER_BONUS.get(inputs.battle_type)
    if inputs.use_suggested_attacker_bonus and inputs.attacker is not None and bonus:
        modifiers[inputs.attacker].append(Modifier(f"{inputs.battle_type.value} attacker", bonus))
    scores = {side: thrown[side].total + sum(m.value for m in modifiers[side]) for side in AirSide}
    margin = abs(scores[AirSide.AXIS] - scores[AirSide.ALLIES])
    if margin == 0:
        decided = AirSuperiority(winner=None, margin=0)
    else:
        winner = max(AirSide, key=lambda side: scores[side])
        decided = AirSuperiority(winner=winner, margin=margin)
    results = tuple(
        RollResult(
            title="Air superiority",
            subject=side.value,
            rule=SUPERIORITY_RULE,
            rolls=(thrown[side],),
            modifiers=tuple(modifiers[side]),
            cell=f"{inputs.front.value}, {inputs.year}" if side is AirSide.AXIS else None,
            outcome=decided.score_for(side),
            outcome_text=f"superiority score {decided.score_for(side):+d}",
            inputs=as_inputs(inputs),
        )
        for side in AirSide
    )
    text = (
        "air parity"
        if decided.winner is None
        else f"air superiority to the {label_of(decided.winner)} by {margin}"
    )
    return CompoundResult(title="Air superiority", results=results, outcome=decided, outcome_text=text)


@dataclass(frozen=True)
class PresenceCell:
    """An air presence cell: dice to throw for points, or the face(s) giving one point."""

    dice: DiceKind | None = None
    one_point_on: int | None = None  # lowest 1D6 face that gives a single point

    def text(self) -> str:
        if self.dice is not None:
            return dice_label(self.dice)
        if self.one_point_on is not None:
            return ",".join(str(face) for face in range(self.one_point_on, 7))
        return "None"


NO_PRESENCE = PresenceCell()
HALF = PresenceCell(DiceKind.HALF_D6)
ONE = PresenceCell(DiceKind.D6)
TWO = PresenceCell(DiceKind.TWO_D6)
THREE = PresenceCell(DiceKind.THREE_D6)
ON_5 = PresenceCell(one_point_on=5)
ON_6 = PresenceCell(one_point_on=6)

# Columns are superiority scores -1, 0, +1, +2, +3, +4, +5 or more.
PRESENCE_COLUMNS: tuple[int, ...] = (-1, 0, 1, 2, 3, 4, 5)

AIR_PRESENCE: dict[AirCoverPriority, tuple[PresenceCell, ...]] = table(
    "n43.air_presence",
    "Air presence by air cover priority and superiority score (-1 .. +5 or more)",
    PRESENCE_RULE,
    {
        AirCoverPriority.TOP: (ONE, TWO, TWO, TWO, TWO, THREE, THREE),
        # +2 → 2D6 then +3 → 1D6 is printed so in both copies of the page (N43-05).
        AirCoverPriority.HIGH: (ON_5, HALF, ONE, TWO, ONE, TWO, TWO),
        AirCoverPriority.MODEST: (ON_6, ON_5, HALF, HALF, ONE, ONE, TWO),
        AirCoverPriority.LOWEST: (NO_PRESENCE, ON_6, HALF, HALF, HALF, HALF, ONE),
    },
)


def presence_cell(priority: AirCoverPriority, superiority_score: int) -> PresenceCell:
    """The cell for a score; losing by more than 1 is off the chart: no presence (N43-06)."""
    if superiority_score < PRESENCE_COLUMNS[0]:
        return NO_PRESENCE
    column = min(superiority_score, PRESENCE_COLUMNS[-1]) - PRESENCE_COLUMNS[0]
    return AIR_PRESENCE[priority][column]


def presence_column_label(score: int) -> str:
    """The column heading as printed: "-1", "0", "+1" .. "+5 or more"."""
    if score >= PRESENCE_COLUMNS[-1]:
        return "+5 or more"
    return "0" if score == 0 else f"{score:+d}"


@dataclass(frozen=True)
class AirPresenceInput:
    priority: AirCoverPriority
    superiority_score: int


@procedure("n43.air_presence", "Air presence", PRESENCE_RULE)
def roll_air_presence(inputs: AirPresenceInput, dice: DiceSource) -> RollResult:
    cell = presence_cell(inputs.priority, inputs.superiority_score)
    column = presence_column_label(inputs.superiority_score)
    common: dict[str, Any] = {
        "procedure": "n43.air_presence",
        "title": "Air presence",
        "subject": f"{inputs.priority.value} priority, score {column}",
        "rule": PRESENCE_RULE,
        "cell": f"{inputs.priority.value} / {column}: {cell.text()}",
        "inputs": as_inputs(inputs),
    }
    if cell.dice is not None:
        thrown = roll(cell.dice, dice)
        return RollResult(rolls=(thrown,), outcome=thrown.total, outcome_text=_points(thrown.total), **common)
    if cell.one_point_on is not None:
        thrown = roll(DiceKind.D6, dice)
        points = 1 if thrown.total >= cell.one_point_on else 0
        return RollResult(
            rolls=(thrown,),
            threshold_base=cell.one_point_on,
            comparison=Comparison.AT_LEAST,
            outcome=points,
            outcome_text=_points(points),
            **common,
        )
    return RollResult(rolls=(), outcome=0, outcome_text=_points(0), **common)


def _points(points: int) -> str:
    return f"{points} air presence point{'' if points == 1 else 's'}"


class AirAssetRow(enum.Enum):
    """Rows of the air assets table: nation and location/period as printed."""

    GERMAN_WEST_1940 = "German: West 1940"
    GERMAN_WEST_1944_45 = "German: West 1944-45"
    GERMAN_EAST_1941_42 = "German: East 1941-42"
    GERMAN_EAST_1943_45 = "German: East 1943-45"
    GERMAN_SOUTHERN_EUROPE_1944 = "German: Southern Europe 1944"
    GERMAN_NORTH_AFRICA_MED_1941_42 = "German: North Africa & Med 1941-42"
    GERMAN_NORTH_AFRICA_MED_1943_44 = "German: North Africa & Med 1943-44"
    RUSSIAN_1941_42 = "Russian: 1941-42"
    RUSSIAN_1943 = "Russian: 43"
    RUSSIAN_1944_45 = "Russian: 1944-45"
    AMERICAN_PACIFIC_1941_43 = "American: Pacific 1941-43"
    AMERICAN_PACIFIC_1944_45 = "American: Pacific 1944-45"
    AMERICAN_MED_1943 = "American: The Med 1943"
    AMERICAN_WEST_ITALY_1944_45 = "American: West & Italy 1944-45"
    JAPANESE_MAINLAND_CHINA = "Japanese: Mainland China"
    JAPANESE_PACIFIC_ASIA_1941_43 = "Japanese: Pacific & Asia 1941-43"
    JAPANESE_PACIFIC_ASIA_1944_45 = "Japanese: Pacific & Asia 1944-45"
    COMMONWEALTH_NORTH_AFRICA_MED_1940_41 = "Commonwealth: North Africa & The Med 1940-41"
    COMMONWEALTH_NORTH_AFRICA_MED_1942_43 = "Commonwealth: North Africa & The Med 1942-43"
    COMMONWEALTH_MED_1944_45 = "Commonwealth: The Med 1944-45"
    COMMONWEALTH_WEST_1940 = "Commonwealth: West 1940"
    COMMONWEALTH_WEST_1944 = "Commonwealth: West 1944"
    FRENCH_1940_FIELD_FORCE = "French: 1940 Field Force"
    FRENCH_1940_FORTRESS = "French: 1940 Fortress"

    @property
    def nation(self) -> Nation:
        return ROW_NATIONS[self.value.split(":")[0]]


class AssetMark(enum.Enum):
    """A box of the air assets table."""

    YES = "Yes"
    RARE = "Yes*"  # rare usage at that time
    NO = "-"  # not available, or the authors are uncertain
    BLANK = ""  # box left empty on the page (N43-07)

    @property
    def available(self) -> bool:
        return self in (AssetMark.YES, AssetMark.RARE)


class AirAttack(enum.Enum):
    DIVE_BOMBING = "Dive Bombing"
    ROCKET = "Rocket"
    AT_CANNON = "AT Cannon"
    STRAFING = "Strafing"
    LEVEL_BOMBING = "Level Bombing"


LISTED_ATTACKS = (AirAttack.DIVE_BOMBING, AirAttack.ROCKET, AirAttack.AT_CANNON)
ALWAYS_AVAILABLE = (AirAttack.STRAFING, AirAttack.LEVEL_BOMBING)

Y, R, N, B = AssetMark.YES, AssetMark.RARE, AssetMark.NO, AssetMark.BLANK

# Cells in column order Dive Bombing, Rocket, AT Cannon; blanks placed by 001.
AIR_ASSETS: dict[AirAssetRow, tuple[AssetMark, AssetMark, AssetMark]] = table(
    "n43.air_assets",
    "Air assets (dive bombing, rocket, AT cannon) by nation and location/period",
    ASSETS_RULE,
    {
        AirAssetRow.GERMAN_WEST_1940: (Y, N, B),
        AirAssetRow.GERMAN_WEST_1944_45: (N, Y, B),
        AirAssetRow.GERMAN_EAST_1941_42: (Y, N, R),
        AirAssetRow.GERMAN_EAST_1943_45: (N, Y, Y),
        AirAssetRow.GERMAN_SOUTHERN_EUROPE_1944: (R, B, B),
        AirAssetRow.GERMAN_NORTH_AFRICA_MED_1941_42: (Y, N, B),
        AirAssetRow.GERMAN_NORTH_AFRICA_MED_1943_44: (R, N, B),
        AirAssetRow.RUSSIAN_1941_42: (N, N, B),
        AirAssetRow.RUSSIAN_1943: (N, N, B),
        AirAssetRow.RUSSIAN_1944_45: (N, Y, Y),
        AirAssetRow.AMERICAN_PACIFIC_1941_43: (Y, N, B),
        AirAssetRow.AMERICAN_PACIFIC_1944_45: (Y, Y, B),
        AirAssetRow.AMERICAN_MED_1943: (B, N, B),
        AirAssetRow.AMERICAN_WEST_ITALY_1944_45: (B, Y, B),
        AirAssetRow.JAPANESE_MAINLAND_CHINA: (Y, N, B),
        AirAssetRow.JAPANESE_PACIFIC_ASIA_1941_43: (Y, N, B),
        AirAssetRow.JAPANESE_PACIFIC_ASIA_1944_45: (Y, N, R),
        AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1940_41: (N, N, N),
        AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1942_43: (N, N, Y),
        AirAssetRow.COMMONWEALTH_MED_1944_45: (N, Y, Y),
        AirAssetRow.COMMONWEALTH_WEST_1940: (N, N, N),
        AirAssetRow.COMMONWEALTH_WEST_1944: (N, Y, Y),
        AirAssetRow.FRENCH_1940_FIELD_FORCE: (N, N, N),
        AirAssetRow.FRENCH_1940_FORTRESS: (N, N, N),
    },
)


@dataclass(frozen=True)
class AirAssetsInput:
    row: AirAssetRow


@dataclass(frozen=True)
class AirAssets:
    row: AirAssetRow
    marks: tuple[tuple[AirAttack, AssetMark], ...]

    @property
    def available(self) -> tuple[AirAttack, ...]:
        """Attack types a point may represent: always strafing and level bombing."""
        listed = tuple(attack for attack, mark in self.marks if mark.available)
        return ALWAYS_AVAILABLE + listed

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def outcome_text(self) -> str:
        rare = [attack.value for attack, mark in self.marks if mark is AssetMark.RARE]
        text = f"{', '.join(attack.value for attack in self.available)} ({self.row.value})"
        return text + (f"; rare: {', '.join(rare)}" if rare else "")

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": "Air assets",
            "outcome_text": self.outcome_text(),
            "row": self.row.value,
            "rule": ASSETS_RULE.to_dict(),
            "marks": {attack.value: mark.value for attack, mark in self.marks},
            "available": to_jsonable(self.available),
            "rare": [attack.value for attack, mark in self.marks if mark is AssetMark.RARE],
        }


@procedure("n43.air_assets", "Air assets available", ASSETS_RULE, rolls=False)
def lookup_air_assets(inputs: AirAssetsInput) -> AirAssets:
    return AirAssets(row=inputs.row, marks=tuple(zip(LISTED_ATTACKS, AIR_ASSETS[inputs.row], strict=True)))


# --- which air assets row a side reads ------------------------------------------------


@dataclass(frozen=True)
class AssetPlace:
    """Where and when a row of the air assets table applies (its printed heading)."""

    row: AirAssetRow
    fronts: frozenset[Front]
    first_year: int
    last_year: int


def _place(row: AirAssetRow, fronts: tuple[Front, ...], first: int, last: int) -> AssetPlace:
    return AssetPlace(row, frozenset(fronts), first, last)


_MED = (Front.NORTH_AFRICA, Front.MEDITERRANEAN)

# The headings read as fronts and years (N43-26). Italy in 1944-45 is "Southern Europe" for
# the Germans and "The Med" for the Commonwealth; the Americans' Italy shares the West's row.
AIR_ASSET_PLACES: tuple[AssetPlace, ...] = table(
    "n43.air_asset_places",
    "Air assets rows by front and years (the rows' headings read as places and periods)",
    ASSETS_RULE,
    (
        _place(AirAssetRow.GERMAN_WEST_1940, (Front.WEST,), 1939, 1940),
        _place(AirAssetRow.GERMAN_WEST_1944_45, (Front.WEST,), 1944, 1945),
        _place(AirAssetRow.GERMAN_EAST_1941_42, (Front.EAST,), 1941, 1942),
        _place(AirAssetRow.GERMAN_EAST_1943_45, (Front.EAST,), 1943, 1945),
        _place(AirAssetRow.GERMAN_NORTH_AFRICA_MED_1941_42, _MED, 1941, 1942),
        _place(AirAssetRow.GERMAN_NORTH_AFRICA_MED_1943_44, (Front.NORTH_AFRICA,), 1943, 1944),
        _place(AirAssetRow.GERMAN_NORTH_AFRICA_MED_1943_44, (Front.MEDITERRANEAN,), 1943, 1943),
        _place(AirAssetRow.GERMAN_SOUTHERN_EUROPE_1944, (Front.MEDITERRANEAN,), 1944, 1945),
        _place(AirAssetRow.RUSSIAN_1941_42, tuple(Front), 1941, 1942),
        _place(AirAssetRow.RUSSIAN_1943, tuple(Front), 1943, 1943),
        _place(AirAssetRow.RUSSIAN_1944_45, tuple(Front), 1944, 1945),
        _place(AirAssetRow.AMERICAN_PACIFIC_1941_43, (Front.PACIFIC, Front.ASIA), 1941, 1943),
        _place(AirAssetRow.AMERICAN_PACIFIC_1944_45, (Front.PACIFIC, Front.ASIA), 1944, 1945),
        _place(AirAssetRow.AMERICAN_MED_1943, _MED, 1942, 1943),
        _place(AirAssetRow.AMERICAN_WEST_ITALY_1944_45, (Front.WEST, Front.MEDITERRANEAN), 1944, 1945),
        _place(AirAssetRow.JAPANESE_MAINLAND_CHINA, (Front.ASIA,), 1937, 1945),
        _place(AirAssetRow.JAPANESE_PACIFIC_ASIA_1941_43, (Front.PACIFIC,), 1941, 1943),
        _place(AirAssetRow.JAPANESE_PACIFIC_ASIA_1944_45, (Front.PACIFIC,), 1944, 1945),
        _place(AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1940_41, _MED, 1940, 1941),
        _place(AirAssetRow.COMMONWEALTH_NORTH_AFRICA_MED_1942_43, _MED, 1942, 1943),
        _place(AirAssetRow.COMMONWEALTH_MED_1944_45, (Front.MEDITERRANEAN,), 1944, 1945),
        _place(AirAssetRow.COMMONWEALTH_WEST_1940, (Front.WEST,), 1939, 1940),
        _place(AirAssetRow.COMMONWEALTH_WEST_1944, (Front.WEST,), 1944, 1945),
        _place(AirAssetRow.FRENCH_1940_FIELD_FORCE, (Front.WEST,), 1939, 1940),
    ),
)


def air_asset_row(nation: Nation, front: Front, year: int) -> AirAssetRow | None:
    """The row a nation reads on a front in a year: the printed period holding the year, else
    the nearest earlier one on that front, else the nearest later one; None when the table
    prints no row for the nation on that front (N43-26)."""
    row_nation = Nation.COMMONWEALTH if nation in COMMONWEALTH_NATIONS | {Nation.POLISH} else nation
    places = [p for p in AIR_ASSET_PLACES if p.row.nation is row_nation and front in p.fronts]
    if not places:
        return None
    holding = [p for p in places if p.first_year <= year <= p.last_year]
    earlier = sorted((p for p in places if p.last_year < year), key=lambda p: p.last_year)
    later = sorted((p for p in places if p.first_year > year), key=lambda p: p.first_year)
    return (holding or earlier[-1:] or later[:1])[0].row
