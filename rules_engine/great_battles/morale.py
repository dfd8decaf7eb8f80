"""Rally numbers (chart 9, losers of close combat and rally) and the morale table (chart 10).

Both charts print *score* modifiers: they move the number to roll at or
under, so they are recorded as threshold modifiers.
"""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.great_battles.common import Cover, Quality, ref, roll_against
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Comparison, Modifier, RollResult
from rules_engine.vocab import Weather

RALLY_RULE = ref("9. Losers of Close Combat (& Rally) [14.7]")
MORALE_RULE = ref("10. Morale [15.0]")

RALLY_NUMBER: dict[Quality, int] = table(
    "gb.rally_number",
    "Rally number by quality (roll a d10 at or under)",
    RALLY_RULE,
    {
        Quality.RAW: 6,
        Quality.INFERIOR: 7,
        Quality.AVERAGE: 8,
        Quality.EXPERIENCED: 9,
        Quality.VETERAN: 10,
    },
)

# Per stand of the battalion (suppressed, destroyed) and for an attached HQ.
RALLY_MODIFIERS: dict[str, int] = table(
    "gb.rally_modifiers",
    "Rally number score modifiers",
    RALLY_RULE,
    {"each stand suppressed": -1, "each stand destroyed": -2, "Bn has HQ attached": +1},
)

# Cover bonus by how many of the battalion's stands are in it: the "1 stand"
# and "2+ stands" columns (rules notes GB-A-07 on the third printed column).
RALLY_COVER_MODIFIERS: dict[Cover, dict[str, int]] = table(
    "gb.rally_cover_modifiers",
    "Rally number cover modifiers by stands in cover",
    RALLY_RULE,
    {
        Cover.SOFT: {"1 stand": 0, "2+ stands": +1},
        Cover.CREST: {"1 stand": 0, "2+ stands": +1},
        Cover.HARD: {"1 stand": +1, "2+ stands": +2},
        Cover.BUNKER: {"1 stand": +2, "2+ stands": +3},
    },
)


class RallyPurpose(enum.Enum):
    RALLY = "rally"  # an action spent to lift a suppression
    CLOSE_COMBAT_LOSS = "close combat loss"  # each losing stand rolls


@dataclass(frozen=True)
class RallyInput:
    """The battalion's rally number is worked out once per turn for all its rolls."""

    quality: Quality
    suppressed: int = 0
    destroyed: int = 0
    hq_attached: bool = False
    cover: Cover = Cover.OPEN
    stands_in_cover: int = 0
    purpose: RallyPurpose = RallyPurpose.RALLY
    stand_already_suppressed: bool = False  # close combat: a 2nd suppression eliminates


@dataclass(frozen=True)
class RallyNumber:
    base: int
    modifiers: tuple[Modifier, ...]

    @property
    def number(self) -> int:
        return self.base + sum(m.value for m in self.modifiers)

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        return (
            f"Rally number: {self.base}"
            + "".join(f" {m.text()}" for m in self.modifiers)
            + (f" = {self.number}")
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "base": self.base,
            "modifiers": [{"name": m.name, "value": m.value} for m in self.modifiers],
            "number": self.number,
            "line": self.line(),
        }


def rally_cover_modifier(cover: Cover, stands_in_cover: int) -> Modifier | None:
    if cover is Cover.OPEN or stands_in_cover == 0:
        return None
    column = "1 stand" if stands_in_cover == 1 else "2+ stands"
    value = RALLY_COVER_MODIFIERS[cover][column]
    return Modifier(f"{column} in {cover.value}", value, Applies.THRESHOLD)


@procedure("gb.rally_number", "Rally number", RALLY_RULE, rolls=False)
def lookup_rally_number(inputs: RallyInput) -> RallyNumber:
    if min(inputs.suppressed, inputs.destroyed, inputs.stands_in_cover) < 0:
        raise ValueError(f"{RALLY_RULE.text()}: stand counts cannot be negative")
    modifiers = []
    if inputs.suppressed:
        value = RALLY_MODIFIERS["each stand suppressed"] * inputs.suppressed
        modifiers.append(Modifier(f"{inputs.suppressed} suppressed", value, Applies.THRESHOLD))
    if inputs.destroyed:
        value = RALLY_MODIFIERS["each stand destroyed"] * inputs.destroyed
        modifiers.append(Modifier(f"{inputs.destroyed} destroyed", value, Applies.THRESHOLD))
    if inputs.hq_attached:
        value = RALLY_MODIFIERS["Bn has HQ attached"]
        modifiers.append(Modifier("HQ attached", value, Applies.THRESHOLD))
    cover = rally_cover_modifier(inputs.cover, inputs.stands_in_cover)
    if cover is not None and cover.value:
        modifiers.append(cover)
    return RallyNumber(base=RALLY_NUMBER[inputs.quality], modifiers=tuple(modifiers))


