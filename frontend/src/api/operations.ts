/** Operations the worker runs (night phase, arrival rolls): watched until they end. */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { Schemas } from "./client";

/**
 * Reads every query again once `operation` ends (done or failed) after this screen saw it pending
 * or running: the worker changed what the other lists show (forces, the day, the reinforcements'
 * actions), so no screen stays on what was true before it ran, nor offers a button the state now refuses.
 */
export function useRefreshWhenOperationEnds(operation: Schemas["Operation"] | undefined) {
  const queryClient = useQueryClient();
  const running = operation?.running ?? false;
  const [watching, setWatching] = useState(false);
  useEffect(() => {
    if (running) setWatching(true);
    else if (watching && operation) {
      setWatching(false);
      void queryClient.invalidateQueries();
    }
  }, [running, watching, operation, queryClient]);
}
