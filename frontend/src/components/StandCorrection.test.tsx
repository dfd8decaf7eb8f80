import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jsonResponse, renderWithProviders, stubFetch } from "../test/render";
import { StandCorrection } from "./StandCorrection";

afterEach(() => vi.unstubAllGlobals());

describe("correcting a stand", () => {
  it("sends the state and the reason, and says what the stand is now", async () => {
    const seen = stubFetch(jsonResponse(200, { id: 7, label: "1. Kp", status: "ok", status_label: "OK" }));
    renderWithProviders(<StandCorrection slug="malta" stand={{ id: "00000000-0000-4000-8000-000000000007", label: "1. Kp", status: "destroyed" }} />);

    expect(screen.getByLabelText("State")).toHaveValue("destroyed");
    await userEvent.selectOptions(screen.getByLabelText("State"), "OK");
    await userEvent.type(screen.getByLabelText("Reason"), "the report named the wrong company");
    await userEvent.click(screen.getByRole("button", { name: "Correct" }));

    expect(await screen.findByRole("status")).toHaveTextContent("Corrected: 1. Kp is ok.");
    const [request] = seen;
    expect(request && new URL(request.url).pathname).toBe("/api/v1/campaigns/malta/stands/00000000-0000-4000-8000-000000000007/correct/");
    expect(request?.headers.get("Idempotency-Key")).toBeTruthy();
    expect(await request?.json()).toEqual({ status: "ok", reason: "the report named the wrong company" });
  });

  it("names the refused field beside it", async () => {
    stubFetch(
      jsonResponse(400, {
        error: { code: "invalid", message: "1. Kp is already destroyed.", fields: { status: ["1. Kp is already destroyed."] }, rule: null },
      }),
    );
    renderWithProviders(<StandCorrection slug="malta" stand={{ id: "00000000-0000-4000-8000-000000000007", label: "1. Kp", status: "destroyed" }} />);

    await userEvent.type(screen.getByLabelText("Reason"), "x");
    await userEvent.click(screen.getByRole("button", { name: "Correct" }));

    expect(await screen.findByText("1. Kp is already destroyed.")).toBeInTheDocument();
    expect(screen.getByLabelText("State")).toHaveAccessibleDescription("1. Kp is already destroyed.");
  });
});
