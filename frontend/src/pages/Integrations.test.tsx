import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Outlet, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import type { CampaignContext } from "../session";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { IntegrationsPage } from "./Integrations";

afterEach(() => vi.unstubAllGlobals());

const CAMPAIGN = { slug: "malta", sides: [{ id: 2, name: "Allied" }] } as Schemas["Campaign"];
const EMPTY = { count: 0, next: null, previous: null, results: [] };
const KEY = {
  prefix: "Ab12",
  url: "http://testserver/api/v1/campaigns/malta/api-keys/Ab12/",
  name: "Scoreboard",
  side: 2,
  can_write: false,
  expiry_date: null,
  expired: false,
  revoked: false,
  created: "2026-12-03T20:00:00Z",
  created_by: "umpire",
};

function renderPage(isUmpire: boolean) {
  const context: CampaignContext = { campaign: CAMPAIGN, isUmpire };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={context} />}>
        <Route path="*" element={<IntegrationsPage />} />
      </Route>
    </Routes>,
  );
}

describe("API keys and webhooks", () => {
  it("show a new key once, and revoke it by its prefix", async () => {
    const seen = stubFetch(
      jsonResponse(200, EMPTY),
      jsonResponse(200, EMPTY),
      jsonResponse(201, { ...KEY, key: "Ab12.secret" }),
      jsonResponse(200, { ...EMPTY, count: 1, results: [KEY] }),
      jsonResponse(200, { ...KEY, revoked: true }),
      jsonResponse(200, { ...EMPTY, count: 1, results: [{ ...KEY, revoked: true }] }),
    );
    renderPage(true);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText("Who uses it, for what"), "Scoreboard");
    await user.selectOptions(screen.getByLabelText("Sees as"), "A player of Allied");
    await user.click(screen.getByRole("button", { name: "Create the key" }));

    expect(await screen.findByLabelText("The new key")).toHaveValue("Ab12.secret");
    expect(await seen[2]?.json()).toEqual({ name: "Scoreboard", side: 2, can_write: false });
    expect(await screen.findByText(/sees as a player of Allied/)).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Revoke Scoreboard" }));

    expect(await screen.findByText("Revoked")).toBeInTheDocument();
    expect(seen[4]?.url).toMatch(/\/api-keys\/Ab12\/revoke\/$/);
  });

  it("name the events a webhook is sent for in words, and put the API's field errors beside them", async () => {
    stubFetch(
      jsonResponse(200, EMPTY),
      jsonResponse(200, EMPTY),
      jsonResponse(400, {
        error: {
          code: "invalid",
          message: "Events: choose at least one event.",
          fields: { events: ["Choose at least one event."] },
          rule: null,
        },
      }),
    );
    renderPage(true);
    const user = userEvent.setup();

    expect(await screen.findByLabelText("Night phase done")).not.toBeChecked();
    await user.type(screen.getByLabelText("Address (https://…)"), "https://club.example/hook");
    await user.click(screen.getByRole("button", { name: "Create the webhook" }));

    expect(await screen.findByText("Choose at least one event.")).toBeInTheDocument();
    expect(screen.getByRole("group", { name: "Send when" })).toHaveAccessibleDescription("Choose at least one event.");
  });

  it("show a webhook's kind and audience in the API's words, and publish a held post from its actions", async () => {
    const webhook = {
      id: "7d1c",
      url: "https://discord.com/api/webhooks/1/a",
      kind: "discord",
      kind_label: "Discord channel",
      events: ["night.done"],
      events_labels: ["Night phase done"],
      active: true,
      audience: "side",
      audience_label: "One side: what its players may read",
      side: 2,
      hold_for_approval: true,
      created_by: "umpire",
      created_at: "2026-12-03T20:00:00Z",
    };
    const held = {
      id: "9e2f",
      event: "night.done",
      event_label: "Night phase done",
      status: "held",
      status_label: "Held for an umpire's approval",
      attempts: 0,
      sending: false,
      actions: ["publish", "discard"],
      actions_labels: ["Publish", "Discard"],
    };
    const seen = stubFetch(
      jsonResponse(200, EMPTY),
      jsonResponse(200, { ...EMPTY, count: 1, results: [webhook] }),
      jsonResponse(200, { ...EMPTY, count: 1, results: [held] }),
      jsonResponse(202, { ...held, status: "pending", actions: [], actions_labels: [] }),
      jsonResponse(200, EMPTY),
    );
    renderPage(true);
    const user = userEvent.setup();

    expect(await screen.findByText(/Discord channel, for One side: what its players may read/)).toBeInTheDocument();
    expect(screen.getByText("Posts wait for an umpire's approval")).toBeInTheDocument();
    await user.click(await screen.findByRole("button", { name: "Publish" }));

    await vi.waitFor(() => expect(seen.some((r) => r.url.endsWith("/deliveries/9e2f/publish/"))).toBe(true));
  });

  it("are the umpire's only", () => {
    renderPage(false);

    expect(screen.getByText("Only the umpires manage API keys and webhooks.")).toBeInTheDocument();
  });
});
