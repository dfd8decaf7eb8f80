"""The web app keeps no copy of a state machine: what a row lets its reader do comes from the API
(issue 29).

A row's ``actions`` (or a ``can_*``-style boolean such as an operation's ``running``) is computed by
the domain from access and state, by the same function the write's guard reads, so the web app
shows exactly what the API accepts. A copy is the web app comparing a state field (``status``,
``day_status``, ``role``, ``fuel_state``, any ``*_status`` or ``*_state``) with a code, switching on
one, or looking one up in a set of codes, or switching a rule on by its key: each is a decision the
domain owns, bound to drift. An HTTP status compared with a number (``error.status === 409``) is not
one. Tests and the generated types may spell them.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_frontend_words import SOURCE, app_sources

FIELD = r"(?:\w*_(?:status|state)|status|state|role)"
LITERAL = r"""(?:"[^"]*"|'[^']*'|`[^`$]*`)"""
CODES = rf"\[\s*{LITERAL}\s*(?:,\s*{LITERAL}\s*)*\]"
COPIES = {
    "compared with a code": re.compile(
        rf"\b{FIELD}\s*[!=]==?\s*{LITERAL}|{LITERAL}\s*[!=]==?\s*[\w.?]*\b{FIELD}\b"
    ),
    "switched on": re.compile(rf"\bswitch\s*\([^)]*\b{FIELD}\s*\)"),
    # A module's constant set of codes, or a literal list of them, asked about a state.
    "looked up in a set of codes": re.compile(
        rf"(?:\b[A-Z][A-Z_]+|{CODES})\.(?:has|includes)\(\s*[\w.?]*\b{FIELD}\b"
    ),
    "a rule switched on by its key": re.compile(r"\boptional_rules\b"),
}


def copies(root: Path = SOURCE) -> list[str]:
    found = []
    for path in app_sources(root):
        name = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            for what, pattern in COPIES.items():
                if pattern.search(line):
                    found.append(f"{name}:{number}: a state {what}: {line.strip()}")
    return found


def test_the_web_app_keeps_no_copy_of_a_state_machine() -> None:
    assert copies() == []


def test_the_check_finds_each_kind_of_copy(tmp_path: Path) -> None:
    (tmp_path / "Page.tsx").write_text(
        'const open = battle.status !== "reported";\n'
        'const mine = "umpire" === campaign.role;\n'
        "switch (order.status) {}\n"
        "const polls = RUNNING.has(operation.status);\n"
        'const fuel = campaign.optional_rules.includes("n43.fuel_supply");\n'
        "const stale = error.status === 409;\n"
        'const retry = delivery.actions.includes("retry");\n'
    )
    assert [line.split(": a state ")[1].split(":")[0] for line in copies(tmp_path)] == [
        "compared with a code",
        "compared with a code",
        "switched on",
        "looked up in a set of codes",
        "a rule switched on by its key",
    ]
