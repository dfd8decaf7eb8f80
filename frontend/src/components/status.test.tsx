import { act, render, screen } from "@testing-library/react";
import type { ComponentType } from "react";
import { describe, expect, it } from "vitest";
import type { Schemas } from "../api/client";
import { OperationProgress } from "../pages/Night";
import { ApiError } from "../api/client";
import { ErrorNotice, lazyPage, Masked, PageLoading, ProgressBar, StatusIcon } from "./status";

const STATUS_LABELS = { pending: "Pending", running: "Running", done: "Done", failed: "Failed" } as const;

function operation(status: Schemas["Operation"]["status"] & keyof typeof STATUS_LABELS, done: number, total: number): Schemas["Operation"] {
  return {
    id: "7d0c2f5e-1b3a-4e8f-9c6d-5a4b3c2d1e0f",
    url: "/api/v1/campaigns/malta-1942/operations/7d0c2f5e-1b3a-4e8f-9c6d-5a4b3c2d1e0f/",
    kind: "night_phase",
    kind_label: "Night phase",
    day: 1,
    segment: null,
    segment_label: null,
    status,
    status_label: STATUS_LABELS[status],
    running: status === "pending" || status === "running",
    failed: status === "failed",
    steps_done: done,
    steps_total: total,
    created_at: "2024-01-01T00:00:00Z",
  };
}

describe("the progress bar", () => {
  it("shows steps done of total", () => {
    render(<ProgressBar label="Night phase" done={3} total={12} />);

    const bar = screen.getByRole("progressbar", { name: "Night phase" });
    expect(bar).toHaveAttribute("value", "3");
    expect(bar).toHaveAttribute("max", "12");
    expect(screen.getByText("3 / 12 steps (25%)")).toBeInTheDocument();
  });

  it("shows an operation's status, and its failure", () => {
    const { rerender } = render(<OperationProgress operation={operation("running", 5, 10)} />);
    expect(screen.getByRole("progressbar", { name: /day 1: running/ })).toHaveAttribute("value", "5");

    rerender(<OperationProgress operation={{ ...operation("failed", 5, 10), error: "database gone" }} />);
    expect(screen.getByRole("alert")).toHaveTextContent("The night phase failed: database gone");
  });
});

describe("masked and status values", () => {
  it("renders a field the fog of war hides as unknown, and shows real values", () => {
    const shown = (value: unknown, hidden?: string) =>
      render(<Masked value={value} hidden={hidden} />).container.textContent;

    expect(shown(null)).toBe("unknown");
    expect(shown(undefined, "hidden")).toBe("hidden");
    expect(shown(0)).toBe("0");
    expect(shown(false)).toBe("no");
  });

  it("names the stand status icons by the API's label", () => {
    render(<StatusIcon status="suppressed" label="Suppressed" />);
    expect(screen.getByRole("img", { name: "Suppressed" })).toHaveTextContent("◐");
  });

  it("shows an API error's message and rule, not its code", () => {
    const error = new ApiError(409, { code: "night_phase_exists", message: "already started", fields: {}, rule: "one night" });
    render(<ErrorNotice error={error} />);
    const alert = screen.getByRole("alert");
    expect(alert).toHaveTextContent("already started");
    expect(alert).not.toHaveTextContent("night_phase_exists");
    expect(alert).toHaveTextContent("Rule: one night");
  });
});

/** The page inside its loading state, once React has rendered what it can. */
async function show(Page: ComponentType) {
  await act(async () =>
    render(
      <PageLoading>
        <Page />
      </PageLoading>,
    ),
  );
}

describe("a page fetched when first shown", () => {
  it("says it is loading, then shows the page", async () => {
    let arrive: (module: { Page: ComponentType }) => void = () => {};
    const Page = lazyPage(
      () => new Promise<{ Page: ComponentType }>((resolve) => (arrive = resolve)),
      (m) => m.Page,
    );
    await show(Page);

    expect(screen.getByRole("status")).toHaveTextContent("Loading the page…");
    await act(async () => arrive({ Page: () => <h1>Dashboard</h1> }));
    expect(screen.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
  });

  it("shows at once when its chunk came first (preloaded as the app opened on it)", async () => {
    const Page = lazyPage(
      () => Promise.resolve({ Page: () => <h1>Dashboard</h1> }),
      (m) => m.Page,
    );
    await Page.preload();
    render(
      <PageLoading>
        <Page />
      </PageLoading>,
    ); // no act() awaited: the page must be there at once

    expect(screen.getByRole("heading", { name: "Dashboard" })).toBeInTheDocument();
    expect(screen.queryByRole("status")).not.toBeInTheDocument();
  });

  it("offers a reload when its chunk cannot be fetched (a deploy replaced the build)", async () => {
    const Page = lazyPage(
      () => Promise.reject(new TypeError("Failed to fetch dynamically imported module")),
      () => () => <h1>never</h1>,
    );
    await show(Page);

    expect(screen.getByRole("alert")).toHaveTextContent("This page could not be loaded.");
    expect(screen.getByRole("button", { name: "Reload" })).toBeInTheDocument();
  });
});
