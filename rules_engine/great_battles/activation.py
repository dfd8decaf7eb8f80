"""Activation (chart 3): costs, the campaign-wide pool, and activation by roll.

* Costs: one column per turn, cheaper at the start of the day.
* The pool of activation points lasts the whole campaign (FAQ 9);
  :func:`spend_activation_points` books choices against it.
* Reactivation of a voluntarily deactivated battalion, and activation anew by
  initiative, on 2D10 under the rally number (May 2003 summary; chart 3 line).
* The earlier initiative variant: 1D10 at or under a nation x quality number
  (1D20 when the side has no activation points left).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from rules_engine.dice import DiceKind, DiceSource
from rules_engine.great_battles.common import Quality, ref, roll_against
from rules_engine.great_battles.morale import RALLY_NUMBER
from rules_engine.registry import procedure, table
from rules_engine.results import Applies, Comparison, Modifier, RollResult, to_jsonable
from rules_engine.vocab import Nation

COST_RULE = ref("3. Activation Cost [9.0]")
POOL_RULE = ref("3. Activation Cost [9.0]; Activation Choices record chart; FAQ 9")
REACTIVATION_RULE = ref("3. Activation Cost [9.0]; Summary of Variants (May 2003), Activation")
INITIATIVE_RULE = ref('FAQ 45, variant 2) "Initiative" Activation')


class ActivationColumn(enum.Enum):
    ONE_BATTALION = "1 Bn"
    ONE_BATTLEGROUP = "1 Bg"
    TWO_BATTLEGROUPS = "2 Bgs"
    THREE_BATTLEGROUPS = "3 Bgs"


class ActivationTiming(enum.Enum):
    START_OF_DAY = "Activated at Start of Day"  # the dawn turn, "D" on the record chart
    DURING_DAY = "Activated During Day"


ACTIVATION_COST: dict[ActivationColumn, dict[ActivationTiming, int]] = table(
    "gb.activation_cost",
    "Activation cost in activation points",
    COST_RULE,
    {
        ActivationColumn.ONE_BATTALION: {
            ActivationTiming.START_OF_DAY: 1,
            ActivationTiming.DURING_DAY: 2,
        },
        ActivationColumn.ONE_BATTLEGROUP: {
            ActivationTiming.START_OF_DAY: 2,
            ActivationTiming.DURING_DAY: 4,
        },
        ActivationColumn.TWO_BATTLEGROUPS: {
            ActivationTiming.START_OF_DAY: 6,
            ActivationTiming.DURING_DAY: 12,
        },
        ActivationColumn.THREE_BATTLEGROUPS: {
            ActivationTiming.START_OF_DAY: 10,
            ActivationTiming.DURING_DAY: 20,
        },
    },
)


@dataclass(frozen=True)
class ActivationCostInput:
    column: ActivationColumn
    timing: ActivationTiming = ActivationTiming.START_OF_DAY


@dataclass(frozen=True)
class ActivationCost:
    points: int
    inputs: ActivationCostInput

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        return f"Activation cost [{self.inputs.column.value}, {self.inputs.timing.value}] → {self.points} AP"

    def to_dict(self) -> dict[str, object]:
        return {"points": self.points, "inputs": to_jsonable(self.inputs), "line": self.line()}


@procedure("gb.activation_cost", "Activation cost", COST_RULE, rolls=False)
def lookup_activation_cost(inputs: ActivationCostInput) -> ActivationCost:
    return ActivationCost(points=ACTIVATION_COST[inputs.column][inputs.timing], inputs=inputs)


# --- The campaign-wide pool -------------------------------------------------

DAWN_TURN = 0  # written "D" on the record chart
LAST_TURN = 10


class ActivationRuleError(ValueError):
    """A set of activation choices the activation chart does not allow."""

    rule = POOL_RULE

    def __init__(self, problem: str) -> None:
        super().__init__(f"{self.rule.text()}: {problem}")
        self.problem = problem  # the sentence without the rule reference, for people


class ActivationPoolOverspent(ActivationRuleError):
    """The campaign's activation points would go below zero."""


