"""Vocabulary, references and small helpers shared across the "1943" tables.

Seed 000 is the set-up page (001 is the same page with its table cells
delimited, used only to settle cell positions); seed 002 is the movement
chapter.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Sequence
from typing import Any

from rules_engine.dice import DiceKind
from rules_engine.results import RuleRef, RuleSystem
from rules_engine.vocab import Nation

SETUP_SEED = "000_37d048cd6b3f801d.txt"
MOVEMENT_SEED = "002_aa433387fee19918.txt"

FIRST_YEAR = 1939
LAST_YEAR = 1945
YEARS: tuple[int, ...] = tuple(range(FIRST_YEAR, LAST_YEAR + 1))


def ref(section: str, seed: str = SETUP_SEED) -> RuleRef:
    return RuleRef(RuleSystem.NINETEEN_43, seed, section)


def movement_ref(section: str) -> RuleRef:
    return ref(section, MOVEMENT_SEED)


class BattleType(enum.Enum):
    LOCAL_ATTACK = "Local Attack"
    MAJOR_OFFENSIVE = "Major Offensive"
    STALEMATED_FRONT = "Stalemated Front"
    MEETING_ENGAGEMENT = "Meeting Engagement"

    @property
    def label(self) -> str:
        """The code in sentence case, as people write it ("Local attack")."""
        return self.value[:1] + self.value[1:].lower()

    @property
    def has_roles(self) -> bool:
        """Local attacks and major offensives have an attacker and a defender."""
        return self in (BattleType.LOCAL_ATTACK, BattleType.MAJOR_OFFENSIVE)


class BattleRole(enum.Enum):
    ATTACKER = "attacker"
    DEFENDER = "defender"


class AirSide(enum.Enum):
    """The two sides of the air superiority roll: only the axis side is modified."""

    AXIS = "axis"
    ALLIES = "allies"


class Training(enum.Enum):
    """Army training and equipment (000 § 8 reaction table columns), worst to best."""

    POOR = "Poor"
    MARGINAL = "Marginal"
    AVERAGE = "Average"
    GREAT = "Great"
    OUTSTANDING = "Outstanding"


class CommandSystem(enum.Enum):
    FLEXIBLE = "Flexible"
    NORMAL = "Normal"
    RIGID = "Rigid"


class ReactionProfile(enum.Enum):
    """Troop reaction profiles, A best to D worst (000 § 8 reaction profiles)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"

    @property
    def label(self) -> str:
        return _PROFILE_LABELS[self]


_PROFILE_LABELS = {
    ReactionProfile.A: "Highly responsive",
    ReactionProfile.B: "Operationally competent",
    ReactionProfile.C: "Locally effective",
    ReactionProfile.D: "Uncoordinated",
}


class ProximityTerrain(enum.Enum):
    """Rows of the set-up proximity table (000 § 7)."""

    CONSTRICTED = "Constricted Terrain"
    OPEN = "Open Terrain"
    WIDE_OPEN = "Wide Open Terrain"


class TableScale(enum.Enum):
    """Ground scales printed under the proximity table (000 § 7)."""

    LARGE = "large"
    MEDIUM = "medium"
    SMALL = "small"


class AirCoverPriority(enum.Enum):
    TOP = "Top"
    HIGH = "High"
    MODEST = "Modest"
    LOWEST = "Lowest"


# The seeds' "British" modifiers and "Commonwealth" rows cover these nations
# (see notes N43-04); "Russian(s)" is vocab's SOVIET.
COMMONWEALTH_NATIONS: frozenset[Nation] = frozenset({Nation.BRITISH, Nation.COMMONWEALTH, Nation.CANADIAN})


def check_year(year: int) -> None:
    if year not in YEARS:
        raise ValueError(f"the 1943 set-up tables cover {FIRST_YEAR}-{LAST_YEAR}, not {year}")


def span_text(low: int, high: int, top: int) -> str:
    """A die range written the way the charts write it: "6", "5,6", "1 - 3", "4+"."""
    if low == high:
        return str(low)
    if high == top and low > 1:
        return f"{low}+"
    if high == low + 1:
        return f"{low},{high}"
    return f"{low} - {high}"


Span = tuple[int, int]


def column_for(cells: Sequence[Span | None], score: int) -> int | None:
    """Index of the cell whose die range holds ``score`` (None: no cell does)."""
    for index, cell in enumerate(cells):
        if cell is not None and cell[0] <= score <= cell[1]:
            return index
    return None


def dice_label(kind: DiceKind) -> str:
    """Dice as the 1943 charts print them: "½D6", "1D6", "2D6"."""
    return "1D6" if kind is DiceKind.D6 else kind.value.upper()


def as_inputs(inputs: Any) -> dict[str, Any]:
    """The input dataclass as the mapping a RollResult keeps."""
    return {f.name: getattr(inputs, f.name) for f in dataclasses.fields(inputs)}


def round_half_up(numerator: int, denominator: int) -> int:
    """``numerator / denominator`` rounded with .5 going up (the seed's "standard
    rounding"), without floating point; both non-negative."""
    return (2 * numerator + denominator) // (2 * denominator)


class PlaceTime(enum.Enum):
    """Rows (nation, place and time) of the optional defensive works and fuel tables.

    The German "1944-45" and "1943-45" rows sit under "West - 1940" and
    "East - 1941-42" and are read as West and East (notes N43-13).
    """

    GERMAN_WEST_1940 = "German: West - 1940"
    GERMAN_WEST_1944_45 = "German: West 1944-45"
    GERMAN_EAST_1941_42 = "German: East - 1941-42"
    GERMAN_EAST_1943_45 = "German: East 1943-45"
    GERMAN_SOUTHERN_EUROPE = "German: Southern Europe"
    GERMAN_NORTH_AFRICA = "German: North Africa"
    RUSSIAN_1941_42 = "Russian: 1941-42"
    RUSSIAN_1943 = "Russian: 43"
    RUSSIAN_1944_45 = "Russian: 1944-45"
    AMERICAN_PACIFIC = "American: Pacific Theater"
    AMERICAN_EUROPE = "American: European Theater"
    JAPANESE_MAINLAND_CHINA = "Japanese: Mainland China"
    JAPANESE_PACIFIC_FIELD_FORCE = "Japanese: Pacific Field Force"
    JAPANESE_ISLAND_GARRISON = "Japanese: Island Garrison"
    COMMONWEALTH_NORTH_AFRICA_OPEN = "Commonwealth: North Africa - In Open"
    # "Fortress" in the defensive works table, "Fortified Position" in the fuel tables.
    COMMONWEALTH_NORTH_AFRICA_FORTIFIED = "Commonwealth: North Africa - Fortress"
    COMMONWEALTH_EUROPE_1940 = "Commonwealth: Europe 1940"
    COMMONWEALTH_EUROPE_1944 = "Commonwealth: Europe 1944"
    COMMONWEALTH_BURMA_1943_45 = "Commonwealth: Burma 1943-45"  # fuel tables only
    FRENCH_1940_FIELD_FORCE = "French: 1940 Field Force"
    FRENCH_1940_FORTIFIED = "French: 1940 Fortress"

    @property
    def nation(self) -> Nation:
        return ROW_NATIONS[self.value.split(":")[0]]


ROW_NATIONS: dict[str, Nation] = {
    "German": Nation.GERMAN,
    "Russian": Nation.SOVIET,
    "American": Nation.AMERICAN,
    "Japanese": Nation.JAPANESE,
    "Commonwealth": Nation.COMMONWEALTH,
    "French": Nation.FRENCH,
}
