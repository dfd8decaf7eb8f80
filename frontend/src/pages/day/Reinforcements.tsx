/** Forces off the table: when and where each is due, postponed or scheduled as the API offers. */
import { useId, useState } from "react";
import { type Schemas } from "../../api/client";
import { usePostpone, useReinforcements, useSchedule } from "../../api/day";
import { useSectors } from "../../api/lists";
import { FieldErrors, InputField, fieldErrorsOf } from "../../components/FieldErrors";
import { ErrorNotice, QueryView } from "../../components/status";
import { sideName } from "../../lib/sides";
import { plural } from "../../lib/words";

type Campaign = Schemas["Campaign"];

function PostponeForm({ slug, force, today }: { slug: string; force: Schemas["Reinforcement"]; today: number }) {
  const id = useId();
  const [day, setDay] = useState(String(Math.max(force.arrival_day ?? 0, today) + 1));
  const postpone = usePostpone(slug, force.id);
  const errors = fieldErrorsOf(postpone.error).day ?? [];
  return (
    <form
      className="inline-fields"
      aria-label={`Postpone ${force.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        postpone.mutate(Number(day));
      }}
    >
      <InputField
        id={`${id}-day`}
        label="To day"
        messages={errors}
        type="number"
        min={1}
        value={day}
        onChange={(e) => setDay(e.target.value)}
      />
      <button type="submit" disabled={postpone.isPending}>
        Postpone
      </button>
      {postpone.isError && !errors.length ? <ErrorNotice error={postpone.error} /> : null}
    </form>
  );
}

/** Schedule a force off the table to arrive on a day, at one of the campaign's sectors. */
export function ScheduleForm({ campaign, forces }: { campaign: Campaign; forces: Schemas["Reinforcement"][] }) {
  const id = useId();
  const candidates = forces.filter((force) => force.actions.includes("schedule"));
  const sectors = useSectors(campaign.slug, candidates.length > 0);
  const [forceId, setForceId] = useState("");
  const [day, setDay] = useState(String(Math.max(campaign.current_day ?? 1, 1)));
  const [zone, setZone] = useState("");
  const schedule = useSchedule(campaign.slug);
  const errors = fieldErrorsOf(schedule.error);
  if (!candidates.length) return null;
  return (
    <form
      aria-label="Schedule a reinforcement"
      onSubmit={(event) => {
        event.preventDefault();
        schedule.mutate({ force_id: forceId, day: Number(day), zone });
      }}
    >
      <h3>Schedule a reinforcement</h3>
      <div className="inline-fields">
        <div className="field">
          <label htmlFor={`${id}-force`}>Force</label>
          <select
            id={`${id}-force`}
            value={forceId}
            aria-describedby={`${id}-force-errors`}
            onChange={(e) => setForceId(e.target.value)}
          >
            <option value="">choose a force</option>
            {candidates.map((force) => (
              <option key={force.id} value={force.id}>
                {force.name} ({sideName(campaign, force.side)}, {force.arrival_status_label.toLowerCase()})
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-force-errors`} messages={[...(errors.force_id ?? []), ...(errors.force ?? [])]} />
        </div>
        <InputField
          id={`${id}-day`}
          label="Due on day"
          messages={errors.day ?? []}
          type="number"
          min={1}
          value={day}
          onChange={(e) => setDay(e.target.value)}
        />
        <div className="field">
          <label htmlFor={`${id}-zone`}>Entry zone</label>
          <select
            id={`${id}-zone`}
            value={zone}
            aria-describedby={`${id}-zone-errors`}
            onChange={(e) => setZone(e.target.value)}
          >
            <option value="">none yet</option>
            {(sectors.data?.results ?? []).map((sector) => (
              <option key={sector.id} value={sector.name}>
                {sector.name}
              </option>
            ))}
          </select>
          <FieldErrors id={`${id}-zone-errors`} messages={errors.zone ?? []} />
        </div>
        <button type="submit" disabled={schedule.isPending || !forceId}>
          Schedule
        </button>
      </div>
      {schedule.isError && !Object.keys(errors).length ? <ErrorNotice error={schedule.error} /> : null}
    </form>
  );
}

export function Reinforcements({ campaign }: { campaign: Campaign }) {
  const slug = campaign.slug;
  const reinforcements = useReinforcements(slug);
  return (
    <section aria-labelledby="reinforcements" className="card">
      <h2 id="reinforcements">Reinforcements</h2>
      <QueryView query={reinforcements} what="the reinforcements">
        {(page) => (
          <>
            {page.results.length ? (
              <ul className="reinforcements">
                {page.results.map((force) => (
                  <li key={force.id}>
                    <strong>{force.name}</strong> <span className="muted">({sideName(campaign, force.side)})</span>:{" "}
                    {force.arrival_status_label}
                    {force.arrival_day ? `, day ${force.arrival_day}` : ""}
                    {force.arrival_zone ? `, at ${force.arrival_zone}` : ""}
                    {force.arrival_attempts ? `, ${plural(force.arrival_attempts, "attempt")}` : ""}
                    {force.actions.includes("postpone") ? (
                      <PostponeForm slug={slug} force={force} today={campaign.current_day ?? 0} />
                    ) : null}
                  </li>
                ))}
              </ul>
            ) : (
              <p>No force is off the table.</p>
            )}
            <ScheduleForm campaign={campaign} forces={page.results} />
          </>
        )}
      </QueryView>
    </section>
  );
}

