import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { offered } from "../api/campaign";
import { api, unwrap, type Schemas } from "../api/client";
import { useBattles, useOrderOfBattle, useSectors } from "../api/lists";
import { queryKeys } from "../api/queryKeys";
import { asRecord, type BattleReport } from "../api/types";
import { BattleForm } from "../components/BattleForm";
import { DraftComparison, SideDraft } from "../components/BattleDrafts";
import { PaperLinks } from "../components/Papers";
import { ReportForm } from "../components/ReportForm";
import { SetupForm } from "../components/SetupForm";
import { battalionsIn } from "../lib/oob";
import { Masked, QueryView } from "../components/status";
import { sideName } from "../lib/sides";
import { useCampaign } from "../session";

type Battle = Schemas["Battle"];

function byDay(battles: Battle[]): [number, Battle[]][] {
  const days = new Map<number, Battle[]>();
  for (const battle of battles) days.set(battle.day, [...(days.get(battle.day) ?? []), battle]);
  return [...days.entries()].sort(([a], [b]) => b - a);
}

/** The umpire's "New battle" button and form, while the campaign offers to create a battle. */
function NewBattle({ battles }: { battles: readonly Battle[] }) {
  const { campaign } = useCampaign();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const oob = useOrderOfBattle(campaign.slug, open);
  const sectors = useSectors(campaign.slug, open);
  if (!offered(campaign, "create_battle")) return null;
  if (!open)
    return (
      <p>
        <button type="button" onClick={() => setOpen(true)}>
          New battle…
        </button>
      </p>
    );
  return (
    <QueryView query={oob} what="the battalions">
      {(tree) => (
        <BattleForm
          campaign={campaign}
          sectors={sectors.data?.results ?? []}
          battalions={battalionsIn(tree.forces)}
          battles={battles}
          onCreated={(battle) => navigate(`/campaigns/${campaign.slug}/battles/${battle.id}`)}
        />
      )}
    </QueryView>
  );
}

export function BattlesPage() {
  const { campaign, isUmpire } = useCampaign();
  const battles = useBattles(campaign.slug);
  return (
    <section>
      <h1>Battles</h1>
      {isUmpire && battles.data ? <NewBattle battles={battles.data.results} /> : null}
      <QueryView query={battles} what="battles">
        {(page) =>
          page.results.length ? (
            byDay(page.results).map(([day, list]) => (
              <section key={day}>
                <h2>Day {day}</h2>
                <ul className="cards">
                  {list.map((battle) => (
                    <li key={battle.id} className="card">
                      <Link to={`/campaigns/${campaign.slug}/battles/${battle.id}`}>
                        <strong>{battle.sector_name}</strong>
                      </Link>{" "}
                      <span className="tag">{battle.status_label}</span>
                      <p className="muted">
                        {battle.battle_type_label}: {sideName(campaign, battle.attacker)} attacks{" "}
                        {sideName(campaign, battle.defender)} · {battle.battalions.join(", ") || "no battalions seen"}
                      </p>
                    </li>
                  ))}
                </ul>
              </section>
            ))
          ) : (
            <p>No battles yet.</p>
          )
        }
      </QueryView>
    </section>
  );
}

/** The battles this one continues and those it feeds, as links. */
function BattleChain({ battle, all, slug }: { battle: Battle; all: Battle[]; slug: string }) {
  const find = (id: string) => all.find((b) => b.id === id);
  const earlier: Battle[] = [];
  for (let previous = battle.continues ? find(battle.continues) : undefined; previous; ) {
    earlier.unshift(previous);
    previous = previous.continues ? find(previous.continues) : undefined;
  }
  const later = all.filter((b) => b.continues === battle.id);
  const link = (b: Battle) => (
    <Link to={`/campaigns/${slug}/battles/${b.id}`}>
      Day {b.day}: {b.sector_name}
    </Link>
  );
  if (!earlier.length && !later.length && !battle.feeds.length) return null;
  return (
    <nav aria-label="Linked battles" className="chain">
      <h2>Linked battles</h2>
      <ol>
        {earlier.map((b) => (
          <li key={b.id}>{link(b)}</li>
        ))}
        <li aria-current="page">
          Day {battle.day}: {battle.sector_name}
        </li>
        {later.map((b) => (
          <li key={b.id}>{link(b)}</li>
        ))}
      </ol>
      {battle.feeds.length ? (
        <p>
          Feeds:{" "}
          {battle.feeds.map((id) => {
            const fed = find(id);
            return <span key={id}>{fed ? link(fed) : "a battle you do not read"} </span>;
          })}
        </p>
      ) : null}
    </nav>
  );
}

/** A set-up result's sentence; fuel supply is rolled per battalion, so its result is one
 * sentence per battalion code. */
