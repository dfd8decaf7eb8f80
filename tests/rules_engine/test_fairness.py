"""Provably fair dice: the hash chain (rules_engine.fairness) and ``python -m rules_engine verify``."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rules_engine import catalog, fairness
from rules_engine.dice import SeededDice
from rules_engine.inputs import build_inputs
from rules_engine.results import to_jsonable
from rules_engine.verify import DocumentError, verify

ROOT = Path(__file__).resolve().parents[2]
MASTER = "club-secret"
LENGTH = 30
ARRIVAL: dict[str, Any] = {"leader_rating": "C", "segments_since_first_attempt": 1}


def test_each_day_seed_hashes_to_the_commitment_in_as_many_steps_as_its_day():
    commitment = fairness.commitment(MASTER, LENGTH)
    assert commitment == fairness.chain_hash(MASTER, LENGTH)
    for day in (1, 2, 17, LENGTH - 1):
        seed = fairness.day_seed(MASTER, LENGTH, day)
        assert fairness.seed_proves(seed, day, commitment)
        assert not fairness.seed_proves(seed, day + 1, commitment)
    # Day 2's seed is a preimage of day 1's: day 1 reveals nothing of it.
    day_one, day_two = fairness.day_seed(MASTER, LENGTH, 1), fairness.day_seed(MASTER, LENGTH, 2)
    assert hashlib.sha256(day_two.encode()).hexdigest() == day_one


def test_a_day_outside_the_chain_is_refused_and_the_master_seed_never_is_a_day_seed():
    with pytest.raises(fairness.FairnessError, match="day 30 is outside"):
        fairness.day_seed(MASTER, LENGTH, LENGTH)
    with pytest.raises(fairness.FairnessError, match="day 0 is outside"):
        fairness.day_seed(MASTER, LENGTH, 0)
    with pytest.raises(fairness.FairnessError, match="at least one link"):
        fairness.commitment(MASTER, 0)
    assert fairness.seed_proves(MASTER, LENGTH, fairness.commitment(MASTER, LENGTH))
    assert MASTER not in {fairness.day_seed(MASTER, LENGTH, d) for d in range(1, LENGTH)}


def _roll(
    seed: str, stream: str, inputs: dict[str, Any], procedure: str = "pk.arrival"
) -> list[dict[str, Any]]:
    entry = catalog.get_procedure(procedure)
    assert entry.input_type is not None
    outcome = entry.func(build_inputs(entry.input_type, inputs), SeededDice(seed, *stream.split("/")))
    return [
        {"id": f"{stream}#{i}", "procedure": procedure, "stream": stream, "inputs": inputs, "result": r}
        for i, r in enumerate(to_jsonable(r.to_dict()) for r in outcome.roll_results())
    ]


def _document(day: int = 3) -> dict[str, Any]:
    seed = fairness.day_seed(MASTER, LENGTH, day)
    rolls = _roll(seed, "day/3/arrival/1", ARRIVAL) + _roll(seed, "day/3/arrival/2", ARRIVAL)
    return {
        "day": day,
        "seed": seed,
        "commitment": fairness.commitment(MASTER, LENGTH),
        "algorithm": fairness.ALGORITHM,
        "rolls": rolls,
    }


def test_every_roll_of_an_honest_day_replays():
    report = verify(_document())
    assert report.ok
    assert (report.replayed, report.mismatches) == (2, [])


def test_a_changed_face_is_a_mismatch_naming_the_roll():
    document = _document()
    stored = document["rolls"][1]["result"]["rolls"][0]
    faces = stored["faces"]
    stored["faces"] = [faces[0] % 6 + 1, *faces[1:]]
    report = verify(document)
    assert not report.ok
    assert len(report.mismatches) == 1
    assert report.mismatches[0].startswith("roll day/3/arrival/2#0 (pk.arrival, stream day/3/arrival/2)")
    assert f"the seed gives [{faces}]" in report.mismatches[0]


def test_a_seed_not_of_the_commitment_fails_and_an_override_or_hidden_roll_is_no_mismatch():
    document = _document()
    document["rolls"].append({"id": "o", "procedure": "pk.arrival", "stream": "x", "override": True})
    document["rolls"].append({"id": "h", "procedure": "pk.arrival", "stream": "y", "hidden": True})
    report = verify(document)
    assert report.ok
    assert len(report.overrides) == len(report.hidden) == 1
    assert not verify({**document, "day": 4}).ok  # the same seed claimed for another day


def test_a_document_that_is_not_one_is_refused_by_name():
    with pytest.raises(DocumentError, match="no seed"):
        verify({"day": 1, "commitment": "x", "rolls": []})
    with pytest.raises(DocumentError, match="unknown dice algorithm"):
        verify({**_document(), "algorithm": "md5"})


def _cli(document: Any, tmp_path: Path, *, stdin: bool = False) -> subprocess.CompletedProcess[str]:
    text = json.dumps(document)
    path = tmp_path / "day.json"
    path.write_text(text, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", "verify", "-" if stdin else str(path)],
        cwd=ROOT,
        input=text if stdin else None,
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )


@pytest.mark.process
def test_the_cli_exits_0_when_verified_1_on_a_mismatch_and_2_on_a_bad_file(tmp_path):
    honest = _cli(_document(), tmp_path, stdin=True)
    assert honest.returncode == 0, honest.stderr
    assert "verified: 2 rolls replayed, 0 mismatches" in honest.stdout

    document = _document()
    document["rolls"][0]["inputs"] = {**ARRIVAL, "segments_since_first_attempt": 2}
    changed = _cli(document, tmp_path)
    assert changed.returncode == 1
    assert "MISMATCH roll day/3/arrival/1#0" in changed.stdout

    bad = _cli([1, 2], tmp_path)
    assert bad.returncode == 2
    assert "not a JSON object" in bad.stderr


def _honest_roll() -> dict[str, Any]:
    roll: dict[str, Any] = _document()["rolls"][0]
    return roll


MALFORMED: dict[str, Any] = {
    "a day beyond the chain": {**_document(), "day": 2**80},
    "day zero": {**_document(), "day": 0},
    "a result that is a number": {**_document(), "rolls": [{**_honest_roll(), "result": 7}]},
    "a result that is a string": {**_document(), "rolls": [{**_honest_roll(), "result": "six"}]},
    "inputs that are a list": {**_document(), "rolls": [{**_honest_roll(), "inputs": [1, 2]}]},
    "a roll that is a number": {**_document(), "rolls": [3]},
    "faces that are text": {
        **_document(),
        "rolls": [{**_honest_roll(), "result": {"rolls": [{"faces": "44"}]}}],
    },
    "a stream that is a number": {**_document(), "rolls": [{**_honest_roll(), "stream": 5}]},
    "a count of stands no club fields": {
        **_document(),
        "rolls": [
            {
                **_honest_roll(),
                "procedure": "gb.barrage_roll",
                "inputs": {"stands": 10**12, "target": "Bunker"},
            }
        ],
    },
}


@pytest.mark.process
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_document_is_refused_in_one_line(case, tmp_path):
    """Refused before any replay: a day beyond the chain once hashed for ever, so a hang would
    stop at _cli's timeout (no timed assertion: speed is the benchmarks' to measure)."""
    refused = _cli(MALFORMED[case], tmp_path)
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.startswith("error: not a dice document: ")
    assert refused.stderr.count("\n") == 1
    with pytest.raises(DocumentError):
        verify(MALFORMED[case])


@pytest.mark.process
@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, '{"day": ' + "9" * 5000 + "}", "\udcff"])
def test_json_too_deep_too_long_or_not_utf8_is_refused_in_one_line(text, tmp_path):
    path = tmp_path / "day.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    refused = subprocess.run(
        [sys.executable, "-m", "rules_engine", "verify", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=10,
    )
    assert refused.returncode == 2, refused.stderr
    assert refused.stderr.startswith("error: not a dice document: ")
    assert refused.stderr.count("\n") == 1


def test_a_document_nested_deeper_than_any_the_service_writes_is_refused():
    nested: Any = 1
    for _ in range(900):  # within the parser's reach, beyond any document's shape
        nested = [nested]
    with pytest.raises(DocumentError, match="nests deeper than 32 levels"):
        verify({**_document(), "rolls": [{**_honest_roll(), "inputs": {"x": nested}}]})
