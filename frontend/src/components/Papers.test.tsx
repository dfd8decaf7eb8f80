import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { BriefingLinks, PacketLinks } from "./Papers";

const SIDES = [
  { id: 1, name: "Axis" },
  { id: 2, name: "Allied" },
];

/** A campaign summary as a reader of `role` gets it: the API says whose papers they print. */
function campaign(role: string, side: number | null = null): Schemas["Campaign"] {
  const printsFor = { umpire: [1, 2], player: side === null ? [] : [side] }[role] ?? [];
  return { slug: "malta", current_day: 2, role, side, sides: SIDES, prints_for: printsFor } as unknown as Schemas["Campaign"];
}

const hrefs = () => screen.queryAllByRole("link").map((link) => link.getAttribute("href"));

describe("the printable papers", () => {
  it("let an umpire print every side's briefing of the day under way", () => {
    render(<BriefingLinks campaign={campaign("umpire")} />);

    expect(hrefs()).toEqual([
      "/api/v1/campaigns/malta/days/2/briefing/?side=1",
      "/api/v1/campaigns/malta/days/2/briefing/?side=2",
    ]);
    expect(screen.getByRole("link", { name: "Allied's briefing for day 2 (PDF)" })).toBeInTheDocument();
  });

  it("let a player print only their own side's, and an observer none", () => {
    render(<BriefingLinks campaign={campaign("player", 2)} />);
    expect(hrefs()).toEqual(["/api/v1/campaigns/malta/days/2/briefing/?side=2"]);

    const battle = { id: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e", attacker: 1, defender: 2 } as Schemas["Battle"];
    render(<PacketLinks campaign={campaign("observer")} battle={battle} />);
    expect(hrefs()).toEqual(["/api/v1/campaigns/malta/days/2/briefing/?side=2"]);
  });

  it("offer the chronicle where the API links to it", () => {
    const chronicle = "http://testserver/api/v1/campaigns/malta/chronicle/";
    render(<BriefingLinks campaign={{ ...campaign("observer"), chronicle_url: chronicle }} />);

    expect(screen.getByRole("link", { name: "The chronicle so far (PDF)" })).toHaveAttribute("href", chronicle);
    expect(hrefs()).toEqual([chronicle]);
  });

  it("offer a battle's packet to the sides that fight it", () => {
    const battle = { id: "7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e", attacker: 1, defender: 2 } as Schemas["Battle"];
    render(<PacketLinks campaign={campaign("player", 1)} battle={battle} />);

    expect(hrefs()).toEqual(["/api/v1/campaigns/malta/battles/7c1e4b2a-9d3f-4a6b-8e5c-2f1a0b9c8d7e/packet/?side=1"]);
  });
});