class ActivationColumnsMixed(ActivationRuleError):
    """More than one column (or, by default, more than one choice) in a turn."""


@dataclass(frozen=True)
class ActivationChoice:
    day: int
    turn: int  # DAWN_TURN for the start of the day, else 1..10
    column: ActivationColumn

    @property
    def timing(self) -> ActivationTiming:
        if self.turn == DAWN_TURN:
            return ActivationTiming.START_OF_DAY
        return ActivationTiming.DURING_DAY

    @property
    def cost(self) -> int:
        return ACTIVATION_COST[self.column][self.timing]

    def label(self) -> str:
        turn = "the dawn turn" if self.turn == DAWN_TURN else f"turn {self.turn}"
        return f"day {self.day}, {turn}: {self.column.value}"

    @classmethod
    def parse(cls, text: str) -> ActivationChoice:
        """Read ``"day/turn/column"``, e.g. ``"1/D/1bg"`` or ``"2/6/1 Bn"``."""
        try:
            day, turn, column = (part.strip() for part in text.split("/"))
            turn_number = DAWN_TURN if turn.upper() == "D" else int(turn)
            return cls(int(day), turn_number, _COLUMN_BY_TOKEN[_token(column)])
        except (ValueError, KeyError) as error:
            raise ActivationRuleError(
                f"cannot read activation choice {text!r}; write day/turn/column, "
                "e.g. 1/D/1bg, with turn D for dawn and column 1bn, 1bg, 2bgs or 3bgs"
            ) from error


def _token(column: str) -> str:
    return column.lower().replace(" ", "").rstrip("s")


_COLUMN_BY_TOKEN = {_token(column.value): column for column in ActivationColumn}


@dataclass(frozen=True)
class ActivationEntry:
    choice: ActivationChoice
    cost: int
    remaining: int


@dataclass(frozen=True)
class ActivationLedger:
    pool: int
    entries: tuple[ActivationEntry, ...]

    @property
    def spent(self) -> int:
        return sum(entry.cost for entry in self.entries)

    @property
    def remaining(self) -> int:
        return self.pool - self.spent

    def spent_by_day(self) -> dict[int, int]:
        """The record chart's "Total for Day" column."""
        totals: dict[int, int] = {}
        for entry in self.entries:
            totals[entry.choice.day] = totals.get(entry.choice.day, 0) + entry.cost
        return totals

    def roll_results(self) -> tuple[RollResult, ...]:
        return ()

    def line(self) -> str:
        days = ", ".join(f"day {day} {points}" for day, points in self.spent_by_day().items())
        return (
            f"Activation points: {self.pool} - {self.spent} ({days or 'none spent'}) → {self.remaining} left"
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "pool": self.pool,
            "entries": [
                {"choice": entry.choice.label(), "cost": entry.cost, "remaining": entry.remaining}
                for entry in self.entries
            ],
            "spent_by_day": self.spent_by_day(),
            "spent": self.spent,
            "remaining": self.remaining,
            "line": self.line(),
        }


