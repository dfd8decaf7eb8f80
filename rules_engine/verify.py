"""Replay a revealed day's roll log: ``python -m rules_engine verify FILE``.

The document is the campaign service's ``GET /api/v1/campaigns/{slug}/days/{n}/dice/``.
Its public seed and the seed of each other audience it holds (the reader's side, their
battles: rules notes C-22) must hash to their commitments (:mod:`rules_engine.fairness`), and
every roll must come out of ``SeededDice(seed of its audience, *stream)`` as recorded: every
copy the document holds of it (the result's faces, totals and outcome, the top-level faces,
inputs and procedure) is compared, and a document whose copies disagree is refused, naming
the roll and the field.  An umpire's override is reported as such, not as a mismatch; a roll
whose inputs quote strengths hidden from the reader is skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules_engine import catalog, fairness
from rules_engine.dice import DiceSource, ScriptedDice, SeededDice
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
    entered: list[str] = field(default_factory=list)  # rolled at the table: checked, not replayed
    audiences: list[str] = field(default_factory=list)  # the other audiences whose seeds proved

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


def _differences(stored: Any, replayed: Any, path: str) -> list[str]:
    """The paths (``result.rolls[0].faces``) where the stored copy differs from the replay."""
    if isinstance(stored, Mapping) and isinstance(replayed, Mapping):
        keys = [*stored, *(key for key in replayed if key not in stored)]
        return [
            difference
            for key in keys
            for difference in _differences(stored.get(key), replayed.get(key), f"{path}.{key}")
        ]
    if isinstance(stored, list) and isinstance(replayed, list) and len(stored) == len(replayed):
        return [
            difference
            for i, (item, again) in enumerate(zip(stored, replayed, strict=True))
            for difference in _differences(item, again, f"{path}[{i}]")
        ]
    return [] if stored == replayed and type(stored) is type(replayed) else [path]


def _replay(dice: DiceSource, roll: Mapping[str, Any]) -> list[dict[str, Any]]:
    entry = catalog.get_procedure(roll["procedure"])
    if entry.input_type is None or not entry.rolls:
        raise CatalogError(f"procedure {roll['procedure']} rolls no dice")
    inputs = build_inputs(entry.input_type, roll["inputs"])
    outcome = entry.func(inputs, dice)
    return [to_jsonable(r.to_dict()) for r in outcome.roll_results()]


def _seeded(seed: str, roll: Mapping[str, Any]) -> DiceSource:
    return SeededDice(seed, *(label for label in str(roll["stream"]).split("/") if label))


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


def _audience_seeds(document: Mapping[str, Any], day: int, seed: str, report: Verification) -> dict[str, str]:
    """Each audience's seed of the day (the public's is the document's ``seed``); a seed that
    does not hash to its audience's commitment is a mismatch, and rolls of it are not replayed."""
    seeds = {fairness.PUBLIC_AUDIENCE: seed}
    listed = document.get("audiences", [])
    if not isinstance(listed, list):
        raise DocumentError("the document's audiences are not a list")
    for i, chain in enumerate(listed):
        values = [chain.get(name) if isinstance(chain, Mapping) else None for name in AUDIENCE_FIELDS]
        texts = [value for value in values if isinstance(value, str)]
        if len(texts) != len(AUDIENCE_FIELDS):
            raise DocumentError(f"audiences[{i}] has no {', '.join(AUDIENCE_FIELDS)} (text)")
        audience, commitment, audience_seed = texts
        if fairness.seed_proves(audience_seed, day, commitment):
            seeds[audience] = audience_seed
            report.audiences.append(audience)
        else:
            report.mismatches.append(
                f"audiences[{i}] ({audience}): its seed hashed {day} times is not its commitment"
            )
    return seeds


AUDIENCE_FIELDS = ("audience", "commitment", "seed")


def _copies_disagree(roll: Mapping[str, Any], stored: Mapping[str, Any]) -> list[str]:
    """The document's copies of a roll that disagree with its result: the top-level faces,
    inputs and procedure (the replay checks the result itself, built from the top-level inputs)."""
    inputs, quoted = roll.get("inputs"), stored.get("inputs")
    if not isinstance(inputs, Mapping) or not isinstance(quoted, Mapping):
        inputs = quoted = {}
    shared = sorted(inputs.keys() & quoted.keys())
    copies = {
        "faces": (roll.get("faces"), _faces(stored)),
        # The result quotes the inputs its chart read: each must be the roll's own.
        "inputs": ({k: inputs[k] for k in shared}, {k: quoted[k] for k in shared}),
        "procedure": (roll.get("procedure"), stored.get("procedure")),
    }
    return [
        f"the document's copies disagree: field {name} is {copy!r} but result holds {held!r}"
        for name, (copy, held) in copies.items()
        if name in roll and copy != held
    ]


