import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { FieldErrors, fieldErrorsOf } from "../components/FieldErrors";
import { MapCanvas } from "../components/MapCanvas";
import { MapReplay, type MapMoment } from "../components/MapReplay";
import { objectivesOf, useVictory } from "../components/Victory";
import { ErrorNotice, QueryView } from "../components/status";
import { neighbours, type MapDocument, type MapSector } from "../lib/map";
import { sideName } from "../lib/sides";
import { useCampaign, type CampaignContext } from "../session";

type Campaign = CampaignContext["campaign"];

function useMapDocument(slug: string, at: MapMoment | null = null) {
  return useQuery({
    queryKey: at ? [...queryKeys.map(slug), at.day, at.moment] : queryKeys.map(slug),
    queryFn: () =>
      unwrap(
        api.GET("/api/v1/campaigns/{campaign_slug}/map/", {
          params: { path: { campaign_slug: slug }, query: at ? { day: at.day, moment: at.moment } : {} },
        }),
      ),
    // While the replay moves on, the moment before stays drawn until the next one arrives.
    placeholderData: at ? keepPreviousData : undefined,
  });
}

/** After a move or a change of control: the map, and the lists that show sectors. */
function useMapWrite<T>(slug: string, write: (key: string) => Promise<T>) {
  const queryClient = useQueryClient();
  // One key per intended write: a retry after a lost answer is replayed, not applied twice.
  const [key, setKey] = useState(idempotencyKey);
  return useMutation({
    mutationFn: () => write(key),
    onSuccess: () => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.map(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.oob(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.battles(slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(slug) });
    },
  });
}

function Field({
  id,
  label,
  errors,
  children,
}: {
  id: string;
  label: string;
  errors: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldErrors id={`${id}-errors`} messages={errors} />
    </div>
  );
}

/** The error's message above Submit; the fields' own messages are next to their fields. */
function WriteOutcome({ error, done }: { error: unknown; done: string | null }) {
  if (error) return <ErrorNotice error={error} />;
  return done ? <p role="status">{done}</p> : null;
}

const OFF_MAP = "off-map";

type Movable = { value: string; kind: "force" | "fup" | "battalion"; id: string; label: string };

/** What the umpire may move from this sector: C Ops, forming-up points (one with its C Ops stands
 * on the C Ops' sector) and battalions. */
function movablesOn(map: MapDocument, sector: MapSector): Movable[] {
  const forces = map.forces.filter((force) => force.sector === sector.id);
  const formingUp = map.forces.filter(
    (force) => force.fup_sector === sector.id || (force.fup_sector == null && force.sector === sector.id),
  );
  return [
    ...forces.map((force) => ({
      value: `force-${force.id}`,
      kind: "force" as const,
      id: force.id,
      label: `C Ops of ${force.name}`,
    })),
    ...formingUp.map((force) => ({
      value: `fup-${force.id}`,
      kind: "fup" as const,
      id: force.id,
      label: `Forming-up point of ${force.name}`,
    })),
    ...map.battalions
      .filter((battalion) => battalion.sector === sector.id)
      .map((battalion) => ({
        value: `battalion-${battalion.id}`,
        kind: "battalion" as const,
        id: battalion.id,
        label: `Battalion ${battalion.code} ${battalion.name ?? ""}`.trim(),
      })),
  ];
}

/** Move a C Ops, a forming-up point or a battalion on this sector to an adjacent sector (C Ops and
 * battalions also off the map). */
