"""The web app spells no label of the API's: every enum's words come from the API (issue 29).

A label map is a code and its label side by side: a file of ``frontend/src`` whose string literals
hold a label the API gives (an OpenAPI enum's, or a term of ``GET /api/v1/vocabulary/``) and also its
code (a literal or an object key) keeps a copy of it, bound to drift. A select's, a radio's or a
legend's words are read from the vocabulary instead. Tests and the generated types may spell them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from api.vocabulary import VOCABULARY
from devstack import frontend_build

SOURCE = frontend_build.TYPES_FILE.parent.parent
# drf-spectacular writes an enum's labels into its description: "* `night.done` - Night phase done".
ENUM_LINE = re.compile(r"^\* `(?P<code>[^`]*)` - (?P<label>.+)$", re.MULTILINE)
# A quoted or backquoted literal without an interpolation; a JSX attribute's value is one too.
# Words that only look like a label copied: the roll log's filter is named "Procedure" as a
# rules-catalog entry's kind is, and a night order's stand field is called "Stand" as a report item is.
NOT_LABELS = {("pages/Rolls.tsx", "Procedure"), ("components/NightOrders.tsx", "Stand")}
OBJECT_KEY = re.compile(r"\b([A-Za-z_][\w]*)\s*:")
LITERAL = re.compile(r"""(?P<q>["'`])(?P<text>(?:\\.|(?!(?P=q)|\$\{).)*)(?P=q)""")


def _openapi_descriptions(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if "enum" in node and isinstance(node.get("description"), str):
            yield node["description"]
        for child in node.values():
            yield from _openapi_descriptions(child)
    elif isinstance(node, list):
        for child in node:
            yield from _openapi_descriptions(child)


def api_labels() -> dict[str, set[str]]:
    """Every label the API gives for a code, with its codes: the OpenAPI enums' and the
    vocabulary's. A label that is its own code ("German") is a code, not a copy of a label."""
    pairs = {
        (match["code"], match["label"])
        for description in _openapi_descriptions(json.loads(frontend_build.SCHEMA_FILE.read_text()))
        for match in ENUM_LINE.finditer(description)
    }
    pairs |= {(term["value"], term["label"]) for terms in VOCABULARY["lists"].values() for term in terms}
    labels: dict[str, set[str]] = {}
    for code, label in pairs:
        if code != label:
            labels.setdefault(label, set()).add(code)
    return labels


def app_sources(root: Path = SOURCE) -> Iterator[Path]:
    for path in sorted([*root.rglob("*.ts"), *root.rglob("*.tsx")]):
        if ".test." not in path.name and path != frontend_build.TYPES_FILE and path.parent.name != "test":
            yield path


def spelled_labels(root: Path = SOURCE) -> list[str]:
    """``file:line: 'label' (code)`` for each label of the API's spelled beside its code."""
    labels = api_labels()
    found = []
    for path in app_sources(root):
        text = path.read_text()
        literals = [
            (match.start(), match["text"])
            for match in LITERAL.finditer(text)
            if not text.endswith("Schemas[", 0, match.start())  # a type's name, not words
        ]
        codes = {literal for _, literal in literals} | set(OBJECT_KEY.findall(text))
        for start, literal in literals:
            if (path.relative_to(root).as_posix(), literal) in NOT_LABELS:
                continue
            for code in sorted(labels.get(literal, set()) & codes):
                line = text.count("\n", 0, start) + 1
                found.append(f"{path.relative_to(root)}:{line}: {literal!r} ({code!r})")
    return found


def test_the_api_labels_are_known():
    """The comparison has something to compare: labels of outputs and of inputs alike."""
    labels = api_labels()
    assert labels["Umpire"] == {"umpire"}
    assert "night.done" in labels["Night phase done"]
    assert "withdraw" in labels["Withdraw a battalion to reserve"]
    assert labels["Suppressed stands back in order"] == {"suppressions_flipped"}


def test_a_label_map_is_found(tmp_path):
    """The test can fail: a map of codes to the API's words, as the web app once kept them."""
    (tmp_path / "Club.tsx").write_text('const ROLES = [["player", "Player"], ["umpire", "Umpire"]];\n')
    (tmp_path / "Report.tsx").write_text('const FUEL = { full: "Full", low: "Low" };\n')
    (tmp_path / "Layout.tsx").write_text('const TAB = "Player";\n')

    assert spelled_labels(tmp_path) == [
        "Club.tsx:1: 'Player' ('player')",
        "Club.tsx:1: 'Umpire' ('umpire')",
        "Report.tsx:1: 'Full' ('full')",
        "Report.tsx:1: 'Low' ('low')",
    ]


def test_the_web_app_spells_no_label_of_the_api():
    found = spelled_labels()
    advice = "labels the API gives, spelled in the web app (read them with useTerms):\n"
    assert not found, advice + "\n".join(found)
