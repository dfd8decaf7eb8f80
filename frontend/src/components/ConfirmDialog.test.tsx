import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { ConfirmDialog } from "./ConfirmDialog";

describe("the confirmation before an irreversible write", () => {
  it("says what it does, focuses Cancel, and confirms only on Confirm", async () => {
    const confirm = vi.fn();
    const cancel = vi.fn();
    render(
      <ConfirmDialog title="Dawn day 2?" confirmLabel="Dawn day 2" onConfirm={confirm} onCancel={cancel}>
        <p>A dawn cannot be undone.</p>
      </ConfirmDialog>,
    );

    const dialog = screen.getByRole("alertdialog", { name: "Dawn day 2?" });
    expect(dialog).toHaveAccessibleDescription("A dawn cannot be undone.");
    expect(screen.getByRole("button", { name: "Cancel" })).toHaveFocus();
    await userEvent.keyboard("{Enter}");
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(confirm).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole("button", { name: "Dawn day 2" }));
    expect(confirm).toHaveBeenCalledTimes(1);
  });

  it("cancels on Escape and disables both buttons while the write runs", async () => {
    const cancel = vi.fn();
    const { rerender } = render(
      <ConfirmDialog title="Start?" confirmLabel="Start" onConfirm={() => undefined} onCancel={cancel}>
        <p>Irreversible.</p>
      </ConfirmDialog>,
    );
    await userEvent.keyboard("{Escape}");
    expect(cancel).toHaveBeenCalledTimes(1);

    rerender(
      <ConfirmDialog title="Start?" confirmLabel="Start" onConfirm={() => undefined} onCancel={cancel} busy>
        <p>Irreversible.</p>
      </ConfirmDialog>,
    );
    expect(screen.getByRole("button", { name: "Start" })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeDisabled();
  });
});
