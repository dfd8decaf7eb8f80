"""Decision dice: modified d6 read in the force's command-colour column."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.panzer_korps.common import Band, band_for, inputs_of, modifiers, per_item, ref
from rules_engine.registry import procedure, table
from rules_engine.results import RollResult

DECISION_RULE = ref("Decision dice")


class CommandColour(enum.Enum):
    YELLOW = "Yellow"
    BLUE = "Blue"
    RED = "Red"
    WHITE = "White"
    BLACK = "Black"


class Halt(enum.Enum):
    NONE = "none"
    FREEZE = "freeze 1 turn; all units within 20 inches of known enemy test morale"
    PANIC_FREEZE = "panic: freeze 2 turns in cover, otherwise fall back 2 turns full move"


@dataclass(frozen=True)
class DecisionRow:
    """One printed row: the score in each colour's column and what it allows."""

    scores: dict[CommandColour, int]
    halt: Halt = Halt.NONE
    move_units: int = 0
    auto_rally: int = 0
    free_move_formations: int = 0

    def text(self) -> str:
        if self.halt is not Halt.NONE:
            return str(self.halt.value)
        parts = [f"move {self.move_units} unit{'' if self.move_units == 1 else 's'}"]
        if self.auto_rally:
            parts.append(f"auto rally {self.auto_rally}")
        if self.free_move_formations:
            n = self.free_move_formations
            parts.append(f"{n} formation{'' if n == 1 else 's'} free move")
        return ", ".join(parts)


def _row(yellow: int, blue: int, red: int, white: int, black: int, **allows: Any) -> DecisionRow:
    scores = dict(zip(CommandColour, (yellow, blue, red, white, black), strict=True))
    return DecisionRow(scores, **allows)


DECISION_DICE: tuple[DecisionRow, ...] = table(
    "pk.decision_dice",
    "Decision dice by command colour",
    DECISION_RULE,
    (
        _row(1, -1, -4, -5, -6, halt=Halt.PANIC_FREEZE),
        _row(2, 0, -3, -4, -5, halt=Halt.FREEZE),
        _row(3, 1, -2, -3, -4, move_units=1),
        _row(4, 2, -1, -2, -3, move_units=1),
        _row(5, 3, 0, -1, -2, move_units=2),
        _row(6, 4, 1, 0, -1, move_units=3),
        _row(7, 5, 2, 1, 0, move_units=3, auto_rally=1),
        _row(8, 6, 3, 2, 1, move_units=4, auto_rally=2),
        _row(9, 7, 4, 3, 2, move_units=5, auto_rally=3),
        _row(10, 8, 5, 4, 3, move_units=6, auto_rally=4),
        _row(11, 9, 6, 5, 4, move_units=7, auto_rally=5),
        _row(12, 10, 7, 6, 5, move_units=8, auto_rally=6, free_move_formations=1),
        _row(13, 11, 8, 7, 6, move_units=9, auto_rally=7, free_move_formations=2),
        _row(14, 12, 9, 8, 7, move_units=9, auto_rally=8, free_move_formations=3),
    ),
)

# Force group size → modifier; 9 or more is unprinted and reads 0 (rules notes PK-16).
FORCE_GROUP_SIZE_MODIFIER: tuple[Band[int], ...] = table(
    "pk.decision_dice_group_size",
    "Decision die modifier by force group size",
    DECISION_RULE,
    (Band(None, 2, -4), Band(3, 4, -3), Band(5, 6, -2), Band(7, 8, -1), Band(9, None, 0)),
)
ATTACHED_LEADER_MODIFIER = 1


def decision_row(colour: CommandColour, score: int) -> DecisionRow:
    """The row whose cell in ``colour`` equals ``score``; past the ends, the end rows."""
    lowest, highest = DECISION_DICE[0], DECISION_DICE[-1]
    if score <= lowest.scores[colour]:
        return lowest
    if score >= highest.scores[colour]:
        return highest
    return next(row for row in DECISION_DICE if row.scores[colour] == score)


@dataclass(frozen=True)
class DecisionDieInput:
    colour: CommandColour
    force_group_size: int
    attached_leaders: int = 0  # with the formation being moved
    force: str = ""


@procedure("pk.decision_die", "Decision die", DECISION_RULE)
def roll_decision_die(inputs: DecisionDieInput, dice: DiceSource) -> RollResult:
    if inputs.force_group_size < 1:
        raise ValueError(f"a force group has at least one unit (got {inputs.force_group_size})")
    size_modifier = band_for(FORCE_GROUP_SIZE_MODIFIER, inputs.force_group_size).value
    mods = modifiers(
        (True, f"force group size {inputs.force_group_size}", size_modifier),
        per_item(inputs.attached_leaders, "attached leader", ATTACHED_LEADER_MODIFIER),
    )
    thrown = roll(DiceKind.D6, dice)
    score = thrown.total + sum(m.value for m in mods)
    row = decision_row(inputs.colour, score)
    return RollResult(
        title="Decision die",
        subject=f"{inputs.force} ({inputs.colour.value})" if inputs.force else inputs.colour.value,
        rule=DECISION_RULE,
        rolls=(thrown,),
        modifiers=mods,
        cell=f"{inputs.colour.value} {row.scores[inputs.colour]}",
        outcome={
            "halt": row.halt.value,
            "move_units": row.move_units,
            "auto_rally": row.auto_rally,
            "free_move_formations": row.free_move_formations,
        },
        outcome_text=row.text(),
        inputs=inputs_of(inputs),
    )