def spend_activation_points(
    pool: int,
    choices: Sequence[ActivationChoice],
    *,
    allow_repeated_column: bool = False,
) -> ActivationLedger:
    """Book ``choices`` in day and turn order against the campaign's ``pool``.

    Raises :class:`ActivationColumnsMixed` when a turn holds more than one
    column (or the same column twice unless ``allow_repeated_column``) and
    :class:`ActivationPoolOverspent` when a choice costs more than is left.
    """
    if pool < 0:
        raise ActivationRuleError(f"the activation point pool cannot be negative, got {pool}")
    ordered = sorted(choices, key=lambda choice: (choice.day, choice.turn))
    entries: list[ActivationEntry] = []
    remaining = pool
    for choice in ordered:
        if choice.day < 1 or not DAWN_TURN <= choice.turn <= LAST_TURN:
            raise ActivationRuleError(f"{choice.label()} is not a day 1+ and turn D or 1..{LAST_TURN}")
        same_turn = [
            entry.choice
            for entry in entries
            if (entry.choice.day, entry.choice.turn) == (choice.day, choice.turn)
        ]
        if any(earlier.column is not choice.column for earlier in same_turn):
            raise ActivationColumnsMixed(
                f"{choice.label()} mixes columns with {same_turn[0].label()}; "
                "only 1 column may be chosen per turn"
            )
        if same_turn and not allow_repeated_column:
            raise ActivationColumnsMixed(
                f"{choice.label()} is a second choice in the same turn; only 1 choice per turn"
            )
        if choice.cost > remaining:
            raise ActivationPoolOverspent(
                f"{choice.label()} costs {choice.cost} but only {remaining} of the "
                f"campaign's {pool} activation points are left"
            )
        remaining -= choice.cost
        entries.append(ActivationEntry(choice=choice, cost=choice.cost, remaining=remaining))
    return ActivationLedger(pool=pool, entries=tuple(entries))


@dataclass(frozen=True)
class ActivationPoolInput:
    """``choices`` as ``"day/turn/column"`` strings, e.g. ``("1/D/1bg", "1/3/1bg")``."""

    pool: int
    choices: tuple[str, ...] = ()
    allow_repeated_column: bool = False


@procedure("gb.activation_pool", "Activation point pool", POOL_RULE, rolls=False)
def lookup_activation_pool(inputs: ActivationPoolInput) -> ActivationLedger:
    return spend_activation_points(
        inputs.pool,
        [ActivationChoice.parse(text) for text in inputs.choices],
        allow_repeated_column=inputs.allow_repeated_column,
    )


# --- Reactivation and initiative on 2D10 (May 2003 summary) -----------------

REACTIVATION_MODIFIERS: dict[str, int] = table(
    "gb.reactivation_modifiers",
    "Reactivation / initiative: rally number modifiers for the 2D10 roll",
    REACTIVATION_RULE,
    {"each suppression": -1, "each stand eliminated": -2, "German unit": +2},
    optional=True,
)


class ActivationAttempt(enum.Enum):
    REACTIVATION = "reactivation"  # voluntarily deactivated; not if gone to ground
    INITIATIVE = "initiative"  # activate anew by spending both actions of a turn


@dataclass(frozen=True)
class ReactivationInput:
    quality: Quality
    nation: Nation
    suppressed: int = 0
    eliminated: int = 0
    attempt: ActivationAttempt = ActivationAttempt.REACTIVATION


@procedure(
    "gb.reactivation",
    "Reactivation or initiative activation (2D10 under rally number)",
    REACTIVATION_RULE,
    optional=True,
)
def roll_reactivation(inputs: ReactivationInput, dice: DiceSource) -> RollResult:
    if min(inputs.suppressed, inputs.eliminated) < 0:
        raise ValueError(f"{REACTIVATION_RULE.text()}: stand counts cannot be negative")
    modifiers = []
    if inputs.suppressed:
        value = REACTIVATION_MODIFIERS["each suppression"] * inputs.suppressed
        modifiers.append(Modifier(f"{inputs.suppressed} suppressed", value, Applies.THRESHOLD))
    if inputs.eliminated:
        value = REACTIVATION_MODIFIERS["each stand eliminated"] * inputs.eliminated
        modifiers.append(Modifier(f"{inputs.eliminated} eliminated", value, Applies.THRESHOLD))
    if inputs.nation is Nation.GERMAN:
        modifiers.append(Modifier("German", REACTIVATION_MODIFIERS["German unit"], Applies.THRESHOLD))
    rally = RALLY_NUMBER[inputs.quality]
    return roll_against(
        title=inputs.attempt.value.capitalize(),
        rule=REACTIVATION_RULE,
        dice=dice,
        kind=DiceKind.TWO_D10,
        comparison=Comparison.LESS_THAN,
        threshold=rally,
        modifiers=tuple(modifiers),
        passed=(True, "activated"),
        failed=(False, "not activated"),
        subject=f"{inputs.nation.value} {inputs.quality.value} battalion",
        cell=f"{inputs.quality.value} rally {rally}",
        inputs=asdict(inputs),
    )


