"""Scenario packs: the versioned file format a campaign is imported from and exported to.

The format is described in ``docs/scenario-format.md`` and checked by the JSON
Schema in ``schema/scenario-v2.json`` (version 1 packs: ``scenario-v1.json``, then
upgraded); :mod:`.importing` reads it and :mod:`.exporting` writes it.  This module only knows files:
where the packs are and how JSON and YAML map to the plain dictionaries the services take.
"""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import yaml

PACKS_DIR = Path(__file__).resolve().parent
SCHEMA_PATH = PACKS_DIR / "schema" / "scenario-v2.json"
SCHEMA_V1_PATH = PACKS_DIR / "schema" / "scenario-v1.json"
MALTA_PACK_PATH = PACKS_DIR / "malta.yaml"

YAML_SUFFIXES = frozenset({".yaml", ".yml"})
# LibYAML's safe loader and dumper (PyYAML's wheels carry it): the same documents, written and
# read several times faster than PyYAML's Python ones (a 500-battalion export took seconds).
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
YAML_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def _dates_as_text(value: Any) -> Any:
    """YAML reads unquoted ``2026-03-03`` as a date; the format holds ISO text."""
    if isinstance(value, dict):
        return {key: _dates_as_text(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_dates_as_text(item) for item in value]
    if isinstance(value, datetime.date):  # datetimes too: they are dates
        return value.isoformat()
    return value


def pack_parse(text: str, suffix: str) -> Any:
    """The document in ``text``: YAML for ``.yaml``/``.yml``, else JSON."""
    if suffix.lower() in YAML_SUFFIXES:
        try:
            return _dates_as_text(yaml.load(text, Loader=YAML_LOADER))
        except yaml.YAMLError as exc:  # one error type for callers: JSON's is a ValueError too
            raise ValueError(str(exc)) from exc
    return json.loads(text)


def pack_read(path: Path) -> Any:
    return pack_parse(path.read_text(encoding="utf-8"), path.suffix)


def pack_dumps(pack: dict[str, Any], suffix: str) -> str:
    """``pack`` as YAML for ``.yaml``/``.yml``, else as JSON; keys keep the export's order."""
    if suffix.lower() in YAML_SUFFIXES:
        return yaml.dump(pack, Dumper=YAML_DUMPER, sort_keys=False, allow_unicode=True, width=110)
    return json.dumps(pack, indent=2, ensure_ascii=False) + "\n"


def schema_load(path: Path = SCHEMA_PATH) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema
