import { useEffect, useId, useRef, type ReactNode } from "react";

/** Asks before an irreversible write (dawn, the night phase): what it does, then Confirm or Cancel.
 * Shown in place (not a modal), so it fits a phone and keyboard focus lands on it. */
export function ConfirmDialog({
  title,
  children,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  busy?: boolean;
}) {
  const titleId = useId();
  const bodyId = useId();
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => cancel.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      className="card confirm"
      onKeyDown={(event) => {
        if (event.key === "Escape") onCancel();
      }}
    >
      <h3 id={titleId}>{title}</h3>
      <div id={bodyId}>{children}</div>
      <p className="actions">
        <button type="button" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </button>
        <button type="button" className="secondary" ref={cancel} onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </p>
    </div>
  );
}
