"""The words people read for a rule and a throw: the catalog's and the audit trail's.

A whole roll's typed output (``RollOutput``) and its line live beside the roll, in
:mod:`rules_engine.results`, which makes them as a roll is read; this module imports that
one, never the other way round.
"""

from __future__ import annotations

from rules_engine.dice import DiceRoll
from rules_engine.results import RuleRef


def describe_rule(rule: RuleRef) -> dict[str, str]:
    """The machine form (system, seed file, section) with the source's title and the text people read."""
    return {**rule.to_dict(), "source_title": rule.source, "text": rule.text()}


def die_text(thrown: DiceRoll) -> str:
    """One throw as the audit trail shows it: ``"2d6 [3+4] = 7"``."""
    return f"{thrown.kind.value} [{'+'.join(str(face) for face in thrown.faces)}] = {thrown.total}"
