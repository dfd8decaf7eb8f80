"""The printed briefing's map: a side's map document drawn as SVG, by the web app's rules."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import MemberRole
from campaign.map_layout import AXIS_COLOUR, CONTESTED_NOTE, map_points, place_labels, project_outlines
from campaign.map_svg import CONTESTED, map_svg
from campaign.paper import briefing_context
from campaign.selectors import MapDocument
from tests.e2e.demo import malta_day_one

SVG = "{http://www.w3.org/2000/svg}"
# Unsaved rows: the drawing reads what it is given, never the database.
SIDES = [models.Side(id=1, name="Axis", is_axis=True), models.Side(id=2, name="Allies", is_axis=False)]


def sector(sector_id: int, name: str, owner: int | None, x: float | None, y: float | None, **more: Any):
    return models.Sector(
        id=sector_id, key=name.lower(), name=name, kind="town", owner_id=owner, x=x, y=y, **more
    )


def link(a: int, b: int, kind: str) -> models.SectorLink:
    return models.SectorLink(a_id=a, b_id=b, kind=kind)


def document(**parts: Any) -> MapDocument:
    empty: dict[str, Any] = {
        "sectors": [],
        "links": [],
        "forces": [],
        "battalions": [],
        "battles": [],
        "supply": {},
    }
    sectors = parts.get("sectors", [])
    empty["labels"] = place_labels(
        sectors, map_points(sectors)[1], [*(side.name for side in SIDES), CONTESTED_NOTE]
    )
    return MapDocument(**{**empty, **parts})


DOCUMENT = document(
    sectors=[
        sector(10, "Valletta", 2, 800, 300),
        sector(11, "Luqa", None, 600, 500),
        sector(12, "Gudja", 1, 700, 700),
        sector(13, "Ħal Far & <Kalafrana>", 2, 500, 800),
        sector(14, "Off-map table", None, None, None),
    ],
    links=[link(10, 11, "road"), link(11, 12, "track"), link(11, 14, "road")],
    forces=[
        models.Force(id=1, name="KG Ramcke", side_id=1, sector_id=11),
        models.Force(id=2, name="KG Koch", side_id=1, sector_id=11),
        models.Force(id=3, name="Southern Brigade", side_id=2, sector_id=10),
        models.Force(id=4, name="Reserve", side_id=2, sector_id=None),
    ],
    battalions=[
        models.Battalion(id=5, code="G1", side_id=1, sector_id=12, supply_situation="isolated"),
        models.Battalion(id=6, code="W1", side_id=2, sector_id=10, supply_situation="OK"),
        models.Battalion(id=7, code="W2", side_id=2, sector_id=13, supply_situation="separated"),
    ],
    battles=[models.Battle(id=40, sector_id=11)],
    supply={
        "sides": [
            {"side": 1, "sources": [12], "lines": []},
            {"side": 2, "sources": [10], "lines": [[11, 10]]},
        ],
        "isolated": [5],
        "separated": [7],
    },
)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # also proves the string is well-formed XML


def marker_of(root: ET.Element, name: str) -> ET.Element:
    for group in root.iter(f"{SVG}g"):
        if group.findtext(f"{SVG}title") == name:
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

    supply = root.findall(f".//{SVG}line[@class='supply']")
    # Luqa to Valletta, shifted aside from where the Axis lines would run (the umpire sees both)
    assert [(line.get("x1"), line.get("x2")) for line in supply] == [("604", "804")]
    assert supply[0].get("stroke") != AXIS_COLOUR
    sources = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}rect[@class='source']") is not None]
    assert [g.findtext(f"{SVG}title") for g in sources] == ["Valletta", "Gudja"]
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
    hal_far = marker_of(root, "Ħal Far & <Kalafrana>")
    assert any(c.get("stroke-dasharray") == "2 5" for c in hal_far.findall(f"{SVG}circle"))  # separated
    assert "Off-map table" not in [text.text for text in root.iter(f"{SVG}text")]


def test_it_draws_only_what_the_document_holds():
    """Fog is the document's: a force left out of it leaves no trace on the paper."""
    hidden = MapDocument(**{**DOCUMENT.__dict__, "forces": [f for f in DOCUMENT.forces if f.side_id == 2]})
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
    drawn = document(
        sectors=[
            sector(1, "North", 1, None, None, geometry=square),
            sector(2, "South", 2, None, None, geometry=south),
        ],
        links=[link(1, 2, "road")],
    )
    outlines = project_outlines(drawn.sectors)

    xs = [x for ring in outlines[1] + outlines[2] for x, _ in ring]
    ys = [y for ring in outlines[1] + outlines[2] for _, y in ring]
    assert (min(xs), min(ys)) == (0, 0)
    assert round(max(ys)) == 1000  # taller than wide, once longitudes shrink at 35.8° N
    assert round(max(xs)) == round(1000 * 0.2 * math.cos(math.radians(35.8)) / 0.2)
    assert max(y for _, y in outlines[1][0]) < max(y for _, y in outlines[2][0])  # south is lower
    root = parse(map_svg(drawn, SIDES, title="map"))
    assert len(root.findall(f"{SVG}path")) == 2
    assert len(root.findall(f".//{SVG}line[@stroke='#5b4a3a']")) == 1  # between the outlines' middles


@pytest.mark.django_db
def test_the_briefing_carries_the_sides_map_as_its_players_see_it():
    campaign = malta_day_one(battle=False)
    allied = campaign.sides.get(is_axis=False)
    document = selectors.map_document(CampaignAccess.of_side(campaign, allied.pk))
    umpires = selectors.map_document(CampaignAccess(campaign=campaign, role=MemberRole.UMPIRE, side_id=None))
    assert len(document.forces) < len(umpires.forces)  # the Axis has forces out of the Allies' sight

    svg = briefing_context(campaign, 1, allied.pk)["map_svg"]

    root = parse(svg)
    assert root.find(f"{SVG}title").text == f"{allied.name}'s map, day 1"
    flags = [int(text.text) for text in root.iter(f"{SVG}text") if text.get("fill") == "#fff"]
    assert sum(flags) == len([force for force in document.forces if force.sector_id is not None])
    assert "Grand Harbour" in svg
