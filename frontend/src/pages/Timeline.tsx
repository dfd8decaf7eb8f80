import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { useForces } from "../api/lists";
import { queryKeys, type TimelineQuery } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { ChoiceFilter } from "../components/ChoiceFilter";
import { Field } from "../components/Field";
import { fieldErrorsOf } from "../components/FieldErrors";
import { QueryView } from "../components/status";
import { useCampaign } from "../session";

type TimelineDay = Schemas["TimelineDay"];
type Kind = Schemas["TimelineEntryKindEnum"];

const FILTERS = ["side", "force", "kind"] as const;
type Filter = (typeof FILTERS)[number];

function toQuery(params: URLSearchParams): TimelineQuery {
  return {
    side: params.get("side") ? Number(params.get("side")) : undefined,
    force: params.get("force") || undefined,
    kind: (params.get("kind") || undefined) as Kind | undefined,
  };
}

/** The umpire's journal of a day: the whole text, saved over the one there was. */
function JournalForm({ day, label }: { day: TimelineDay; label: string }) {
  const { campaign } = useCampaign();
  const queryClient = useQueryClient();
  const [text, setText] = useState(day.day.journal);
  const id = `journal-${day.day.number}`;
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/campaigns/{campaign_slug}/days/{number}/journal/", {
          params: { path: { campaign_slug: campaign.slug, number: String(day.day.number) } },
          body: { text },
        }),
      ),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.timelines(campaign.slug) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="journal-form" onSubmit={submit} noValidate aria-label={`${label}, day ${day.day.number}`}>
      <Field id={id} label={label} errors={fieldErrorsOf(save.error).text}>
        <textarea
          id={id}
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${id}-errors`}
        />
      </Field>
      <button type="submit" disabled={save.isPending}>
        Save the journal
      </button>
      {save.isSuccess ? <span role="status"> Saved.</span> : null}
    </form>
  );
}

function Day({ day }: { day: TimelineDay }) {
  const { number, date, weather_label, segments, journal } = day.day;
  const writeJournal = day.actions.indexOf("write_journal");
  return (
    <article className="card timeline-day" aria-labelledby={`day-${number}`}>
      <h2 id={`day-${number}`}>
        Day {number} <span className="muted">({date})</span>
      </h2>
      <p>
        Weather: {weather_label || "not rolled yet"}
        {segments.map((segment) => (
          <span key={segment.id} className="tag">
            {segment.segment_label}
            {segment.turns != null ? `: ${segment.turns} turns` : ""}
            {segment.wind_text ? `, ${segment.wind_text}` : ""}
          </span>
        ))}
      </p>
      {journal ? (
        <blockquote className="journal" aria-label={`Journal of day ${number}`}>
          {journal}
        </blockquote>
      ) : null}
      {writeJournal >= 0 ? <JournalForm day={day} label={day.actions_labels[writeJournal] ?? ""} /> : null}
      {day.entries.length ? (
        <ol className="timeline-entries" aria-label={`What happened on day ${number}`}>
          {day.entries.map((entry, index) => (
            <li key={index}>
              <span className="tag">{entry.kind_label}</span> {entry.text}
              {entry.links.map((link) => (
                <Link key={link.href} to={link.href} className="entry-link">
                  {link.text}
                </Link>
              ))}
            </li>
          ))}
        </ol>
      ) : (
        <p className="muted">Nothing you may read matches on this day.</p>
      )}
      <p className="timeline-links">
        {day.rolls} rolls you may read.{" "}
        {day.links.map((link) => (
          <Link key={link.href} to={link.href} className="entry-link">
            {link.text}
          </Link>
        ))}
      </p>
    </article>
  );
}

export function TimelinePage() {
  const { campaign } = useCampaign();
  const [params, setParams] = useSearchParams();
  const query = toQuery(params);
  const forces = useForces(campaign.slug).data?.results ?? [];
  const kinds = useTerms("timeline_kind");
  const timeline = useQuery({
    queryKey: queryKeys.timeline(campaign.slug, query),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/timeline/", {
          params: { path: { campaign_slug: campaign.slug }, query },
        }),
      ),
  });
  const choices: Record<Filter, [string, string][]> = {
    side: campaign.sides.map((side) => [String(side.id), side.name]),
    force: forces.map((force) => [String(force.id), force.name]),
    kind: kinds.map((term) => [term.value, term.label]),
  };
  const labels: Record<Filter, string> = { side: "Side", force: "Force", kind: "Kind of entry" };
  const choose = (name: Filter, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next);
  };
  return (
    <section>
      <h1>Timeline</h1>
      <p className="muted">The campaign day by day, as you may read it. The umpire's journal is for everybody.</p>
      <form className="filters" aria-label="Filter the timeline" onSubmit={(e) => e.preventDefault()}>
        {FILTERS.map((name) => (
          <ChoiceFilter
            key={name}
            id={`timeline-${name}`}
            label={labels[name]}
            value={params.get(name) ?? ""}
            choices={choices[name]}
            onChange={(value) => choose(name, value)}
          />
        ))}
      </form>
      <QueryView query={timeline} what="the timeline">
        {(data) =>
          data.days.length ? (
            data.days.map((day) => <Day key={day.day.number} day={day} />)
          ) : (
            <p>No day has dawned yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}
