"""Result objects: every die, every modifier, the cell or threshold, the rule.

Procedures return a :class:`RollResult` (one decision from one throw) or a
frozen result of their own that exposes ``roll_results()`` for the audit
trail.  A roll's rendering for people (``line``) and machines (``to_dict``) is
:class:`RollOutput`'s, one typed form for the API, the admin and the web app, made from a
:class:`RollResult` as it is read (:meth:`RollOutput.of`) or from the JSON a campaign stored of
one (:meth:`RollOutput.from_dict`); :meth:`RollOutput.to_dict` is that JSON, so a stored roll
and a fresh one present alike and the stored form never changes.  Procedures only compute.
"""

from __future__ import annotations

import contextvars
import dataclasses
import enum
import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Protocol

from rules_engine.dice import DiceKind, DiceRoll


class RuleSystem(enum.Enum):
    GREAT_BATTLES = "Great Battles of WWII"
    PANZER_KORPS = "Panzer Korps"
    NINETEEN_43 = "1943"


# The rule material by file, as a person names it: the one place a seed file gets its title.
SOURCE_TITLES: dict[str, str] = {
    "000_37d048cd6b3f801d.txt": "1943 set-up page",
    "001_4904e0ac25f7d35e.txt": "1943 set-up page",
    "002_aa433387fee19918.txt": "1943 movement chapter",
    "003_87cc295bdca6f18c.txt": "Panzer Korps charts",
    "004_44df3cc44dc4327c.txt": "Great Battles of WWII charts",
}


@dataclass(frozen=True)
class RuleRef:
    """Where a table or procedure comes from: system, seed file and section.

    ``to_dict`` (stored with every roll) keeps the machine form; ``text`` is what
    a person reads: "Great Battles of WWII charts, Night Phase".
    """

    system: RuleSystem
    seed_file: str
    section: str

    @property
    def source(self) -> str:
        return SOURCE_TITLES.get(self.seed_file, self.system.value)

    def text(self) -> str:
        return f"{self.source}, {self.section}"

    def to_dict(self) -> dict[str, str]:
        return {"system": self.system.value, "seed_file": self.seed_file, "section": self.section}

    @classmethod
    def from_dict(cls, data: Mapping[str, str]) -> RuleRef:
        return cls(RuleSystem(data["system"]), data["seed_file"], data["section"])


class Applies(enum.Enum):
    """Whether a modifier changes the dice total (DRM) or the score needed."""

    ROLL = "roll"
    THRESHOLD = "threshold"


@dataclass(frozen=True)
class Modifier:
    name: str
    value: int
    applies_to: Applies = Applies.ROLL

    def text(self) -> str:
        return f"{self.value:+d} {self.name}"


class Comparison(enum.Enum):
    AT_MOST = "≤"
    AT_LEAST = "≥"
    LESS_THAN = "<"
    GREATER_THAN = ">"

    @property
    def label(self) -> str:
        """What a person reads for the sign."""
        return {"≤": "at most", "≥": "at least", "<": "less than", ">": "more than"}[self.value]

    def holds(self, score: int, threshold: int) -> bool:
        if self is Comparison.AT_MOST:
            return score <= threshold
        if self is Comparison.AT_LEAST:
            return score >= threshold
        if self is Comparison.LESS_THAN:
            return score < threshold
        return score > threshold


_PLAIN = frozenset({str, int, float, bool, type(None)})


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(kind))


def fraction_jsonable(value: Fraction) -> dict[str, str | float]:
    """A fraction as people write it and as a number: ``{"fraction": "1/2", "value": 0.5}``.

    The text keeps it exact (a third stays ``"1/3"``); the float is for arithmetic.
    """
    return {"fraction": str(value), "value": float(value)}