@procedure("gb.rally", "Rally roll", RALLY_RULE)
def roll_rally(inputs: RallyInput, dice: DiceSource) -> RollResult:
    number = lookup_rally_number(inputs)
    if inputs.purpose is RallyPurpose.RALLY:
        passed, failed = (True, "rallies: suppression lifted"), (False, "stays suppressed")
    else:
        loss = "eliminated" if inputs.stand_already_suppressed else "suppressed"
        passed, failed = (True, "holds"), (False, loss)
    return roll_against(
        title="Rally roll" if inputs.purpose is RallyPurpose.RALLY else "Close combat loser",
        rule=RALLY_RULE,
        dice=dice,
        threshold=number.base,
        modifiers=number.modifiers,
        passed=passed,
        failed=failed,
        subject=f"{inputs.quality.value} battalion",
        cell=f"{inputs.quality.value} rally {number.base}",
        inputs=asdict(inputs),
    )


# Rows: the battalion's count this turn (suppression 1, elimination 2).
# Columns: stands the battalion started with, 1..8.  Cell: d100 score to roll
# at or under; None is the printed "-", no chance.
MORALE_TABLE: dict[int, tuple[int | None, ...]] = table(
    "gb.morale",
    "Morale: count this turn x stands started with",
    MORALE_RULE,
    {
        1: (17, 83, 93, 96, 98, 98, 98, 99),
        2: (None, 17, 50, 83, 85, 93, 95, 96),
        3: (None, 4, 17, 33, 72, 83, 88, 91),
        4: (None, None, 7, 17, 28, 50, 76, 83),
        5: (None, None, 2, 9, 17, 26, 37, 67),
        6: (None, None, None, 4, 10, 17, 24, 33),
        7: (None, None, None, 1, 5, 11, 17, 23),
        8: (None, None, None, None, 2, 6, 11, 17),
        9: (None, None, None, None, 1, 3, 8, 12),
        10: (None, None, None, None, None, 1, 5, 9),
    },
)

MORALE_COVER_MODIFIERS: dict[Cover, int] = table(
    "gb.morale_cover_modifiers",
    "Morale score modifiers: 1 or more stands in cover (best one only)",
    MORALE_RULE,
    {Cover.SOFT: +10, Cover.CREST: +10, Cover.HARD: +20, Cover.BUNKER: +30},
)

MORALE_MODIFIERS: dict[str, int] = table(
    "gb.morale_modifiers",
    "Morale score modifiers: C Ops and weather",
    MORALE_RULE,
    {'not within 12" of C Ops': -10, "drizzle": -10, "fog or rain": -20},
)

MORALE_QUALITY_MODIFIERS: dict[Quality, int] = table(
    "gb.morale_quality_modifiers",
    "Morale score modifiers by quality (variant)",
    MORALE_RULE,
    {
        Quality.VETERAN: +10,
        Quality.EXPERIENCED: +5,
        Quality.AVERAGE: 0,
        Quality.INFERIOR: -5,
        Quality.RAW: -10,
    },
    optional=True,
)

# The chart prints -20; the May 2003 summary says -15 and the initiative
# variant -10 (rules notes GB-A-09), hence the input field.
MORALE_REACTIVATION_PENALTY: int = table(
    "gb.morale_reactivation_penalty",
    "Morale score modifier after reactivation or initiative activation (variant)",
    MORALE_RULE,
    -20,
    optional=True,
)

LARGEST_COLUMN = len(MORALE_TABLE[1])


class MoraleOutcome(enum.Enum):
    PASSES = "passes"
    GOES_TO_GROUND = "goes to ground"


