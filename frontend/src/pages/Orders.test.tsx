import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Outlet, Route, Routes } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import type { CampaignContext } from "../session";
import { jsonResponse, renderWithProviders } from "../test/render";
import { OrdersPage } from "./Orders";

afterEach(() => vi.unstubAllGlobals());

const CAMPAIGN = {
  slug: "malta",
  name: "Malta 1942",
  side: 2,
  sides: [
    { id: 1, name: "Axis" },
    { id: 2, name: "Allied" },
  ],
} as Schemas["Campaign"];

function order(id: string, side: number, status: string, extra: Record<string, unknown> = {}) {
  const code = side === 1 ? "A2" : "L2";
  return {
    id,
    label: `Withdraw ${code}, day 2`,
    side,
    side_name: side === 1 ? "Axis" : "Allied",
    day: 2,
    kind: "withdraw",
    kind_label: "Withdraw a battalion to reserve",
    payload: { battalion_code: code },
    status,
    status_label: { submitted: "Submitted to the umpire", returned: "Sent back by the umpire" }[status] ?? status,
    // As the API offers them: its side's players an order sent back, the umpires a submitted one.
    actions: { returned: ["edit", "submit", "withdraw"], submitted: ["approve", "send_back", "amend"] }[status] ?? [],
    reason: "",
    night_order: null,
    created_by: "player",
    created_at: "2026-12-01T20:00:00Z",
    submitted_at: null,
    decided_by: null,
    decided_at: null,
    ...extra,
  };
}

const page = (results: unknown[]) => ({ count: results.length, next: null, previous: null, results });

/** Answers by path: the order list from ``orders``, everything else empty; returns the requests. */
function stubApi(orders: unknown[], forces: unknown[] = []): Request[] {
  const seen: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (request: Request) => {
      seen.push(request);
      const path = new URL(request.url).pathname;
      if (path.endsWith("/orders/deadline/")) return jsonResponse(200, { day: 2, deadline: null, deadline_text: null });
      if (path.endsWith("/orders/")) return jsonResponse(200, page(orders));
      if (path.endsWith("/oob/")) return jsonResponse(200, { forces });
      if (path.endsWith("/sectors/")) return jsonResponse(200, page([]));
      return jsonResponse(200, orders[0]);
    }),
  );
  return seen;
}

function renderOrders(isUmpire: boolean) {
  const context: CampaignContext = { campaign: CAMPAIGN, isUmpire };
  renderWithProviders(
    <Routes>
      <Route element={<Outlet context={context} />}>
        <Route path="*" element={<OrdersPage />} />
      </Route>
    </Routes>,
  );
}

