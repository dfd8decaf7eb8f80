"""Every table and procedure of the three rule systems, for the API and docs.

Importing this module imports every system package, which registers their
tables and procedures (:mod:`rules_engine.registry`).
"""

from __future__ import annotations

from typing import Any

from rules_engine import great_battles, nineteen43, panzer_korps  # noqa: F401  (registration)
from rules_engine.inputs import describe_inputs
from rules_engine.presenters import describe_rule
from rules_engine.registry import PROCEDURES, TABLES, CatalogError, ProcedureEntry, TableEntry
from rules_engine.results import RuleSystem, to_jsonable


def tables(system: RuleSystem | None = None) -> list[TableEntry]:
    return sorted(
        (t for t in TABLES.values() if system is None or t.rule.system is system), key=lambda t: t.key
    )


def procedures(system: RuleSystem | None = None) -> list[ProcedureEntry]:
    return sorted(
        (p for p in PROCEDURES.values() if system is None or p.rule.system is system), key=lambda p: p.key
    )


def get_procedure(key: str) -> ProcedureEntry:
    try:
        return PROCEDURES[key]
    except KeyError:
        raise CatalogError(f"no procedure {key!r} in the catalog") from None


def get_table(key: str) -> TableEntry:
    try:
        return TABLES[key]
    except KeyError:
        raise CatalogError(f"no table {key!r} in the catalog") from None


def describe_procedure(entry: ProcedureEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "kind": "procedure",
        "title": entry.title,
        "rule": describe_rule(entry.rule),
        "optional": entry.optional,
        "rolls": entry.rolls,
        "inputs": describe_inputs(entry.input_type) if entry.input_type else [],
    }


def describe_table(entry: TableEntry, with_data: bool = False) -> dict[str, Any]:
    described: dict[str, Any] = {
        "key": entry.key,
        "kind": "table",
        "title": entry.title,
        "rule": describe_rule(entry.rule),
        "optional": entry.optional,
    }
    if with_data:
        described["data"] = to_jsonable(entry.data)
    return described
