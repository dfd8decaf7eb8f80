"""Synthetic scenario packs of any size, for benchmarks and query-count tests.

``synthetic_pack(stands)`` lays ``stands`` stands out in battalions of
:data:`STANDS_PER_BATTALION` (the last one takes the remainder), three
battalions to a battlegroup and three battlegroups to a force, alternating
between an Axis and an Allied side.  With ``sectors``, a map of that many sectors in a grid
(each linked to its right and lower neighbours) holds the battalions in turn, each force's
C Ops on its first battalion's sector.  Everything else is drawn from ``seed``, so one seed
always gives the same pack.
"""

from __future__ import annotations

import math
import random
from typing import Any

from campaign.choices import AttachmentKind, CarryOverDirection, SectorKind, StandType
from campaign.scenarios.format import FORMAT, VERSION
from rules_engine.great_battles.common import Quality
from rules_engine.nineteen43.common import ProximityTerrain
from rules_engine.vocab import Front, LeaderRating, Nation, Season

STANDS_PER_BATTALION = 10
BATTALIONS_PER_GROUP = 3
GROUPS_PER_FORCE = 3
SIDES = (("Axis", Nation.GERMAN, True), ("Allied", Nation.BRITISH, False))
# Every battalion leads with an HQ; the rest are drawn from these.
LINE_STAND_TYPES = (
    StandType.INFANTRY,
    StandType.INFANTRY,
    StandType.INFANTRY,
    StandType.SMG,
    StandType.HEAVY_WEAPONS,
    StandType.AT_GUN,
    StandType.FIELD_GUN,
    StandType.ENGINEER,
    StandType.RECCE,
)
ATTACHMENT_CHANCE = 0.1


def _stand(rng: random.Random, number: int) -> dict[str, Any]:
    if number == 1:
        return {"label": "HQ", "stand_type": StandType.HQ.value}
    stand: dict[str, Any] = {"label": f"S{number:02d}", "stand_type": rng.choice(LINE_STAND_TYPES).value}
    if rng.random() < ATTACHMENT_CHANCE:
        stand.update(attached=True, attachment_kind=AttachmentKind.OTHER.value)
    return stand


def _battalion(rng: random.Random, number: int, side: str, stands: int) -> dict[str, Any]:
    return {
        "code": f"{side[:2].upper()}{number}",
        "name": f"{side} battalion {number}",
        "quality": rng.choice(list(Quality)).value,
        "stands": [_stand(rng, n) for n in range(1, stands + 1)],
    }


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def synthetic_map(rng: random.Random, sectors: int, sides: list[dict[str, Any]]) -> dict[str, Any]:
    """A grid of ``sectors`` sectors; ``sides``' battalions and forces are placed on it in turn."""
    width = math.ceil(math.sqrt(sectors))
    step = 1000 / (width + 1)
    entries = [
        {
            "key": f"s{n}",
            "name": f"Sector {n}",
            "kind": rng.choice(list(SectorKind)).value,
            "terrain": rng.choice(list(ProximityTerrain)).value,
            "victory_points": rng.randint(0, 3),
            "owner": sides[n % len(sides)]["name"],
            "x": round(step * (n % width + 1), 1),
            "y": round(step * (n // width + 1), 1),
            "supply_source_for": [sides[n % len(sides)]["name"]] if n < len(sides) else [],
        }
        for n in range(sectors)
    ]
    links = [
        {"a": f"s{n}", "b": f"s{other}", "kind": "road"}
        for n in range(sectors)
        for other in ((n + 1) if (n + 1) % width else None, n + width)
        if other is not None and other < sectors
    ]
    placed = 0
    for side in sides:
        for force in side["forces"]:
            for group in force["battlegroups"]:
                for battalion in group["battalions"]:
                    battalion["sector"] = f"s{placed % sectors}"
                    placed += 1
            force["sector"] = force["battlegroups"][0]["battalions"][0]["sector"]
    return {"sectors": entries, "links": links}


def synthetic_pack(
    stands: int,
    seed: str = "synthetic",
    *,
    stands_per_battalion: int = STANDS_PER_BATTALION,
    sectors: int = 0,
) -> dict[str, Any]:
    """A valid pack holding exactly ``stands`` stands (at least one), on a map of ``sectors``."""
    if stands < 1 or stands_per_battalion < 1:
        raise ValueError("a pack needs at least one stand, in battalions of at least one")
    rng = random.Random(seed)
    battalion_count = math.ceil(stands / stands_per_battalion)
    sizes = [stands_per_battalion] * (battalion_count - 1) + [
        stands - stands_per_battalion * (battalion_count - 1)
    ]
    sides: list[dict[str, Any]] = []
    for side_index, (name, nation, is_axis) in enumerate(SIDES):
        battalions = [
            _battalion(rng, number, name, size)
            for number, size in enumerate(sizes[side_index :: len(SIDES)], start=1)
        ]
        groups = [
            {"name": f"{name} battlegroup {n}", "battalions": members}
            for n, members in enumerate(_chunks(battalions, BATTALIONS_PER_GROUP), start=1)
        ]
        forces = [
            {
                "name": f"{name} force {n}",
                "nation": nation.value,
                "leader_rating": rng.choice(list(LeaderRating)).value,
                "battlegroups": members,
            }
            for n, members in enumerate(_chunks(groups, GROUPS_PER_FORCE), start=1)
        ]
        sides.append(
            {
                "name": name,
                "nations": [nation.value],
                "is_axis": is_axis,
                "activation_points": rng.randint(2, 8),
                "carry_over_base": rng.randint(3, 8),
                "carry_over_direction": (
                    CarryOverDirection.FALLING if is_axis else CarryOverDirection.RISING
                ).value,
                "forces": forces,
            }
        )
    ground = {"map": synthetic_map(rng, sectors, sides)} if sectors else {}
    return {
        "format": FORMAT,
        "version": VERSION,
        "campaign": {
            "name": f"Synthetic campaign {seed} ({stands} stands)",
            "slug": f"synthetic-{stands}",
            "profile": "great-battles",
            "theatre": Front.WEST.value,
            "year": 1944,
            "season": Season.SUMMER.value,
            "start_date": "1944-06-06",
            "rng_seed": seed,
        },
        "sides": sides,
        **ground,
    }
