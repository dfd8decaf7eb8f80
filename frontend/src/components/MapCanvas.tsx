/**
 * The campaign map as SVG: sectors coloured by owner, links styled by road or track, forces,
 * battles and cut-off battalions on the sectors. Pan and zoom by d3-zoom (drag, wheel, pinch)
 * and by buttons; every sector is a focusable button (Enter or Space opens it).
 */
import { select } from "d3-selection";
import { zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from "d3-zoom";
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import {
  CONTESTED_FILL,
  outlinePath,
  projectOutlines,
  sectorPoint,
  sideColours,
  viewBoxOf,
  type MapDocument,
  type MapSector,
  type Point,
} from "../lib/map";
import { plural } from "../lib/words";
import { useVocabulary } from "../api/vocabulary";

const RADIUS = 18;
// What a finger or pointer may hit to open a sector: larger than the marker drawn.
const HIT_RADIUS = 40;
const MAX_ZOOM = 8;

export interface MapCanvasProps {
  map: MapDocument;
  sides: readonly { id: number; name: string; is_axis?: boolean }[];
  selected: number | null;
  /** `byKeyboard`: opened with Enter or Space, so the reader moves on to what opened. */
  onSelect: (sectorId: number, byKeyboard: boolean) => void;
  /** The sectors victory conditions name, with the sides whose conditions name them. */
  objectives?: ReadonlyMap<number, readonly string[]>;
}

/** The sector's accessible name: its name first (as drawn), then what its marker and signs show. */
function sectorDescription(
  sector: MapSector,
  signs: {
    forcesBySide: [string, number][];
    battles: number;
    cutOff: number;
    separated: number;
    sourceFor: string[];
    objectiveOf: readonly string[];
  },
): string {
  const parts = [sector.kind_label, sector.owner == null ? "contested" : `held by ${sector.owner_label}`];
  if (signs.objectiveOf.length) parts.push(`a victory objective of ${signs.objectiveOf.join(" and ")}`);
  if (signs.sourceFor.length) parts.push(`source of supply for ${signs.sourceFor.join(" and ")}`);
  for (const [side, count] of signs.forcesBySide) parts.push(plural(count, `${side} force`));
  if (signs.battles) parts.push(plural(signs.battles, "battle"));
  if (signs.cutOff) parts.push(`${signs.cutOff} cut off from supply`);
  if (signs.separated) parts.push(`${signs.separated} separated from supply`);
  return `${sector.name}: ${parts.join(", ")}`;
}

function countBy<T>(items: readonly T[], key: (item: T) => number | null | undefined): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k != null) groups.set(k, [...(groups.get(k) ?? []), item]);
  }
  return groups;
}

function usePanZoom(box: { x: number; y: number; width: number; height: number }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [transform, setTransform] = useState<ZoomTransform>(zoomIdentity);
  const behaviour = useMemo<ZoomBehavior<SVGSVGElement, unknown>>(() => {
    // The extent is the viewBox, given here because d3 reads it from the DOM otherwise.
    const extent: [[number, number], [number, number]] = [
      [box.x, box.y],
      [box.x + box.width, box.y + box.height],
    ];
    return zoom<SVGSVGElement, unknown>()
      .extent(extent)
      .translateExtent(extent)
      .scaleExtent([1, MAX_ZOOM])
      .on("zoom", (event: { transform: ZoomTransform }) => setTransform(event.transform));
  }, [box.x, box.y, box.width, box.height]);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const selection = select(svg);
    selection.call(behaviour);
    return () => {
      selection.on(".zoom", null);
    };
  }, [behaviour]);
  const by = (factor: number) => {
    if (svgRef.current) behaviour.scaleBy(select(svgRef.current), factor);
  };
  const reset = () => {
    if (svgRef.current) behaviour.transform(select(svgRef.current), zoomIdentity);
  };
  return { svgRef, transform, zoomIn: () => by(1.5), zoomOut: () => by(1 / 1.5), reset };
}