function MoveForm({ slug, map, sector }: { slug: string; map: MapDocument; sector: MapSector }) {
  const units = movablesOn(map, sector);
  const destinations = neighbours(map, sector.id);
  const [unitValue, setUnitValue] = useState(units[0]?.value ?? "");
  const [destination, setDestination] = useState("");
  const unit = units.find((candidate) => candidate.value === unitValue);
  const move = useMapWrite<unknown>(slug, (key) => {
    if (!unit) throw new Error("Pick what to move.");
    const target = destination === OFF_MAP || destination === "" ? null : Number(destination);
    const params = { path: { campaign_slug: slug, id: unit.id }, header: { "Idempotency-Key": key } };
    return unit.kind === "battalion"
      ? unwrap(api.POST("/api/v1/campaigns/{campaign_slug}/battalions/{id}/move/", { params, body: { sector: target } }))
      : unwrap(
          api.POST("/api/v1/campaigns/{campaign_slug}/forces/{id}/move/", {
            params,
            body: { sector: target, forming_up_point: unit.kind === "fup" },
          }),
        );
  });
  if (!units.length) return <p className="muted">Nothing here to move.</p>;
  const fields = fieldErrorsOf(move.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    move.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Move from ${sector.name}`}>
      <h3>Move</h3>
      <Field id="move-unit" label="What moves" errors={fields.forming_up_point ?? []}>
        <select id="move-unit" value={unitValue} onChange={(e) => setUnitValue(e.target.value)}>
          {units.map((candidate) => (
            <option key={candidate.value} value={candidate.value}>
              {candidate.label}
            </option>
          ))}
        </select>
      </Field>
      <Field id="move-destination" label="To the adjacent sector" errors={fields.sector ?? []}>
        <select
          id="move-destination"
          value={destination}
          onChange={(e) => setDestination(e.target.value)}
          aria-invalid={(fields.sector ?? []).length > 0}
          aria-describedby="move-destination-errors"
        >
          <option value="">Pick a sector</option>
          {destinations.map((neighbour) => (
            <option key={neighbour.id} value={neighbour.id}>
              {neighbour.name}
            </option>
          ))}
          {unit?.kind === "battalion" ? <option value={OFF_MAP}>Off the map (reserve)</option> : null}
          {unit?.kind === "force" ? <option value={OFF_MAP}>Off the map</option> : null}
        </select>
      </Field>
      <WriteOutcome error={move.error} done={move.isSuccess ? "Moved." : null} />
      <button type="submit" disabled={move.isPending || !destination}>
        {move.isPending ? "Moving…" : "Move"}
      </button>
    </form>
  );
}

const CONTESTED = "contested";

/** Set who holds the sector (or contested), with the reason the umpire records. */
function ControlForm({ slug, campaign, sector }: { slug: string; campaign: Campaign; sector: MapSector }) {
  const [owner, setOwner] = useState(sector.owner == null ? CONTESTED : String(sector.owner));
  const [reason, setReason] = useState("");
  const control = useMapWrite(slug, (key) =>
    unwrap(
      api.POST("/api/v1/campaigns/{campaign_slug}/sectors/{id}/control/", {
        params: { path: { campaign_slug: slug, id: sector.id }, header: { "Idempotency-Key": key } },
        body: { owner: owner === CONTESTED ? null : Number(owner), reason },
      }),
    ),
  );
  const fields = fieldErrorsOf(control.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    control.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-label={`Control of ${sector.name}`}>
      <h3>Control</h3>
      <Field id="control-owner" label="Held by" errors={fields.owner ?? []}>
        <select
          id="control-owner"
          value={owner}
          onChange={(e) => setOwner(e.target.value)}
          aria-invalid={(fields.owner ?? []).length > 0}
          aria-describedby="control-owner-errors"
        >
          {campaign.sides.map((side) => (
            <option key={side.id} value={side.id}>
              {side.name}
            </option>
          ))}
          <option value={CONTESTED}>Contested</option>
        </select>
      </Field>
      <Field id="control-reason" label="Reason" errors={fields.reason ?? []}>
        <input
          id="control-reason"
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={(fields.reason ?? []).length > 0}
          aria-describedby="control-reason-errors"
        />
      </Field>
      <WriteOutcome error={control.error} done={control.isSuccess ? "Control set." : null} />
      <button type="submit" disabled={control.isPending}>
        {control.isPending ? "Saving…" : "Set control"}
      </button>
    </form>
  );
}

/** A battle on this contested sector, between battalions on it or next to it; then its page. */
function CreateBattleForm({
  campaign,
  map,
  sector,
}: {
  campaign: Campaign;
  map: MapDocument;
  sector: MapSector;
}) {
  const navigate = useNavigate();
  const near = new Set([sector.id, ...neighbours(map, sector.id).map((neighbour) => neighbour.id)]);
  const candidates = map.battalions.filter((battalion) => battalion.sector != null && near.has(battalion.sector));
  const [first, second] = campaign.sides;
  const battleTypes = useTerms("battle_type");
  const [battleType, setBattleType] = useState<Schemas["BattleTypeEnum"]>("Local Attack");
  const [attacker, setAttacker] = useState(String(first?.id ?? ""));
  const [defender, setDefender] = useState(String(second?.id ?? ""));
  const [codes, setCodes] = useState<string[]>([]);
  const create = useMapWrite(campaign.slug, (key) =>
    unwrap(
      api.POST("/api/v1/campaigns/{campaign_slug}/battles/", {
        params: { path: { campaign_slug: campaign.slug }, header: { "Idempotency-Key": key } },
        body: {
          sector: sector.id,
          battle_type: battleType,
          attacker_id: Number(attacker),
          defender_id: Number(defender),
          battalion_codes: codes,
        },
      }),
    ),
  );
  const fields = fieldErrorsOf(create.error);
  const errors = (name: string) => fields[name] ?? [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(undefined, {
      onSuccess: (battle) => navigate(`/campaigns/${campaign.slug}/battles/${battle.id}`),
    });
  };
  const sideSelect = (field: "attacker_id" | "defender_id", label: string, value: string, change: (v: string) => void) => (
    <Field id={`battle-${field}`} label={label} errors={errors(field)}>
      <select
        id={`battle-${field}`}
        value={value}
        onChange={(e) => change(e.target.value)}
        aria-invalid={errors(field).length > 0}
        aria-describedby={`battle-${field}-errors`}
      >
        {campaign.sides.map((side) => (
          <option key={side.id} value={side.id}>
            {side.name}
          </option>
        ))}
      </select>
    </Field>
  );
  return (
    <form onSubmit={submit} noValidate aria-label={`Battle at ${sector.name}`}>
      <h3>Create a battle here</h3>
      <FieldErrors id="battle-sector-errors" messages={errors("sector")} />
      <Field id="battle-type" label="Battle type" errors={errors("battle_type")}>
        <select
          id="battle-type"
          value={battleType}
          onChange={(e) => setBattleType(e.target.value as Schemas["BattleTypeEnum"])}
          aria-describedby="battle-type-errors"
        >
          {battleTypes.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </select>
      </Field>
      {sideSelect("attacker_id", "Attacker", attacker, setAttacker)}
      {sideSelect("defender_id", "Defender", defender, setDefender)}
      <fieldset aria-describedby="battle-battalions-errors">
        <legend>Battalions (on {sector.name} or next to it)</legend>
        {candidates.length ? (
          candidates.map((battalion) => (
            <label key={battalion.id} className="check">
              <input
                type="checkbox"
                checked={codes.includes(battalion.code)}
                onChange={(e) =>
                  setCodes(e.target.checked ? [...codes, battalion.code] : codes.filter((c) => c !== battalion.code))
                }
              />{" "}
              {battalion.code} {battalion.name} ({sideName(campaign, battalion.side)})
            </label>
          ))
        ) : (
          <p className="muted">No battalion on or next to {sector.name}.</p>
        )}
        <FieldErrors id="battle-battalions-errors" messages={errors("battalion_codes")} />
      </fieldset>
      <WriteOutcome error={create.error} done={null} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create the battle"}
      </button>
    </form>
  );
}

/** What is known of a sector (the API has already left out what fog hides), and the umpire's actions. */
export function SectorPanel({
  campaign,
  map,
  sector,
  isUmpire,
  objectiveOf = [],
  takeFocus = false,
}: {
  campaign: Campaign;
  map: MapDocument;
  sector: MapSector;
  isUmpire: boolean;
  /** The sides whose victory condition names this sector. */
  objectiveOf?: readonly string[];
  takeFocus?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus, sector.id]);
  const forces = map.forces.filter((force) => force.sector === sector.id);
  const formingUp = map.forces.filter((force) => force.fup_sector === sector.id);
  const battalions = map.battalions.filter((battalion) => battalion.sector === sector.id);
  const battles = map.battles.filter((battle) => battle.sector === sector.id);
  const sourceFor = map.supply.sides.filter((part) => part.sources.includes(sector.id)).map((part) => part.side);
  return (
    <section className="card sector-panel" aria-labelledby="sector-name">
      <h2 id="sector-name" ref={heading} tabIndex={-1}>
        {sector.name}
      </h2>
      <dl className="facts">
        <dt>Kind</dt>
        <dd>{sector.kind_label}</dd>
        <dt>Terrain</dt>
        <dd>{sector.terrain_label}</dd>
        <dt>Held by</dt>
        <dd>{sector.owner_label}</dd>
        <dt>Victory points</dt>
        <dd>{sector.victory_points}</dd>
        {objectiveOf.length ? (
          <>
            <dt>Victory objective of</dt>
            <dd>{objectiveOf.join(", ")}</dd>
          </>
        ) : null}
        {sourceFor.length ? (
          <>
            <dt>Source of supply for</dt>
            <dd>{sourceFor.map((side) => sideName(campaign, side)).join(", ")}</dd>
          </>
        ) : null}
      </dl>
      <h3>Forces</h3>
      {forces.length || formingUp.length ? (
        <ul>
          {forces.map((force) => (
            <li key={force.id}>
              {force.name} <span className="muted">({force.side_label})</span>
            </li>
          ))}
          {formingUp.map((force) => (
            <li key={`fup-${force.id}`}>
              {force.name} <span className="muted">({force.side_label}): forming-up point</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No force seen here.</p>
      )}
      <h3>Battalions</h3>
      {battalions.length ? (
        <ul>
          {battalions.map((battalion) => (
            <li key={battalion.id}>
              <strong>{battalion.code}</strong> {battalion.name}{" "}
              <span className="muted">({sideName(campaign, battalion.side)})</span>
              {battalion.supply_situation_label ? <span className="tag">{battalion.supply_situation_label}</span> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No battalion seen here.</p>
      )}
      <h3>Battles</h3>
      {battles.length ? (
        <ul>
          {battles.map((battle) => (
            <li key={battle.id}>
              <Link to={`/campaigns/${campaign.slug}/battles/${battle.id}`}>
                {sideName(campaign, battle.attacker)} attacks {sideName(campaign, battle.defender)}
              </Link>{" "}
              <span className="tag">{battle.status_label}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No battle here.</p>
      )}
      {isUmpire ? (
        <div className="umpire-actions">
          <MoveForm key={`move-${sector.id}`} slug={campaign.slug} map={map} sector={sector} />
          <ControlForm key={`control-${sector.id}`} slug={campaign.slug} campaign={campaign} sector={sector} />
          {sector.owner == null ? (
            <CreateBattleForm key={`battle-${sector.id}`} campaign={campaign} map={map} sector={sector} />
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

export function MapView({
  campaign,
  map,
  isUmpire,
  victory,
}: {
  campaign: Campaign;
  map: MapDocument;
  isUmpire: boolean;
  /** Where the campaign stands against its victory conditions (or how it ended), once loaded. */
  victory?: Schemas["Victory"];
}) {
  const [selected, setSelected] = useState<{ id: number; byKeyboard: boolean } | null>(null);
  const sector = map.sectors.find((candidate) => candidate.id === selected?.id);
  const objectives = objectivesOf(victory);
  // A map-less campaign (a version 1 pack) has only its battles' tables, placed nowhere.
  if (!map.sectors.some((candidate) => (candidate.x != null && candidate.y != null) || candidate.geometry != null)) {
    return <p>This campaign has no map: its scenario pack places no sector.</p>;
  }
  return (
    <>
      {victory ? (
        <p className={`map-victory${victory.finished ? " card result" : ""}`}>
          <strong>{victory.summary}</strong> {victory.end_text}{" "}
          <Link to={`/campaigns/${campaign.slug}`}>Each side's standing</Link>
        </p>
      ) : null}
      <div className="map-layout">
        <MapCanvas
          map={map}
          sides={campaign.sides}
          selected={selected?.id ?? null}
          onSelect={(id, byKeyboard) => setSelected({ id, byKeyboard })}
          objectives={objectives}
        />
        {sector ? (
          <SectorPanel
            campaign={campaign}
            map={map}
            sector={sector}
            isUmpire={isUmpire}
            objectiveOf={objectives.get(sector.id)}
            takeFocus={selected?.byKeyboard}
          />
        ) : (
          <p className="muted">Pick a sector on the map (or Tab to it and press Enter) to see what stands on it.</p>
        )}
      </div>
    </>
  );
}

export function MapPage() {
  const { campaign, isUmpire } = useCampaign();
  const live = useMapDocument(campaign.slug);
  const moments = live.data?.moments ?? [];
  // The moment the slider shows: null for the map as it stands now.
  const [shownIndex, setShownIndex] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const at = shownIndex != null ? (moments[shownIndex] ?? null) : null;
  const replay = useMapDocument(campaign.slug, at);
  const victory = useVictory(campaign.slug);
  const map = at ? replay : live;
  const show = useCallback(
    (index: number) => setShownIndex(index >= moments.length ? null : index),
    [moments.length],
  );
  return (
    <section>
      <h1>Map</h1>
      <MapReplay
        moments={moments}
        shown={shownIndex ?? moments.length}
        onShow={show}
        playing={playing}
        onPlaying={setPlaying}
      />
      <QueryView query={map} what="the map">
        {(data) =>
          at && data.day != null ? (
            <>
              {/* The moment drawn (the one before stays while the next loads), in the API's words. */}
              <p className="muted map-replay-note" role="status">
                {moments.find((kept) => kept.day === data.day && kept.moment === data.moment)?.title}: the map as{" "}
                {isUmpire ? "it stood" : "your side saw it"} then. Nothing can be changed here.
              </p>
              <MapView campaign={campaign} map={data} isUmpire={false} />
            </>
          ) : (
            <MapView campaign={campaign} map={data} isUmpire={isUmpire && !at} victory={victory.data} />
          )
        }
      </QueryView>
    </section>
  );
}
