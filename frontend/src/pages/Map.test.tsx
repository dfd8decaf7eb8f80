import { fireEvent, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import type { MapDocument } from "../lib/map";
import { VICTORY } from "../test/fixtures";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { MapView } from "./Map";

const AXIS = 1;
const ALLIED = 2;

const CAMPAIGN = {
  slug: "malta",
  sides: [
    { id: AXIS, name: "Axis", is_axis: true },
    { id: ALLIED, name: "Allies", is_axis: false },
  ],
} as Schemas["Campaign"];

function sector(
  id: number,
  key: string,
  name: string,
  owner: number | null,
  x: number,
  y: number,
): Schemas["MapSector"] {
  const labels: Record<number, string> = { [AXIS]: "Axis", [ALLIED]: "Allies" };
  return {
    id,
    key,
    name,
    kind: "town",
    kind_label: "Town",
    terrain: "Constricted Terrain",
    terrain_label: "Constricted terrain",
    victory_points: id,
    owner,
    owner_label: owner == null ? "Contested" : (labels[owner] ?? ""),
    x,
    y,
    geometry: null,
    supply_source_for: [],
  };
}

// Valletta (Allied) — Luqa (contested) — Gudja (Axis), and Mdina off Luqa only by a track.
const MAP: MapDocument = {
  day: null,
  moment: null,
  moment_label: null,
  moments: [],
  sectors: [
    sector(10, "valletta", "Valletta", ALLIED, 800, 300),
    sector(11, "luqa", "Luqa", null, 600, 500),
    sector(12, "gudja", "Gudja", AXIS, 700, 700),
    sector(13, "mdina", "Mdina", ALLIED, 200, 400),
  ],
  links: [
    { a: 10, b: 11, kind: "road", kind_label: "Road" },
    { a: 11, b: 12, kind: "road", kind_label: "Road" },
    { a: 11, b: 13, kind: "track", kind_label: "Track" },
  ],
  forces: [
    { id: "00000000-0000-4000-8000-000000000001", name: "Kampfgruppe Ramcke", side: AXIS, side_label: "Axis", sector: 11, fup_sector: 12 },
    { id: "00000000-0000-4000-8000-000000000002", name: "Southern Infantry Brigade", side: ALLIED, side_label: "Allies", sector: 11, fup_sector: null },
  ],
  battalions: [
    {
      id: "00000000-0000-4000-8000-000000000005",
      code: "G1",
      name: "I./FJR 2",
      side: AXIS,
      side_label: "Axis",
      sector: 11,
      in_reserve: false,
      supply_situation: "isolated",
      supply_situation_label: "Isolated",
    },
    {
      id: "00000000-0000-4000-8000-000000000006",
      code: "W1",
      name: "1st Devons",
      side: ALLIED,
      side_label: "Allies",
      sector: 10,
      in_reserve: false,
      supply_situation: "OK",
      supply_situation_label: "OK",
    },
  ],
  battles: [{ id: "4e2d9c1b-7a5f-4b3e-8c6d-1a0f9e8d7c6b", sector: 11, status: "set_up", status_label: "Set up", attacker: AXIS, defender: ALLIED }],
  // Each side's lines back to its source; G1 at Luqa is cut off (the umpire's view: both sides).
  supply: {
    sides: [
      { side: AXIS, sources: [12], lines: [] },
      { side: ALLIED, sources: [10], lines: [[13, 11], [11, 10]] },
    ],
    isolated: ["00000000-0000-4000-8000-000000000005"],
    separated: [],
  },
  // Under each marker, as the API places them; Mdina's moved out to its left with a leader line.
  labels: [
    { sector: 10, x: 800, y: 349, anchor: "middle", anchor_label: "Centred on x", box: { left: 750, top: 329, right: 850, bottom: 354 }, leader: null },
    { sector: 11, x: 600, y: 549, anchor: "middle", anchor_label: "Centred on x", box: { left: 560, top: 529, right: 640, bottom: 554 }, leader: null },
    { sector: 12, x: 700, y: 749, anchor: "middle", anchor_label: "Centred on x", box: { left: 650, top: 729, right: 750, bottom: 754 }, leader: null },
    { sector: 13, x: 120, y: 420, anchor: "end", anchor_label: "Ends at x", box: { left: 40, top: 400, right: 120, bottom: 425 }, leader: { x: 120, y: 412 } },
  ],
};

// A click only: d3-zoom's pointer handling needs the browser's window on the event, which jsdom's
// synthetic mouse-downs lack (the browser test drives the pointer for real).
function openSector(name: RegExp) {
  fireEvent.click(screen.getByRole("button", { name }));
}

function markerFill(name: RegExp): string | null {
  return screen.getByRole("button", { name }).querySelector(".map-marker")?.getAttribute("fill") ?? null;
}

describe("the campaign map", () => {
  it("colours each sector by its owner, one colour per side, contested hatched, with a key in words", () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire={false} />);

    const allied = markerFill(/^Valletta/);
    const axis = markerFill(/^Gudja/);
    expect(markerFill(/^Mdina/)).toBe(allied);
    expect(axis).not.toBe(allied);
    expect(markerFill(/^Luqa/)).toBe("url(#contested)");
    expect(screen.getByRole("button", { name: /^Luqa/ })).toHaveAccessibleName(
      "Luqa: Town, contested, 1 Axis force, 1 Allies force, 1 battle, 1 cut off from supply",
    );
    const key = screen.getByRole("list", { name: "Map key" });
    expect(key).toHaveTextContent("Held by Axis");
    expect(key).toHaveTextContent("Held by Allies");
    expect(key).toHaveTextContent("Contested (hatched)");
    expect(key).toHaveTextContent("Track");
    expect(document.querySelectorAll(".map-link-track")).toHaveLength(2); // Luqa–Mdina, and the key's
  });

  it("draws the supply lines in their side's colour, marks the sources and the battalions cut off", () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);

    const lines = [...document.querySelectorAll("svg.map-svg line.map-supply")];
    expect(lines).toHaveLength(2);
    expect(new Set(lines.map((line) => line.getAttribute("stroke")))).toEqual(new Set([markerFill(/^Valletta/)]));
    expect(screen.getByRole("button", { name: /^Gudja/ })).toHaveAccessibleName(
      "Gudja: Town, held by Axis, source of supply for Axis",
    );
    expect(screen.getByRole("button", { name: /^Luqa/ }).querySelector(".map-cut-off")).not.toBeNull();
    expect(screen.getByRole("button", { name: /^Valletta/ }).querySelector(".map-cut-off")).toBeNull();
    const key = screen.getByRole("list", { name: "Map key" });
    expect(key).toHaveTextContent("Supply line");
    expect(key).toHaveTextContent("Source of supply");
  });

  it("writes each name where the API places it, with a line to a name moved away from its marker", () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);

    const name = (sector: RegExp) => screen.getByRole("button", { name: sector }).querySelector(".map-name");
    // Relative to the marker (Valletta's at 800, 300), the anchor the API gives.
    expect(name(/^Valletta/)?.getAttribute("y")).toBe("49");
    expect(name(/^Valletta/)?.getAttribute("text-anchor")).toBe("middle");
    expect(name(/^Mdina/)?.getAttribute("x")).toBe("-80");
    expect(name(/^Mdina/)?.getAttribute("text-anchor")).toBe("end");
    const leaders = [...document.querySelectorAll("svg.map-svg line.map-leader")];
    expect(leaders.map((line) => ["x1", "y1", "x2", "y2"].map((a) => line.getAttribute(a)))).toEqual([
      ["200", "400", "120", "412"],
    ]);
    // The view takes in the moved name's box (and a margin), not only the markers.
    expect(document.querySelector("svg.map-svg")?.getAttribute("viewBox")?.split(" ")[0]).toBe("0");
  });

  it("marks the sectors victory conditions name and says where the campaign stands", () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire={false} victory={VICTORY} />);

    expect(screen.getByText(VICTORY.summary)).toBeInTheDocument();
    expect(screen.getByText(/the night of day 6 ends the campaign/)).toBeInTheDocument();
    const valletta = screen.getByRole("button", { name: /^Valletta/ });
    expect(valletta).toHaveAccessibleName(expect.stringContaining("a victory objective of Axis"));
    expect(valletta.querySelector(".map-objective")).not.toBeNull();
    expect(screen.getByRole("button", { name: /^Luqa/ }).querySelector(".map-objective")).toBeNull();
    expect(screen.getByRole("list", { name: "Map key" })).toHaveTextContent("Victory objective");
    fireEvent.click(valletta);
    expect(screen.getByRole("region", { name: "Valletta" })).toHaveTextContent("Victory objective ofAxis");
  });

  it("opens a sector's panel: its facts, forces, battalions and battles linked", async () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire={false} />);
    openSector(/^Luqa/);

    const panel = screen.getByRole("region", { name: "Luqa" });
    expect(panel).toHaveTextContent("Constricted terrain");
    expect(panel).toHaveTextContent("Contested");
    expect(panel).not.toHaveTextContent("Source of supply");
    expect(panel).toHaveTextContent("Kampfgruppe Ramcke (Axis)");
    expect(panel).toHaveTextContent("Southern Infantry Brigade (Allies)");
    expect(panel).toHaveTextContent("G1 I./FJR 2 (Axis)Isolated");
    expect(panel).not.toHaveTextContent("W1");
    expect(within(panel).getByRole("link", { name: "Axis attacks Allies" })).toHaveAttribute(
      "href",
      "/campaigns/malta/battles/4e2d9c1b-7a5f-4b3e-8c6d-1a0f9e8d7c6b",
    );
    expect(panel).not.toHaveTextContent(/set_up|isolated/);
    expect(within(panel).queryByRole("form")).not.toBeInTheDocument(); // a player: no umpire's actions
  });

  it("zooms in and back to the whole map with its buttons", async () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire={false} />);
    const drawing = document.querySelector("svg.map-svg > g");
    expect(drawing).toHaveAttribute("transform", "translate(0,0) scale(1)");

    await userEvent.click(screen.getByRole("button", { name: "Zoom in" }));
    expect(drawing?.getAttribute("transform")).toMatch(/scale\(1\.5\)$/);
    await userEvent.click(screen.getByRole("button", { name: "Whole map" }));
    expect(drawing).toHaveAttribute("transform", "translate(0,0) scale(1)");
  });

  it("says so when the campaign has no map (only its battles' tables)", () => {
    const tables = MAP.sectors.map((table) => ({ ...table, x: null, y: null }));
    renderWithProviders(<MapView campaign={CAMPAIGN} map={{ ...MAP, sectors: tables }} isUmpire />);

    expect(screen.getByText(/This campaign has no map/)).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: /^Luqa/ })).not.toBeInTheDocument();
  });

  it("opens a sector from the keyboard", async () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire={false} />);
    await userEvent.tab(); // the zoom buttons first
    await userEvent.tab();
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole("button", { name: /^Valletta/ })).toHaveFocus();
    await userEvent.keyboard("{Enter}");

    expect(screen.getByRole("region", { name: "Valletta" })).toHaveTextContent("W1 1st Devons");
    expect(screen.getByRole("heading", { name: "Valletta" })).toHaveFocus();
  });

  it("offers the umpire only the adjacent sectors as a move's destination", async () => {
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);
    openSector(/^Mdina/);
    expect(screen.getByText("Nothing here to move.")).toBeInTheDocument();

    openSector(/^Luqa/);
    const form = screen.getByRole("form", { name: "Move from Luqa" });
    const options = (label: string) =>
      within(within(form).getByLabelText(label))
        .getAllByRole("option")
        .map((option) => option.textContent);
    expect(options("What moves")).toEqual([
      "C Ops of Kampfgruppe Ramcke",
      "C Ops of Southern Infantry Brigade",
      "Forming-up point of Southern Infantry Brigade", // with its C Ops; Ramcke's is at Gudja
      "Battalion G1 I./FJR 2",
    ]);
    expect(options("To the adjacent sector")).toEqual(["Pick a sector", "Gudja", "Mdina", "Valletta", "Off the map"]);
    await userEvent.selectOptions(within(form).getByLabelText("What moves"), "Forming-up point of Southern Infantry Brigade");
    expect(options("To the adjacent sector")).toEqual(["Pick a sector", "Gudja", "Mdina", "Valletta"]);

    await userEvent.selectOptions(within(form).getByLabelText("What moves"), "Battalion G1 I./FJR 2");
    expect(options("To the adjacent sector")).toEqual([
      "Pick a sector",
      "Gudja",
      "Mdina",
      "Valletta",
      "Off the map (reserve)",
    ]);
  });

  it("moves a force and shows the API's field error next to the destination", async () => {
    const seen = stubFetch(
      jsonResponse(400, {
        error: {
          code: "not_adjacent",
          message: "Kampfgruppe Ramcke cannot move there.",
          fields: { sector: ["Mdina is not adjacent to Luqa."] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);
    openSector(/^Luqa/);
    const form = screen.getByRole("form", { name: "Move from Luqa" });
    const destination = within(form).getByLabelText("To the adjacent sector");
    await userEvent.selectOptions(destination, "Mdina");
    await userEvent.click(within(form).getByRole("button", { name: "Move" }));

    expect(await within(form).findByText("Mdina is not adjacent to Luqa.")).toBeInTheDocument();
    expect(destination).toHaveAttribute("aria-invalid", "true");
    expect(destination).toHaveAccessibleDescription("Mdina is not adjacent to Luqa.");
    const [request] = seen;
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/forces/00000000-0000-4000-8000-000000000001/move/");
    expect(await request?.json()).toEqual({ sector: 13, forming_up_point: false });
    expect(request?.headers.get("Idempotency-Key")).toBeTruthy();
  });

  it("sets control of a sector with the umpire's reason", async () => {
    const seen = stubFetch(jsonResponse(200, {}));
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);
    openSector(/^Luqa/);
    const form = screen.getByRole("form", { name: "Control of Luqa" });
    expect(within(form).getByLabelText("Held by")).toHaveValue("contested");
    await userEvent.selectOptions(within(form).getByLabelText("Held by"), "Axis");
    await userEvent.type(within(form).getByLabelText("Reason"), "Battle won");
    await userEvent.click(within(form).getByRole("button", { name: "Set control" }));

    expect(await within(form).findByText("Control set.")).toBeInTheDocument();
    const [request] = seen;
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/sectors/11/control/");
    expect(await request?.json()).toEqual({ owner: AXIS, reason: "Battle won" });
  });
});

describe("a battle from the map", () => {
  it("is offered on a contested sector only, with the battalions on it or next to it", async () => {
    const seen = stubFetch(
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "The battle was not created.",
          fields: { battalion_codes: ["Pick a battalion of each side."] },
          rule: null,
        },
      }),
    );
    renderWithProviders(<MapView campaign={CAMPAIGN} map={MAP} isUmpire />);
    openSector(/^Valletta/);
    expect(screen.queryByRole("form", { name: "Battle at Valletta" })).not.toBeInTheDocument();

    openSector(/^Luqa/);
    const form = screen.getByRole("form", { name: "Battle at Luqa" });
    const battalions = within(form).getByRole("group", { name: "Battalions (on Luqa or next to it)" });
    expect(within(battalions).getAllByRole("checkbox").map((box) => box.parentElement?.textContent)).toEqual([
      " G1 I./FJR 2 (Axis)",
      " W1 1st Devons (Allies)",
    ]);
    await userEvent.click(within(battalions).getByRole("checkbox", { name: /G1/ }));
    await userEvent.click(within(form).getByRole("button", { name: "Create the battle" }));

    expect(await within(battalions).findByText("Pick a battalion of each side.")).toBeInTheDocument();
    const [request] = seen;
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/battles/");
    expect(await request?.json()).toEqual({
      sector: 11,
      battle_type: "Local Attack",
      attacker_id: AXIS,
      defender_id: ALLIED,
      battalion_codes: ["G1"],
    });
  });
});
