import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import vocabulary from "../test/vocabulary.json";
import { neighbours, projectOutlines, sectorPoint, sideColours, viewBoxOf, type MapDocument } from "./map";

function placed(id: number, geometry: unknown, x: number | null = null, y: number | null = null): Schemas["MapSector"] {
  return {
    id,
    key: `s${id}`,
    name: `Sector ${id}`,
    kind_label: "Open ground",
    terrain_label: "",
    owner: null,
    owner_label: "Contested",
    x,
    y,
    geometry,
    supply_source_for: [],
  };
}

const NORTH = { type: "Polygon", coordinates: [[[14.4, 35.9], [14.6, 35.9], [14.6, 35.8], [14.4, 35.8], [14.4, 35.9]]] };
const SOUTH = { type: "MultiPolygon", coordinates: [[[[14.4, 35.8], [14.6, 35.8], [14.5, 35.7], [14.4, 35.8]]]] };

describe("the map's drawing rules (campaign/map_svg.py follows the same)", () => {
  it("projects GeoJSON outlines into the frame, north up, the longer side 1000", () => {
    const outlines = projectOutlines([placed(1, NORTH), placed(2, SOUTH), placed(3, null, 10, 20)]);

    expect([...outlines.keys()]).toEqual([1, 2]);
    const points = [...outlines.values()].flat(2);
    expect(Math.min(...points.map((p) => p.x))).toBe(0);
    expect(Math.min(...points.map((p) => p.y))).toBe(0);
    expect(Math.max(...points.map((p) => p.y))).toBeCloseTo(1000);
    expect(Math.max(...points.map((p) => p.x))).toBeCloseTo(1000 * Math.cos((35.8 * Math.PI) / 180));
    const northernmost = Math.max(...(outlines.get(1)?.[0] ?? []).map((p) => p.y));
    expect(northernmost).toBeLessThan(Math.max(...(outlines.get(2)?.[0] ?? []).map((p) => p.y)));
  });

  it("places a marker at the scenario's x/y, else the middle of the outline, else nowhere", () => {
    const outline = [[{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 10 }, { x: 0, y: 10 }]];
    expect(sectorPoint(placed(1, null, 5, 6), outline)).toEqual({ x: 5, y: 6 });
    expect(sectorPoint(placed(1, NORTH), outline)).toEqual({ x: 5, y: 5 });
    expect(sectorPoint(placed(1, null), undefined)).toBeNull();
    expect(viewBoxOf([{ x: 100, y: 200 }, { x: 300, y: 400 }])).toEqual({ x: 60, y: 160, width: 280, height: 280 });
  });

  it("gives the Axis red and every other side a colour of its own", () => {
    const colours = sideColours(
      [
        { id: 1, is_axis: false },
        { id: 2, is_axis: true },
        { id: 3, is_axis: false },
      ],
      vocabulary.side_colours,
    );
    expect(new Set(colours.values()).size).toBe(3);
    expect(colours.get(2)).toBe(vocabulary.side_colours.axis);
  });

  it("finds a sector's neighbours through links either way, by name", () => {
    const map = {
      sectors: [placed(1, null), placed(2, null), placed(3, null)],
      links: [
        { a: 1, b: 3, kind: "road", kind_label: "Road" },
        { a: 2, b: 3, kind: "track", kind_label: "Track" },
      ],
    } as MapDocument;
    expect(neighbours(map, 3).map((sector) => sector.id)).toEqual([1, 2]);
    expect(neighbours(map, 1).map((sector) => sector.id)).toEqual([3]);
  });
});
