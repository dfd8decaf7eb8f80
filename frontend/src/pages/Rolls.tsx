import { useInfiniteQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";
import { api, unwrap, type Schemas } from "../api/client";
import { cursorOf } from "../api/cursor";
import { useBattles, useDays, useForces, useRollProcedures } from "../api/lists";
import { queryKeys, type RollQuery } from "../api/queryKeys";
import { LoadMore } from "../components/LoadMore";
import { ChoiceFilter } from "../components/ChoiceFilter";
import { DiceFairness } from "../components/DiceFairness";
import { RollCard } from "../components/RollCard";
import { RollOverrideForm } from "../components/RollOverrideForm";
import { QueryView } from "../components/status";
import { useCampaign } from "../session";

type Segment = Schemas["DaySegmentEnum"];

const FILTERS = ["day", "segment", "battle", "force", "procedure"] as const;
type Filter = (typeof FILTERS)[number];
/** A filter's choices: the value the API filters by, and what people read. */
type Choices = [string, string][];

function toQuery(params: URLSearchParams): RollQuery {
  const numberOf = (name: Filter) => (params.get(name) ? Number(params.get(name)) : undefined);
  return {
    day: numberOf("day"),
    segment: (params.get("segment") || undefined) as Segment | undefined,
    battle: params.get("battle") || undefined,
    force: params.get("force") || undefined,
    procedure: params.get("procedure") || undefined,
    order: "newest",
  };
}

/** Every filter's choices by name, from what the reader sees: days and segments played, battles,
 * forces, and the procedures of the rolls they may read. */
function useChoices(slug: string): Record<Filter, Choices> {
  const days = useDays(slug).data?.results ?? [];
  const battles = useBattles(slug).data?.results ?? [];
  const forces = useForces(slug).data?.results ?? [];
  const procedures = useRollProcedures(slug).data ?? [];
  const segments = new Map<Segment, [number, string]>();
  for (const day of days)
    for (const segment of day.segments) segments.set(segment.segment, [segment.order, segment.segment_label]);
  return {
    day: days.map((day) => [String(day.number), `Day ${day.number}`]),
    segment: [...segments.entries()].sort(([, [a]], [, [b]]) => a - b).map(([code, [, label]]) => [code, label]),
    battle: battles.map((battle) => [String(battle.id), `${battle.sector_name}, day ${battle.day}`]),
    force: forces.map((force) => [String(force.id), force.name]),
    procedure: procedures.map((entry) => [entry.procedure, entry.title]),
  };
}

const LABELS: Record<Filter, string> = {
  day: "Day",
  segment: "Segment",
  battle: "Battle",
  force: "Force",
  procedure: "Procedure",
};

export function RollsPage() {
  const { campaign, isUmpire } = useCampaign();
  const [params, setParams] = useSearchParams();
  const [draft, setDraft] = useState<Record<Filter, string>>(
    () => Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])) as Record<Filter, string>,
  );
  const query = toQuery(params);
  const choices = useChoices(campaign.slug);
  const rolls = useInfiniteQuery({
    queryKey: queryKeys.rolls(campaign.slug, query),
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/rolls/", {
          params: { path: { campaign_slug: campaign.slug }, query: { ...query, page_size: 50, cursor: pageParam } },
        }),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => cursorOf(page.next),
  });
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setParams(Object.fromEntries(Object.entries(draft).filter(([, value]) => value !== "")));
  };
  const clear = () => {
    setDraft(Object.fromEntries(FILTERS.map((name) => [name, ""])) as Record<Filter, string>);
    setParams({});
  };
  return (
    <section>
      <h1>Roll log</h1>
      <p className="muted">Newest first. Open a roll to see its dice, modifiers and rule.</p>
      <DiceFairness slug={campaign.slug} />
      <form className="filters" onSubmit={apply} aria-label="Filter rolls">
        {FILTERS.map((name) => (
          <ChoiceFilter
            key={name}
            id={`filter-${name}`}
            label={LABELS[name]}
            value={draft[name]}
            choices={choices[name]}
            onChange={(value) => setDraft({ ...draft, [name]: value })}
          />
        ))}
        <div className="actions">
          <button type="submit">Filter</button>
          <button type="button" className="secondary" onClick={clear}>
            Clear
          </button>
        </div>
      </form>
      <QueryView query={rolls} what="the roll log">
        {(data) => {
          const entries = data.pages.flatMap((page) => page.results);
          return entries.length ? (
            <ol className="rolls" aria-label="Rolls, newest first">
              {entries.map((roll) => (
                <li key={roll.id}>
                  <RollCard roll={roll} />
                  {isUmpire && !roll.override_of ? (
                    <details className="override-box">
                      <summary>Override this roll</summary>
                      <RollOverrideForm slug={campaign.slug} roll={roll} />
                    </details>
                  ) : null}
                </li>
              ))}
            </ol>
          ) : (
            <p>No rolls match.</p>
          );
        }}
      </QueryView>
      <LoadMore query={rolls} />
    </section>
  );
}