# --- Initiative by nation x quality (variant 2 of FAQ 45) -------------------


class InitiativeRow(enum.Enum):
    GERMAN = "German"
    US = "US"
    COMMONWEALTH = "Commonwlth."
    SOVIET = "Soviet"


INITIATIVE_ACTIVATION: dict[InitiativeRow, dict[Quality, int]] = table(
    "gb.initiative_activation",
    "Initiative activation: 1D10 at or under, by nation and morale",
    INITIATIVE_RULE,
    {
        InitiativeRow.GERMAN: dict(zip(Quality, (4, 5, 6, 7, 8), strict=True)),
        InitiativeRow.US: dict(zip(Quality, (3, 4, 5, 6, 7), strict=True)),
        InitiativeRow.COMMONWEALTH: dict(zip(Quality, (2, 3, 4, 5, 6), strict=True)),
        InitiativeRow.SOVIET: dict(zip(Quality, (1, 2, 3, 4, 5), strict=True)),
    },
    optional=True,
)

# Nations the chart has no row for need ``row`` given (rules notes GB-A-11).
INITIATIVE_ROW_BY_NATION: dict[Nation, InitiativeRow] = {
    Nation.GERMAN: InitiativeRow.GERMAN,
    Nation.AMERICAN: InitiativeRow.US,
    Nation.BRITISH: InitiativeRow.COMMONWEALTH,
    Nation.COMMONWEALTH: InitiativeRow.COMMONWEALTH,
    Nation.CANADIAN: InitiativeRow.COMMONWEALTH,
    Nation.SOVIET: InitiativeRow.SOVIET,
}


@dataclass(frozen=True)
class InitiativeInput:
    nation: Nation
    quality: Quality
    row: InitiativeRow | None = None  # overrides the nation's row
    side_has_activation_points: bool = True


def initiative_row(inputs: InitiativeInput) -> InitiativeRow:
    if inputs.row is not None:
        return inputs.row
    try:
        return INITIATIVE_ROW_BY_NATION[inputs.nation]
    except KeyError:
        raise ValueError(
            f"{INITIATIVE_RULE.text()}: no row for {inputs.nation.value}; give row=German, US, "
            "Commonwlth. or Soviet"
        ) from None


@procedure(
    "gb.initiative_activation",
    "Initiative activation of a battlegroup (variant)",
    INITIATIVE_RULE,
    optional=True,
)
def roll_initiative_activation(inputs: InitiativeInput, dice: DiceSource) -> RollResult:
    row = initiative_row(inputs)
    number = INITIATIVE_ACTIVATION[row][inputs.quality]
    if inputs.side_has_activation_points:
        kind, title, activated = DiceKind.D10, "Initiative activation", "battlegroup activated for 1 AP"
    else:
        # An empty pool still allows one try, both actions, on a d20: half the chance (GB-A-19).
        kind, title = DiceKind.D20, "Initiative activation, no AP left (1D20, both actions)"
        activated = "battlegroup activated (no AP to spend)"
    return roll_against(
        title=title,
        rule=INITIATIVE_RULE,
        dice=dice,
        kind=kind,
        threshold=number,
        passed=(True, activated),
        failed=(False, "not activated"),
        subject=f"{inputs.nation.value} {inputs.quality.value} HQ battalion",
        cell=f"{row.value} {inputs.quality.value}",
        inputs=asdict(inputs),
    )
