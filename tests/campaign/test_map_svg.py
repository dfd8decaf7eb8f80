"""The printed briefing's map: a side's map document drawn as SVG, by the web app's rules."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from campaign.map_svg import AXIS_COLOUR, CONTESTED, MapSide, map_svg, project_outlines

SVG = "{http://www.w3.org/2000/svg}"
SIDES = [MapSide(1, "Axis", True), MapSide(2, "Allies", False)]


def sector(sector_id: int, name: str, owner: int | None, x: float | None, y: float | None, **more: Any):
    labels = {1: "Axis", 2: "Allies"}
    return {
        "id": sector_id,
        "key": name.lower(),
        "name": name,
        "kind": "town",
        "kind_label": "Town",
        "owner": owner,
        "owner_label": labels.get(owner) if owner else None,
        "x": x,
        "y": y,
        "geometry": None,
        **more,
    }


DOCUMENT = {
    "sectors": [
        sector(10, "Valletta", 2, 800, 300),
        sector(11, "Luqa", None, 600, 500),
        sector(12, "Gudja", 1, 700, 700),
        sector(13, "Ħal Far & <Kalafrana>", 2, 500, 800),
        sector(14, "Off-map table", None, None, None),
    ],
    "links": [
        {"a": 10, "b": 11, "kind": "road"},
        {"a": 11, "b": 12, "kind": "track"},
        {"a": 11, "b": 14, "kind": "road"},
    ],
    "forces": [
        {"id": 1, "name": "KG Ramcke", "side": 1, "sector": 11},
        {"id": 2, "name": "KG Koch", "side": 1, "sector": 11},
        {"id": 3, "name": "Southern Brigade", "side": 2, "sector": 10},
        {"id": 4, "name": "Reserve", "side": 2, "sector": None},
    ],
    "battalions": [
        {"id": 5, "code": "G1", "side": 1, "sector": 12, "supply_situation": "isolated"},
        {"id": 6, "code": "W1", "side": 2, "sector": 10, "supply_situation": "OK"},
    ],
    "battles": [{"id": 40, "sector": 11, "status": "set_up"}],
}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # also proves the string is well-formed XML


def marker_of(root: ET.Element, name: str) -> ET.Element:
    for group in root.iter(f"{SVG}g"):
        texts = [text.text for text in group.findall(f"{SVG}text")]
        if name in texts:
            return group
    raise AssertionError(f"no sector named {name}")


def test_sectors_are_coloured_by_owner_with_contested_hatched():
    root = parse(map_svg(DOCUMENT, SIDES, title="Axis map, day 2"))

    def fill(name: str) -> str | None:
        marker = [c for c in marker_of(root, name).findall(f"{SVG}circle") if c.get("stroke") == "#1d232a"]
        return marker[0].get("fill")

    assert fill("Gudja") == AXIS_COLOUR
    assert fill("Valletta") == fill("Ħal Far & <Kalafrana>") != AXIS_COLOUR
    assert fill("Luqa") == CONTESTED
    assert root.find(f"{SVG}defs/{SVG}pattern[@id='contested']") is not None
    texts = [text.text for text in root.iter(f"{SVG}text")]
    assert {"Held by Axis", "Held by Allies", "Contested (hatched)"} <= set(texts)
    assert root.find(f"{SVG}title").text == "Axis map, day 2"


def test_links_forces_battles_and_cut_off_battalions_are_drawn_where_the_document_puts_them():
    root = parse(map_svg(DOCUMENT, SIDES, title="map"))

    lines = root.findall(f".//{SVG}line[@stroke='#5b4a3a']")
    assert len(lines) == 2  # the link to the unplaced table is not drawn
    assert [line.get("stroke-dasharray") for line in lines] == [None, "12 8"]  # road solid, track dashed
    luqa = marker_of(root, "Luqa")
    flags = [g.find(f"{SVG}text").text for g in luqa.findall(f"{SVG}g")]
    assert flags == ["2"]  # two Axis forces; the off-map reserve is nowhere
    assert "⚔" in [text.text for text in luqa.findall(f"{SVG}text")]
    gudja = marker_of(root, "Gudja")
    assert any(c.get("stroke-dasharray") == "6 4" for c in gudja.findall(f"{SVG}circle"))
    valletta = marker_of(root, "Valletta")
    assert not any(c.get("stroke-dasharray") for c in valletta.findall(f"{SVG}circle"))
    assert "Off-map table" not in [text.text for text in root.iter(f"{SVG}text")]


def test_it_draws_only_what_the_document_holds():
    """Fog is the document's: a force left out of it leaves no trace on the paper."""
    hidden = {**DOCUMENT, "forces": [f for f in DOCUMENT["forces"] if f["side"] == 2]}
    root = parse(map_svg(hidden, SIDES, title="Allied map"))

    luqa = marker_of(root, "Luqa")
    assert luqa.findall(f"{SVG}g") == []
    assert "KG Ramcke" not in map_svg(DOCUMENT, SIDES, title="map")  # forces are counted, never named


def test_geojson_outlines_fill_the_frame_north_up():
    square = {
        "type": "Polygon",
        "coordinates": [[[14.4, 35.9], [14.6, 35.9], [14.6, 35.8], [14.4, 35.8], [14.4, 35.9]]],
    }
    south = {"type": "Polygon", "coordinates": [[[14.4, 35.8], [14.6, 35.8], [14.5, 35.7], [14.4, 35.8]]]}
    document = {
        "sectors": [
            sector(1, "North", 1, None, None, geometry=square),
            sector(2, "South", 2, None, None, geometry=south),
        ],
        "links": [{"a": 1, "b": 2, "kind": "road"}],
    }
    outlines = project_outlines(document["sectors"])

    xs = [x for ring in outlines[1] + outlines[2] for x, _ in ring]
    ys = [y for ring in outlines[1] + outlines[2] for _, y in ring]
    assert (min(xs), min(ys)) == (0, 0)
    assert round(max(ys)) == 1000  # taller than wide, once longitudes shrink at 35.8° N
    assert round(max(xs)) == round(1000 * 0.2 * math.cos(math.radians(35.8)) / 0.2)
    assert max(y for _, y in outlines[1][0]) < max(y for _, y in outlines[2][0])  # south is lower
    root = parse(map_svg(document, SIDES, title="map"))
    assert len(root.findall(f"{SVG}path")) == 2
    assert len(root.findall(f".//{SVG}line[@stroke='#5b4a3a']")) == 1  # between the outlines' middles
