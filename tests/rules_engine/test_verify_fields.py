"""Issue 31: ``python -m rules_engine verify`` compares every copy of a roll the document holds,
and a side's own secret rolls verify with its own seed (rules notes C-22)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rules_engine import catalog, fairness
from rules_engine.__main__ import main
from rules_engine.dice import SeededDice
from rules_engine.inputs import build_inputs
from rules_engine.results import to_jsonable

MASTER = "club-secret"
LENGTH = 30
DAY = 3
AXIS = "side Axis"
ARRIVAL: dict[str, Any] = {
    "leader_rating": "C",
    "segments_since_first_attempt": 1,
    "force_name": "21st Panzer",
}


def _roll(audience: str, stream: str) -> dict[str, Any]:
    """A roll as the day's document lists it: rolled with the audience's day seed."""
    entry = catalog.get_procedure("pk.arrival")
    assert entry.input_type is not None
    seed = fairness.day_seed(MASTER, LENGTH, DAY, audience)
    outcome = entry.func(build_inputs(entry.input_type, ARRIVAL), SeededDice(seed, *stream.split("/")))
    (result,) = (to_jsonable(r.to_dict()) for r in outcome.roll_results())
    return {
        "id": f"roll-{stream.rsplit('/', 1)[-1]}",
        "procedure": "pk.arrival",
        "stream": stream,
        "audience": audience,
        "inputs": dict(ARRIVAL),
        "result": result,
        "faces": [list(thrown["faces"]) for thrown in result["rolls"]],
        "override": False,
        "override_of": None,
        "hidden": False,
    }


def _document() -> dict[str, Any]:
    """The Axis player's day: a public roll and one of Axis's own, with Axis's seed."""
    return {
        "day": DAY,
        "seed": fairness.day_seed(MASTER, LENGTH, DAY),
        "commitment": fairness.commitment(MASTER, LENGTH),
        "algorithm": fairness.ALGORITHM,
        "audiences": [
            {
                "audience": AXIS,
                "commitment": fairness.commitment(MASTER, LENGTH, AXIS),
                "seed": fairness.day_seed(MASTER, LENGTH, DAY, AXIS),
            }
        ],
        "rolls": [_roll(fairness.PUBLIC_AUDIENCE, "day/3/weather/1"), _roll(AXIS, "day/3/arrival/7")],
    }


def _run(document: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    path = tmp_path / "day.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    code = main(["verify", str(path)])
    return code, capsys.readouterr().out


def _bumped(value: int, sides: int) -> int:
    return value % sides + 1


# Each field of a roll, altered as a server serving an inconsistent document might: the words the
# refusal must name. (The id only names the roll: there is nothing to check it against.)
ALTERATIONS: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "procedure": (lambda r: r.update(procedure="pk.deployment"), "field procedure"),
    "stream": (lambda r: r.update(stream="day/3/arrival/8"), "stream day/3/arrival/8"),
    "audience": (lambda r: r.update(audience="side Allied"), "field audience"),
    "audience, another held": (
        lambda r: r.update(
            audience=AXIS if r["audience"] == fairness.PUBLIC_AUDIENCE else fairness.PUBLIC_AUDIENCE
        ),
        "fields that differ: result.rolls[0].faces",
    ),
    "inputs": (lambda r: r["inputs"].update(leader_rating="A"), "field inputs"),
    "faces": (lambda r: r.update(faces=[[_bumped(r["faces"][0][0], 100)]]), "field faces"),
    "result.rolls[0].faces": (
        lambda r: r["result"]["rolls"][0].update(faces=[_bumped(r["result"]["rolls"][0]["faces"][0], 100)]),
        "result.rolls[0].faces",
    ),
    "result.rolls[0].total": (
        lambda r: r["result"]["rolls"][0].update(total=r["result"]["rolls"][0]["total"] + 1),
        "result.rolls[0].total",
    ),
    "result.rolls[0].dice": (lambda r: r["result"]["rolls"][0].update(dice="d10"), "result.rolls[0].dice"),
    "result.natural": (lambda r: r["result"].update(natural=r["result"]["natural"] + 1), "result.natural"),
    "result.score": (lambda r: r["result"].update(score=r["result"]["score"] + 1), "result.score"),
    "result.threshold": (lambda r: r["result"].update(threshold=99), "result.threshold"),
    "result.outcome": (lambda r: r["result"].update(outcome=not r["result"]["outcome"]), "result.outcome"),
    "result.outcome_text": (lambda r: r["result"].update(outcome_text="delayed"), "result.outcome_text"),
    "result.line": (lambda r: r["result"].update(line="Arrival roll: → arrives"), "result.line"),
    "result.subject": (lambda r: r["result"].update(subject="Force Led by A"), "result.subject"),
    "result.modifiers": (lambda r: r["result"].update(modifiers=[]), "result.modifiers"),
    "override": (lambda r: r.update(override=True), "field override"),
    "override_of": (lambda r: r.update(override_of="roll-1"), "field override"),
    "hidden": (lambda r: r.update(hidden=True), "field hidden"),
}


