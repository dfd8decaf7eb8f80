/** Sealed orders: a side's players draft, edit and submit theirs before the deadline; the umpire
 * approves, sends back with a reason, or amends (rules notes C-19). Nobody else reads them. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useOutletContext } from "react-router";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { useOrderOfBattle, useSectors } from "../api/lists";
import { queryKeys } from "../api/queryKeys";
import { useTerms, useVocabulary, type Term, type VocabularyList } from "../api/vocabulary";
import { FieldErrors, SubmitErrors, placedErrors } from "../components/FieldErrors";
import { ErrorNotice, QueryView } from "../components/status";
import { battalionsIn } from "../lib/oob";
import type { CampaignContext } from "../session";

type Kind = Schemas["SideOrderKindEnum"];
type Order = Schemas["SideOrder"];
type OrderAction = Order["actions"][number];
type Battalion = Schemas["BattalionTree"];
type Payload = Record<string, string>;
type OrderField = Schemas["OrderField"];

/** What the API takes: only the kind's fields, numbers as numbers, a flag as a boolean. */
function payloadOf(fields: readonly OrderField[], values: Payload): Record<string, unknown> {
  return Object.fromEntries(
    fields.map(({ name, type }) => {
      const value = values[name] ?? "";
      if (type === "boolean") return [name, value === "true"];
      if (type === "integer" || type === "number") return [name, value === "" ? "" : Number(value)];
      return [name, value];
    }),
  );
}

/** The payload fields the API lists for ``kind``, in the order the form asks for them. */
function useOrderFields(kind: Kind): readonly OrderField[] {
  return useVocabulary().data?.order_fields[kind] ?? [];
}

function valuesOf(order: Order): Payload {
  return Object.fromEntries(Object.entries(order.payload).map(([key, value]) => [key, String(value)]));
}

function useOrders(slug: string) {
  return useQuery({
    queryKey: queryKeys.sideOrders(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/orders/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 200 } },
        }),
      ),
  });
}