/** The key to the colours and signs, in words. */
function Legend({ sides, colours }: { sides: MapCanvasProps["sides"]; colours: Map<number, string> }) {
  return (
    <figcaption>
      <ul className="map-legend" aria-label="Map key">
        {sides.map((side) => (
          <li key={side.id}>
            <svg width="18" height="18" aria-hidden="true">
              <circle cx="9" cy="9" r="8" fill={colours.get(side.id)} />
            </svg>{" "}
            Held by {side.name}
          </li>
        ))}
        <li>
          <svg width="18" height="18" aria-hidden="true">
            <circle cx="9" cy="9" r="8" fill={CONTESTED_FILL} />
          </svg>{" "}
          Contested (hatched)
        </li>
        <li>
          <svg width="28" height="18" aria-hidden="true">
            <line className="map-link map-link-road" x1="0" y1="9" x2="28" y2="9" />
          </svg>{" "}
          Road
        </li>
        <li>
          <svg width="28" height="18" aria-hidden="true">
            <line className="map-link map-link-track" x1="0" y1="9" x2="28" y2="9" />
          </svg>{" "}
          Track
        </li>
        <li>
          <span aria-hidden="true">▮</span> Forces on the sector, by side (the number of forces)
        </li>
        <li>
          <span aria-hidden="true">⚔</span> Battle
        </li>
        <li>
          <span aria-hidden="true">★</span> Victory objective (a sector a side's victory condition names)
        </li>
        <li>
          <svg width="28" height="18" aria-hidden="true">
            <line className="map-supply" stroke="#777" x1="0" y1="9" x2="28" y2="9" />
          </svg>{" "}
          Supply line (broad, in its side's colour)
        </li>
        <li>
          <span aria-hidden="true">◆</span> Source of supply (in its side's colour)
        </li>
        <li>
          <span className="map-legend-cut-off" aria-hidden="true">◯</span> Battalions cut off from supply (dashed red
          ring)
        </li>
        <li>
          <span className="map-legend-separated" aria-hidden="true">◯</span> Battalions separated from supply (dotted
          amber ring)
        </li>
      </ul>
    </figcaption>
  );
}

const NO_OBJECTIVES: ReadonlyMap<number, readonly string[]> = new Map();

export function MapCanvas({ map, sides, selected, onSelect, objectives = NO_OBJECTIVES }: MapCanvasProps) {
  const palette = useVocabulary().data?.side_colours;
  const colours = useMemo(() => sideColours(sides, palette), [sides, palette]);
  const sideName = (sideId: number) => sides.find((side) => side.id === sideId)?.name ?? "unknown side";
  const outlines = useMemo(() => projectOutlines(map.sectors), [map.sectors]);
  const points = useMemo(() => {
    const found = new Map<number, Point>();
    for (const sector of map.sectors) {
      const point = sectorPoint(sector, outlines.get(sector.id));
      if (point) found.set(sector.id, point);
    }
    return found;
  }, [map.sectors, outlines]);
  // Where each name stands: the API places them so that none overlaps another or a marker.
  const labels = useMemo(() => new Map(map.labels.map((label) => [label.sector, label])), [map.labels]);
  const box = useMemo(
    () =>
      viewBoxOf([
        ...points.values(),
        ...[...outlines.values()].flat(2),
        ...map.labels.flatMap(({ box }) => [
          { x: box.left, y: box.top },
          { x: box.right, y: box.bottom },
        ]),
      ]),
    [points, outlines, map.labels],
  );
  const { svgRef, transform, zoomIn, zoomOut, reset } = usePanZoom(box);
  // Names shrink against the zoom (more slowly than it grows), toward their anchor.
  const nameSize = 22 / Math.sqrt(transform.k);
  const forcesOn = countBy(map.forces, (force) => force.sector);
  const battlesOn = countBy(map.battles, (battle) => battle.sector);
  // The supply part names the battalions cut off or separated as the reader may see them.
  const isolated = new Set(map.supply.isolated);
  const separated = new Set(map.supply.separated);
  const cutOffOn = countBy(
    map.battalions.filter((battalion) => isolated.has(battalion.id)),
    (battalion) => battalion.sector,
  );
  const separatedOn = countBy(
    map.battalions.filter((battalion) => separated.has(battalion.id)),
    (battalion) => battalion.sector,
  );
  const sourceOf = countBy(
    map.supply.sides.flatMap((part) => part.sources.map((sector) => ({ sector, side: part.side }))),
    (source) => source.sector,
  );
  const fill = (sector: MapSector) =>
    sector.owner == null ? CONTESTED_FILL : (colours.get(sector.owner) ?? CONTESTED_FILL);
  const onKey = (event: KeyboardEvent, sectorId: number) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      onSelect(sectorId, true);
    }
  };

  return (
    <figure className="map">
      <div className="map-controls" role="group" aria-label="Map view">
        <button type="button" onClick={zoomIn} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={zoomOut} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={reset}>
          Whole map
        </button>
      </div>
      <svg
        ref={svgRef}
        className="map-svg"
        viewBox={`${box.x} ${box.y} ${box.width} ${box.height}`}
        role="group"
        aria-label="Campaign map: drag to move, wheel or pinch to zoom"
      >
        <defs>
          <pattern id="contested" patternUnits="userSpaceOnUse" width="10" height="10" patternTransform="rotate(45)">
            <rect width="10" height="10" fill="#ece8df" />
            <line x1="0" y1="0" x2="0" y2="10" stroke="#6b6459" strokeWidth="4" />
          </pattern>
        </defs>
        <g transform={transform.toString()}>
          {map.sectors.map((sector) => {
            const outline = outlines.get(sector.id);
            return outline ? (
              <path
                key={`outline-${sector.id}`}
                className="map-outline"
                d={outlinePath(outline)}
                fill={fill(sector)}
                fillOpacity={0.45}
              />
            ) : null;
          })}
          {map.links.map((link) => {
            const a = points.get(link.a);
            const b = points.get(link.b);
            if (!a || !b) return null;
            return (
              <line
                key={`${link.a}-${link.b}`}
                className={`map-link map-link-${link.kind}`}
                x1={a.x}
                y1={a.y}
                x2={b.x}
                y2={b.y}
              >
                <title>{link.kind_label}</title>
              </line>
            );
          })}
          {map.supply.sides.flatMap((part, index) =>
            part.lines.map(([from, to]) => {
              const a = from == null ? undefined : points.get(from);
              const b = to == null ? undefined : points.get(to);
              if (!a || !b) return null;
              // Side by side when two sides' lines share a link (the umpire sees both).
              const shift = (index - (map.supply.sides.length - 1) / 2) * 8;
              return (
                <line
                  key={`supply-${part.side}-${from}-${to}`}
                  className="map-supply"
                  data-side={part.side}
                  stroke={colours.get(part.side) ?? "#555"}
                  x1={a.x + shift}
                  y1={a.y + shift}
                  x2={b.x + shift}
                  y2={b.y + shift}
                />
              );
            }),
          )}
          {map.labels.map((label) => {
            const point = points.get(label.sector);
            if (!point || !label.leader) return null;
            const { x, y } = label.leader;
            return (
              <line key={`leader-${label.sector}`} className="map-leader" x1={point.x} y1={point.y} x2={x} y2={y} />
            );
          })}
          {map.sectors.map((sector) => {
            const point = points.get(sector.id);
            if (!point) return null;
            const label = labels.get(sector.id);
            const sources = sourceOf.get(sector.id) ?? [];
            const separatedHere = separatedOn.get(sector.id) ?? [];
            const forces = forcesOn.get(sector.id) ?? [];
            const battles = battlesOn.get(sector.id) ?? [];
            const cutOff = cutOffOn.get(sector.id) ?? [];
            const bySide = [...countBy(forces, (force) => force.side).entries()];
            return (
              <g key={sector.id} transform={`translate(${point.x} ${point.y})`}>
                <g
                  className={`map-sector${selected === sector.id ? " selected" : ""}`}
                  data-sector={sector.key}
                  role="button"
                  tabIndex={0}
                  aria-label={sectorDescription(sector, {
                    forcesBySide: bySide.map(([side, list]) => [sideName(side), list.length]),
                    battles: battles.length,
                    cutOff: cutOff.length,
                    separated: separatedHere.length,
                    sourceFor: sources.map((source) => sideName(source.side)),
                    objectiveOf: objectives.get(sector.id) ?? [],
                  })}
                  aria-pressed={selected === sector.id}
                  onClick={() => onSelect(sector.id, false)}
                  onKeyDown={(event) => onKey(event, sector.id)}
                >
                  <circle className="map-hit" r={HIT_RADIUS} />
                  {cutOff.length ? <circle className="map-cut-off" r={RADIUS + 9} /> : null}
                  {separatedHere.length && !cutOff.length ? <circle className="map-separated" r={RADIUS + 9} /> : null}
                  <circle className="map-marker" r={RADIUS} fill={fill(sector)} data-owner={sector.owner ?? ""} />
                  {objectives.has(sector.id) ? (
                    <text className="map-objective" y={8} textAnchor="middle" aria-hidden="true">
                      ★
                    </text>
                  ) : null}
                  {label ? (
                    <text
                      className="map-name"
                      x={label.x - point.x}
                      y={label.y - point.y}
                      textAnchor={label.anchor}
                      style={{ fontSize: nameSize }}
                    >
                      {sector.name}
                    </text>
                  ) : null}
                </g>
                {/* Outside the button: its name reads them out, and its visible text is its name. */}
                <g className="map-signs" aria-hidden="true">
                  {bySide.map(([side, list], index) => (
                    <g
                      key={side}
                      className="map-force"
                      transform={`translate(${RADIUS + 4 + index * 30} ${-RADIUS - 6})`}
                      data-side={side}
                    >
                      <rect width="26" height="20" rx="3" fill={colours.get(side) ?? "#555"} />
                      <text x="13" y="15" textAnchor="middle">
                        {list.length}
                      </text>
                    </g>
                  ))}
                  {sources.map((source, index) => (
                    <rect
                      key={source.side}
                      className="map-source"
                      x={-RADIUS - 14 - index * 16}
                      y={RADIUS - 4}
                      width="12"
                      height="12"
                      transform={`rotate(45 ${-RADIUS - 8 - index * 16} ${RADIUS + 2})`}
                      fill={colours.get(source.side) ?? "#555"}
                    />
                  ))}
                  {battles.length ? (
                    <text className="map-battle" x={-RADIUS - 6} y={-RADIUS + 2} textAnchor="end">
                      ⚔
                    </text>
                  ) : null}
                </g>
              </g>
            );
          })}
        </g>
      </svg>
      <Legend sides={sides} colours={colours} />
    </figure>
  );
}
