"""Where the map's names stand: on Malta's dense ground none overlaps another name or a marker,
the same places every time; the briefing's map draws them where the layout says."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import combinations

import pytest

from campaign import models
from campaign.map_layout import (
    CONTESTED_NOTE,
    MARKER,
    Box,
    Label,
    map_points,
    place_labels,
    text_width,
)
from campaign.map_svg import map_svg
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.selectors import MapDocument

SVG = "{http://www.w3.org/2000/svg}"
SIDES = [models.Side(id=1, name="Axis", is_axis=True), models.Side(id=2, name="Allies", is_axis=False)]
NOTES = [*(side.name for side in SIDES), CONTESTED_NOTE]


def malta_sectors() -> list[models.Sector]:
    """Malta's ground as the scenario places it (unsaved rows: the layout reads no database)."""
    pack = pack_read(MALTA_PACK_PATH)
    return [
        models.Sector(id=index, key=row["key"], name=row["name"], x=row.get("x"), y=row.get("y"))
        for index, row in enumerate(pack["map"]["sectors"], start=1)
    ]


def marker_box(x: float, y: float) -> Box:
    return (x + MARKER[0], y + MARKER[1], x + MARKER[2], y + MARKER[3])


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def layout() -> tuple[dict[int, tuple[float, float]], list[Label]]:
    sectors = malta_sectors()
    points = map_points(sectors)[1]
    return points, place_labels(sectors, points, NOTES)


def test_on_maltas_dense_ground_no_name_overlaps_another_or_a_marker():
    points, labels = layout()

    assert len(labels) == len(points) == 22
    names = {sector.pk: sector.name for sector in malta_sectors()}
    clashes = [
        (names[a.sector_id], names[b.sector_id]) for a, b in combinations(labels, 2) if overlap(a.box, b.box)
    ]
    assert clashes == []
    markers = {
        pk: (x + MARKER[0], y + MARKER[1], x + MARKER[2], y + MARKER[3]) for pk, (x, y) in points.items()
    }
    on_markers = [
        (names[label.sector_id], names[pk])
        for label in labels
        for pk, box in markers.items()
        if overlap(label.box, box)
    ]
    assert on_markers == []
    # The ones the issue named stand apart, and most names stay next to their markers.
    moved = [names[label.sector_id] for label in labels if label.leader is not None]
    assert len(moved) <= 6, moved


def test_a_name_moved_away_from_its_marker_has_a_leader_line_to_its_box():
    points, labels = layout()

    for label in labels:
        left, top, right, bottom = label.box
        if label.leader is None:
            continue
        x, y = label.leader
        assert left <= x <= right  # on the box, the point nearest the marker
        assert top <= y <= bottom
        assert (x, y) != points[label.sector_id]


def test_the_layout_is_the_same_every_time_and_reserves_the_widest_note():
    assert layout()[1] == layout()[1]
    sectors = [models.Sector(id=1, name="Luqa", x=500, y=500)]
    narrow = place_labels(sectors, {1: (500.0, 500.0)}, ["Axis"])[0]
    wide = place_labels(sectors, {1: (500.0, 500.0)}, ["The Commonwealth and its allies"])[0]
    assert narrow.box[2] - narrow.box[0] == pytest.approx(text_width("Luqa", 22), abs=0.2)
    assert wide.box[2] - wide.box[0] == pytest.approx(
        text_width("The Commonwealth and its allies", 16), abs=0.2
    )


def test_the_briefing_draws_each_name_and_its_holder_where_the_layout_says():
    sectors = malta_sectors()
    sectors[0].owner_id = 2
    labels = layout()[1]
    document = MapDocument(
        sectors=sectors, links=[], forces=[], battalions=[], battles=[], supply={}, labels=labels
    )
    root = ET.fromstring(map_svg(document, SIDES, title="map"))

    drawn = {text.text: text for text in root.iter(f"{SVG}text") if text.get("class") == "name"}
    for sector, label in zip(sectors, labels, strict=True):
        text = drawn[sector.name]
        assert (float(text.get("x") or 0), float(text.get("y") or 0)) == (label.x, label.y)
        assert text.get("text-anchor") == label.anchor
    notes = [text.text for text in root.iter(f"{SVG}text") if text.get("font-size") == "16"]
    assert notes[0] == "Allies"
    assert set(notes[1:]) == {CONTESTED_NOTE}
    leaders = root.findall(f".//{SVG}line[@class='leader']")
    assert len(leaders) == sum(label.leader is not None for label in labels) > 0
    # The picture takes in every name: none is cut off at its edge.
    left, top, width, _ = (float(v) for v in (root.get("viewBox") or "").split())
    assert all(left <= label.box[0] and label.box[2] <= left + width for label in labels)
    assert all(top <= label.box[1] for label in labels)
