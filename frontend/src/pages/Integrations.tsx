import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { Field, ShownOnce } from "../components/Field";
import { fieldErrorsOf } from "../components/FieldErrors";
import { ErrorNotice, QueryView } from "../components/status";
import { useCampaign } from "../session";

type WebhookEvent = Schemas["WebhookEventEnum"];
type Side = Schemas["Campaign"]["sides"][number];

function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" }) : "never";
}

function KeyForm({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [side, setSide] = useState("");
  const [canWrite, setCanWrite] = useState(false);
  const [key, setKey] = useState(idempotencyKey);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/api-keys/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body: { name, side: side ? Number(side) : null, can_write: canWrite },
        }),
      ),
    onSuccess: () => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys(slug) });
    },
  });
  const fields = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <form className="card" onSubmit={submit} noValidate aria-label="New API key">
      <h3>New API key</h3>
      <div className="filters">
        <Field id="key-name" label="Who uses it, for what" errors={fields.name}>
          <input id="key-name" value={name} onChange={(e) => setName(e.target.value)} aria-describedby="key-name-errors" />
        </Field>
        <Field id="key-side" label="Sees as" errors={fields.side}>
          <select id="key-side" value={side} onChange={(e) => setSide(e.target.value)} aria-describedby="key-side-errors">
            <option value="">The public (an observer)</option>
            {sides.map((s) => (
              <option key={s.id} value={s.id}>
                A player of {s.name}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <label>
        <input type="checkbox" checked={canWrite} onChange={(e) => setCanWrite(e.target.checked)} /> May make the
        umpire's changes (only without a side)
      </label>
      <p className="field-errors" id="key-can-write-errors">
        {(fields.can_write ?? []).join(" ")}
      </p>
      {create.error && !Object.keys(fields).length ? <ErrorNotice error={create.error} /> : null}
      <button type="submit" disabled={create.isPending}>
        Create the key
      </button>
      {create.data?.key ? (
        <ShownOnce
          label="The new key"
          value={create.data.key}
          note="Send it as “Authorization: Api-Key …”. It is shown only now: store it."
        />
      ) : null}
    </form>
  );
}

function ApiKeysSection({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const keys = useQuery({
    queryKey: queryKeys.apiKeys(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/api-keys/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 100 } },
        }),
      ),
  });
  const revoke = useMutation({
    mutationFn: (prefix: string) =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/api-keys/{prefix}/revoke/", {
          params: { path: { campaign_slug: slug, prefix } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys(slug) }),
  });
  const sideName = (id: number | null | undefined) => sides.find((s) => s.id === id)?.name;
  return (
    <section aria-labelledby="keys-heading">
      <h2 id="keys-heading">API keys</h2>
      <p>For other apps: a scoreboard, a club site. Each key sees what its side's player (or the public) sees.</p>
      {revoke.error ? <ErrorNotice error={revoke.error} /> : null}
      <QueryView query={keys} what="the API keys">
        {(page) =>
          page.results.length ? (
            <ul className="cards api-keys">
              {page.results.map((apiKey) => (
                <li key={apiKey.prefix} className="card" aria-label={`API key ${apiKey.name}`}>
                  <strong>{apiKey.name}</strong>{" "}
                  <span className="muted">
                    sees as {sideName(apiKey.side) ? `a player of ${sideName(apiKey.side)}` : "the public"}
                    {apiKey.can_write ? ", may write" : ""} · made {when(apiKey.created)}
                  </span>{" "}
                  {apiKey.revoked ? (
                    <span className="tag">Revoked</span>
                  ) : apiKey.expired ? (
                    <span className="tag">Expired</span>
                  ) : (
                    <button
                      type="button"
                      onClick={() => revoke.mutate(apiKey.prefix)}
                      disabled={revoke.isPending}
                      aria-label={`Revoke ${apiKey.name}`}
                    >
                      Revoke
                    </button>
                  )}
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted">No API keys yet.</p>
          )
        }
      </QueryView>
      <KeyForm slug={slug} sides={sides} />
    </section>
  );
}

function Deliveries({ slug, webhook }: { slug: string; webhook: Schemas["Webhook"] }) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: queryKeys.deliveries(slug, webhook.id),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/webhooks/{webhook_pk}/deliveries/", {
          params: { path: { campaign_slug: slug, webhook_pk: webhook.id }, query: { page_size: 20 } },
        }),
      ),
    // A delivery is sent by a worker: look again while one is on its way.
    refetchInterval: (query) => (query.state.data?.results.some((d) => d.sending) ? 1000 : false),
  });
  // The row's actions come from the API (retry a failed post; publish or discard a held one).
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: string }) => {
      const params = { path: { campaign_slug: slug, webhook_pk: webhook.id, id } };
      if (action === "publish")
        return unwrap(
          api.POST("/api/v1/campaigns/{campaign_slug}/webhooks/{webhook_pk}/deliveries/{id}/publish/", { params }),
        );
      if (action === "discard")
        return unwrap(
          api.POST("/api/v1/campaigns/{campaign_slug}/webhooks/{webhook_pk}/deliveries/{id}/discard/", { params }),
        );
      return unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/webhooks/{webhook_pk}/deliveries/{id}/retry/", { params }),
      );
    },
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(slug, webhook.id) }),
  });
  return (
    <QueryView query={deliveries} what="the deliveries">
      {(page) =>
        page.results.length ? (
          <ul className="deliveries" aria-label={`Deliveries to ${webhook.url}`}>
            {act.error ? <ErrorNotice error={act.error} /> : null}
            {page.results.map((delivery) => (
              <li key={delivery.id}>
                {delivery.event_label}: <strong>{delivery.status_label}</strong> after {delivery.attempts ?? 0}{" "}
                {delivery.attempts === 1 ? "attempt" : "attempts"}
                {delivery.response_status ? `, answered ${delivery.response_status}` : ""}
                {delivery.error ? <span className="line"> {delivery.error}</span> : null}
                {delivery.next_attempt_at ? (
                  <span className="line"> Next attempt {when(delivery.next_attempt_at)}</span>
                ) : null}{" "}
                {delivery.actions.map((action, index) => (
                  <button
                    key={action}
                    type="button"
                    onClick={() => act.mutate({ id: delivery.id, action })}
                    disabled={act.isPending}
                  >
                    {delivery.actions_labels[index]}
                  </button>
                ))}
              </li>
            ))}
          </ul>
        ) : (
          <p className="muted">Nothing sent yet.</p>
        )
      }
    </QueryView>
  );
}

