"""Where a campaign map's markers and names stand, computed once for the web app and the paper.

Scenario x/y and GeoJSON outlines are projected into one frame 1000 wide (north up); every sector
has a marker there, and its name a place chosen by :func:`place_labels` so that no name overlaps
another name or a marker. The web app (frontend/src/components/MapCanvas.tsx) and the printed briefing
(:mod:`campaign.map_svg`) both draw the names where the map document says, so screen and paper
agree at every width.

Pure functions of the sectors and the sides' names: no query, no fog (the ground is public).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from campaign import models

FRAME = 1000.0
RADIUS = 18.0
NAME_SIZE = 22.0
NOTE_SIZE = 16.0
# DejaVu Sans (what both the briefing and Debian's browsers draw with), bold, in em: the widest
# glyph of each group, so the estimate is never narrower than the text drawn.
NARROW = frozenset(" !'(),-./:;IJ[]\\fijlrt|")
WIDE = frozenset("%&@MWmw")
ASCENT = 0.93
DESCENT = 0.24
GAP = 2.0
# The line under a contested sector's name on paper (a held one's names its holder).
CONTESTED_NOTE = "contested"
# The sides' colours, one home for the map on screen and on paper and for the charts (the API's
# vocabulary sends them to the web app): the Axis red, the Allies blue, any further side from the
# rest, chosen to be told apart on screen and in grey print.
AXIS_COLOUR = "#b5473a"
ALLIED_COLOURS = ("#2f6ea5", "#3f7f3a", "#7a4f9a", "#8a6a1f")
# Leader lines: a name that finds no free place next to its marker moves out in these steps.
STEP = 18.0
STEPS = 24
# Markers closer than this to a sector's crowd it (the most crowded are placed first in one order).
CROWD = 150.0
# The side of the squares boxes and leader lines are filed under, so that a candidate place is
# checked against what stands near it only (checking all of a 200-sector map's took seconds).
CELL = 100.0

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom
Item = TypeVar("Item")


def text_width(text: str, size: float) -> float:
    """An upper bound of ``text``'s width at ``size`` (never less than what a browser draws)."""
    em = 0.0
    for char in text:
        if char in NARROW:
            em += 0.5
        elif char in WIDE:
            em += 1.1
        elif char.isupper():
            em += 0.87
        else:
            em += 0.73
    return em * size


def _rings(geometry: Any) -> list[list[Sequence[float]]]:
    """The polygons' rings of a GeoJSON geometry (points and lines draw no outline)."""
    if not isinstance(geometry, Mapping):
        return []
    if geometry.get("type") == "Polygon":
        return list(geometry["coordinates"])
    if geometry.get("type") == "MultiPolygon":
        return [ring for polygon in geometry["coordinates"] for ring in polygon]
    return []


def project_outlines(sectors: Iterable[models.Sector]) -> dict[int, list[list[Point]]]:
    """Every outline in the frame: their common box fits it (1000 on the longer side), north up,
    longitudes shrunk by the cosine of the mean latitude (as the web app does)."""
    rings = {sector.pk: _rings(sector.geometry) for sector in sectors}
    every = [point for found in rings.values() for ring in found for point in ring]
    if not every:
        return {}
    west, east = min(p[0] for p in every), max(p[0] for p in every)
    south, north = min(p[1] for p in every), max(p[1] for p in every)
    shrink = math.cos(math.radians((south + north) / 2))
    scale = FRAME / max((east - west) * shrink, north - south, 1e-9)
    return {
        sector_id: [
            [((lon - west) * shrink * scale, (north - lat) * scale) for lon, lat, *_ in ring]
            for ring in found
        ]
        for sector_id, found in rings.items()
        if found
    }


def sector_point(sector: models.Sector, outline: list[list[Point]] | None) -> Point | None:
    """Its scenario x/y, else the middle of its outline; None for a sector not on the map."""
    if sector.x is not None and sector.y is not None:
        return (sector.x, sector.y)
    if not outline or not outline[0]:
        return None
    ring = outline[0]
    return (sum(p[0] for p in ring) / len(ring), sum(p[1] for p in ring) / len(ring))


# A marker with the ring drawn round it when its battalions are cut off, relative to its centre.
MARKER: Box = (-RADIUS - 9, -RADIUS - 9, RADIUS + 9, RADIUS + 9)


