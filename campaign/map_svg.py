"""A side's campaign map as an SVG string, for the printed briefing.

A pure function of the map document the side receives (:func:`campaign.selectors.map_document`,
already fog-filtered: whatever it is given, it draws) and of the campaign's sides. It draws by
the web app's rules (frontend/src/lib/map.ts): scenario x/y and GeoJSON outlines projected into
one frame 1000 wide, one colour per side (the Axis red, the Allies blue), contested sectors
hatched, roads solid and tracks dashed, supply lines broad in their side's colour and sources
as diamonds, forces as numbered flags in their side's colour, battles as crossed swords,
battalions cut off from supply ringed. Paper is often printed in grey, so a key in words comes
with it, and each sector's holder is also named under the sector's name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from campaign import models
from campaign.map_layout import CONTESTED_NOTE, NAME_SIZE, NOTE_SIZE, RADIUS, map_points, side_colours
from campaign.selectors import MapDocument

# Room around everything drawn (markers, names) for the flags and signs beside the markers.
MARGIN = 40.0
CONTESTED = "url(#contested)"
KEY_LINE = 34.0


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def map_svg(document: MapDocument, sides: Sequence[models.Side], *, title: str) -> str:
    """A side's map ``document`` (:func:`campaign.selectors.map_document`) as a standalone SVG."""
    sectors = document.sectors
    outlines, points = map_points(sectors)
    labels = {label.sector_id: label for label in document.labels}
    drawn = (
        list(points.values())
        + [p for outline in outlines.values() for ring in outline for p in ring]
        + [corner for label in labels.values() for corner in (label.box[:2], label.box[2:])]
    )
    if not drawn:
        drawn = [(0.0, 0.0), (1000.0, 1000.0)]
    left = min(p[0] for p in drawn) - MARGIN
    top = min(p[1] for p in drawn) - MARGIN
    width = max(p[0] for p in drawn) + MARGIN - left
    map_height = max(p[1] for p in drawn) + MARGIN - top
    colours = side_colours(sides)
    names = {side.pk: side.name for side in sides}

    def fill(owner: int | None) -> str:
        return colours.get(owner, CONTESTED) if owner is not None else CONTESTED

    forces_on: dict[int, Counter[int]] = {}
    for force in document.forces:
        if force.sector_id is not None:
            forces_on.setdefault(force.sector_id, Counter())[force.side_id] += 1
    battles_on = Counter(battle.sector_id for battle in document.battles)
    supply = document.supply
    sector_of = {battalion.pk: battalion.sector_id for battalion in document.battalions}
    cut_off_on = Counter(sector_of.get(battalion) for battalion in supply.get("isolated", []))
    separated_on = Counter(sector_of.get(battalion) for battalion in supply.get("separated", []))
    sources_on: dict[int, list[int]] = {}
    for part in supply.get("sides", []):
        for source in part["sources"]:
            sources_on.setdefault(source, []).append(part["side"])

    body: list[str] = []
    for sector in sectors:
        outline = outlines.get(sector.pk)
        if outline:
            path = "".join("M" + "L".join(f"{_num(x)},{_num(y)}" for x, y in ring) + "Z" for ring in outline)
            body.append(
                f'<path d="{path}" fill="{fill(sector.owner_id)}" fill-opacity="0.45" '
                'stroke="#4a4a4a" stroke-width="1.5"/>'
            )
    dash = {"road": "", "track": ' stroke-dasharray="12 8"', "none": ' stroke-dasharray="2 8"'}
    stroke = {"road": 6, "track": 4, "none": 2}
    for link in document.links:
        a, b = points.get(link.a_id), points.get(link.b_id)
        if a is None or b is None:
            continue
        body.append(
            f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" y2="{_num(b[1])}" '
            f'stroke="#5b4a3a" stroke-width="{stroke.get(link.kind, 2)}"{dash.get(link.kind, "")}/>'
        )
    parts = supply.get("sides", [])
    for index, part in enumerate(parts):
        shift = (index - (len(parts) - 1) / 2) * 8  # side by side where two sides' lines share a link
        for start, end in part["lines"]:
            a, b = points.get(start), points.get(end)
            if a is None or b is None:
                continue
            body.append(
                f'<line class="supply" x1="{_num(a[0] + shift)}" y1="{_num(a[1] + shift)}" '
                f'x2="{_num(b[0] + shift)}" y2="{_num(b[1] + shift)}" '
                f'stroke="{colours.get(part["side"], "#555")}" stroke-width="12" stroke-opacity="0.45" '
                'stroke-linecap="round"/>'
            )
    for moved in labels.values():
        start = points.get(moved.sector_id)
        if moved.leader is not None and start is not None:
            body.append(
                f'<line class="leader" x1="{_num(start[0])}" y1="{_num(start[1])}" '
                f'x2="{_num(moved.leader[0])}" y2="{_num(moved.leader[1])}" '
                'stroke="#1d232a" stroke-width="1.5"/>'
            )
    for sector in sectors:
        point = points.get(sector.pk)
        if point is None:
            continue
        x, y = point
        group = [f'<g transform="translate({_num(x)} {_num(y)})"><title>{escape(sector.name)}</title>']
        if cut_off_on[sector.pk]:
            group.append(
                f'<circle r="{_num(RADIUS + 9)}" fill="none" stroke="#a4161a" stroke-width="5" '
                'stroke-dasharray="6 4"/>'
            )
        elif separated_on[sector.pk]:
            group.append(
                f'<circle r="{_num(RADIUS + 9)}" fill="none" stroke="#b7791f" stroke-width="5" '
                'stroke-dasharray="2 5"/>'
            )
        group.append(
            f'<circle r="{_num(RADIUS)}" fill="{fill(sector.owner_id)}" stroke="#1d232a" stroke-width="2"/>'
        )
        for index, side_id in enumerate(sources_on.get(sector.pk, [])):
            cx, cy = -RADIUS - 8 - index * 16, RADIUS + 2
            group.append(
                f'<rect class="source" x="{_num(cx - 6)}" y="{_num(cy - 6)}" width="12" height="12" '
                f'transform="rotate(45 {_num(cx)} {_num(cy)})" fill="{colours.get(side_id, "#555")}" '
                'stroke="#1d232a" stroke-width="1.5"/>'
            )
        for index, (side, count) in enumerate(sorted(forces_on.get(sector.pk, Counter()).items())):
            group.append(
                f'<g transform="translate({_num(RADIUS + 4 + index * 30)} {_num(-RADIUS - 6)})">'
                f'<rect width="26" height="20" rx="3" fill="{colours.get(side, "#555")}"/>'
                '<text x="13" y="15" text-anchor="middle" font-size="15" font-weight="700" fill="#fff">'
                f"{count}</text>"
                "</g>"
            )
        if battles_on[sector.pk]:
            group.append(
                f'<text x="{_num(-RADIUS - 6)}" y="{_num(-RADIUS + 2)}" text-anchor="end" font-size="28" '
                'fill="#a4161a">⚔</text>'
            )
        group.append("</g>")
        body.append("".join(group))
        label = labels.get(sector.pk)
        if label is not None:
            held = names.get(sector.owner_id, "") if sector.owner_id is not None else CONTESTED_NOTE
            anchor = f'x="{_num(label.x)}" text-anchor="{label.anchor}" fill="#1d232a"'
            body.append(
                f'<text class="name" y="{_num(label.y)}" {anchor} '
                f'font-size="{_num(NAME_SIZE)}" font-weight="600">'
                f"{escape(sector.name)}</text>"
                f'<text y="{_num(label.note_y)}" {anchor} font-size="{_num(NOTE_SIZE)}">{escape(held)}</text>'
            )

    key = [f"Held by {side.name}" for side in sides] + [
        "Contested (hatched)",
        "Road (solid line), track (dashed)",
        "Broad pale line: a supply line, in its side's colour",
        "Diamond: a source of supply, in its side's colour",
        "Numbered flag: forces on the sector, by side",
        "⚔ Battle",
        "Dashed red ring: battalions cut off from supply",
        "Dotted amber ring: battalions separated from supply",
    ]
    key_top = top + map_height
    swatches = [colours[side.pk] for side in sides] + [CONTESTED]
    legend = [f'<g transform="translate({_num(left + 20)} {_num(key_top + 10)})" font-size="20">']
    for row, text in enumerate(key):
        row_y = row * KEY_LINE
        if row < len(swatches):
            legend.append(
                f'<circle cx="12" cy="{_num(row_y + 12)}" r="11" fill="{swatches[row]}" stroke="#1d232a"/>'
            )
        legend.append(f'<text x="34" y="{_num(row_y + 19)}">{escape(text)}</text>')
    legend.append("</g>")
    height = map_height + 20 + KEY_LINE * len(key)
    view_box = f"{_num(left)} {_num(top)} {_num(width)} {_num(height)}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view_box}" role="img" '
        f'aria-label={quoteattr(title)} font-family="DejaVu Sans, sans-serif">'
        f"<title>{escape(title)}</title>"
        '<defs><pattern id="contested" patternUnits="userSpaceOnUse" width="10" height="10" '
        'patternTransform="rotate(45)"><rect width="10" height="10" fill="#ece8df"/>'
        '<line x1="0" y1="0" x2="0" y2="10" stroke="#6b6459" stroke-width="4"/></pattern>'
        "</defs>"
        f'<rect x="{_num(left)}" y="{_num(top)}" width="{_num(width)}" height="{_num(map_height)}" '
        'fill="#dbe7ef"/>' + "".join(body) + "".join(legend) + "</svg>"
    )