function WebhookCard({ slug, webhook }: { slug: string; webhook: Schemas["Webhook"] }) {
  const queryClient = useQueryClient();
  const ping = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/webhooks/{id}/ping/", {
          params: { path: { campaign_slug: slug, id: webhook.id } },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.deliveries(slug, webhook.id) }),
  });
  return (
    <li className="card webhook" aria-label={`Webhook ${webhook.url}`}>
      <p className="line">{webhook.url}</p>
      <p>
        {webhook.kind_label}, for {webhook.audience_label}
        {webhook.hold_for_approval ? <span className="tag">Posts wait for an umpire's approval</span> : null}
      </p>
      <p>
        {webhook.events_labels.join(", ")}
        {webhook.active === false ? <span className="tag">Switched off</span> : null}
      </p>
      {webhook.previous_secret_until ? (
        <p>The secret it had before also signs until {when(webhook.previous_secret_until)}.</p>
      ) : null}
      {ping.error ? <ErrorNotice error={ping.error} /> : null}
      <button type="button" onClick={() => ping.mutate()} disabled={ping.isPending}>
        Send a test event
      </button>
      <h4>Deliveries</h4>
      <Deliveries slug={slug} webhook={webhook} />
    </li>
  );
}

/** A select's options: the API's words for each code of a vocabulary list. */
function TermOptions({ terms }: { terms: ReturnType<typeof useTerms> }) {
  return terms.map(({ value, label }) => (
    <option key={value} value={value}>
      {label}
    </option>
  ));
}

