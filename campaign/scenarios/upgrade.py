"""Version 1 packs into version 2: free-text places become unplaced sectors.

Version 1 named places in words: a force's C Ops (``cops_location``) and forming-up point
(``fup_location``, apart from C Ops when ``fup_with_cops`` is false) and a battle's sector.
Version 2 holds them as sectors of ``map``; a place named in words becomes a sector with that
name, a key made from it, no position (so no map is drawn) and no links (so nothing is
adjacent). The same reading as migration 0016 gives a database's old rows.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from django.utils.text import slugify

KEY_LENGTH = 50  # leaves room under Sector.key's 60 for a "-n" suffix


class _Places:
    """Sector keys by name, made in the order names are met."""

    def __init__(self) -> None:
        self.keys: dict[str, str] = {}

    def key(self, name: str) -> str:
        name = name.strip()
        if name not in self.keys:
            base = slugify(name)[:KEY_LENGTH] or "sector"
            taken = set(self.keys.values())
            key = next(
                k for k in (base, *(f"{base}-{n}" for n in range(2, len(taken) + 3))) if k not in taken
            )
            self.keys[name] = key
        return self.keys[name]

    def sectors(self) -> list[dict[str, Any]]:
        return [{"key": key, "name": name} for name, key in self.keys.items()]


def pack_upgrade(pack: Mapping[str, Any]) -> dict[str, Any]:
    """``pack`` (version 1, schema-valid) as version 2; a version 2 pack is returned as it is."""
    upgraded = copy.deepcopy(dict(pack))
    if upgraded.get("version") != 1:
        return upgraded
    places = _Places()
    for side in upgraded.get("sides", []):
        for force in side.get("forces", []):
            cops = str(force.pop("cops_location", "") or "").strip()
            fup = str(force.pop("fup_location", "") or "").strip()
            with_cops = force.pop("fup_with_cops", True)
            if cops:
                force["sector"] = places.key(cops)
            if fup and not with_cops:
                force["fup_sector"] = places.key(fup)
    for battle in upgraded.get("state", {}).get("battles", []):
        battle["sector"] = places.key(str(battle.get("sector") or "") or "Unnamed table")
    upgraded["version"] = 2
    if places.keys:
        upgraded["map"] = {"sectors": places.sectors(), "links": []}
    return upgraded
