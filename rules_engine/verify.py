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
from rules_engine.dice import SeededDice
from rules_engine.inputs import build_inputs
from rules_engine.registry import CatalogError
from rules_engine.results import to_jsonable


class DocumentError(ValueError):
    """The document is not a day's dice verification document."""


# The service's documents nest six levels deep; the bound keeps every recursive step
# (comparison, printing) far from Python's recursion limit.
MAX_DEPTH = 32
# Every count a roll's inputs hold ends in a small-integer column of the service; a larger
# one is forged, and would make a procedure roll for that many stands.
MAX_INPUT_NUMBER = 32767


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
    stream = [label for label in roll["stream"].split("/") if label]
    outcome = entry.func(inputs, SeededDice(seed, *stream))
    return [to_jsonable(r.to_dict()) for r in outcome.roll_results()]


def _required(document: Mapping[str, Any], name: str, kind: type, where: str = "the document") -> Any:
    value = document.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise DocumentError(f"{where} has no {name} ({kind.__name__})")
    return value


def _nesting_checked(document: Any) -> None:
    """Refuse a document nested deeper than ``MAX_DEPTH``, walking it without recursion."""
    pending = [(document, 1)]
    while pending:
        value, depth = pending.pop()
        children = value.values() if isinstance(value, Mapping) else value if isinstance(value, list) else ()
        if children and depth >= MAX_DEPTH:
            raise DocumentError(f"the document nests deeper than {MAX_DEPTH} levels")
        pending.extend((child, depth + 1) for child in children)


def _numbers_bounded(where: str, inputs: Mapping[str, Any]) -> None:
    pending: list[Any] = [inputs]
    while pending:
        value = pending.pop()
        if isinstance(value, Mapping):
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
        elif isinstance(value, int | float) and not -MAX_INPUT_NUMBER <= value <= MAX_INPUT_NUMBER:
            raise DocumentError(f"{where} has an input number beyond {MAX_INPUT_NUMBER}")


def _roll_checked(position: int, roll: Any) -> Mapping[str, Any]:
    """A roll of the document in the shape the service writes, else a ``DocumentError``."""
    where = f"roll {position}"
    if not isinstance(roll, Mapping):
        raise DocumentError(f"{where} is not a JSON object")
    _required(roll, "procedure", str, where)
    _required(roll, "stream", str, where)
    if roll.get("override") or roll.get("hidden"):
        return roll
    _numbers_bounded(where, _required(roll, "inputs", Mapping, where))
    result = _required(roll, "result", Mapping, where)
    for thrown in _required(result, "rolls", list, f"{where}'s result"):
        if not isinstance(thrown, Mapping):
            raise DocumentError(f"a die of {where} is not a JSON object")
        faces = _required(thrown, "faces", list, f"a die of {where}")
        if not all(isinstance(face, int) and not isinstance(face, bool) for face in faces):
            raise DocumentError(f"a die of {where} has faces that are not whole numbers")
    return roll


def verify(document: Any) -> Verification:
    """Check ``document``'s seed against its commitment and replay each of its rolls.

    The document's shape is checked first, whole, so that a forged one is a
    ``DocumentError`` at once, never a crash or a hash chain without end."""
    if not isinstance(document, Mapping):
        raise DocumentError("the document is not a JSON object")
    _nesting_checked(document)
    day = _required(document, "day", int)
    # Every campaign's chain has DEFAULT_CHAIN_LENGTH links, so a later day is forged (and
    # proving it would hash the seed that many times).
    if not 1 <= day < fairness.DEFAULT_CHAIN_LENGTH:
        raise DocumentError(f"the document's day {day} is not from 1 to {fairness.DEFAULT_CHAIN_LENGTH - 1}")
    seed = _required(document, "seed", str)
    commitment = _required(document, "commitment", str)
    rolls = [_roll_checked(n, roll) for n, roll in enumerate(_required(document, "rolls", list), 1)]
    algorithm = document.get("algorithm", fairness.ALGORITHM)
    if algorithm != fairness.ALGORITHM:
        raise DocumentError(f"unknown dice algorithm {algorithm!r}; this tool knows {fairness.ALGORITHM}")
    report = Verification(day=day, seed_proven=fairness.seed_proves(seed, day, commitment))
    for roll in rolls:
        name = f"roll {roll.get('id')} ({roll['procedure']}, stream {roll['stream']})"
        if roll.get("override"):
            report.overrides.append(
                f"{name}: an umpire's recorded override of roll {roll.get('override_of')}"
            )
            continue
        if roll.get("hidden"):
            report.hidden.append(f"{name}: its inputs are hidden from you, not replayed")
            continue
        stored = roll["result"]
        try:
            replayed = _replay(seed, roll)
        # An unknown procedure (CatalogError), inputs it refuses (InputError), or a
        # procedure refusing them (a ValueError of its own): a forged roll, not a crash.
        except (KeyError, ValueError, TypeError) as exc:
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
