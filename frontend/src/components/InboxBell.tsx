import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { api, unwrap } from "../api/client";
import { queryKeys } from "../api/queryKeys";

// Notifications arrive from other people's actions: the bell asks again now and then.
const POLL_MS = 60_000;

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
      <span aria-hidden="true">🔔</span> Inbox
      {unread ? (
        <>
          {" "}
          <span className="badge">{unread}</span> <span className="visually-hidden">unread</span>
        </>
      ) : null}
    </Link>
  );
}
