import type { UseInfiniteQueryResult } from "@tanstack/react-query";
import { ErrorNotice } from "./status";

export function LoadMore({ query }: { query: UseInfiniteQueryResult }) {
  if (query.isFetchNextPageError) return <ErrorNotice error={query.error} />;
  if (!query.hasNextPage) return null;
  return (
    <button type="button" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      {query.isFetchingNextPage ? "Loading…" : "Load more"}
    </button>
  );
}
