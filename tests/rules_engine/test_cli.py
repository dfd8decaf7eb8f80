"""The umpire's CLI (python -m rules_engine, rules_engine.__main__)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import catalog
from rules_engine.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules_engine", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


@pytest.mark.process
def test_cli_lists_the_catalog():
    result = cli("list", "--system", "Panzer Korps")
    assert result.returncode == 0
    assert "pk.arrival" in result.stdout
    assert "gb.weather" not in result.stdout


@pytest.mark.process
def test_cli_rolls_with_given_faces_and_prints_the_line_and_json():
    result = cli("roll", "gb.barrage_delay", "artillery_quality=Inferior", "order=on-call", "--faces", "55")
    assert result.returncode == 0, result.stderr
    line, _, payload = result.stdout.partition("\n")
    assert "85" in line
    assert line.endswith("2 turns")
    assert json.loads(payload)["turns"] == 2


@pytest.mark.process
def test_cli_rolls_a_seeded_procedure_reproducibly():
    first = cli("roll", "pk.arrival", "leader_rating=C", "segments_since_first_attempt=1", "--seed", "club")
    second = cli("roll", "pk.arrival", "leader_rating=C", "segments_since_first_attempt=1", "--seed", "club")
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert "+5" in first.stdout


@pytest.mark.process
def test_cli_names_the_bad_input():
    result = cli("roll", "gb.barrage_delay", "artillery_quality=Elite")
    assert result.returncode == 2
    assert "artillery_quality" in result.stderr
    assert "Veteran" in result.stderr


@pytest.mark.process
def test_cli_shows_a_table_with_its_data():
    result = cli("show", "gb.activation_cost")
    assert result.returncode == 0
    procedure, table = json.loads(result.stdout)
    assert procedure["kind"] == "procedure"
    assert procedure["inputs"][0]["choices"] == ["1 Bn", "1 Bg", "2 Bgs", "3 Bgs"]
    assert table["rule"]["seed_file"] == "004_44df3cc44dc4327c.txt"
    assert table["data"]["1 Bn"] == {"Activated at Start of Day": 1, "Activated During Day": 2}


def not_json(constant: str) -> None:
    raise ValueError(f"{constant} is not JSON")


def test_cli_shows_every_catalog_entry(capsys):
    keys = sorted({entry.key for entry in [*catalog.tables(), *catalog.procedures()]})
    for key in keys:
        assert main(["show", key]) == 0, key
        shown = json.loads(capsys.readouterr().out, parse_constant=not_json)  # strict: no Infinity
        assert {entry["key"] for entry in shown} == {key}


@pytest.mark.process
def test_cli_shows_fractions_as_text_and_number():
    """Issue 13, point 13: base sizes and drift factors are fractions of an inch."""
    result = cli("show", "gb.unit_types")
    assert result.returncode == 0, result.stderr
    (table,) = json.loads(result.stdout)
    infantry = table["data"]["Infantry"]
    assert infantry["base_width_inches"] == {"fraction": "1/2", "value": 0.5}
    assert infantry["base_depth_inches"] == {"fraction": "3/2", "value": 1.5}


@pytest.mark.process
def test_an_unbounded_band_has_no_top():
    result = cli("show", "gb.deployment_casualties")
    table = json.loads(result.stdout, parse_constant=not_json)[1]
    assert [top for top, _ in table["data"]["Dawn Phase"]] == [3, 6, 9, 12, None]


@pytest.mark.process
def test_cli_rolls_a_drift_with_fractions_presented_alike():
    result = cli("roll", "gb.airborne.drift", "theatre=Crete", "height=Low", "--faces", "1,1")
    assert result.returncode == 0, result.stderr
    drift = json.loads(result.stdout.partition("\n")[2])
    assert drift["factor"] == {"fraction": "1/2", "value": 0.5}
    assert set(drift["north_inches"]) == {"fraction", "value"}
