/** The roll log and the timeline page by cursor: the `cursor` parameter of the `next` link. */
export function cursorOf(next: string | null | undefined): string | undefined {
  if (!next) return undefined;
  return new URL(next, globalThis.location?.origin ?? "http://localhost").searchParams.get("cursor") ?? undefined;
}
