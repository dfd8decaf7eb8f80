"""Supply lines traced over the campaign map, for the whole campaign in one pass (rules notes MS-01, MS-02).

A line runs over sectors its side holds. Its two ends are where the unit and what it traces to
stand, whoever holds those (a battalion fighting for a contested sector, or one that has just
pushed into the enemy's, draws its line back from there); the sectors in between must be the
side's own. One breadth-first search per side from its sources of supply gives every sector's
path to the nearest source; one per C Ops gives the distances to it. Plain data in, plain data
out: the reads are :func:`campaign.selectors.supply_ground`'s, the rule reading
``gb.map_supply_situation``'s.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cached_property

import networkx as nx


@dataclass(frozen=True)
class Ground:
    """The map as supply sees it."""

    owners: Mapping[int, int | None]  # sector id → the side holding it (None: contested)
    links: tuple[tuple[int, int], ...]
    listed_sources: Mapping[int, frozenset[int]]  # side id → sectors the pack lists as its sources

    @cached_property
    def neighbours(self) -> Mapping[int, frozenset[int]]:
        adjacent: dict[int, set[int]] = {sector: set() for sector in self.owners}
        for a, b in self.links:
            adjacent[a].add(b)
            adjacent[b].add(a)
        return {sector: frozenset(others) for sector, others in adjacent.items()}

    def sources(self, side_id: int) -> frozenset[int]:
        """A listed source supplies its side while the side holds it (a captured port supplies
        its captor, a lost one nobody)."""
        return frozenset(s for s in self.listed_sources.get(side_id, ()) if self.owners.get(s) == side_id)


@dataclass
class SideLines:
    """One side's supply lines: the held sectors, and from each one reached, its path to the
    nearest source (the sector itself first, the source last)."""

    ground: Ground
    side_id: int
    held: nx.Graph[int] = field(init=False)
    to_source: dict[int, list[int]] = field(init=False)

    def __post_init__(self) -> None:
        own = {sector for sector, owner in self.ground.owners.items() if owner == self.side_id}
        self.held = nx.Graph()
        self.held.add_nodes_from(own)
        self.held.add_edges_from((a, b) for a, b in self.ground.links if a in own and b in own)
        sources = self.ground.sources(self.side_id)
        paths = nx.multi_source_dijkstra_path(self.held, sources) if sources else {}
        self.to_source = {sector: path[::-1] for sector, path in paths.items()}

    def _entries(self, sector: int) -> Iterable[int]:
        """Where a line from a unit on ``sector`` enters the held ground: the sector itself when
        held, else the held sectors next to it."""
        if sector in self.held:
            return (sector,)
        return (n for n in self.ground.neighbours.get(sector, ()) if n in self.held)

    def path_to_source(self, sector: int) -> list[int] | None:
        """The shortest line from a unit on ``sector`` to a source, or None when it has none."""
        if sector in self.to_source:
            return self.to_source[sector]
        reached = [self.to_source[n] for n in self._entries(sector) if n in self.to_source]
        if not reached:
            return None
        return [sector, *min(reached, key=lambda path: (len(path), path))]

    def distances_from(self, sector: int) -> dict[int, int]:
        """Links over held ground from what stands on ``sector`` (a C Ops) to every sector a unit
        could trace back to it from: held sectors, and the unheld ones next to them or to it."""
        entries = list(self._entries(sector))
        offset = 0 if sector in self.held else 1
        lengths = (
            {s: int(d) + offset for s, d in nx.multi_source_dijkstra_path_length(self.held, entries).items()}
            if entries
            else {}
        )
        lengths[sector] = 0
        for unheld in self.ground.owners.keys() - self.held.nodes:
            if unheld == sector:
                continue
            near = [lengths[n] for n in self.ground.neighbours[unheld] if n in lengths and n in self.held]
            if sector in self.ground.neighbours[unheld]:
                near.append(0)
            if near:
                lengths[unheld] = min(near) + 1
        return lengths

    def lines(self) -> list[tuple[int, int]]:
        """Each reached held sector's next step toward its source: the side's lines, as a forest."""
        return sorted((path[0], path[1]) for path in self.to_source.values() if len(path) > 1)


def side_lines(ground: Ground, side_ids: Iterable[int]) -> dict[int, SideLines]:
    return {side_id: SideLines(ground, side_id) for side_id in side_ids}
