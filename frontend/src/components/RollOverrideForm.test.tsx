import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Schemas } from "../api/client";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { RollOverrideForm } from "./RollOverrideForm";

const ROLL = {
  id: "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
  procedure: "pk.segment_turns",
  changes: { turns: 4, setup: { nested: true } },
  override_of: null,
  output: { title: "Segment turns" },
  line: "Turns: 4",
} as unknown as Schemas["Roll"];

afterEach(() => vi.unstubAllGlobals());

describe("overriding a roll", () => {
  it("sends the values changed, as the roll's types, with the reason and an idempotency key", async () => {
    const seen = stubFetch(
      jsonResponse(201, { original: ROLL, override: { ...ROLL, line: "Override of the turns: 4 → 6 (club ruling)" } }),
    );
    renderWithProviders(<RollOverrideForm slug="malta" roll={ROLL} />);

    expect(screen.queryByLabelText(/setup/)).not.toBeInTheDocument(); // a nested step is not typed over
    const turns = screen.getByLabelText("New turns");
    await userEvent.clear(turns);
    await userEvent.type(turns, "6");
    await userEvent.type(screen.getByLabelText("Reason"), "club ruling");
    await userEvent.click(screen.getByRole("button", { name: "Override" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Override of the turns: 4 → 6 (club ruling)");
    const [request] = seen;
    expect(request && new URL(request.url).pathname).toBe(`/api/v1/campaigns/malta/rolls/${ROLL.id}/override/`);
    expect(request?.headers.get("Idempotency-Key")).toBeTruthy();
    expect(await request?.json()).toEqual({ changes: { turns: 6 }, reason: "club ruling" });
  });

  it("shows the API's field error next to the field it names", async () => {
    stubFetch(
      jsonResponse(400, {
        error: { code: "invalid", message: "Say why the rolled value is overridden.", fields: { reason: ["Say why the rolled value is overridden."] }, rule: null },
      }),
    );
    renderWithProviders(<RollOverrideForm slug="malta" roll={ROLL} />);

    await userEvent.click(screen.getByRole("button", { name: "Override" }));

    const reason = screen.getByLabelText("Reason");
    expect(await screen.findByText("Say why the rolled value is overridden.", { selector: ".field-errors" })).toBeInTheDocument();
    expect(reason).toHaveAttribute("aria-invalid", "true");
    expect(reason).toHaveAccessibleDescription("Say why the rolled value is overridden.");
  });

  it("offers a coded value's alternatives in words, and sends the code", async () => {
    const seen = stubFetch(jsonResponse(201, { original: ROLL, override: ROLL }));
    const weather = {
      ...ROLL,
      procedure: "gb.weather",
      changes: { weather: "O" },
      change_choices: { weather: { C: "Clear", D: "Drizzle", O: "Overcast", F: "Fog" } },
    } as unknown as Schemas["Roll"];
    renderWithProviders(<RollOverrideForm slug="malta" roll={weather} />);

    const select = screen.getByLabelText("New weather");
    expect(select).toHaveDisplayValue("Overcast");
    await userEvent.selectOptions(select, "Fog");
    await userEvent.type(screen.getByLabelText("Reason"), "a sea mist");
    await userEvent.click(screen.getByRole("button", { name: "Override" }));

    await screen.findByRole("status");
    const [request] = seen;
    expect(await request?.json()).toEqual({ changes: { weather: "F" }, reason: "a sea mist" });
  });
});
