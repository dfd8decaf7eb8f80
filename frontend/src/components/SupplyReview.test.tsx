import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { SupplyReviewPanel } from "./SupplyReview";

const CAMPAIGN = {
  slug: "malta",
  current_day: 1,
  sides: [
    { id: 1, name: "Axis" },
    { id: 2, name: "Allied" },
  ],
} as Schemas["Campaign"];

const E1: Schemas["SupplyBattalion"] = {
  id: "00000000-0000-4000-8000-000000000011",
  code: "E1",
  side: 2,
  sector: 5,
  situation: "OK",
  situation_label: "OK",
  proposed: "separated",
  proposed_label: "Separated",
  reason: "in supply, 2 sectors from its C Ops",
  path: [5, 6],
  line: "Hal Far → Grand Harbour",
  links_to_c_ops: 2,
  reported: "OK",
  reported_label: "OK",
  reported_in: "the battle at Hal Far",
  override: null,
  override_label: null,
  applies: "OK",
  applies_label: "OK",
  applies_because: "reported after the battle at Hal Far",
};

const REVIEW: Schemas["SupplyReview"] = {
  situations: ["OK", "separated", "isolated"],
  situations_labels: ["In supply", "Separated", "Isolated"],
  actions: ["confirm"],
  actions_labels: ["Confirm the supply"],
  warning: "Supply for day 1 is not confirmed: the night will apply the map's proposal, with the day's battle reports, to 1 battalion.",
  day: 1,
  confirmed_at: null,
  overrides: [],
  sources: [],
  forces: [],
  battalions: [E1],
};

afterEach(() => vi.unstubAllGlobals());

describe("the supply proposal", () => {
  it("shows each battalion's line, report and what the night applies, in the API's words", async () => {
    stubFetch(jsonResponse(200, REVIEW));
    renderWithProviders(<SupplyReviewPanel campaign={CAMPAIGN} />);

    const card = await screen.findByRole("listitem", { name: "Supply of E1" });
    expect(card).toHaveTextContent("Separated: in supply, 2 sectors from its C Ops");
    expect(card).toHaveTextContent("Hal Far → Grand Harbour");
    expect(card).toHaveTextContent("OK, after the battle at Hal Far");
    expect(card).toHaveTextContent("OK (reported after the battle at Hal Far)");
    expect(screen.getByRole("status")).toHaveTextContent("Supply for day 1 is not confirmed");
  });

  it("confirms with an override and its reason, and places a refusal by the field", async () => {
    const refused = jsonResponse(400, {
      error: {
        code: "invalid",
        message: "Say why battalion E1 is isolated, not separated.",
        fields: { "overrides[0].reason": ["Say why battalion E1 is isolated, not separated."] },
        rule: null,
      },
    });
    const seen = stubFetch(jsonResponse(200, REVIEW), refused);
    renderWithProviders(<SupplyReviewPanel campaign={CAMPAIGN} />);
    const card = await screen.findByRole("listitem", { name: "Supply of E1" });

    await userEvent.click(within(card).getByText("Override E1"));
    // The choices are the API's, with its labels.
    const select = within(card).getByLabelText("Supply situation of E1");
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "as the night applies it",
      "In supply",
      "Separated",
      "Isolated",
    ]);
    await userEvent.selectOptions(select, "isolated");
    await userEvent.click(screen.getByRole("button", { name: "Confirm the supply (1 overridden)" }));

    expect(await within(card).findAllByText("Say why battalion E1 is isolated, not separated.")).not.toHaveLength(0);
    expect(within(card).getByLabelText("Why E1 is overridden")).toHaveAttribute("aria-invalid", "true");
    expect(screen.queryByText(/overrides\[0\]/)).not.toBeInTheDocument(); // words, never the field's path
    expect(await seen[1]?.json()).toEqual({ overrides: [{ battalion: "00000000-0000-4000-8000-000000000011", situation: "isolated", reason: "" }] });
  });

  it("offers no button when the API offers no action", async () => {
    stubFetch(jsonResponse(200, { ...REVIEW, actions: [], actions_labels: [], warning: null }));
    renderWithProviders(<SupplyReviewPanel campaign={CAMPAIGN} />);

    await screen.findByRole("listitem", { name: "Supply of E1" });
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
    expect(screen.queryByText("Override E1")).not.toBeInTheDocument();
  });
});
