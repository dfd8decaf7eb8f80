/**
 * The campaign map's drawing rules, as plain functions of the map document: where a sector
 * stands, its outline, its owner's colour, its neighbours. campaign/map_svg.py draws the printed
 * briefing's map by the same rules (same frame, same colours), so paper and screen agree.
 */
import type { Schemas } from "../api/client";

export type MapDocument = Schemas["MapDocument"];
export type MapSector = Schemas["MapSector"];
export type MapLink = Schemas["MapLink"];

/** Scenario coordinates and projected outlines share one frame, 1000 units wide. */
export const FRAME = 1000;
// Room around everything drawn (markers, outlines, names) for the flags and signs beside the markers.
const MARGIN = 40;

export interface Point {
  x: number;
  y: number;
}

type Ring = [number, number][];

/** The polygons' outer and inner rings of a GeoJSON geometry (points and lines draw no outline). */
function ringsOf(geometry: unknown): Ring[] {
  if (typeof geometry !== "object" || geometry === null) return [];
  const { type, coordinates } = geometry as { type?: string; coordinates?: unknown };
  if (type === "Polygon") return coordinates as Ring[];
  if (type === "MultiPolygon") return (coordinates as Ring[][]).flat();
  return [];
}

/**
 * Projects every sector's GeoJSON outline (longitude, latitude) into the frame: the outlines'
 * common bounding box fits it (1000 on the longer side), north up, east-west distances shrunk by the
 * cosine of the mean latitude (an equirectangular view is true enough for an island or a valley).
 */
export function projectOutlines(sectors: readonly MapSector[]): Map<number, Point[][]> {
  const rings = sectors.map((sector) => [sector.id, ringsOf(sector.geometry)] as const);
  const all = rings.flatMap(([, list]) => list.flat());
  const outlines = new Map<number, Point[][]>();
  if (!all.length) return outlines;
  const lons = all.map(([lon]) => lon);
  const lats = all.map(([, lat]) => lat);
  const [west, east, south, north] = [Math.min(...lons), Math.max(...lons), Math.min(...lats), Math.max(...lats)];
  const shrink = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const scale = FRAME / Math.max((east - west) * shrink, north - south, 1e-9);
  for (const [id, list] of rings) {
    if (list.length) {
      outlines.set(
        id,
        list.map((ring) => ring.map(([lon, lat]) => ({ x: (lon - west) * shrink * scale, y: (north - lat) * scale }))),
      );
    }
  }
  return outlines;
}

/** Where a sector's marker and name go: its scenario x/y, else the middle of its outline. */
export function sectorPoint(sector: MapSector, outline: Point[][] | undefined): Point | null {
  if (sector.x != null && sector.y != null) return { x: sector.x, y: sector.y };
  const ring = outline?.[0];
  if (!ring?.length) return null;
  return {
    x: ring.reduce((sum, p) => sum + p.x, 0) / ring.length,
    y: ring.reduce((sum, p) => sum + p.y, 0) / ring.length,
  };
}

/** The viewBox around everything drawn, with a margin for the signs beside the markers. */
export function viewBoxOf(points: readonly Point[]): { x: number; y: number; width: number; height: number } {
  if (!points.length) return { x: 0, y: 0, width: FRAME, height: FRAME };
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x = Math.min(...xs) - MARGIN;
  const y = Math.min(...ys) - MARGIN;
  return { x, y, width: Math.max(...xs) + MARGIN - x, height: Math.max(...ys) + MARGIN - y };
}

export function outlinePath(outline: Point[][]): string {
  return outline.map((ring) => `M${ring.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join("L")}Z`).join("");
}

export const CONTESTED_FILL = "url(#contested)";
// A side's colour before the vocabulary has arrived.
const NO_COLOUR = "#555";

/** Each side's colour from the API's `palette` (the vocabulary's `side_colours`): the Axis its
 * own, every other side the next of the rest, in the sides' order, as on the printed map. */
export function sideColours(
  sides: readonly { id: number; is_axis?: boolean }[],
  palette: Schemas["SideColours"] | undefined,
): Map<number, string> {
  const colours = new Map<number, string>();
  let next = 0;
  for (const side of sides) {
    const allied = palette?.allied.length ? palette.allied[next++ % palette.allied.length] : undefined;
    colours.set(side.id, (side.is_axis ? palette?.axis : allied) ?? NO_COLOUR);
  }
  return colours;
}

/** The sectors linked to `sectorId`, by name. */
export function neighbours(map: MapDocument, sectorId: number): MapSector[] {
  const ids = new Set(
    map.links.flatMap((link) => (link.a === sectorId ? [link.b] : link.b === sectorId ? [link.a] : [])),
  );
  return map.sectors.filter((sector) => ids.has(sector.id)).sort((a, b) => a.name.localeCompare(b.name));
}