function WebhookForm({ slug, sides }: { slug: string; sides: Side[] }) {
  const queryClient = useQueryClient();
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>([]);
  const [kind, setKind] = useState<Schemas["WebhookKindEnum"]>("json");
  const [audience, setAudience] = useState<Schemas["WebhookAudienceEnum"]>("umpires");
  const [side, setSide] = useState("");
  const [held, setHeld] = useState(false);
  const webhookEvents = useTerms("webhook_event");
  const kinds = useTerms("webhook_kind");
  const audiences = useTerms("webhook_audience");
  const [key, setKey] = useState(idempotencyKey);
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/webhooks/", {
          params: { path: { campaign_slug: slug }, header: { "Idempotency-Key": key } },
          body: { url, events, kind, audience, side: side ? Number(side) : null, hold_for_approval: held },
        }),
      ),
    onSuccess: () => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks(slug) });
    },
  });
  const fields = fieldErrorsOf(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = (verb: WebhookEvent, on: boolean) =>
    setEvents((all) => (on ? [...all, verb] : all.filter((v) => v !== verb)));
  return (
    <form className="card" onSubmit={submit} noValidate aria-label="New webhook">
      <h3>New webhook</h3>
      <Field id="webhook-url" label="Address (https://…)" errors={fields.url}>
        <input
          id="webhook-url"
          type="url"
          inputMode="url"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-describedby="webhook-url-errors"
        />
      </Field>
      <Field id="webhook-kind" label="It is" errors={fields.kind}>
        <select
          id="webhook-kind"
          value={kind}
          onChange={(e) => setKind(e.target.value as Schemas["WebhookKindEnum"])}
          aria-describedby="webhook-kind-errors"
        >
          <TermOptions terms={kinds} />
        </select>
      </Field>
      <Field id="webhook-audience" label="It reads as" errors={fields.audience}>
        <select
          id="webhook-audience"
          value={audience}
          onChange={(e) => setAudience(e.target.value as Schemas["WebhookAudienceEnum"])}
          aria-describedby="webhook-audience-errors"
        >
          <TermOptions terms={audiences} />
        </select>
      </Field>
      <Field id="webhook-side" label="Whose side (for one side)" errors={fields.side}>
        <select
          id="webhook-side"
          value={side}
          onChange={(e) => setSide(e.target.value)}
          aria-describedby="webhook-side-errors"
        >
          <option value="">None</option>
          {sides.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </Field>
      <label className="choice">
        <input type="checkbox" checked={held} onChange={(e) => setHeld(e.target.checked)} /> Hold each post until an
        umpire publishes it
      </label>
      <fieldset aria-describedby="webhook-events-errors">
        <legend>Send when</legend>
        {webhookEvents.map(({ value, label }) => {
          const verb = value as WebhookEvent;
          return (
            <label key={verb} className="choice">
              <input type="checkbox" checked={events.includes(verb)} onChange={(e) => toggle(verb, e.target.checked)} />{" "}
              {label}
            </label>
          );
        })}
        <span id="webhook-events-errors" className="field-errors" role={fields.events ? "alert" : undefined}>
          {(fields.events ?? []).join(" ")}
        </span>
      </fieldset>
      {create.error && !Object.keys(fields).length ? <ErrorNotice error={create.error} /> : null}
      <button type="submit" disabled={create.isPending}>
        Create the webhook
      </button>
      {create.data?.secret ? (
        <ShownOnce
          label="Signing secret"
          value={create.data.secret}
          note="Check each delivery's X-Campaign-Signature with it. It is shown only now."
        />
      ) : null}
    </form>
  );
}

function WebhooksSection({ slug, sides }: { slug: string; sides: Side[] }) {
  const webhooks = useQuery({
    queryKey: queryKeys.webhooks(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/webhooks/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 100 } },
        }),
      ),
  });
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
      <p>
        Other apps and Discord channels are told of the campaign's events as they happen, with what the audience
        they read as may see.
      </p>
      <QueryView query={webhooks} what="the webhooks">
        {(page) =>
          page.results.length ? (
            <ul className="cards webhooks">
              {page.results.map((webhook) => (
                <WebhookCard key={webhook.id} slug={slug} webhook={webhook} />
              ))}
            </ul>
          ) : (
            <p className="muted">No webhooks yet.</p>
          )
        }
      </QueryView>
      <WebhookForm slug={slug} sides={sides} />
    </section>
  );
}

/** The umpire's page for other apps: API keys and webhooks. */
export function IntegrationsPage() {
  const { campaign, isUmpire } = useCampaign();
  if (!isUmpire) {
    return <p className="error">Only the umpires manage API keys and webhooks.</p>;
  }
  return (
    <section className="integrations">
      <h1>API keys and webhooks</h1>
      <ApiKeysSection slug={campaign.slug} sides={campaign.sides} />
      <WebhooksSection slug={campaign.slug} sides={campaign.sides} />
    </section>
  );
}
