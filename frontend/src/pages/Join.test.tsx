import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { JoinPage } from "./Join";

afterEach(() => vi.unstubAllGlobals());

const OFFER = {
  campaign: "malta",
  campaign_name: "Malta 1942",
  role: "player",
  role_label: "Player",
  side_name: "Allied",
  expires_at: "2026-12-10T20:00:00Z",
  used: false,
  expired: false,
};

describe("an invitation link", () => {
  it("says what it offers and joins on the button", async () => {
    const seen = stubFetch(
      jsonResponse(200, OFFER),
      jsonResponse(201, { id: 4, username: "allied", role: "player", role_label: "Player", side: 2, side_name: "Allied" }),
    );
    renderWithProviders(<JoinPage />);

    expect(await screen.findByText(/as player of Allied/)).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Join Malta 1942" }));

    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]?.method).toBe("POST");
  });

  it("says so when it was used, with no button", async () => {
    stubFetch(jsonResponse(200, { ...OFFER, used: true }));
    renderWithProviders(<JoinPage />);

    expect(await screen.findByRole("alert")).toHaveTextContent("This invitation to Malta 1942 was already used");
    expect(screen.queryByRole("button")).not.toBeInTheDocument();
  });
});
