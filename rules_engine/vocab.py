"""Vocabulary shared by more than one rule system.

Vocabulary that only one system uses lives in that system's package.
"""

from __future__ import annotations

import enum


def label_of(member: enum.Enum) -> str:
    """What a person reads for ``member``: its ``label`` where the enum names one
    (values that are codes, like weather "D"), else its value with a capital."""
    label = getattr(member, "label", None)
    if isinstance(label, str):
        return label
    value = str(member.value)
    return value[:1].upper() + value[1:]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and its noun as a person writes them: "1 order", "2 orders", "0 conflicts"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


class Nation(enum.Enum):
    GERMAN = "German"
    ITALIAN = "Italian"
    JAPANESE = "Japanese"
    BRITISH = "British"
    COMMONWEALTH = "Commonwealth"
    CANADIAN = "Canadian"
    AMERICAN = "American"
    SOVIET = "Soviet"
    FRENCH = "French"
    POLISH = "Polish"


class Front(enum.Enum):
    """Theatres and fronts as the seed tables name them."""

    WEST = "West"  # France, Low Countries, Germany
    EAST = "East"  # Russia
    NORTH_AFRICA = "North Africa"
    MEDITERRANEAN = "Mediterranean"  # Italy, Sicily, Malta
    PACIFIC = "Pacific"
    ASIA = "Asia"  # China, Burma


class Season(enum.Enum):
    SPRING = "spring"
    SUMMER = "summer"
    AUTUMN = "autumn"
    WINTER = "winter"


class Weather(enum.Enum):
    """Great Battles dawn weather (004 § 1. Weather)."""

    CLEAR = "C"
    DRIZZLE = "D"
    OVERCAST = "O"
    FOG = "F"

    @property
    def label(self) -> str:
        return self.name.capitalize()


class SupplyQuality(enum.Enum):
    """Scenario supply quality (004 § Night Phase, replacements)."""

    POOR = "Poor"
    INFERIOR = "Inferior"
    AVERAGE = "Average"
    SUPERIOR = "Superior"
    SUPERB = "Superb"


class SupplySituation(enum.Enum):
    """A battalion's line of supply at nightfall (004 § Night Phase)."""

    OK = "OK"  # within 12" of C Ops
    SEPARATED = "separated"  # over 12" from C Ops, still traceable
    ISOLATED = "isolated"  # no line to C Ops, or 36"+
    RESERVE = "reserve"  # off table


class LeaderRating(enum.Enum):
    """Panzer Korps leader ratings, A best to H worst (003 § Leader ratings)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"
    G = "G"
    H = "H"

    @property
    def character(self) -> str:
        """The word the chart gives the rating: "Inspirational"."""
        return _LEADER_CHARACTERS[self]

    @property
    def label(self) -> str:
        """The word with its letter, as the rules name it: "Inspirational (rating C)"; never the
        letter alone, which a club member would have to look up."""
        return f"{self.character} (rating {self.value})"


_LEADER_CHARACTERS = {
    LeaderRating.A: "Legendary",
    LeaderRating.B: "Exceptional",
    LeaderRating.C: "Inspirational",
    LeaderRating.D: "Gallant",
    LeaderRating.E: "Career",
    LeaderRating.F: "Despicable",
    LeaderRating.G: "Oppressive",
    LeaderRating.H: "Unreliable",
}


class DaySegment(enum.Enum):
    """Panzer Korps battlefield day segments (003 § Battlefield segment simulator)."""

    EARLY_MORNING = "early morning"
    MORNING = "morning"
    LATE_MORNING = "late morning"
    MIDDAY = "midday"
    AFTERNOON = "afternoon"
    EVENING = "evening"
    DUSK = "dusk"
    NIGHT = "night"  # 8pm to midnight
    NIGHT_SEGMENT = "night segment"  # midnight to 6am, one turn only

    @property
    def order(self) -> int:
        return list(DaySegment).index(self)


# The segments a campaign day opens one after another; the night segment is the night phase's.
PLAYED_DAY_SEGMENTS: tuple[DaySegment, ...] = tuple(
    s for s in DaySegment if s is not DaySegment.NIGHT_SEGMENT
)