@dataclass(frozen=True)
class Label:
    """A sector's name on the map: ``x``/``y`` its first line's anchor and baseline, ``anchor``
    SVG's text-anchor, ``note_y`` the baseline of the line under it (the holder, on paper),
    ``box`` what both lines may cover, ``leader`` where a line from the marker meets the box
    (None: the name stands next to its marker)."""

    sector_id: int
    x: float
    y: float
    anchor: str
    note_y: float
    box: Box
    leader: Point | None


def _overlaps(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


SIDE = RADIUS + 9 + GAP
# Where a label's box may stand, best first: (dx, dy) from the marker's centre to the middle of
# the box's edge or corner facing it, and which side of the marker it is on.
CANDIDATES: tuple[tuple[float, float, str], ...] = (
    (0.0, SIDE, "below"),
    (0.0, -SIDE, "above"),
    (SIDE, 0.0, "right"),
    (-SIDE, 0.0, "left"),
    (SIDE * 0.8, SIDE * 0.8, "below-right"),
    (-SIDE * 0.8, SIDE * 0.8, "below-left"),
    (SIDE * 0.8, -SIDE * 0.8, "above-right"),
    (-SIDE * 0.8, -SIDE * 0.8, "above-left"),
)


def _box_at(point: Point, dx: float, dy: float, where: str, width: float, height: float) -> Box:
    x, y = point[0] + dx, point[1] + dy
    if "right" in where:
        left = x
    elif "left" in where:
        left = x - width
    else:
        left = x - width / 2
    if where.startswith("below"):
        top = y
    elif where.startswith("above"):
        top = y - height
    else:
        top = y - height / 2
    return (left, top, left + width, top + height)


def _nearest(box: Box, point: Point) -> Point:
    return (min(max(point[0], box[0]), box[2]), min(max(point[1], box[1]), box[3]))


def _crosses(start: Point, end: Point, box: Box) -> bool:
    """Whether the segment from ``start`` to ``end`` passes through ``box`` (Liang-Barsky)."""
    low, high = 0.0, 1.0
    dx, dy = end[0] - start[0], end[1] - start[1]
    for delta, offset in (
        (-dx, start[0] - box[0]),
        (dx, box[2] - start[0]),
        (-dy, start[1] - box[1]),
        (dy, box[3] - start[1]),
    ):
        if delta == 0:
            if offset <= 0:
                return False
            continue
        t = offset / delta
        if delta < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low >= high:
            return False
    return True


class _Grid(Generic[Item]):
    """Items filed under every CELL square their bounding box touches: what may overlap or cross
    a box is among the items filed under the squares it touches."""

    def __init__(self) -> None:
        self._cells: defaultdict[tuple[int, int], list[Item]] = defaultdict(list)

    @staticmethod
    def _squares(box: Box) -> Iterator[tuple[int, int]]:
        for column in range(math.floor(box[0] / CELL), math.floor(box[2] / CELL) + 1):
            for row in range(math.floor(box[1] / CELL), math.floor(box[3] / CELL) + 1):
                yield column, row

    def add(self, box: Box, item: Item) -> None:
        for square in self._squares(box):
            self._cells[square].append(item)

    def near(self, box: Box) -> Iterator[Item]:
        for square in self._squares(box):
            yield from self._cells.get(square, ())


def _bounds(start: Point, end: Point) -> Box:
    return (min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]), max(start[1], end[1]))


