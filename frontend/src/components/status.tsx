/** Small display pieces: loading and error states, masked values, status icons, progress. */
import type { UseQueryResult } from "@tanstack/react-query";
import { Suspense, use, type ComponentType, type ReactNode } from "react";
import { ApiError } from "../api/client";
import type { StandStatus } from "../api/types";
import { plural } from "../lib/words";

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

/** Pages are fetched when first opened (App.tsx): their loading state, in words, until then. */
export function PageLoading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading what="the page" />}>{children}</Suspense>;
}

/** A page fetched when first shown (inside {@link PageLoading}), or sooner by its `preload()`
 * (the page the app opens on is asked for with the session, App.tsx). When its chunk cannot be
 * fetched (the connection dropped, or a deploy replaced the build this tab runs) the page says
 * so and offers a reload, instead of an empty screen. */
export function lazyPage<Module>(load: () => Promise<Module>, pick: (module: Module) => ComponentType) {
  let fetched: Promise<ComponentType> | undefined;
  let loaded: ComponentType | undefined;
  const preload = () =>
    (fetched ??= load().then(
      (module) => (loaded = pick(module)),
      () => (loaded = PageUnavailable),
    ));
  // A page whose chunk has come renders at once. React.lazy would suspend it until a microtask,
  // and React then keeps the loading state it showed for 300 ms.
  function Page() {
    const Loaded = loaded ?? use(preload());
    return <Loaded />;
  }
  return Object.assign(Page, { preload });
}

export type LazyPage = ReturnType<typeof lazyPage>;

function PageUnavailable() {
  return (
    <div className="error" role="alert">
      <strong>This page could not be loaded.</strong> The connection may have dropped, or the app was updated
      since this tab was opened.{" "}
      <button type="button" onClick={() => window.location.reload()}>
        Reload
      </button>
    </div>
  );
}

/** An error as the API reports it: its message and the rule broken (the code is for programs). */
export function ErrorNotice({ error }: { error: unknown }) {
  if (error instanceof ApiError) {
    return (
      <div className="error" role="alert">
        <strong>{error.body.message}</strong>
        {error.body.rule ? <p>Rule: {error.body.rule}</p> : null}
      </div>
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error" role="alert">
      <strong>Could not reach the server.</strong> {message}
    </div>
  );
}

/** Renders a query's data, or its loading or error state. */
export function QueryView<T>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <Loading what={what} />;
  if (query.isError) return <ErrorNotice error={query.error} />;
  return <>{children(query.data)}</>;
}

/** A field the API masks by fog of war (null): shown as "unknown", never as a blank. */
export function Masked({ value, hidden = "unknown" }: { value: unknown; hidden?: string }) {
  if (value === null || value === undefined) {
    return <span className="masked">{hidden}</span>;
  }
  if (typeof value === "boolean") return <>{value ? "yes" : "no"}</>;
  if (typeof value === "object") return <>{JSON.stringify(value)}</>;
  return <>{String(value)}</>;
}

const STATUS_ICONS: Record<StandStatus, string> = { ok: "●", suppressed: "◐", destroyed: "✕" };

/** A stand's status as an icon, named by the API's label (the code only picks the icon);
 * without a label it is decoration beside words that name it. */
export function StatusIcon({ status, label }: { status: StandStatus | undefined; label?: string | null }) {
  const known = status ?? "ok";
  const named = label ? { role: "img", "aria-label": label, title: label } : { "aria-hidden": true };
  return (
    <span className={`status status-${known}`} {...named}>
      {STATUS_ICONS[known]}
    </span>
  );
}

export function ProgressBar({ done, total, label }: { done: number; total: number; label: string }) {
  const percent = total > 0 ? Math.round((100 * done) / total) : 0;
  return (
    <div className="progress">
      <label>
        {label}
        <progress max={total || 1} value={done} aria-valuetext={`${done} of ${plural(total, "step")}`} />
      </label>
      <span className="progress-text">
        {done} / {plural(total, "step")} ({percent}%)
      </span>
    </div>
  );
}
