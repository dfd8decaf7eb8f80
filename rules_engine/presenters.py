"""The words people read for a rule: the catalog's and the audit trail's (a throw's are
:meth:`rules_engine.dice.DiceRoll.text`).

A whole roll's typed output (``RollOutput``) and its line live beside the roll, in
:mod:`rules_engine.results`, which makes them as a roll is read; this module imports that
one, never the other way round.
"""

from __future__ import annotations

from rules_engine.results import RuleRef


def describe_rule(rule: RuleRef) -> dict[str, str]:
    """The machine form (system, seed file, section) with the source's title and the text people read."""
    return {**rule.to_dict(), "source_title": rule.source, "text": rule.text()}
