/** Who is signed in (GET /session/, which also sets the CSRF cookie), and the campaign in view. */
import {
  MutationCache,
  QueryCache,
  QueryClient,
  queryOptions,
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type QueryKey,
  useMutation,
  useQuery,
  useQueryClient,
  type DefaultOptions,
} from "@tanstack/react-query";
import { Navigate, useLocation, useOutletContext } from "react-router";
import type { ReactNode } from "react";
import { ApiError, api, unwrap, type Schemas } from "./api/client";
import { queryKeys } from "./api/queryKeys";
import { ErrorNotice, Loading } from "./components/status";

/**
 * Invalidation after a write reads again, even where a read began before the write and is still
 * under way: TanStack Query (query-core 5.108, Query.fetch) would wait for that read instead when
 * the query has no answer yet (a list just shown), and the page kept what came before the write
 * (a key just made missing from its list, a test event's delivery never shown). Such reads are
 * cancelled first, unless the caller shares them (``cancelRefetch: false``) or reads nothing again.
 */
class WriteFollowingQueryClient extends QueryClient {
  override async invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    if (options?.cancelRefetch !== false && filters?.refetchType !== "none") {
      await this.cancelQueries(filters);
    }
    return super.invalidateQueries(filters, options);
  }
}

/**
 * The app's query client. A 401 from any call means the session ended (it expired, or the
 * user signed out in another tab): asking GET /session/ again lets RequireSession send them
 * to the sign-in page. A 403 is a refusal to a signed-in user and is shown where it happened.
 */
export function createQueryClient(defaultOptions?: DefaultOptions): QueryClient {
  const signedOut = (error: unknown, failed?: readonly unknown[]) => {
    const isSessionQuery = failed?.[0] === queryKeys.session[0];
    if (error instanceof ApiError && error.status === 401 && !isSessionQuery) {
      // A session read under way answers as well: the app opening on a page asks for the session
      // and the page's answers at once (App.tsx), and each 401 would start it again.
      void queryClient.invalidateQueries({ queryKey: queryKeys.session }, { cancelRefetch: false });
    }
  };
  const queryClient: QueryClient = new WriteFollowingQueryClient({
    defaultOptions,
    queryCache: new QueryCache({ onError: (error, query) => signedOut(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => signedOut(error) }),
  });
  return queryClient;
}

/** How long an answer the app asked for ahead of its page (App.tsx: as it opens on an address)
 * counts as fresh: the part that mounts a moment later reads it from the cache instead of asking
 * again. Past that they are kept current as before: the session by any 401, the campaign's
 * answers by its version (useCampaignSummary). */
export const PRELOADED_FRESH_MS = 10_000;

/** Who is signed in: read by every page's top bar, so asked for first as the app opens (App.tsx). */
export const sessionQuery = queryOptions({
  queryKey: queryKeys.session,
  queryFn: () => unwrap(api.GET("/api/v1/session/")),
  staleTime: PRELOADED_FRESH_MS,
});

export function useSession() {
  return useQuery(sessionQuery);
}

export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (credentials: { username: string; password: string }) =>
      unwrap(api.POST("/api/v1/session/", { body: credentials })),
    onSuccess: (session) => {
      queryClient.clear();
      queryClient.setQueryData(queryKeys.session, session);
    },
  });
}

export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/session/")),
    onSuccess: () => {
      queryClient.clear();
    },
  });
}

/** Pages behind the sign-in. */
export function RequireSession({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading what="your session" />;
  if (session.isError) return <ErrorNotice error={session.error} />;
  if (!session.data.authenticated) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}

export interface CampaignContext {
  campaign: Schemas["Campaign"];
  isUmpire: boolean;
}

/** The campaign summary the campaign layout loaded, for its pages. */
export function useCampaign(): CampaignContext {
  return useOutletContext<CampaignContext>();
}
