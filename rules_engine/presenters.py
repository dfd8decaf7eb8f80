"""What a roll shows, in one typed form for the API, the admin and the web app.

A :class:`RollOutput` is made from a :class:`~rules_engine.results.RollResult` as it is
read (:meth:`RollOutput.of`) or from the JSON a campaign stored of one
(:meth:`RollOutput.from_dict`); :meth:`RollOutput.to_dict` is that JSON, so a stored
roll and a fresh one present alike and the stored form never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_engine.dice import DiceKind, DiceRoll
from rules_engine.results import Applies, Comparison, Modifier, RuleRef, to_jsonable

if TYPE_CHECKING:
    from rules_engine.results import RollResult


def describe_rule(rule: RuleRef) -> dict[str, str]:
    """The machine form (system, seed file, section) with the source's title and the text people read."""
    return {**rule.to_dict(), "source_title": rule.source, "text": rule.text()}


@dataclass(frozen=True)
class RollOutput:
    """One roll as shown: the dice and their faces, the modifiers, score against
    threshold (or the table cell), the outcome, and the rule it was read under.

    ``score`` is the dice total (``natural``) plus the roll modifiers; ``threshold``
    is ``threshold_base`` plus the threshold modifiers; ``outcome`` is in its JSON form.
    """

    procedure: str
    title: str
    subject: str
    rule: RuleRef
    dice: tuple[DiceRoll, ...]
    natural: int
    modifiers: tuple[Modifier, ...]
    score: int
    threshold_base: int | None
    threshold: int | None
    comparison: Comparison | None
    cell: str | None
    outcome: Any
    outcome_text: str
    line: str

    @classmethod
    def of(cls, result: RollResult) -> RollOutput:
        # Score and threshold once: the night phase presents thousands of these.
        score, threshold = result.score, result.threshold
        return cls(
            procedure=result.procedure,
            title=result.title,
            subject=result.subject,
            rule=result.rule,
            dice=result.rolls,
            natural=result.natural,
            modifiers=result.modifiers,
            score=score,
            threshold_base=result.threshold_base,
            threshold=threshold,
            comparison=result.comparison,
            cell=result.cell,
            outcome=to_jsonable(result.outcome),
            outcome_text=result.outcome_text,
            line=roll_line(result, score, threshold),
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollOutput:
        """The output of a stored roll (``to_dict``'s form); its line as it was written."""
        return cls(
            procedure=data["procedure"],
            title=data["title"],
            subject=data.get("subject", ""),
            rule=RuleRef.from_dict(data["rule"]),
            dice=tuple(
                DiceRoll(DiceKind(thrown["dice"]), tuple(thrown["faces"]), thrown["total"])
                for thrown in data["rolls"]
            ),
            natural=data["natural"],
            modifiers=tuple(
                Modifier(m["name"], m["value"], Applies(m["applies_to"])) for m in data["modifiers"]
            ),
            score=data["score"],
            threshold_base=data.get("threshold_base"),
            threshold=data.get("threshold"),
            comparison=Comparison(data["comparison"]) if data.get("comparison") else None,
            cell=data.get("cell"),
            outcome=data.get("outcome"),
            outcome_text=data["outcome_text"],
            line=data["line"],
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "procedure": self.procedure,
            "title": self.title,
            "subject": self.subject,
            "rule": self.rule.to_dict(),
            "rolls": [thrown.to_dict() for thrown in self.dice],
            "natural": self.natural,
            "modifiers": [
                {"name": m.name, "value": m.value, "applies_to": m.applies_to.value} for m in self.modifiers
            ],
            "score": self.score,
            "threshold_base": self.threshold_base,
            "threshold": self.threshold,
            "comparison": self.comparison.value if self.comparison else None,
            "cell": self.cell,
            "outcome": self.outcome,
            "outcome_text": self.outcome_text,
            "line": self.line,
        }


def roll_line(result: RollResult, score: int, threshold: int | None) -> str:
    """The line people read: ``"To hit, MG at infantry: d10 [7] = 7 +1 cover = 8 ≤ 9 [MG ≤12"] → hit"``."""
    head = f"{result.title}, {result.subject}" if result.subject else result.title
    dice = " ".join(r.text() for r in result.rolls)
    roll_mods = [m for m in result.modifiers if m.applies_to is Applies.ROLL]
    threshold_mods = [m for m in result.modifiers if m.applies_to is Applies.THRESHOLD]
    shown = dice + "".join(f" {m.text()}" for m in roll_mods)
    if roll_mods:
        shown += f" = {score}"
    if result.comparison is not None and threshold is not None:
        target = f"{threshold}"
        if threshold_mods:
            target += f" ({result.threshold_base} " + " ".join(m.text() for m in threshold_mods) + ")"
        body = f"{shown} {result.comparison.value} {target}"
    else:
        body = shown
    if result.cell:
        body += f" [{result.cell}]"
    return f"{head}: {body} → {result.outcome_text}"