def to_jsonable(value: Any) -> Any:
    """Enums to their values, dataclasses and mappings to dicts, tuples to lists,
    fractions by :func:`fraction_jsonable`, infinity to ``None``: what the CLI prints and
    the API answers."""
    kind = type(value)
    if kind in _PLAIN:  # most values; checked first because the night phase converts thousands
        # JSON has no infinity: an unbounded band's top (math.inf) is null, "no limit".
        return value if kind is not float or math.isfinite(value) else None
    # Exact dicts and lists next: the abstract Mapping check below is slow.
    if kind is dict:
        return {k if type(k) is str else str(to_jsonable(k)): to_jsonable(v) for k, v in value.items()}
    if kind is list or kind is tuple:
        return [to_jsonable(v) for v in value]
    if isinstance(value, enum.Enum):
        return value._value_  # the attribute behind ``.value``, without its descriptor
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {name: to_jsonable(getattr(value, name)) for name in _field_names(type(value))}
    if isinstance(value, Mapping):
        return {str(to_jsonable(k)): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [to_jsonable(v) for v in value]
    if isinstance(value, Fraction):
        return fraction_jsonable(value)
    return value


# The key of the procedure being run (set by ``registry.procedure``): every roll read in it
# is stamped with it, so no procedure body restates its own key.
RUNNING_PROCEDURE: contextvars.ContextVar[str] = contextvars.ContextVar("running_procedure")


def running_procedure() -> str:
    try:
        return RUNNING_PROCEDURE.get()
    except LookupError:
        raise RuntimeError("a roll is read outside any registered procedure") from None


@dataclass(frozen=True)
class RollResult:
    """One throw read against a table or a threshold, with everything kept.

    ``score`` is the dice total plus roll modifiers; ``threshold`` is
    ``threshold_base`` plus threshold modifiers.  ``cell`` names the table row
    or column the score (or the inputs) selected.  ``procedure`` is the key of the
    registered procedure that read it.
    """

    title: str
    rule: RuleRef
    rolls: tuple[DiceRoll, ...]
    outcome: Any
    outcome_text: str
    subject: str = ""
    modifiers: tuple[Modifier, ...] = ()
    threshold_base: int | None = None
    comparison: Comparison | None = None
    cell: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    procedure: str = field(default_factory=running_procedure, kw_only=True)

    @property
    def natural(self) -> int:
        return sum(r.total for r in self.rolls)

    @property
    def score(self) -> int:
        return self.natural + sum(m.value for m in self.modifiers if m.applies_to is Applies.ROLL)

    @property
    def threshold(self) -> int | None:
        if self.threshold_base is None:
            return None
        return self.threshold_base + sum(m.value for m in self.modifiers if m.applies_to is Applies.THRESHOLD)

    @property
    def succeeded(self) -> bool | None:
        if self.comparison is None or self.threshold is None:
            return None
        return self.comparison.holds(self.score, self.threshold)

    def roll_results(self) -> tuple[RollResult, ...]:
        return (self,)

    def line(self) -> str:
        return roll_line(self, self.score, self.threshold)

    def to_dict(self) -> dict[str, Any]:
        """What a campaign stores of this roll: its output (:class:`RollOutput`) and its inputs."""
        return {**RollOutput.of(self).to_dict(), "inputs": to_jsonable(self.inputs)}


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


class Outcome(Protocol):
    """What every procedure returns: its rolls for the audit trail, and text."""

    def roll_results(self) -> tuple[RollResult, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class CompoundResult:
    """Several rolls that make one decision (e.g. both sides' air superiority)."""

    title: str
    results: tuple[RollResult, ...]
    outcome: Any
    outcome_text: str

    def roll_results(self) -> tuple[RollResult, ...]:
        return self.results

    def line(self) -> str:
        return "; ".join(r.line() for r in self.results) + f" ⇒ {self.outcome_text}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "results": [r.to_dict() for r in self.results],
            "outcome": to_jsonable(self.outcome),
            "outcome_text": self.outcome_text,
            "line": self.line(),
        }