def test_the_honest_document_verifies_both_audiences(tmp_path, capsys):
    code, out = _run(_document(), tmp_path, capsys)
    assert code == 0, out
    assert f"day {DAY}: the seed of {AXIS} hashes to its commitment" in out
    assert "verified: 2 rolls replayed, 0 mismatches" in out


@pytest.mark.parametrize("which", [0, 1], ids=["public roll", "side's own roll"])
@pytest.mark.parametrize("field", list(ALTERATIONS))
def test_each_field_of_a_roll_altered_fails_naming_the_roll_and_the_field(field, which, tmp_path, capsys):
    document = _document()
    roll = document["rolls"][which]
    alter, named = ALTERATIONS[field]
    alter(roll)
    code, out = _run(document, tmp_path, capsys)
    assert code == 1, out
    mismatches = [line for line in out.splitlines() if line.startswith("MISMATCH")]
    assert len(mismatches) == 1, out
    assert f"roll {roll['id']} " in mismatches[0]
    assert named in mismatches[0], mismatches[0]


def test_an_audience_seed_not_of_its_commitment_fails_and_its_rolls_are_not_replayed(tmp_path, capsys):
    document = _document()
    document["audiences"][0]["seed"] = fairness.day_seed(MASTER, LENGTH, DAY, "side Allied")
    code, out = _run(document, tmp_path, capsys)
    assert code == 1
    assert f"MISMATCH audiences[0] ({AXIS}): its seed hashed {DAY} times is not its commitment" in out
    assert "MISMATCH roll roll-7 (pk.arrival, stream day/3/arrival/7): field audience" in out


def test_no_audience_seed_opens_another_audiences_chain():
    """The chains are apart: no day seed of one audience is a link of another's chain."""
    audiences = [fairness.PUBLIC_AUDIENCE, AXIS, "side Allied", 'battle ["Allied", "Axis"]', "umpire"]
    links = {
        audience: {
            fairness.chain_hash(fairness.audience_master(MASTER, audience), k) for k in range(LENGTH + 1)
        }
        for audience in audiences
    }
    for audience in audiences:
        others = set().union(*(chain for other, chain in links.items() if other != audience))
        assert not links[audience] & others, audience
        assert fairness.seed_proves(
            fairness.day_seed(MASTER, LENGTH, DAY, audience),
            DAY,
            fairness.commitment(MASTER, LENGTH, audience),
        )
    assert fairness.revealed_seeds(MASTER, LENGTH, DAY, AXIS) == [
        fairness.day_seed(MASTER, LENGTH, day, AXIS) for day in range(1, DAY + 1)
    ]


def test_a_roll_without_an_audience_is_the_publics_as_in_documents_before_audiences(tmp_path, capsys):
    document = _document()
    del document["audiences"]
    for roll in document["rolls"]:
        del roll["audience"]
    document["rolls"] = document["rolls"][:1]
    code, out = _run(copy.deepcopy(document), tmp_path, capsys)
    assert code == 0, out
