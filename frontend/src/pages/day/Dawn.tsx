/** Dawn of the next day: battalions leaving reserve, their deployment casualties previewed, then a
 * confirmation. */
import { useId, useState, type FormEvent } from "react";
import { idempotencyKey, type Schemas } from "../../api/client";
import { useDawn, useDawnPreview } from "../../api/day";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { FieldErrors, InputField, fieldErrorsOf } from "../../components/FieldErrors";
import { ErrorNotice } from "../../components/status";

type Campaign = Schemas["Campaign"];
type Force = Schemas["ForceTree"];
type Battalion = Schemas["BattalionTree"];
type Deployment = Schemas["DeploymentInputRequest"];

function battalionsOf(forces: readonly Force[]): { battalion: Battalion; force: Force; group: string }[] {
  return forces.flatMap((force) =>
    force.battlegroups.flatMap((group) => group.battalions.map((battalion) => ({ battalion, force, group: group.name }))),
  );
}

interface DeploymentDraft {
  deploy: boolean;
  range: string;
  friendly: boolean;
}

function deploymentsOf(drafts: Record<string, DeploymentDraft>): Deployment[] {
  return Object.entries(drafts)
    .filter(([, draft]) => draft.deploy)
    .map(([battalion, draft]) => ({
      battalion,
      range_inches: draft.range.trim() === "" ? Number.NaN : Number(draft.range),
      friendly_intervening: draft.friendly,
    }));
}

function DeploymentPreview({ preview }: { preview: Schemas["DawnPreview"] }) {
  if (!preview.deployments.length) return <p>No battalion leaves reserve: dawn rolls the weather and the first segment only.</p>;
  return (
    <>
      <p className="muted">
        What the deployment chart does ({preview.rule}); the chart is read, not rolled, so the dawn does exactly this.
      </p>
      <ul className="preview" aria-label="Deployment casualties">
        {preview.deployments.map((deployment) => (
          <li key={deployment.battalion} className="card">
            <strong>{deployment.battalion}</strong> {deployment.battalion_name}
            <dl className="facts">
              <dt>Range to the nearest enemy</dt>
              <dd>
                {deployment.range_inches}″{deployment.friendly_intervening ? ", friendly units intervene" : ""}
              </dd>
              {deployment.side_order !== null ? (
                <>
                  <dt>Ordered by</dt>
                  <dd>its side's sealed order, approved</dd>
                </>
              ) : null}
              <dt>Chart</dt>
              <dd>{deployment.cell}</dd>
              <dt>Casualties</dt>
              <dd>
                {deployment.destroyed + deployment.suppressed + deployment.retreat_inches === 0 ? (
                  "none"
                ) : (
                  <ul className="plain">
                    {deployment.stands_destroyed.length ? <li>destroyed: {deployment.stands_destroyed.join(", ")}</li> : null}
                    {deployment.stands_suppressed.length ? (
                      <li>suppressed: {deployment.stands_suppressed.join(", ")}</li>
                    ) : null}
                    {deployment.retreat_inches ? <li>retreats {deployment.retreat_inches}″</li> : null}
                  </ul>
                )}
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Dawn the next day: battalions leaving reserve picked with their range to the nearest enemy,
 * the deployment chart's casualties previewed, then a confirmation (dawn cannot be undone). */
export function DawnForm({ campaign, forces }: { campaign: Campaign; forces: readonly Force[] }) {
  const id = useId();
  const next = (campaign.current_day ?? 0) + 1;
  const reserves = battalionsOf(forces).filter(({ battalion }) => battalion.in_reserve);
  const [drafts, setDrafts] = useState<Record<string, DeploymentDraft>>({});
  const [confirming, setConfirming] = useState(false);
  const [dawnKey] = useState(idempotencyKey);
  const deployments = deploymentsOf(drafts);
  const body = { deployments };
  const preview = useDawnPreview(campaign.slug);
  const dawn = useDawn(campaign.slug, dawnKey, () => setConfirming(false));
  // The dawn applies what the preview showed only while the form still says the same.
  const previewed = preview.isSuccess && JSON.stringify(preview.variables) === JSON.stringify(body);
  const errors = fieldErrorsOf(preview.error ?? dawn.error);
  const draftOf = (code: string): DeploymentDraft => drafts[code] ?? { deploy: false, range: "", friendly: false };
  const change = (code: string, patch: Partial<DeploymentDraft>) =>
    setDrafts({ ...drafts, [code]: { ...draftOf(code), ...patch } });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    preview.mutate(body);
  };
  return (
    <section aria-labelledby={`${id}-dawn`} className="card">
      <h2 id={`${id}-dawn`}>Dawn of day {next}</h2>
      <form onSubmit={submit} aria-label={`Dawn of day ${next}`}>
        {reserves.length ? (
          <fieldset>
            <legend>Battalions leaving reserve</legend>
            {reserves.map(({ battalion, force }) => {
              const code = battalion.code;
              const draft = draftOf(code);
              const index = deployments.findIndex((d) => d.battalion === code);
              const at = `deployments[${index}]`;
              const rangeErrors = index >= 0 ? [...(errors[`${at}.range_inches`] ?? [])] : [];
              const battalionErrors = index >= 0 ? [...(errors[`${at}.battalion`] ?? [])] : [];
              return (
                <div key={code} className="deployment" role="group" aria-label={`Deploy ${code}`}>
                  <label className="check">
                    <input
                      type="checkbox"
                      checked={draft.deploy}
                      aria-describedby={`${id}-${code}-errors`}
                      onChange={(e) => change(code, { deploy: e.target.checked })}
                    />{" "}
                    {code} {battalion.name} <span className="muted">({force.name})</span>
                  </label>
                  <FieldErrors id={`${id}-${code}-errors`} messages={battalionErrors} />
                  {draft.deploy ? (
                    <div className="inline-fields">
                      <InputField
                        id={`${id}-${code}-range`}
                        label="Range to the nearest enemy (inches)"
                        messages={rangeErrors}
                        type="number"
                        min={0}
                        step="any"
                        inputMode="decimal"
                        value={draft.range}
                        onChange={(e) => change(code, { range: e.target.value })}
                      />
                      <label className="check">
                        <input
                          type="checkbox"
                          checked={draft.friendly}
                          onChange={(e) => change(code, { friendly: e.target.checked })}
                        />{" "}
                        Friendly units intervene
                      </label>
                    </div>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        ) : (
          <p>No battalion is in reserve.</p>
        )}
        <p className="actions">
          <button type="submit" disabled={preview.isPending}>
            Preview the dawn
          </button>
          <button type="button" disabled={!previewed || dawn.isPending} onClick={() => setConfirming(true)}>
            Dawn day {next}…
          </button>
        </p>
        {!previewed ? <p className="muted">Preview the dawn to see its deployment casualties before you dawn.</p> : null}
      </form>
      {preview.isError ? <ErrorNotice error={preview.error} /> : null}
      {previewed && preview.data ? <DeploymentPreview preview={preview.data} /> : null}
      {confirming ? (
        <ConfirmDialog
          title={`Dawn day ${next}?`}
          confirmLabel={`Dawn day ${next}`}
          busy={dawn.isPending}
          onConfirm={() => dawn.mutate(body)}
          onCancel={() => setConfirming(false)}
        >
          <p>
            The weather, the first segment's initiative, wind and turns are rolled
            {deployments.length
              ? `, and ${deployments.map((d) => d.battalion).join(", ")} leave reserve with the casualties shown`
              : ""}
            . A dawn cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {dawn.isError ? <ErrorNotice error={dawn.error} /> : null}
    </section>
  );
}