function Deadline({ slug }: { slug: string }) {
  const deadline = useQuery({
    queryKey: queryKeys.sideOrdersDeadline(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/orders/deadline/", { params: { path: { campaign_slug: slug } } })),
  });
  return (
    <QueryView query={deadline} what="the deadline">
      {(d) => (
        <p className="card" role="note">
          Orders for day {d.day} close {d.deadline_text ? <strong>{d.deadline_text}</strong> : "when the night phase starts"}.
        </p>
      )}
    </QueryView>
  );
}

/** The kind's inputs: battalions of ``sideId``, their stands, the map's sectors, a template's mode. */
function PayloadFields({
  kind,
  fields,
  values,
  onChange,
  battalions,
  sectors,
  errorsFor,
  prefix,
}: {
  kind: Kind;
  fields: readonly OrderField[];
  values: Payload;
  onChange: (values: Payload) => void;
  battalions: readonly Battalion[];
  sectors: readonly Schemas["Sector"][];
  errorsFor: (...paths: string[]) => string[];
  prefix: string;
}) {
  const chosen = battalions.find((b) => b.code === values.battalion_code);
  const options: Record<string, [string, string][]> = {
    // Only a battalion in reserve is deployed at dawn.
    battalion_code: battalions
      .filter((b) => kind !== "deploy" || b.in_reserve)
      .map((b) => [b.code, `${b.code}${b.name ? ` ${b.name}` : ""}${b.in_reserve ? " (in reserve)" : ""}`]),
    target_battalion_code: battalions.map((b) => [b.code, `${b.code}${b.name ? ` ${b.name}` : ""}`]),
    stand_label: (chosen?.stands ?? [])
      .filter((stand) => stand.may_be_ordered)
      .map((stand) => [stand.label, `${stand.label} (${stand.stand_type_label})`]),
    sector: sectors.map((sector) => [sector.key, sector.name]),
  };
  const lists = useVocabulary().data?.lists;
  const optionsOf = (field: OrderField): [string, string][] =>
    field.choices
      ? (lists?.[field.choices as VocabularyList] ?? []).map((term: Term) => [term.value, term.label])
      : (options[field.name] ?? []);
  return (
    <>
      {fields.map((field) => {
        const name = field.name;
        const id = `${prefix}-${name}`;
        const messages = errorsFor(`payload.${name}`, name);
        const change = (value: string) => onChange({ ...values, [name]: value });
        return (
          <div className="field" key={name}>
            <label htmlFor={id}>{field.label}</label>
            {field.type === "boolean" ? (
              <input
                id={id}
                type="checkbox"
                checked={values[name] === "true"}
                onChange={(e) => change(String(e.target.checked))}
                aria-invalid={messages.length > 0}
                aria-describedby={`${id}-errors`}
              />
            ) : field.type === "integer" || field.type === "number" ? (
              <input
                id={id}
                type="number"
                min={field.type === "integer" ? 1 : 0}
                step={field.type === "integer" ? 1 : "any"}
                inputMode={field.type === "integer" ? "numeric" : "decimal"}
                value={values[name] ?? ""}
                onChange={(e) => change(e.target.value)}
                aria-invalid={messages.length > 0}
                aria-describedby={`${id}-errors`}
              />
            ) : (
              <select
                id={id}
                value={values[name] ?? ""}
                onChange={(e) => change(e.target.value)}
                aria-invalid={messages.length > 0}
                aria-describedby={`${id}-errors`}
              >
                <option value="">choose…</option>
                {optionsOf(field).map(([code, words]) => (
                  <option key={code} value={code}>
                    {words}
                  </option>
                ))}
              </select>
            )}
            <FieldErrors id={`${id}-errors`} messages={messages} />
          </div>
        );
      })}
    </>
  );
}

/** A new order, or (``editing``) a draft or an order sent back, changed. */
function OrderForm({
  slug,
  battalions,
  sectors,
  editing,
  onDone,
}: {
  slug: string;
  battalions: readonly Battalion[];
  sectors: readonly Schemas["Sector"][];
  editing: Order | null;
  onDone: () => void;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<Kind>(editing?.kind ?? "withdraw");
  const [values, setValues] = useState<Payload>(editing ? valuesOf(editing) : {});
  const fields = useOrderFields(kind);
  const kinds = useTerms("side_order_kind");
  const [key, setKey] = useState(idempotencyKey);
  const save = useMutation({
    mutationFn: () =>
      editing
        ? unwrap(
            api.PATCH("/api/v1/campaigns/{campaign_slug}/orders/{id}/", {
              params: { path: { campaign_slug: slug, id: editing.id } },
              body: { kind, payload: payloadOf(fields, values) },
            }),
          )
        : unwrap(
            api.POST("/api/v1/campaigns/{campaign_slug}/orders/", {
              params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
              body: { kind, payload: payloadOf(fields, values) },
            }),
          ),
    onSuccess: () => {
      setKey(idempotencyKey());
      setValues({});
      onDone();
      void queryClient.invalidateQueries({ queryKey: queryKeys.sideOrders(slug) });
    },
  });
  const { errorsFor, unplaced } = placedErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-label={editing ? `Edit order: ${editing.label}` : "New order"}>
      <h3>{editing ? `Edit order: ${editing.label}` : "Draft an order"}</h3>
      <div className="field">
        <label htmlFor="side-order-kind">Order</label>
        <select
          id="side-order-kind"
          value={kind}
          onChange={(e) => {
            setKind(e.target.value as Kind);
            setValues({});
          }}
          aria-describedby="side-order-kind-errors"
        >
          {kinds.map((term) => (
            <option key={term.value} value={term.value}>
              {term.label}
            </option>
          ))}
        </select>
        <FieldErrors id="side-order-kind-errors" messages={errorsFor("kind")} />
      </div>
      <PayloadFields
        kind={kind}
        fields={fields}
        values={values}
        onChange={setValues}
        battalions={battalions}
        sectors={sectors}
        errorsFor={errorsFor}
        prefix="side-order"
      />
      <SubmitErrors error={save.error} unplaced={unplaced()} />
      <button type="submit" disabled={save.isPending}>
        {editing ? "Save the draft" : "Save as draft"}
      </button>
      {editing ? (
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      ) : null}
    </form>
  );
}

function useOrderAction(slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: string; body?: Record<string, unknown> }) =>
      unwrap(
        api.POST(`/api/v1/campaigns/{campaign_slug}/orders/{id}/${action}/` as "/api/v1/campaigns/{campaign_slug}/orders/{id}/submit/", {
          params: { path: { campaign_slug: slug, id }, header: { "Idempotency-Key": idempotencyKey() } },
          body: body as never,
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.sideOrders(slug) }),
  });
}

