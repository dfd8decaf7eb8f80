import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CAMPAIGN, battalion, stand } from "../test/fixtures";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { NightOrderForm } from "./NightOrders";

const RULE = "Great Battles of WWII charts, Unit Type Capabilities, Attachment Notes";
const BATTALIONS = [
  battalion(1, "W1", 2, {
    stands: [
      stand(1, "HQ", "hq", "HQ"),
      stand(2, "A Coy", "infantry", "Infantry"),
      { ...stand(3, "B Coy", "infantry", "Infantry"), may_be_ordered: false },
    ],
  }),
  battalion(2, "W2", 2),
  battalion(3, "G1", 1),
];

afterEach(() => vi.unstubAllGlobals());

describe("the night order form", () => {
  it("queues a withdrawal with an idempotency key", async () => {
    const seen = stubFetch(jsonResponse(201, { id: 1 }), jsonResponse(200, { count: 0, results: [] }));
    renderWithProviders(<NightOrderForm campaign={CAMPAIGN} battalions={BATTALIONS} />);

    await userEvent.selectOptions(screen.getByLabelText("Battalion"), "G1");
    await userEvent.click(screen.getByRole("button", { name: "Queue order" }));

    await waitFor(() => expect(seen.length).toBeGreaterThan(0));
    expect(seen[0]!.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await seen[0]!.json()).toEqual({
      kind: "withdraw",
      battalion_code: "G1",
      stand_label: "",
      target_battalion_code: "",
      attachment_kind: "",
    });
  });

  it("offers the stands of the battalion an order may name and the battalions of its side, and shows the attachment check's refusal", async () => {
    const message = "Attaching W1/HQ to W2 breaks the attachment limits: 2 HQ attachments, at most 1.";
    stubFetch(
      jsonResponse(400, {
        error: { code: "attachment_limit", message, fields: { target_battalion_code: [message] }, rule: RULE },
      }),
    );
    renderWithProviders(<NightOrderForm campaign={CAMPAIGN} battalions={BATTALIONS} />);

    await userEvent.selectOptions(screen.getByLabelText("Order"), "attach");
    await userEvent.selectOptions(screen.getByLabelText("From battalion"), "W1");
    expect(screen.getByRole("option", { name: "A Coy (Infantry)" })).toBeInTheDocument();
    // The API says no order may name it (destroyed).
    expect(screen.queryByRole("option", { name: "B Coy (Infantry)" })).toBeNull();
    await userEvent.selectOptions(screen.getByLabelText("Stand"), "HQ");
    const target = screen.getByLabelText("Attach to battalion");
    // Only the battalions of the stand's side.
    expect(screen.queryByRole("option", { name: "G1" })).toBeNull();
    await userEvent.selectOptions(target, "W2");
    await userEvent.click(screen.getByRole("button", { name: "Queue order" }));

    await waitFor(() => expect(target).toHaveAttribute("aria-invalid", "true"));
    expect(target).toHaveAccessibleDescription(message);
    const refusal = screen.getByRole("button", { name: "Queue order" }).previousElementSibling!;
    expect(refusal).toHaveTextContent(`Rule: ${RULE}`);
  });
});
