"""Withdrawing a battalion to reserve during the day (FAQ 6 variant).

The charts withdraw to reserve only in the night phase (step 4); the FAQ's
variant lets a battalion go at once unless a stand is surrounded by enemy stands
or their 2" zone of control.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules_engine.great_battles.common import ref
from rules_engine.registry import procedure, table

WITHDRAW_RULE = ref("FAQ 6, variant: withdraw to reserve during the day")

WITHDRAW_BLOCKING_ZOC_INCHES: int = table(
    "gb.variant.withdraw_to_reserve",
    "Withdraw to reserve by day: blocked by a stand surrounded within the enemy's zone (inches)",
    WITHDRAW_RULE,
    2,
    optional=True,
)


@dataclass(frozen=True)
class WithdrawToReserveInput:
    battalion: str
    stands_surrounded: int  # stands ringed by enemy stands or their zone of control


@dataclass(frozen=True)
class WithdrawToReserve:
    allowed: bool
    reason: str

    def to_dict(self) -> dict[str, object]:
        return {"allowed": self.allowed, "reason": self.reason}


@procedure(
    "gb.variant.withdraw_to_reserve",
    "Withdraw a battalion to reserve during the day",
    WITHDRAW_RULE,
    optional=True,
    rolls=False,
)
def check_withdraw_to_reserve(inputs: WithdrawToReserveInput) -> WithdrawToReserve:
    if inputs.stands_surrounded < 0:
        raise ValueError(f"a count of surrounded stands cannot be negative ({inputs.stands_surrounded})")
    if inputs.stands_surrounded:
        return WithdrawToReserve(
            False,
            f"{inputs.battalion} has {inputs.stands_surrounded} stand(s) surrounded within the enemy's "
            f'{WITHDRAW_BLOCKING_ZOC_INCHES}" zone: it stays until the night phase',
        )
    return WithdrawToReserve(True, f"{inputs.battalion} goes to reserve at once")