describe("the orders page", () => {
  it("shows a player an order sent back, with the umpire's reason and a button to submit it again", async () => {
    const seen = stubApi([order("4a7e2c1d-8b3f-4d5e-9a6c-0f1e2d3c4b5a", 2, "returned", { reason: "L2 holds the bridge" })]);
    renderOrders(false);

    expect(await screen.findByText("Umpire: L2 holds the bridge")).toBeInTheDocument();
    expect(screen.getByText("Orders for day 2 close when the night phase starts.", { exact: false })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole("button", { name: "Submit order: Withdraw L2, day 2" }));

    await vi.waitFor(() => expect(seen.some((r) => r.method === "POST" && r.url.endsWith("/orders/4a7e2c1d-8b3f-4d5e-9a6c-0f1e2d3c4b5a/submit/"))).toBe(true));
  });

  it("drafts a deploy order for a battalion in reserve, with its range and whether friends intervene", async () => {
    const battalion = (code: string, in_reserve: boolean) => ({ code, name: "", side: 2, in_reserve, stands: [] });
    const forces = [{ battlegroups: [{ battalions: [battalion("L1", false), battalion("L3", true)] }] }];
    const seen = stubApi([], forces);
    renderOrders(false);
    const user = userEvent.setup();

    await user.selectOptions(await screen.findByLabelText("Order"), "deploy");
    const choose = screen.getByLabelText("Battalion");
    await vi.waitFor(() => expect(screen.getByRole("option", { name: "L3 (in reserve)" })).toBeInTheDocument());
    expect(screen.queryByRole("option", { name: "L1" })).not.toBeInTheDocument();
    await user.selectOptions(choose, "L3");
    await user.type(screen.getByLabelText("Range to the nearest enemy (inches)"), "18");
    await user.click(screen.getByLabelText("Friendly troops intervening"));
    await user.click(screen.getByRole("button", { name: "Save as draft" }));

    await vi.waitFor(() => expect(seen.some((r) => r.method === "POST" && r.url.endsWith("/orders/"))).toBe(true));
    const sent = seen.find((r) => r.method === "POST" && r.url.endsWith("/orders/"));
    expect(await sent?.json()).toEqual({
      kind: "deploy",
      payload: { battalion_code: "L3", range_inches: 18, friendly_intervening: true },
    });
  });

  it("offers only the stands the API says an order may name", async () => {
    const stand = (label: string, may_be_ordered: boolean) => ({ label, stand_type_label: "Infantry", may_be_ordered });
    const battalion = { code: "L1", name: "", side: 2, in_reserve: false, stands: [stand("A Coy", true), stand("B Coy", false)] };
    stubApi([], [{ battlegroups: [{ battalions: [battalion] }] }]);
    renderOrders(false);
    const user = userEvent.setup();

    await user.selectOptions(await screen.findByLabelText("Order"), "attach");
    await vi.waitFor(() => expect(screen.getAllByRole("option", { name: "L1" }).length).toBeGreaterThan(0));
    await user.selectOptions(screen.getByLabelText("Battalion"), "L1");

    expect(screen.getByRole("option", { name: "A Coy (Infantry)" })).toBeInTheDocument();
    expect(screen.queryByRole("option", { name: "B Coy (Infantry)" })).not.toBeInTheDocument();
  });

  it("lets the umpire send an order back with a reason", async () => {
    const seen = stubApi([order("5b8f3d2e-9c4a-4e6f-8b7d-1a2b3c4d5e6f", 1, "submitted")]);
    renderOrders(true);

    await userEvent.setup().type(await screen.findByLabelText("Reason to send it back"), "not tonight");
    await userEvent.setup().click(screen.getByRole("button", { name: "Send back order: Withdraw A2, day 2" }));

    await vi.waitFor(() => expect(seen.some((r) => r.url.endsWith("/orders/5b8f3d2e-9c4a-4e6f-8b7d-1a2b3c4d5e6f/send-back/"))).toBe(true));
    const sent = seen.find((r) => r.url.endsWith("/orders/5b8f3d2e-9c4a-4e6f-8b7d-1a2b3c4d5e6f/send-back/"));
    expect(await sent?.json()).toEqual({ reason: "not tonight" });
    expect(screen.getByRole("button", { name: "Approve order: Withdraw A2, day 2" })).toBeInTheDocument();
  });

  it("amends an order with its own reason, not the sending back's", async () => {
    const id = "5b8f3d2e-9c4a-4e6f-8b7d-1a2b3c4d5e6f";
    const seen = stubApi([order(id, 1, "submitted")]);
    renderOrders(true);
    const user = userEvent.setup();

    await user.type(await screen.findByLabelText("Reason to send it back"), "not this");
    await user.click(screen.getByRole("button", { name: "Amend order: Withdraw A2, day 2" }));
    await user.type(screen.getByLabelText("Reason for the amendment (its side reads it)"), "A3 instead");
    await user.click(screen.getByRole("button", { name: "Save the amendment" }));

    await vi.waitFor(() => expect(seen.some((r) => r.url.endsWith(`/orders/${id}/amend/`))).toBe(true));
    const sent = seen.find((r) => r.url.endsWith(`/orders/${id}/amend/`));
    expect(await sent?.json()).toEqual({ payload: { battalion_code: "A2" }, reason: "A3 instead" });
  });
});
