import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { NewCampaignPage, packIssues } from "./NewCampaign";

afterEach(() => vi.unstubAllGlobals());

const REFUSED = {
  error: {
    code: "invalid_scenario",
    message: "The pack was not imported:\nsides[0].name: required field is missing",
    fields: {
      "pack.sides[0].name": ["Required field is missing."],
      "pack.sides[1].forces[0].nation": ["'Martian' is not one of German, Italian."],
    },
    rule: null,
  },
};

describe("a new campaign", () => {
  it("reads a pack's issues by their path in the file", () => {
    expect(packIssues({ pack: ["Not valid YAML."], "pack.campaign.slug": ["Taken."], slug: ["Bad."] })).toEqual([
      ["", "Not valid YAML."],
      ["campaign.slug", "Taken."],
    ]);
  });

  it("sends the chosen file's text and shows each issue by its path next to the upload", async () => {
    const seen = stubFetch(jsonResponse(400, REFUSED));
    renderWithProviders(<NewCampaignPage />);
    const user = userEvent.setup();

    await user.click(screen.getByLabelText(/A scenario pack file/));
    const pack = new File(["campaign: {}\n"], "club.yaml", { type: "application/yaml" });
    await user.upload(screen.getByLabelText("Scenario pack file"), pack);
    await user.click(screen.getByRole("button", { name: "Create the campaign" }));

    const upload = screen.getByLabelText("Scenario pack file");
    expect(await screen.findByText("sides[0].name")).toBeInTheDocument();
    expect(upload).toHaveAttribute("aria-invalid", "true");
    const issues = within(document.getElementById("pack-errors") as HTMLElement).getAllByRole("listitem");
    expect(issues.map((item) => item.textContent)).toEqual([
      "sides[0].name: Required field is missing.",
      "sides[1].forces[0].nation: 'Martian' is not one of German, Italian.",
    ]);
    const sent = await seen[0]?.json();
    expect(sent).toEqual({ based_on: "pack", pack: "campaign: {}\n", pack_file_name: "club.yaml" });
  });

  it("starts from the demo by default", async () => {
    const seen = stubFetch(jsonResponse(400, { error: { code: "x", message: "Refused.", fields: {}, rule: null } }));
    renderWithProviders(<NewCampaignPage />);

    await userEvent.setup().click(screen.getByRole("button", { name: "Create the campaign" }));

    expect(await screen.findByRole("alert")).toHaveTextContent("Refused.");
    expect(await seen[0]?.json()).toEqual({ based_on: "demo" });
    expect(screen.queryByLabelText("Scenario pack file")).not.toBeInTheDocument();
  });
});
