import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { LoadMore } from "../components/LoadMore";
import { ErrorNotice, QueryView } from "../components/status";

type Notification = Schemas["Notification"];
const PAGE_SIZE = 20;

function when(stamp: string): string {
  return new Date(stamp).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** One notification: its title links to its page (and marks it read), its text, a mark-read button. */
function Entry({ note, onRead, busy }: { note: Notification; onRead: () => void; busy: boolean }) {
  return (
    <li className={note.read ? "card notification" : "card notification unread"}>
      <p className="notification-head">
        <strong>
          <Link to={note.link} onClick={note.read ? undefined : onRead}>
            {note.title}
          </Link>
        </strong>
        {note.read ? null : <span className="badge">New</span>}
      </p>
      <p className="muted">
        {note.kind_label} · {note.campaign_name} · {when(note.created_at)}
      </p>
      {note.body ? <p className="notification-body">{note.body}</p> : null}
      {note.read ? null : (
        <button type="button" onClick={onRead} disabled={busy} aria-label={`Mark read: ${note.title}`}>
          Mark read
        </button>
      )}
    </li>
  );
}

/** The signed-in person's notifications of every campaign, newest first. */
export function InboxPage() {
  const [unreadOnly, setUnreadOnly] = useState(false);
  const queryClient = useQueryClient();
  const notes = useInfiniteQuery({
    queryKey: queryKeys.notificationList(unreadOnly),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/v1/notifications/", {
          params: { query: { page: pageParam, page_size: PAGE_SIZE, ...(unreadOnly ? { unread: true } : {}) } },
        }),
      ),
    initialPageParam: 1,
    getNextPageParam: (page, _pages, number) => (page.next ? number + 1 : undefined),
  });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: queryKeys.notifications });
  const read = useMutation({
    mutationFn: (id: string) => unwrap(api.POST("/api/v1/notifications/{id}/read/", { params: { path: { id } } })),
    onSuccess: refresh,
  });
  const readAll = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/notifications/read-all/", { body: {} })),
    onSuccess: refresh,
  });
  return (
    <section aria-labelledby="inbox">
      <h1 id="inbox">Inbox</h1>
      <div className="filters">
        <label>
          <input type="checkbox" checked={unreadOnly} onChange={(event) => setUnreadOnly(event.target.checked)} /> Unread
          only
        </label>
        <button type="button" onClick={() => readAll.mutate()} disabled={readAll.isPending}>
          Mark all read
        </button>
      </div>
      {read.error ? <ErrorNotice error={read.error} /> : null}
      {readAll.error ? <ErrorNotice error={readAll.error} /> : null}
      <QueryView query={notes} what="your notifications">
        {(data) => {
          const entries = data.pages.flatMap((page) => page.results);
          return entries.length ? (
            <ul className="notifications">
              {entries.map((note) => (
                <Entry
                  key={note.id}
                  note={note}
                  onRead={() => read.mutate(note.id)}
                  busy={read.isPending && read.variables === note.id}
                />
              ))}
            </ul>
          ) : (
            <p>{unreadOnly ? "Nothing unread." : "No notifications yet."}</p>
          );
        }}
      </QueryView>
      <LoadMore query={notes} />
    </section>
  );
}
