/** The umpire's fog of war: for each side, which of its battalions the enemy has identified
 * (picked by name), and whether the enemy sees their strengths and battle results. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { asRecord } from "../api/types";
import { FieldErrors, fieldErrorsOf } from "../components/FieldErrors";
import { ErrorNotice, QueryView } from "../components/status";
import { useCampaign } from "../session";

type Side = Schemas["Side"];
type Force = Schemas["ForceTree"];

export interface FogSettings {
  identified_units: string[];
  strengths: boolean;
  battle_results: boolean;
}

/** A side's fog of war as the API stores it (a JSON object); unset means nothing revealed. */
export function fogOf(side: Side): FogSettings {
  const settings = asRecord(side.fog_of_war);
  const units = Array.isArray(settings.identified_units) ? settings.identified_units.map(String) : [];
  return {
    identified_units: units,
    strengths: settings.strengths === true,
    battle_results: settings.battle_results === true,
  };
}

export function FogPicker({
  slug,
  side,
  enemies,
  forces,
}: {
  slug: string;
  side: Side;
  enemies: string;
  forces: readonly Force[];
}) {
  const queryClient = useQueryClient();
  const id = useId();
  const [fog, setFog] = useState<FogSettings>(() => fogOf(side));
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT("/api/v1/campaigns/{campaign_slug}/sides/{id}/fog-of-war/", {
          params: { path: { campaign_slug: slug, id: side.id }, header: { "Idempotency-Key": idempotencyKey() } },
          body: fog,
        }),
      ),
    // What every reader sees changes: read everything again.
    onSuccess: () => void queryClient.invalidateQueries(),
  });
  const errors = fieldErrorsOf(save.error);
  const unitErrors = Object.entries(errors)
    .filter(([field]) => field.startsWith("identified_units"))
    .flatMap(([, messages]) => messages);
  const toggle = (code: string, on: boolean) =>
    setFog({
      ...fog,
      identified_units: on ? [...fog.identified_units, code] : fog.identified_units.filter((c) => c !== code),
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  const own = forces.filter((force) => force.side === side.id);
  return (
    <form className="card fog" aria-label={`Fog of war of ${side.name}`} onSubmit={submit}>
      <h2>
        What {enemies} {enemies.includes(" and ") ? "have" : "has"} identified of {side.name}
      </h2>
      <fieldset aria-describedby={`${id}-units-errors`}>
        <legend>Identified battalions of {side.name}</legend>
        {own.map((force) => (
          <div key={force.id} role="group" aria-label={force.name} className="battlegroup-pick">
            <p className="muted">{force.name}</p>
            {force.battlegroups.flatMap((group) =>
              group.battalions.map((battalion) => (
                <label key={battalion.id} className="check">
                  <input
                    type="checkbox"
                    checked={fog.identified_units.includes(battalion.code)}
                    onChange={(e) => toggle(battalion.code, e.target.checked)}
                  />{" "}
                  {battalion.code} {battalion.name}
                  {battalion.in_reserve ? <span className="tag">reserve</span> : null}
                </label>
              )),
            )}
          </div>
        ))}
        <FieldErrors id={`${id}-units-errors`} messages={unitErrors} />
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={fog.strengths} onChange={(e) => setFog({ ...fog, strengths: e.target.checked })} />{" "}
        {enemies} see{enemies.includes(" and ") ? "" : "s"} the identified battalions' stands
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={fog.battle_results}
          onChange={(e) => setFog({ ...fog, battle_results: e.target.checked })}
        />{" "}
        {enemies} see{enemies.includes(" and ") ? "" : "s"} their lines of battle reports
      </label>
      <p className="muted">An enemy battalion is seen only once it is on the table and out of reserve.</p>
      <button type="submit" disabled={save.isPending}>
        Save what {enemies} {enemies.includes(" and ") ? "see" : "sees"}
      </button>
      {save.isError ? <ErrorNotice error={save.error} /> : null}
      {save.isSuccess ? <p role="status">Saved.</p> : null}
    </form>
  );
}

export function FogOfWarPage() {
  const { campaign, isUmpire } = useCampaign();
  const slug = campaign.slug;
  const sides = useQuery({
    queryKey: queryKeys.sides(slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/sides/", { params: { path: { campaign_slug: slug } } })),
  });
  const oob = useQuery({
    queryKey: queryKeys.oob(slug),
    queryFn: () => unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: slug } } })),
  });
  if (!isUmpire) return <p>Only the umpires set the fog of war.</p>;
  return (
    <section>
      <h1>Fog of war</h1>
      <QueryView query={sides} what="the sides">
        {(page) => (
          <QueryView query={oob} what="the order of battle">
            {(tree) =>
              page.results.map((side) => (
                <FogPicker
                  key={side.id}
                  slug={slug}
                  side={side}
                  enemies={page.results
                    .filter((other) => other.id !== side.id)
                    .map((other) => other.name)
                    .join(" and ")}
                  forces={tree.forces}
                />
              ))
            }
          </QueryView>
        )}
      </QueryView>
    </section>
  );
}
