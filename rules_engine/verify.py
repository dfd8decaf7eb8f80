"""Replay a revealed day's roll log: ``python -m rules_engine verify FILE``.

The document is the campaign service's ``GET /api/v1/campaigns/{slug}/days/{n}/dice/``.
Its seed must hash to the commitment (:mod:`rules_engine.fairness`), and every roll must
come out of ``SeededDice(seed, *stream)`` as recorded.  An umpire's override is reported
as such, not as a mismatch; a roll whose inputs are hidden from the reader is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine import catalog, fairness
from rules_engine.dice import DiceError, SeededDice
from rules_engine.inputs import InputError, build_inputs
from rules_engine.registry import CatalogError
from rules_engine.results import to_jsonable


class DocumentError(ValueError):
    """The document is not a day's dice verification document."""


@dataclass
class Verification:
    day: int
    seed_proven: bool
    replayed: int = 0
    mismatches: list[str] = field(default_factory=list)
    overrides: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.seed_proven and not self.mismatches


def _faces(result: Mapping[str, Any]) -> list[list[int]]:
    return [list(thrown.get("faces", [])) for thrown in result.get("rolls", [])]


def _closest(stored: Mapping[str, Any], replayed: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The replayed roll that stands for the stored one: the same title and subject."""
    for candidate in replayed:
        if (candidate.get("title"), candidate.get("subject")) == (stored.get("title"), stored.get("subject")):
            return candidate
    return replayed[0] if replayed else None


def _replay(seed: str, roll: Mapping[str, Any]) -> list[dict[str, Any]]:
    entry = catalog.get_procedure(roll["procedure"])
    if entry.input_type is None or not entry.rolls:
        raise CatalogError(f"procedure {roll['procedure']} rolls no dice")
    inputs = build_inputs(entry.input_type, roll["inputs"])
    stream = [label for label in str(roll["stream"]).split("/") if label]
    outcome = entry.func(inputs, SeededDice(seed, *stream))
    return [to_jsonable(r.to_dict()) for r in outcome.roll_results()]


def _required(document: Mapping[str, Any], name: str, kind: type) -> Any:
    value = document.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DocumentError(f"the document has no {name} ({kind.__name__})")
    return value


def verify(document: Any) -> Verification:
    """Check ``document``'s seed against its commitment and replay each of its rolls."""
    if not isinstance(document, Mapping):
        raise DocumentError("the document is not a JSON object")
    day = _required(document, "day", int)
    seed = _required(document, "seed", str)
    commitment = _required(document, "commitment", str)
    rolls = _required(document, "rolls", list)
    algorithm = document.get("algorithm", fairness.ALGORITHM)
    if algorithm != fairness.ALGORITHM:
        raise DocumentError(f"unknown dice algorithm {algorithm!r}; this tool knows {fairness.ALGORITHM}")
    report = Verification(day=day, seed_proven=fairness.seed_proves(seed, day, commitment))
    for roll in rolls:
        name = f"roll {roll.get('id')} ({roll.get('procedure')}, stream {roll.get('stream')})"
        if roll.get("override"):
            report.overrides.append(
                f"{name}: an umpire's recorded override of roll {roll.get('override_of')}"
            )
            continue
        if roll.get("hidden"):
            report.hidden.append(f"{name}: its inputs are hidden from you, not replayed")
            continue
        stored = roll.get("result") or {}
        try:
            replayed = _replay(seed, roll)
        except (CatalogError, InputError, DiceError, KeyError, TypeError) as exc:
            report.mismatches.append(f"{name}: cannot be replayed: {exc}")
            continue
        report.replayed += 1
        if stored in replayed:
            continue
        closest = _closest(stored, replayed)
        replayed_faces = _faces(closest) if closest is not None else []
        report.mismatches.append(
            f"{name}: stored faces {_faces(stored)}, the seed gives {replayed_faces}"
            + ("" if _faces(stored) != replayed_faces else " (the faces agree; the recorded result differs)")
        )
    return report


def report_lines(report: Verification) -> list[str]:
    """What the command prints: the seed's proof, each finding, then a verdict."""
    lines = [
        f"day {report.day}: the seed hashes to the commitment"
        if report.seed_proven
        else f"MISMATCH day {report.day}: the seed hashed {report.day} times is not the commitment"
    ]
    lines += [f"MISMATCH {line}" for line in report.mismatches]
    lines += [f"override {line}" for line in report.overrides]
    lines += [f"skipped {line}" for line in report.hidden]
    verdict = "verified" if report.ok else "FAILED"
    lines.append(
        f"{verdict}: {report.replayed} rolls replayed, {len(report.mismatches)} mismatches, "
        f"{len(report.overrides)} umpire overrides, {len(report.hidden)} hidden"
    )
    return lines
