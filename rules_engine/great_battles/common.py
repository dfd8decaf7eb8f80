"""Vocabulary and references shared across the Great Battles charts."""

from __future__ import annotations

import enum

from rules_engine.results import RuleRef, RuleSystem

SEED = "004_44df3cc44dc4327c.txt"


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
