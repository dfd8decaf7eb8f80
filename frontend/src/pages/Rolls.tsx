import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { cursorOf } from "../api/cursor";
import { queryKeys, type RollQuery } from "../api/queryKeys";
import { LoadMore } from "../components/LoadMore";
import { RollCard } from "../components/RollCard";
import { RollOverrideForm } from "../components/RollOverrideForm";
import { QueryView } from "../components/status";
import { useCampaign } from "../session";

type Segment = Schemas["DaySegmentEnum"];

const FILTERS = ["day", "segment", "battle", "force", "procedure"] as const;
type Filter = (typeof FILTERS)[number];

/** The segments the campaign has played, in playing order, with the API's labels. */
function useSegments(slug: string): [Segment, string][] {
  const days = useQuery({
    queryKey: queryKeys.days(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/days/", {
          params: { path: { campaign_slug: slug }, query: { page_size: 500 } },
        }),
      ),
  });
  const played = new Map<Segment, [number, string]>();
  for (const day of days.data?.results ?? [])
    for (const segment of day.segments) played.set(segment.segment, [segment.order, segment.segment_label]);
  return [...played.entries()].sort(([, [a]], [, [b]]) => a - b).map(([code, [, label]]) => [code, label]);
}

function toQuery(params: URLSearchParams): RollQuery {
  const numberOf = (name: Filter) => (params.get(name) ? Number(params.get(name)) : undefined);
  return {
    day: numberOf("day"),
    segment: (params.get("segment") || undefined) as Segment | undefined,
    battle: numberOf("battle"),
    force: numberOf("force"),
    procedure: params.get("procedure") || undefined,
  };
}

export function RollsPage() {
  const { campaign, isUmpire } = useCampaign();
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Record<Filter, string>>(
    () => Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])) as Record<Filter, string>,
  );
  const query = toQuery(params);
  const segments = useSegments(campaign.slug);
  const rolls = useInfiniteQuery({
    queryKey: queryKeys.rolls(campaign.slug, query),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/rolls/", {
          params: { path: { campaign_slug: campaign.slug }, query: { ...query, cursor: pageParam } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => cursorOf(page.next),
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams(Object.fromEntries(Object.entries(draft).filter(([, value]) => value.trim() !== "")));
  };
  const text = (name: Filter, label: string, type: "number" | "text" = "number") => (
    <div className="field">
      <label htmlFor={`filter-${name}`}>{label}</label>
      <input
        id={`filter-${name}`}
        type={type}
        min={type === "number" ? 1 : undefined}
        value={draft[name]}
        onChange={(e) => setDraft({ ...draft, [name]: e.target.value })}
      />
    </div>
  );
  return (
    <section>
      <h1>Roll log</h1>
      <form className="filters" onSubmit={apply} aria-label="Filter rolls">
        {text("day", "Day")}
        <div className="field">
          <label htmlFor="filter-segment">Segment</label>
          <select
            id="filter-segment"
            value={draft.segment}
            onChange={(e) => setDraft({ ...draft, segment: e.target.value })}
          >
            <option value="">any</option>
            {segments.map(([code, label]) => (
              <option key={code} value={code}>
                {label}
              </option>
            ))}
          </select>
        </div>
        {text("battle", "Battle id")}
        {text("force", "Force id")}
        {text("procedure", "Procedure", "text")}
        <button type="submit">Filter</button>
      </form>
      <QueryView query={rolls} what="the roll log">
        {(data) => {
          const entries = data.pages.flatMap((page) => page.results);
          return entries.length ? (
            <div className="rolls">
              {entries.map((roll) => (
                <div key={roll.id}>
                  <RollCard roll={roll} />
                  {isUmpire && !roll.override_of ? (
                    <details className="override-box">
                      <summary>Override this roll</summary>
                      <RollOverrideForm slug={campaign.slug} roll={roll} />
                    </details>
                  ) : null}
                </div>
              ))}
            </div>
          ) : (
            <p>No rolls match.</p>
          );
        }}
      </QueryView>
      <LoadMore query={rolls} />
    </section>
  );
}
