"""Battle type (000 § 1): who attacks when the players cannot agree."""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.nineteen43.common import BattleRole, BattleType, as_inputs, ref
from rules_engine.registry import procedure, table
from rules_engine.results import CompoundResult, RollResult

BATTLE_TYPE_RULE = ref("1) Battle Type")

BATTLE_TYPES: tuple[BattleType, ...] = table(
    "n43.battle_types", "Battle types", BATTLE_TYPE_RULE, tuple(BattleType)
)


@dataclass(frozen=True)
class AttackerDecisionInput:
    battle_type: BattleType = BattleType.LOCAL_ATTACK
    first_side: str = "Axis"
    second_side: str = "Allies"
    # A tie decides nothing, so both sides throw again (notes N43-01).
    max_throws: int = 20
    # The role the high roller's decision gives it (notes N43-28): a campaign cannot ask.
    high_roller_takes: BattleRole = BattleRole.ATTACKER


@procedure("n43.attacker_decision", "Attacker decision roll", BATTLE_TYPE_RULE)
def roll_attacker_decision(inputs: AttackerDecisionInput, dice: DiceSource) -> CompoundResult:
    """Each side throws 1D6; the high roller decides who attacks (and takes ``high_roller_takes``)."""
    if not inputs.battle_type.has_roles:
        raise ValueError(f"a {inputs.battle_type.value} has no attacker to decide")
    results: list[RollResult] = []
    for _ in range(inputs.max_throws):
        first, second = roll(DiceKind.D6, dice), roll(DiceKind.D6, dice)
        if first.total == second.total:
            winner = None
        else:
            winner = inputs.first_side if first.total > second.total else inputs.second_side
        for side, thrown in ((inputs.first_side, first), (inputs.second_side, second)):
            results.append(
                RollResult(
                    title="Attacker decision roll",
                    subject=side,
                    rule=BATTLE_TYPE_RULE,
                    rolls=(thrown,),
                    outcome=winner,
                    outcome_text="tie, throw again" if winner is None else f"{winner} decides",
                    inputs=as_inputs(inputs),
                )
            )
        if winner is not None:
            takes = inputs.high_roller_takes.value
            return CompoundResult(
                title="Attacker decision",
                results=tuple(results),
                outcome=winner,
                outcome_text=f"{winner} decides who attacks: {winner} is the {takes}",
            )
    raise ValueError(f"still tied after {inputs.max_throws} throws")