function setupText(result: Record<string, unknown>): string | null {
  const text = result.outcome_text ?? result.line;
  if (text !== null && text !== undefined) return String(text);
  const perBattalion = Object.entries(result).map(([code, value]) => [code, asRecord(value).outcome_text]);
  if (!perBattalion.length || perBattalion.some(([, line]) => line === undefined || line === null)) return null;
  return perBattalion.map(([code, line]) => `${code}: ${String(line)}`).join("; ");
}

/** Each set-up result under its title and the side it was rolled for ("key@Side" steps are one
 * side's; the others were rolled once for both). */
function SetupResults({ setup }: { setup: Record<string, unknown> }) {
  const entries = Object.entries(setup);
  if (!entries.length) return <p className="muted">No set-up rolls yet (or none you may see).</p>;
  return (
    <dl className="setup">
      {entries.map(([label, value]) => {
        const result = asRecord(value);
        const text = setupText(result);
        const side = label.includes("@") ? label.slice(label.indexOf("@") + 1) : "both sides";
        return (
          <div key={label}>
            <dt>
              {String(result.title ?? label)} · <span className="side-label">{side}</span>
            </dt>
            <dd>{text === null ? <span className="masked">hidden</span> : text}</dd>
          </div>
        );
      })}
    </dl>
  );
}

function ReportView({ report }: { report: BattleReport }) {
  return (
    <ul>
      {(report.battalions ?? []).map((line) => (
        <li key={line.code}>
          <strong>{line.code}</strong>: destroyed {line.destroyed?.join(", ") || "none"}; suppressed{" "}
          {line.suppressed?.join(", ") || "none"}; activation points {line.activation_points_spent ?? 0}; barrage
          rounds {line.barrage_rounds_spent ?? 0}
          {line.objectives?.length ? `; objectives ${line.objectives.map((o) => o.name).join(", ")}` : ""}
          {line.fuel_state ? `; fuel ${line.fuel_state}` : ""}
        </li>
      ))}
    </ul>
  );
}

export function BattleDetailPage() {
  const { campaign, isUmpire } = useCampaign();
  const battleId = useParams().battleId ?? "";
  const battles = useBattles(campaign.slug);
  const battle = useQuery({
    queryKey: queryKeys.battle(campaign.slug, battleId),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/battles/{id}/", {
          params: { path: { campaign_slug: campaign.slug, id: battleId } },
        }),
      ),
  });
  // A player of one of the battle's sides drafts its report (rules notes C-20): the API names their side.
  const drafter = battle.data?.draft_side != null;
  const oob = useOrderOfBattle(campaign.slug, isUmpire || drafter);
  return (
    <QueryView query={battle} what="the battle">
      {(data) => {
        const stands: Record<string, Schemas["Stand"][]> = {};
        // The fuel of the battalions whose report gives it, as the API says (else no report field).
        const fuel: Record<string, string> = {};
        for (const force of oob.data?.forces ?? [])
          for (const group of force.battlegroups)
            for (const battalion of group.battalions) {
              stands[battalion.code] = battalion.stands;
              if (battalion.reports_fuel && battalion.fuel_state)
                fuel[battalion.code] = battalion.fuel_state_label ?? battalion.fuel_state;
            }
        const report = data.report as BattleReport | null;
        const reports = data.actions.includes("report");
        return (
          <section>
            <h1>
              {data.sector_name} <span className="tag">{data.status_label}</span>
            </h1>
            <p className="muted">
              Day {data.day} · {data.battle_type_label}: {sideName(campaign, data.attacker)} attacks{" "}
              {sideName(campaign, data.defender)}
              {data.attacker_decided_by != null
                ? ` · ${sideName(campaign, data.attacker_decided_by)} won the attacker decision roll`
                : ""}
            </p>
            <p>Battalions: {data.battalions.join(", ") || <Masked value={null} />}</p>
            <BattleChain battle={data} all={battles.data?.results ?? []} slug={campaign.slug} />
            <PaperLinks papers={data.papers} />
            <h2>1943 set-up</h2>
            <SetupResults setup={data.setup} />
            {data.actions.includes("set_up") ? <SetupForm campaign={campaign} battle={data} /> : null}
            <h2>Report</h2>
            {report ? <ReportView report={report} /> : <p className="muted">Not reported yet.</p>}
            {drafter ? (
              <QueryView query={oob} what="the battalions' stands">
                {() => <SideDraft slug={campaign.slug} battle={data} stands={stands} fuel={fuel} sides={campaign.sides} />}
              </QueryView>
            ) : null}
            {reports ? <DraftComparison key={data.id} slug={campaign.slug} battle={data} /> : null}
            {reports ? (
              <QueryView query={oob} what="the battalions' stands">
                {() => <ReportForm key={data.id} slug={campaign.slug} battle={data} stands={stands} sides={campaign.sides} fuel={fuel} />}
              </QueryView>
            ) : null}
          </section>
        );
      }}
    </QueryView>
  );
}
