"""Vocabulary and references shared across the Great Battles charts."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from rules_engine.dice import DiceKind, DiceSource, roll
from rules_engine.results import Applies, Comparison, Modifier, RollResult, RuleRef, RuleSystem

SEED = "004_44df3cc44dc4327c.txt"

T = TypeVar("T")


def ref(section: str) -> RuleRef:
    return RuleRef(RuleSystem.GREAT_BATTLES, SEED, section)


class Quality(enum.Enum):
    """Great Battles troop and artillery quality, worst to best."""

    RAW = "Raw"
    INFERIOR = "Inferior"
    AVERAGE = "Average"
    EXPERIENCED = "Experienced"
    VETERAN = "Veteran"

    def lower(self) -> Quality:
        """One grade lower (a rebuilt battalion's replacements); Raw stays Raw."""
        members = list(Quality)
        return members[max(members.index(self) - 1, 0)]


def roll_against(
    *,
    title: str,
    rule: RuleRef,
    dice: DiceSource,
    threshold: int,
    passed: tuple[Any, str],
    failed: tuple[Any, str],
    kind: DiceKind = DiceKind.D10,
    comparison: Comparison = Comparison.AT_MOST,
    modifiers: tuple[Modifier, ...] = (),
    subject: str = "",
    cell: str | None = None,
    inputs: Mapping[str, Any] | None = None,
) -> RollResult:
    """Throw ``kind`` once and read it against ``threshold``.

    ``passed``/``failed`` are the (outcome, outcome text) pairs; a plain
    Great Battles roll is one d10 read at or under the number printed.
    """
    thrown = roll(kind, dice)
    score = thrown.total + sum(m.value for m in modifiers if m.applies_to is Applies.ROLL)
    target = threshold + sum(m.value for m in modifiers if m.applies_to is Applies.THRESHOLD)
    outcome, text = passed if comparison.holds(score, target) else failed
    return RollResult(
        title=title,
        rule=rule,
        rolls=(thrown,),
        outcome=outcome,
        outcome_text=text,
        subject=subject,
        modifiers=modifiers,
        threshold_base=threshold,
        comparison=comparison,
        cell=cell,
        inputs=dict(inputs or {}),
    )


class GunClass(enum.Enum):
    """Gun letter of the weapon/armour data (004 § Weapon/Armor Data)."""

    SUPERHEAVY = "S"
    HEAVY = "H"
    MEDIUM = "M"
    LIGHT = "L"
    INFANTRY = "I"  # fires like infantry, at personnel and soft vehicles only
    NONE = "0"


class ArmourClass(enum.Enum):
    """Armour letter of the weapon/armour data (004 § Weapon/Armor Data)."""

    SUPERHEAVY = "S"
    HEAVY = "H"
    MEDIUM = "M"
    LIGHT = "L"
    NONE = "0"  # soft vehicle


def read_band(bands: Sequence[tuple[float, T]], value: float) -> T | None:
    """The entry of the first band whose top is at or above ``value``.

    ``bands`` are (highest value, entry) pairs in rising order, as the charts
    print "01-20, 21-60, ..." or "1", 2", 3"".  ``None`` past the last band.
    """
    return next((entry for top, entry in bands if value <= top), None)


class Cover(enum.Enum):
    """Where a stand is, as the rally, morale, close combat and fire charts grade it."""

    OPEN = "open"
    SOFT = "soft cover"  # entrenchments
    CREST = "crestline"
    HARD = "hard cover"  # fieldworks
    BUNKER = "bunker"
