import { screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { VICTORY } from "../test/fixtures";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { VictoryStanding } from "./Victory";

const CAMPAIGN = { slug: "malta" } as Schemas["Campaign"];

afterEach(() => vi.unstubAllGlobals());

describe("victory", () => {
  it("shows each condition with its side's standing and the end, in the API's words", async () => {
    stubFetch(jsonResponse(200, VICTORY));
    renderWithProviders(<VictoryStanding campaign={CAMPAIGN} />);

    const condition = await screen.findByRole("listitem", { name: "Victory condition 1" });
    expect(condition).toHaveTextContent("Axis Malta falls: the Axis holds Valletta and the Grand Harbour");
    expect(condition).toHaveTextContent("Axis holds 1 of 2 sectors (Grand Harbour); not Valletta.");
    expect(within(condition).queryByText("Met")).not.toBeInTheDocument();
    expect(screen.getByText(/the night of day 6 ends the campaign/)).toBeInTheDocument();
    expect(within(screen.getByRole("table")).getByRole("rowheader")).toHaveTextContent("Axis");
  });

  it("shows how a finished campaign ended", async () => {
    const summary = "The campaign ended on day 6. Allied victory: The garrison holds";
    stubFetch(jsonResponse(200, { ...VICTORY, status: "finished", finished: true, summary, conditions: [] }));
    renderWithProviders(<VictoryStanding campaign={CAMPAIGN} />);

    expect(await screen.findByText(summary)).toBeInTheDocument();
  });
});
