"""`make test` and `make test-fast` (devstack/launcher.py): what each run builds and runs."""

from __future__ import annotations

import os

import pytest

from devstack.launcher import parallel, web_app_work
from tests.tiers import FAST, TIERS


@pytest.mark.parametrize("args", [[], ["-k", "barrage", "-q"], ["-m", "browser"]])
def test_the_whole_suite_builds_the_web_app_and_runs_vitest(args):
    assert web_app_work(args) == (True, True)


@pytest.mark.parametrize(
    "args", [["tests/api/test_map.py"], ["tests/rules_engine", "-q"], ["tests/test_layout.py::test_y"]]
)
def test_named_tests_that_serve_no_web_app_run_without_its_build_or_vitest(args):
    assert web_app_work(args) == (False, False)


@pytest.mark.parametrize(
    "path", ["tests/e2e", "tests/e2e/test_map.py::test_x", "tests", ".", "tests/test_devstack.py"]
)
def test_named_tests_that_serve_the_web_app_build_it_without_vitest(path):
    assert web_app_work([path]) == (True, False)


def test_the_parallel_run_takes_a_process_per_core_unless_told(monkeypatch):
    monkeypatch.delenv("TEST_PROCESSES", raising=False)
    assert parallel(["-q"])[:2] == ["-n", str(os.cpu_count())]
    monkeypatch.setenv("TEST_PROCESSES", "3")
    assert parallel(["-q"]) == [
        "-n",
        "3",
        "--dist",
        "loadscope",
        "--no-loadscope-reorder",
        "--durations=30",
        "-q",
    ]


def test_the_fast_tier_leaves_out_every_tier():
    assert " and ".join(f"not {tier}" for tier in ("browser", "worker", "process", "fuzz")) == FAST
    assert set(TIERS) == {"browser", "worker", "process", "fuzz"}
