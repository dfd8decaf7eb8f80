"""The suite's tiers, marked from what a test uses so nobody has to remember them.

A fixture that starts something declares it with :func:`needs`; every test using that fixture,
directly or through other fixtures, gets the tier's marker at collection. Hypothesis tests are
``fuzz``. ``make test-fast`` runs the tests with none of these markers (:data:`FAST`).

The markers are kept honest at run time: a test that starts a process without a tier that
allows it fails at that moment, naming the command (an audit hook on ``subprocess.Popen``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator
from types import FrameType
from typing import Any, TypeVar

import pytest

TIERS = {
    "browser": "drives Debian's Chromium against a live server (tests/e2e)",
    "worker": "needs a Celery worker process",
    "process": "starts a process of its own: a server, a worker it kills, the command line, a benchmark",
    "fuzz": "draws its cases (Hypothesis, schemathesis)",
}
# The tiers that may start processes: a browser test starts Playwright's driver and Chromium.
SPAWNING = frozenset({"browser", "worker", "process"})
FAST = " and ".join(f"not {tier}" for tier in TIERS)
# Not a process a test starts: ctypes' find_library asks ldconfig or gcc where a shared library is
# (WeasyPrint looks up Pango so, the first time a test prints a paper).
LIBRARY_LOOKUP = "ctypes.util"

Fixture = TypeVar("Fixture", bound=Callable[..., Any])


def needs(tier: str) -> Callable[[Fixture], Fixture]:
    """Put on a fixture (under ``@pytest.fixture``): the tests using it are in ``tier``."""
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}: one of {', '.join(TIERS)}")

    def mark(fixture: Fixture) -> Fixture:
        fixture.test_tier = tier  # type: ignore[attr-defined]
        return fixture

    return mark


def _fixture_tiers(item: pytest.Item) -> set[str]:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return set()
    return {
        tier
        for definitions in info.name2fixturedefs.values()
        for definition in definitions
        if (tier := getattr(definition.func, "test_tier", None))
    }


def pytest_configure(config: pytest.Config) -> None:
    for tier, meaning in TIERS.items():
        config.addinivalue_line("markers", f"{tier}: {meaning}")
    sys.addaudithook(_refuse_unmarked_processes)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        tiers = _fixture_tiers(item)
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            tiers.add("fuzz")
        for tier in sorted(tiers):
            item.add_marker(tier)


def is_slow_tier(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(tier) for tier in TIERS)


_spawning_allowed = True  # outside a test (collection, session set-up and teardown)
_running: str = ""


def _library_lookup() -> bool:
    frame: FrameType | None = sys._getframe(2)
    while frame is not None:
        if frame.f_globals.get("__name__") == LIBRARY_LOOKUP:
            return True
        frame = frame.f_back
    return False


def _refuse_unmarked_processes(event: str, args: tuple[Any, ...]) -> None:
    if event == "subprocess.Popen" and not _spawning_allowed and not _library_lookup():
        command = " ".join(str(part) for part in (args[1] or [args[0]]))[:200]
        raise RuntimeError(
            f"{_running} starts a process ({command}) but has none of the tiers "
            f"{', '.join(sorted(SPAWNING))}: put @needs(...) (tests/tiers.py) on the fixture that "
            "starts it, or the tier's marker on the test"
        )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, Any, Any]:
    global _spawning_allowed, _running
    _spawning_allowed = any(item.get_closest_marker(tier) for tier in SPAWNING)
    _running = item.nodeid
    try:
        return (yield)
    finally:
        _spawning_allowed, _running = True, ""