function PlayerOrders({ campaign }: { campaign: Schemas["Campaign"] }) {
  const slug = campaign.slug;
  const orders = useOrders(slug);
  const oob = useOrderOfBattle(slug);
  const sectors = useSectors(slug);
  const act = useOrderAction(slug);
  const [editing, setEditing] = useState<Order | null>(null);
  const own = (tree: Schemas["OrderOfBattle"]) => battalionsIn(tree.forces).filter((b) => b.side === campaign.side);
  return (
    <>
      <Deadline slug={slug} />
      <QueryView query={oob} what="your battalions">
        {(tree) => (
          <OrderForm
            key={editing?.id ?? "new"}
            slug={slug}
            battalions={own(tree)}
            sectors={sectors.data?.results ?? []}
            editing={editing}
            onDone={() => setEditing(null)}
          />
        )}
      </QueryView>
      <h3>Your side's orders</h3>
      {act.isError ? <ErrorNotice error={act.error} /> : null}
      <QueryView query={orders} what="your orders">
        {(page) =>
          page.results.length ? (
            <ul className="cards side-orders">
              {page.results.map((order) => {
                const may = (action: OrderAction) => order.actions.includes(action);
                return (
                  <li key={order.id} className="card">
                    <span className="tag">{order.status_label}</span> {order.words}{" "}
                    <span className="muted">day {order.day}</span>
                    {order.reason ? <p className="reason">Umpire: {order.reason}</p> : null}
                    <div className="actions">
                      {may("submit") ? (
                        <button type="button" onClick={() => act.mutate({ id: order.id, action: "submit" })}>
                          Submit order: {order.label}
                        </button>
                      ) : null}
                      {may("edit") ? (
                        <button type="button" onClick={() => setEditing(order)}>
                          Edit order: {order.label}
                        </button>
                      ) : null}
                      {may("withdraw") ? (
                        <button type="button" onClick={() => act.mutate({ id: order.id, action: "withdraw" })}>
                          Withdraw order: {order.label}
                        </button>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          ) : (
            <p>Your side has no orders yet.</p>
          )
        }
      </QueryView>
    </>
  );
}

/** One submitted order in the umpire's queue: approve, send back with a reason, or amend. */
function QueuedOrder({
  slug,
  order,
  battalions,
  sectors,
}: {
  slug: string;
  order: Order;
  battalions: readonly Battalion[];
  sectors: readonly Schemas["Sector"][];
}) {
  const act = useOrderAction(slug);
  const [reason, setReason] = useState("");
  const [amendReason, setAmendReason] = useState("");
  const [amending, setAmending] = useState(false);
  const [values, setValues] = useState<Payload>(valuesOf(order));
  const fields = useOrderFields(order.kind);
  const { errorsFor, unplaced } = placedErrors(act.error);
  // Both sending back and amending take a reason: its error shows beside the one that was tried.
  const reasonErrors = (action: string) => (act.variables?.action === action ? errorsFor("reason") : []);
  const id = `order-${order.id}`;
  const may = (action: OrderAction) => order.actions.includes(action);
  return (
    <li className="card">
      <span className="tag">{order.side_name}</span> {order.words} <span className="muted">day {order.day}</span>
      {may("approve") ? (
        <div className="actions">
          <button type="button" onClick={() => act.mutate({ id: order.id, action: "approve" })} disabled={act.isPending}>
            Approve order: {order.label}
          </button>
        </div>
      ) : null}
      {may("send_back") ? (
        <div className="field">
          <label htmlFor={`${id}-reason`}>Reason to send it back</label>
          <input
            id={`${id}-reason`}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-describedby={`${id}-reason-errors`}
          />
          <FieldErrors id={`${id}-reason-errors`} messages={reasonErrors("send-back")} />
        </div>
      ) : null}
      <div className="actions">
        {may("send_back") ? (
          <button type="button" onClick={() => act.mutate({ id: order.id, action: "send-back", body: { reason } })}>
            Send back order: {order.label}
          </button>
        ) : null}
        {may("amend") ? (
          <button type="button" onClick={() => setAmending(!amending)} aria-expanded={amending}>
            Amend order: {order.label}
          </button>
        ) : null}
      </div>
      {amending && may("amend") ? (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            act.mutate({
              id: order.id,
              action: "amend",
              body: { payload: payloadOf(fields, values), reason: amendReason },
            });
          }}
          aria-label={`Amend order: ${order.label}`}
          noValidate
        >
          <PayloadFields
            kind={order.kind}
            fields={fields}
            values={values}
            onChange={setValues}
            battalions={battalions.filter((b) => b.side === order.side)}
            sectors={sectors}
            errorsFor={errorsFor}
            prefix={`${id}-amend`}
          />
          <div className="field">
            <label htmlFor={`${id}-amend-reason`}>Reason for the amendment (its side reads it)</label>
            <input
              id={`${id}-amend-reason`}
              value={amendReason}
              onChange={(e) => setAmendReason(e.target.value)}
              aria-invalid={reasonErrors("amend").length > 0}
              aria-describedby={`${id}-amend-reason-errors`}
            />
            <FieldErrors id={`${id}-amend-reason-errors`} messages={reasonErrors("amend")} />
          </div>
          <button type="submit">Save the amendment</button>
        </form>
      ) : null}
      <SubmitErrors error={act.error} unplaced={unplaced()} />
    </li>
  );
}

function ApprovalQueue({ campaign }: { campaign: Schemas["Campaign"] }) {
  const slug = campaign.slug;
  const orders = useOrders(slug);
  const oob = useOrderOfBattle(slug);
  const sectors = useSectors(slug);
  return (
    <QueryView query={orders} what="the orders">
      {(page) => {
        // Waiting for the umpire: what they may still decide on; the rest is decided (or withdrawn).
        const waits = (order: Order) => order.actions.includes("approve");
        const queue = page.results.filter(waits);
        const decided = page.results.filter((order) => !waits(order));
        const battalions = oob.data ? battalionsIn(oob.data.forces) : [];
        return (
          <>
            <h3>Waiting for approval</h3>
            {queue.length ? (
              <ul className="cards side-orders">
                {queue.map((order) => (
                  <QueuedOrder
                    key={order.id}
                    slug={slug}
                    order={order}
                    battalions={battalions}
                    sectors={sectors.data?.results ?? []}
                  />
                ))}
              </ul>
            ) : (
              <p>No order waits for approval.</p>
            )}
            <h3>Decided</h3>
            {decided.length ? (
              <ul className="cards side-orders">
                {decided.map((order) => (
                  <li key={order.id} className="card">
                    <span className="tag">{order.status_label}</span> {order.side_name}: {order.words}{" "}
                    <span className="muted">day {order.day}</span>
                    {order.reason ? <p className="reason">{order.reason}</p> : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p>None yet.</p>
            )}
          </>
        );
      }}
    </QueryView>
  );
}

export function OrdersPage() {
  const { campaign, isUmpire } = useOutletContext<CampaignContext>();
  return (
    <section aria-labelledby="orders-title">
      <h2 id="orders-title">{isUmpire ? "Orders: the approval queue" : "Your side's sealed orders"}</h2>
      <p className="muted">
        Sealed: only your side and the umpire read them. The umpire applies each approved order through the campaign's
        own checks; withdrawals, attachments and detachments are carried out in the night phase.
      </p>
      {isUmpire ? (
        <ApprovalQueue campaign={campaign} />
      ) : campaign.side != null ? (
        <PlayerOrders campaign={campaign} />
      ) : (
        <p>Observers have no orders to give.</p>
      )}
    </section>
  );
}
