import type { ReactNode } from "react";

/** A wide table's own scrolling box, so the page never scrolls sideways on a phone. It takes
 * the keyboard's focus (and is named) so it scrolls without a mouse too. */
export function TableWrap({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