@dataclass(frozen=True)
class MoraleInput:
    stands_started: int
    suppressions: int = 0
    eliminations: int = 0
    cover: Cover = Cover.OPEN  # the best cover any of the battalion's stands is in
    c_ops_within_12: bool = True
    weather: Weather = Weather.CLEAR
    rain: bool = False
    # Variants, off in the stock game.
    quality_modifiers: bool = False
    quality: Quality = Quality.AVERAGE
    activated_by_roll: bool = False  # reactivated or initiative-activated today
    activated_by_roll_penalty: int = MORALE_REACTIVATION_PENALTY
    # Club setting: read "-" as 0 so bonuses can still give a chance (GB-A-08).
    dash_allows_modifiers: bool = False


def morale_count(suppressions: int, eliminations: int) -> int:
    return suppressions + 2 * eliminations


def morale_cell(count: int, stands_started: int) -> int | None:
    """The printed score to roll at or under; None for "-" (no chance).

    Counts past the last row have no chance; battalions that started with
    more stands than the last column read the last column (GB-A-06).
    """
    if count < 1 or stands_started < 1:
        raise ValueError(f"{MORALE_RULE.text()}: count and stands started must be at least 1")
    row = MORALE_TABLE.get(count)
    if row is None:
        return None
    return row[min(stands_started, LARGEST_COLUMN) - 1]


def morale_modifiers(inputs: MoraleInput) -> tuple[Modifier, ...]:
    modifiers = []
    if inputs.cover in MORALE_COVER_MODIFIERS:
        value = MORALE_COVER_MODIFIERS[inputs.cover]
        modifiers.append(Modifier(f"in {inputs.cover.value}", value, Applies.THRESHOLD))
    if not inputs.c_ops_within_12:
        name = 'not within 12" of C Ops'
        modifiers.append(Modifier(name, MORALE_MODIFIERS[name], Applies.THRESHOLD))
    if inputs.rain or inputs.weather is Weather.FOG:
        modifiers.append(Modifier("fog or rain", MORALE_MODIFIERS["fog or rain"], Applies.THRESHOLD))
    elif inputs.weather is Weather.DRIZZLE:
        modifiers.append(Modifier("drizzle", MORALE_MODIFIERS["drizzle"], Applies.THRESHOLD))
    if inputs.quality_modifiers and MORALE_QUALITY_MODIFIERS[inputs.quality]:
        value = MORALE_QUALITY_MODIFIERS[inputs.quality]
        modifiers.append(Modifier(f"{inputs.quality.value} (variant)", value, Applies.THRESHOLD))
    if inputs.activated_by_roll:
        value = inputs.activated_by_roll_penalty
        modifiers.append(Modifier("reactivation (variant)", value, Applies.THRESHOLD))
    return tuple(modifiers)


@procedure("gb.morale", "Morale test", MORALE_RULE)
def roll_morale(inputs: MoraleInput, dice: DiceSource) -> RollResult:
    count = morale_count(inputs.suppressions, inputs.eliminations)
    if count < 1:
        raise ValueError(f"{MORALE_RULE.text()}: no suppression or elimination, no morale test")
    printed = morale_cell(count, inputs.stands_started)
    column = min(inputs.stands_started, LARGEST_COLUMN)
    cell = f"count {count}, {column} stand{'s' if column > 1 else ''}: {printed or '-'}"
    modifiers = morale_modifiers(inputs)
    if printed is None and not inputs.dash_allows_modifiers:
        # "-": nothing can be rolled that passes, so modifiers do not matter.
        modifiers = ()
    thrown = roll(DiceKind.PERCENTILE, dice)
    base = printed or 0  # "-" reads as 0: no d100 face is at or under it
    passed = thrown.total <= base + sum(m.value for m in modifiers)
    outcome = MoraleOutcome.PASSES if passed else MoraleOutcome.GOES_TO_GROUND
    return RollResult(
        title="Morale test",
        subject=f"count {count}",
        rule=MORALE_RULE,
        rolls=(thrown,),
        modifiers=modifiers,
        threshold_base=base,
        comparison=Comparison.AT_MOST,
        cell=cell,
        outcome=outcome,
        outcome_text="passes" if passed else 'fails: retreat 3" and go to ground',
        inputs=asdict(inputs),
    )
