"""What a benchmark reports: figures, each with its floor, the ratio, its target and whether
the run met it, and the machine's load average when it was measured.

:func:`report` prints them as a table and writes them, with the benchmark's details, as
JSON to ``bench-results/<UTC time>-<benchmark>.json`` (or ``BENCH_RESULTS_DIR``).
"""

from __future__ import annotations

import json
import os
import platform
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
RESULTS = Path(os.environ.get("BENCH_RESULTS_DIR") or ROOT / "bench-results")


def load_average() -> float:
    """The machine's load average over the last minute: other work running alongside inflates
    the project's side far more than the floor."""
    return round(os.getloadavg()[0], 2)


@dataclass(frozen=True)
class Figure:
    """One measured figure against its floor: ``ratio`` = value / floor, the target is on the
    ratio (``at_most`` or ``at_least``)."""

    name: str
    value: float
    floor: float
    unit: str
    at_most: float | None = None
    at_least: float | None = None
    load_average: float = 0.0
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.value / self.floor if self.floor else float("inf")

    @property
    def met(self) -> bool:
        if self.at_most is not None and self.ratio > self.at_most:
            return False
        return self.at_least is None or self.ratio >= self.at_least

    @property
    def target(self) -> str:
        return f"≤ {self.at_most:g}" if self.at_most is not None else f"≥ {self.at_least:g}"

    def as_json(self) -> dict[str, Any]:
        return {**asdict(self), "ratio": round(self.ratio, 3), "target": self.target, "met": self.met}


def _number(value: float, unit: str) -> str:
    return f"{value:,.4g} {unit}".strip()


def report(benchmark: str, figures: list[Figure], details: dict[str, Any]) -> Path:
    """Print the figures as a table and write them with ``details`` as JSON; the file's path."""
    width = max(len(f.name) for f in figures)
    print(f"\n{benchmark}")
    header = f"{'figure':<{width}}  {'value':>14}  {'floor':>14}  {'ratio':>8}  {'target':>8}  met  load"
    print(header)
    for f in figures:
        print(
            f"{f.name:<{width}}  {_number(f.value, f.unit):>14}  {_number(f.floor, f.unit):>14}  "
            f"{f.ratio:>8.3g}  {f.target:>8}  {'yes' if f.met else 'NO ':>3}  {f.load_average:.2f}"
            + (f"  ({f.note})" if f.note else "")
        )
    now = datetime.now(UTC)
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{now:%Y%m%dT%H%M%SZ}-{benchmark}.json"
    document = {
        "benchmark": benchmark,
        "finished_at": now.isoformat(),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "all_targets_met": all(f.met for f in figures),
        "figures": [f.as_json() for f in figures],
        "details": details,
    }
    path.write_text(json.dumps(document, indent=2) + "\n")
    print(f"results: {path}", flush=True)
    return path
