import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { InboxBell } from "../components/InboxBell";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { InboxPage } from "./Inbox";

afterEach(() => vi.unstubAllGlobals());

const BATTLE = {
  id: "5b0c7a52-8a4e-4c36-9a59-0c1c1f0c2a11",
  campaign: "malta",
  campaign_name: "Malta 1942",
  kind: "battle_assigned",
  kind_label: "Battle assigned to you",
  title: "Battle at Gudja on day 1",
  body: "Axis attack Allied at Gudja (Local Attack). Your battalions: II/104.",
  link: "/campaigns/malta/battles/0d3b6a9e-2c4f-4e1a-b8d7-5f6e4c3b2a19",
  read: false,
  read_at: null,
  email: "no_address",
  email_label: "Not e-mailed: no address",
  emailed_at: null,
  created_at: "2026-11-25T20:00:00Z",
};
const NIGHT = {
  ...BATTLE,
  id: "0d6f4c1e-2b7a-4b8e-8d0e-3c2a1b0f9e22",
  kind: "night_report_ready",
  kind_label: "Night report ready",
  title: "Night report, day 1",
  body: "Axis — night of day 1\nReplacements: 2 of 3 returned",
  link: "/campaigns/malta/night",
  read: true,
  read_at: "2026-11-25T21:00:00Z",
};

function page(results: unknown[], next: string | null = null) {
  return jsonResponse(200, { count: results.length, next, previous: null, results });
}

describe("the inbox", () => {
  it("lists notifications with their links, kind and campaign, and marks one read", async () => {
    const seen = stubFetch(
      page([BATTLE, NIGHT]),
      jsonResponse(200, { ...BATTLE, read: true, read_at: "2026-11-25T21:30:00Z" }),
      page([{ ...BATTLE, read: true }, NIGHT]),
    );
    renderWithProviders(<InboxPage />);

    const battle = (await screen.findByRole("link", { name: "Battle at Gudja on day 1" })).closest("li");
    expect(battle).not.toBeNull();
    const entry = within(battle as HTMLElement);
    expect(entry.getByRole("link")).toHaveAttribute("href", "/campaigns/malta/battles/0d3b6a9e-2c4f-4e1a-b8d7-5f6e4c3b2a19");
    expect(entry.getByText(/Battle assigned to you · Malta 1942/)).toBeInTheDocument();
    expect(entry.getByText("New")).toBeInTheDocument();
    expect(screen.getByText(/Replacements: 2 of 3 returned/)).toBeInTheDocument();
    // A read notification has no button.
    expect(screen.getAllByRole("button", { name: /^Mark read/ })).toHaveLength(1);

    await userEvent.setup().click(entry.getByRole("button", { name: "Mark read: Battle at Gudja on day 1" }));

    await vi.waitFor(() => expect(seen).toHaveLength(3));
    expect(seen[0]?.url).toContain("/api/v1/notifications/?page=1&page_size=20");
    expect(seen[1]?.method).toBe("POST");
    expect(seen[1]?.url).toContain(`/api/v1/notifications/${BATTLE.id}/read/`);
    expect(await screen.findByRole("link", { name: "Battle at Gudja on day 1" })).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText("New")).not.toBeInTheDocument());
  });

  it("marks all read, shows unread only, and loads more pages", async () => {
    const seen = stubFetch(
      page([BATTLE], "http://testserver/api/v1/notifications/?page=2"),
      page([NIGHT]),
      jsonResponse(200, { marked: 1 }),
      page([{ ...BATTLE, read: true }], "http://testserver/api/v1/notifications/?page=2"),
      page([NIGHT]),
      page([]),
    );
    renderWithProviders(<InboxPage />);
    const user = userEvent.setup();

    await user.click(await screen.findByRole("button", { name: "Load more" }));
    expect(await screen.findByRole("link", { name: "Night report, day 1" })).toBeInTheDocument();
    expect(seen[1]?.url).toContain("page=2");

    await user.click(screen.getByRole("button", { name: "Mark all read" }));
    await vi.waitFor(() => expect(seen).toHaveLength(5));
    expect(seen[2]?.url).toContain("/api/v1/notifications/read-all/");

    await user.click(screen.getByRole("checkbox", { name: "Unread only" }));
    expect(await screen.findByText("Nothing unread.")).toBeInTheDocument();
    expect(seen[5]?.url).toContain("unread=true");
  });
});

describe("the bell", () => {
  it("says how many are unread and leads to the inbox", async () => {
    stubFetch(jsonResponse(200, { unread: 3 }));
    renderWithProviders(<InboxBell />);

    const bell = await screen.findByRole("link", { name: "Inbox 3 unread" });
    expect(bell).toHaveAttribute("href", "/inbox");
  });

  it("shows no number when all is read", async () => {
    const seen = stubFetch(jsonResponse(200, { unread: 0 }));
    renderWithProviders(<InboxBell />);

    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(screen.getByRole("link", { name: "Inbox" })).toBeInTheDocument();
    expect(screen.queryByText("0")).not.toBeInTheDocument();
  });
});
