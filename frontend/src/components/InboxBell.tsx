import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/queryKeys";

// Notifications arrive from other people's actions: the bell asks again now and then.
const POLL_MS = 60_000;

/** Drawn, not an emoji: not every system has a font with the bell. */
function BellIcon() {
  return (
    <svg className="bell-icon" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
      <path
        fill="currentColor"
        d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
      />
    </svg>
  );
}

/** The header's link to the inbox, with the number of unread notifications. */
export function InboxBell() {
  const count = useQuery({
    queryKey: queryKeys.notificationCount,
    queryFn: () => unwrap(api.GET("/api/v1/notifications/unread-count/")),
    refetchInterval: POLL_MS,
  });
  const unread = count.data?.unread ?? 0;
  return (
    <Link to="/inbox" className="bell">
      <BellIcon /> Inbox
      {unread ? (
        <>
          {" "}
          <span className="badge">{unread}</span> <span className="visually-hidden">unread</span>
        </>
      ) : null}
    </Link>
  );
}