def verify(document: Any) -> Verification:
    """Check ``document``'s seeds against their commitments and replay each of its rolls.

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
    seeds = _audience_seeds(document, day, seed, report)
    for roll in rolls:
        _verify_roll(roll, seeds, report)
    return report


def _verify_roll(roll: Any, seeds: Mapping[str, str], report: Verification) -> None:
    """Replay one roll and compare every copy the document holds of it: refused when they
    disagree with each other or with the seed, naming the roll and the field."""
    if not isinstance(roll, Mapping):
        report.mismatches.append(f"a roll that is not an object: {roll!r}")
        return
    name = f"roll {roll.get('id')} ({roll.get('procedure')}, stream {roll.get('stream')})"
    stored = roll.get("result") or {}
    if not isinstance(stored, Mapping):
        report.mismatches.append(f"{name}: field result is not an object")
        return
    if roll.get("override"):
        if stored and not stored.get("override"):
            report.mismatches.append(
                f"{name}: field override is true but its result is a roll's, not an override's"
            )
        else:
            report.overrides.append(
                f"{name}: an umpire's recorded override of roll {roll.get('override_of')}"
            )
        return
    if stored.get("override") or roll.get("override_of") is not None:
        report.mismatches.append(
            f"{name}: field override is false but the roll overrides {roll.get('override_of')!r} "
            "or its result is an override's"
        )
        return
    if roll.get("hidden"):
        if roll.get("faces"):
            report.mismatches.append(f"{name}: field hidden is true but the roll shows its faces")
        else:
            report.hidden.append(f"{name}: its inputs quote strengths hidden from you, not replayed")
        return
    problems = _copies_disagree(roll, stored)
    audience = roll.get("audience", fairness.PUBLIC_AUDIENCE)
    seed = seeds.get(audience) if isinstance(audience, str) else None
    if roll.get("entered"):
        # Rolled at the table: no seed gave its faces, but the procedure must read them as recorded.
        faces = [face for thrown in _faces(stored) for face in thrown]
        problems += _replay_differences(ScriptedDice(faces), "the faces entered", roll, stored, report)
    elif seed is None:
        problems.append(f"field audience: no proven seed of {audience!r} in the document")
    else:
        problems += _replay_differences(_seeded(seed, roll), f"the seed of {audience}", roll, stored, report)
    if problems:
        report.mismatches.append(f"{name}: {'; '.join(problems)}")
    elif roll.get("entered"):
        report.entered.append(f"{name}: {roll['entered']}, its faces entered, not replayable from a seed")


def _replay_differences(
    dice: DiceSource, source: str, roll: Mapping[str, Any], stored: Mapping[str, Any], report: Verification
) -> list[str]:
    """How the stored result differs from the roll replayed with ``dice`` (its audience's seed, or
    the faces entered at the table)."""
    try:
        replayed = _replay(dice, roll)
    # An unknown procedure (CatalogError), inputs it refuses (InputError), or a procedure
    # refusing them (a ValueError of its own): a forged roll, not a crash.
    except (ValueError, KeyError, TypeError) as exc:
        return [f"cannot be replayed: {exc}"]
    if isinstance(dice, SeededDice):
        report.replayed += 1
    if stored in replayed:
        return []
    closest = _closest(stored, replayed)
    replayed_faces = _faces(closest) if closest is not None else []
    fields = _differences(stored, closest, "result") if closest is not None else ["result"]
    return [
        f"stored faces {_faces(stored)}, the seed gives {replayed_faces}"
        + ("" if _faces(stored) != replayed_faces else " (the faces agree; the recorded result differs)")
        + f"; fields that differ: {', '.join(fields)} (replayed with {source})"
    ]


def report_lines(report: Verification) -> list[str]:
    """What the command prints: the seed's proof, each finding, then a verdict."""
    lines = [
        f"day {report.day}: the seed hashes to the commitment"
        if report.seed_proven
        else f"MISMATCH day {report.day}: the seed hashed {report.day} times is not the commitment"
    ]
    lines += [
        f"day {report.day}: the seed of {audience} hashes to its commitment" for audience in report.audiences
    ]
    lines += [f"MISMATCH {line}" for line in report.mismatches]
    lines += [f"override {line}" for line in report.overrides]
    lines += [f"skipped {line}" for line in report.hidden]
    lines += [f"entered {line}" for line in report.entered]
    verdict = "verified" if report.ok else "FAILED"
    lines.append(
        f"{verdict}: {report.replayed} rolls replayed, {len(report.mismatches)} mismatches, "
        f"{len(report.overrides)} umpire overrides, {len(report.hidden)} hidden, "
        f"{len(report.entered)} entered at the table"
    )
    return lines
