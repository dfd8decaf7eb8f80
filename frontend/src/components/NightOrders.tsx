import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { offered } from "../api/campaign";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { useOrderOfBattle } from "../api/lists";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { battalionsIn } from "../lib/oob";
import { sideName } from "../lib/sides";
import { ErrorNotice, QueryView } from "./status";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";

type Kind = Schemas["NightOrderKindEnum"];

function useNightOrders(slug: string) {
  return useQuery({
    queryKey: queryKeys.nightOrders(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/night-orders/", {
          params: { path: { campaign_slug: slug }, query: { applied: false, page_size: 200 } },
        }),
      ),
  });
}

/** Tonight's queue, each order with a button that takes it back. */
function QueuedOrders({ campaign }: { campaign: Schemas["Campaign"] }) {
  const slug = campaign.slug;
  const queryClient = useQueryClient();
  const orders = useNightOrders(slug);
  const takeBack = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.DELETE("/api/v1/campaigns/{campaign_slug}/night-orders/{id}/", { params: { path: { campaign_slug: slug, id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.nightOrders(slug) }),
  });
  return (
    <QueryView query={orders} what="tonight's orders">
      {(page) =>
        page.results.length ? (
          <ul className="cards night-orders">
            {page.results.map((order) => (
              <li key={order.id} className="card">
                <span className="tag">{order.kind_label}</span> {order.words}{" "}
                <span className="muted">
                  {sideName(campaign, order.side)}, night of day {order.day}
                </span>{" "}
                <button
                  type="button"
                  onClick={() => takeBack.mutate(order.id)}
                  disabled={takeBack.isPending}
                  aria-label={`Take back: ${order.words}`}
                >
                  Take back
                </button>
              </li>
            ))}
            {takeBack.isError ? <ErrorNotice error={takeBack.error} /> : null}
          </ul>
        ) : (
          <p>No order queued for tonight.</p>
        )
      }
    </QueryView>
  );
}

interface Draft {
  kind: Kind;
  battalion: string;
  stand: string;
  target: string;
}

/** A new order: what, which battalion, and for attach/detach the stand and where it goes. The
 * attachment check's refusal comes back with its rule, next to the field it names and to Submit. */
export function NightOrderForm({
  campaign,
  battalions,
}: {
  campaign: Schemas["Campaign"];
  battalions: readonly Schemas["BattalionTree"][];
}) {
  const slug = campaign.slug;
  const queryClient = useQueryClient();
  const kinds = useTerms("night_order_kind");
  const [draft, setDraft] = useState<Draft>({ kind: "withdraw", battalion: "", stand: "", target: "" });
  const [key, setKey] = useState(idempotencyKey);
  const queue = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/night-orders/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          // The attachment's kind follows from the stand's type (the API says so when it refuses).
          body: {
            kind: draft.kind,
            battalion_code: draft.battalion,
            stand_label: draft.kind === "withdraw" ? "" : draft.stand,
            target_battalion_code: draft.kind === "withdraw" ? "" : draft.target,
            attachment_kind: "",
          },
        }),
      ),
    onSuccess: () => {
      setKey(idempotencyKey());
      setDraft({ ...draft, stand: "", target: "" });
      void queryClient.invalidateQueries({ queryKey: queryKeys.nightOrders(slug) });
    },
  });
  const { errorsFor, unplaced } = placedErrors(queue.error);
  const change = (part: Partial<Draft>) => setDraft({ ...draft, ...part });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    queue.mutate();
  };
  const chosen = battalions.find((battalion) => battalion.code === draft.battalion);
  const moves = draft.kind !== "withdraw";
  const select = (
    name: string,
    field: string,
    label: string,
    value: string,
    onChange: (value: string) => void,
    options: [string, string][],
  ) => {
    const messages = errorsFor(field);
    return (
      <div className="field">
        <label htmlFor={`order-${name}`}>{label}</label>
        <select
          id={`order-${name}`}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={messages.length > 0}
          aria-describedby={`order-${name}-errors`}
        >
          <option value="">choose…</option>
          {options.map(([code, words]) => (
            <option key={code} value={code}>
              {words}
            </option>
          ))}
        </select>
        <FieldErrors id={`order-${name}-errors`} messages={messages} />
      </div>
    );
  };
  return (
    <form className="night-order-form" onSubmit={submit} noValidate aria-label="New night order">
      <h3>Queue an order</h3>
      <div className="field">
        <label htmlFor="order-kind">Order</label>
        <select
          id="order-kind"
          value={draft.kind}
          onChange={(e) => change({ kind: e.target.value as Kind })}
          aria-describedby="order-kind-errors"
        >
          {kinds.map((kind) => (
            <option key={kind.value} value={kind.value}>
              {kind.label}
            </option>
          ))}
        </select>
        <FieldErrors id="order-kind-errors" messages={errorsFor("kind")} />
      </div>
      {select(
        "battalion",
        "battalion_code",
        moves ? "From battalion" : "Battalion",
        draft.battalion,
        (battalion) => change({ battalion, stand: "", target: "" }),
        battalions.map((b) => [
          b.code,
          `${b.code}${b.name ? ` ${b.name}` : ""} (${sideName(campaign, b.side)}${b.in_reserve ? ", in reserve" : ""})`,
        ]),
      )}
      {moves
        ? select(
            "stand",
            "stand_label",
            "Stand",
            draft.stand,
            (stand) => change({ stand }),
            (chosen?.stands ?? [])
              .filter((stand) => stand.may_be_ordered)
              .map((stand) => [
                stand.label,
                `${stand.label} (${stand.stand_type_label}${stand.attached ? `, attached: ${stand.attachment_kind_label}` : ""})`,
              ]),
          )
        : null}
      {moves
        ? select(
            "target",
            "target_battalion_code",
            draft.kind === "attach" ? "Attach to battalion" : "Detach to battalion",
            draft.target,
            (target) => change({ target }),
            battalions.filter((b) => chosen && b.side === chosen.side).map((b) => [b.code, `${b.code}${b.name ? ` ${b.name}` : ""}`]),
          )
        : null}
      <FieldErrors id="order-attachment-errors" messages={errorsFor("attachment_kind", "day")} />
      <SubmitErrors error={queue.error} unplaced={unplaced()} />
      <button type="submit" disabled={queue.isPending}>
        {queue.isPending ? "Queueing…" : "Queue order"}
      </button>
    </form>
  );
}

/** The umpire's night orders: tonight's queue and a form to add to it, before the night phase. */
export function NightOrders({ campaign }: { campaign: Schemas["Campaign"] }) {
  const open = Boolean(offered(campaign, "queue_night_order"));
  const oob = useOrderOfBattle(campaign.slug, open);
  return (
    <section aria-labelledby="night-orders">
      <h2 id="night-orders">Night orders for tonight</h2>
      <p className="muted">
        Carried out in the night phase: withdrawals to reserve, then attachments and detachments (Great Battles' limits:
        1 HQ, 1 heavy weapons and 2 other stands per battalion).
      </p>
      <QueuedOrders campaign={campaign} />
      {open ? (
        <QueryView query={oob} what="the battalions">
          {(tree) => <NightOrderForm campaign={campaign} battalions={battalionsIn(tree.forces)} />}
        </QueryView>
      ) : null}
    </section>
  );
}