def _place(
    ordered: Sequence[models.Sector], points: Mapping[int, Point], note_width: float
) -> tuple[list[Label], int]:
    """The labels placed greedily in ``ordered``'s order (sectors with a point), and how many found
    no free place."""
    markers = {
        pk: (x + MARKER[0], y + MARKER[1], x + MARKER[2], y + MARKER[3]) for pk, (x, y) in points.items()
    }
    taken = _Grid[Box]()
    for marker in markers.values():
        taken.add(marker, marker)
    leaders = _Grid[tuple[Point, Point]]()
    name_height = (ASCENT + DESCENT) * NAME_SIZE
    note_height = (ASCENT + DESCENT) * NOTE_SIZE if note_width else 0.0
    labels: list[Label] = []
    failures = 0
    for sector in ordered:
        point = points[sector.pk]
        width = max(text_width(sector.name, NAME_SIZE), note_width)
        height = name_height + note_height
        own_marker = markers[sector.pk]

        chosen: tuple[Box, str, Point | None] | None = None
        for step in range(STEPS + 1):
            for dx, dy, where in CANDIDATES:
                length = math.hypot(dx, dy) or 1.0
                grow = step * STEP
                box = _box_at(point, dx + dx / length * grow, dy + dy / length * grow, where, width, height)
                box = (round(box[0], 1), round(box[1], 1), round(box[2], 1), round(box[3], 1))
                nearest = _nearest(box, point)
                leader = (round(nearest[0], 1), round(nearest[1], 1)) if step else None
                if (
                    not any(_overlaps(box, other) for other in taken.near(box))
                    and not any(_crosses(a, b, box) for a, b in leaders.near(box))
                    and (
                        leader is None
                        or not any(
                            _crosses(point, leader, other)
                            for other in taken.near(_bounds(point, leader))
                            if other != own_marker
                        )
                    )
                ):
                    chosen = (box, where, leader)
                    break
            if chosen:
                break
        if chosen is None:
            failures += 1
            box = _box_at(point, 0.0, SIDE, "below", width, height)
            chosen = (box, "below", None)
        box, where, leader = chosen
        anchor = "start" if "right" in where else "end" if "left" in where else "middle"
        x = box[0] if anchor == "start" else box[2] if anchor == "end" else (box[0] + box[2]) / 2
        y = box[1] + ASCENT * NAME_SIZE
        labels.append(
            Label(
                sector_id=sector.pk,
                x=round(x, 1),
                y=round(y, 1),
                anchor=anchor,
                note_y=round(y + DESCENT * NAME_SIZE + ASCENT * NOTE_SIZE, 1),
                box=box,
                leader=leader,
            )
        )
        if leader is not None:
            leaders.add(_bounds(point, leader), (point, leader))
        taken.add(box, box)
    return labels, failures


def place_labels(
    sectors: Sequence[models.Sector], points: Mapping[int, Point], notes: Iterable[str]
) -> list[Label]:
    """A place for every drawn sector's name (and, on paper, the ``notes`` line under it: the
    widest of them is reserved), such that no name overlaps another name or a marker.

    Deterministic: the sectors are placed one after the other, each at the first free candidate
    next to its marker; one with none free moves out step by step along the candidates, with
    a leader line back to its marker that crosses no name or other marker (nor does a name
    placed later cross a leader). Of a few orders (the sectors', the most crowded first, north
    to south, west to east) the one leaving fewest names unplaced, then fewest and shortest
    leaders, wins. Only a map too crowded for any keeps an overlap."""
    note_width = max((text_width(note, NOTE_SIZE) for note in notes), default=0.0)
    drawn = [sector for sector in sectors if sector.pk in points]

    def crowd(sector: models.Sector) -> int:
        x, y = points[sector.pk]
        return sum(1 for ox, oy in points.values() if math.hypot(ox - x, oy - y) < CROWD)

    orders = [
        drawn,
        sorted(drawn, key=lambda sector: -crowd(sector)),
        sorted(drawn, key=lambda sector: (points[sector.pk][1], points[sector.pk][0])),
        sorted(drawn, key=lambda sector: (points[sector.pk][0], points[sector.pk][1])),
    ]

    def cost(placed: tuple[list[Label], int]) -> tuple[int, int, float]:
        labels, failures = placed
        moved = [label for label in labels if label.leader is not None]
        length = sum(
            math.dist(points[label.sector_id], label.leader) for label in moved if label.leader is not None
        )
        return failures, len(moved), length

    best: list[Label] = []
    best_cost: tuple[int, int, float] | None = None
    for order in orders:
        placed = _place(order, points, note_width)
        if best_cost is None or cost(placed) < best_cost:
            best, best_cost = placed[0], cost(placed)
        if best_cost == (0, 0, 0.0):
            break  # every name next to its marker: no later order can do better
    where = {label.sector_id: label for label in best}
    return [where[sector.pk] for sector in drawn]


def map_points(sectors: Sequence[models.Sector]) -> tuple[dict[int, list[list[Point]]], dict[int, Point]]:
    """The projected outlines and each drawn sector's marker point."""
    outlines = project_outlines(sectors)
    points: dict[int, Point] = {}
    for sector in sectors:
        point = sector_point(sector, outlines.get(sector.pk))
        if point is not None:
            points[sector.pk] = point
    return outlines, points


def side_colours(sides: Sequence[models.Side]) -> dict[int, str]:
    """Each side's colour by its id, in the sides' order (the web app's ``sideColours`` alike)."""
    colours: dict[int, str] = {}
    allied = 0
    for side in sides:
        if side.is_axis:
            colours[side.pk] = AXIS_COLOUR
        else:
            colours[side.pk] = ALLIED_COLOURS[allied % len(ALLIED_COLOURS)]
            allied += 1
    return colours
