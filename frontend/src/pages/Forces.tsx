import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { Masked, QueryView, StatusIcon } from "../components/status";
import { sideName } from "../lib/sides";
import { useCampaign } from "../session";

type Stand = Schemas["Stand"];

function StandItem({ stand }: { stand: Stand }) {
  return (
    <li className="stand">
      <StatusIcon status={stand.status} label={stand.status_label} /> {stand.label}{" "}
      <span className="muted">{stand.stand_type_label}</span>
      {stand.equipment_name ? <span className="muted"> · {stand.equipment_name}</span> : null}
      {stand.grade ? <span className="muted"> · grade {stand.grade}</span> : null}
      {stand.attached ? (
        <span className="tag">attached{stand.attachment_kind_label ? `: ${stand.attachment_kind_label}` : ""}</span>
      ) : null}
    </li>
  );
}

export function BattalionNode({ battalion }: { battalion: Schemas["BattalionTree"] }) {
  return (
    <li className="battalion">
      <details>
        <summary>
          <strong>{battalion.code}</strong> {battalion.name}
          {battalion.in_reserve ? <span className="tag">reserve</span> : null}
        </summary>
        <dl className="facts">
          <dt>Quality</dt>
          <dd>
            <Masked value={battalion.quality} />
          </dd>
          <dt>Stands at start</dt>
          <dd>
            <Masked value={battalion.stands_started} />
          </dd>
          <dt>Supply</dt>
          <dd>
            <Masked value={battalion.supply_situation_label} />
          </dd>
          <dt>Fuel</dt>
          <dd>
            <Masked value={battalion.fuel_state_label} />
          </dd>
          <dt>Activation</dt>
          <dd>
            <Masked value={battalion.activation_label} />
          </dd>
          <dt>Ammo low markers</dt>
          <dd>
            <Masked value={battalion.ammo_low_markers} />
          </dd>
        </dl>
        {battalion.stands.length ? (
          <ul className="stands" aria-label={`stands of ${battalion.code}`}>
            {battalion.stands.map((stand) => (
              <StandItem key={stand.id} stand={stand} />
            ))}
          </ul>
        ) : (
          <p className="masked">Stands unknown</p>
        )}
      </details>
    </li>
  );
}

function ForceStatusPanel({ slug, forceId }: { slug: string; forceId: number }) {
  const status = useQuery({
    queryKey: queryKeys.forceStatus(slug, forceId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/forces/{id}/status/", {
          params: { path: { campaign_slug: slug, id: forceId } },
        }),
      ),
  });
  return (
    <QueryView query={status} what="the force status">
      {(data) => (
        <div className="force-status">
          <h4>Strength by stand type</h4>
          {data.strength ? (
            <table>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">OK</th>
                  <th scope="col">Suppressed</th>
                  <th scope="col">Destroyed</th>
                </tr>
              </thead>
              <tbody>
                {Object.entries(data.strength).map(([type, counts]) => (
                  <tr key={type}>
                    <th scope="row">{data.strength_labels?.[type] ?? type}</th>
                    <td>{counts.ok ?? 0}</td>
                    <td>{counts.suppressed ?? 0}</td>
                    <td>{counts.destroyed ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="masked">Strength hidden</p>
          )}
          <h4>Battalions</h4>
          <ul>
            {data.battalions.map((b) => (
              <li key={b.code}>
                <strong>{b.code}</strong> {b.location_label}
                {b.battle ? ` (${b.battle.sector_name})` : ""} · stands{" "}
                {b.stands ? `${b.stands.ok} ok, ${b.stands.suppressed} suppressed, ${b.stands.destroyed} destroyed` : <Masked value={null} />}{" "}
                · supply <Masked value={b.supply_situation_label} /> · fuel <Masked value={b.fuel_state_label} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </QueryView>
  );
}

function ForceNode({ force, campaign }: { force: Schemas["ForceTree"]; campaign: Schemas["Campaign"] }) {
  const [showStatus, setShowStatus] = useState(false);
  return (
    <li className="card force">
      <h2>
        {force.name} <span className="muted">({sideName(campaign, force.side)}, {force.nation_label})</span>
      </h2>
      <dl className="facts">
        <dt>Leader</dt>
        <dd>
          <Masked value={force.leader_name} /> (<Masked value={force.leader_rating_label} />)
        </dd>
        <dt>Arrival</dt>
        <dd>
          <Masked value={force.arrival_status_label} />
          {force.arrival_day ? `, day ${force.arrival_day}` : ""}
          {force.arrival_zone ? `, ${force.arrival_zone}` : ""}
          {force.deployment_zone ? ` (${force.deployment_zone})` : ""}
        </dd>
        <dt>Mobility</dt>
        <dd>
          <Masked value={force.mobility_label} />
        </dd>
      </dl>
      <button type="button" aria-expanded={showStatus} onClick={() => setShowStatus(!showStatus)}>
        {showStatus ? "Hide force status" : "Show force status"}
      </button>
      {showStatus ? <ForceStatusPanel slug={campaign.slug} forceId={force.id} /> : null}
      {force.battlegroups.map((group) => (
        <section key={group.id} className="battlegroup">
          <h3>
            {group.name} <span className="muted">{group.kind_label}</span>
          </h3>
          <ul className="battalions">
            {group.battalions.map((battalion) => (
              <BattalionNode key={battalion.id} battalion={battalion} />
            ))}
          </ul>
        </section>
      ))}
    </li>
  );
}

export function ForcesPage() {
  const { campaign } = useCampaign();
  const oob = useQuery({
    queryKey: queryKeys.oob(campaign.slug),
    queryFn: () =>
      unwrap(api.GET("/api/v1/campaigns/{campaign_slug}/oob/", { params: { path: { campaign_slug: campaign.slug } } })),
  });
  return (
    <section>
      <h1>Order of battle</h1>
      <p className="legend">
        <StatusIcon status="ok" /> OK <StatusIcon status="suppressed" /> Suppressed <StatusIcon status="destroyed" />{" "}
        Destroyed
      </p>
      <QueryView query={oob} what="the order of battle">
        {(data) => (
          <ul className="forces">
            {data.forces.map((force) => (
              <ForceNode key={force.id} force={force} campaign={campaign} />
            ))}
          </ul>
        )}
      </QueryView>
    </section>
  );
}
