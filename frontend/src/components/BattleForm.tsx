import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, idempotencyKey, unwrap, type Schemas } from "../api/client";
import { queryKeys } from "../api/queryKeys";
import { useTerms } from "../api/vocabulary";
import { FieldErrors, SubmitErrors, placedErrors } from "./FieldErrors";

type Battle = Schemas["Battle"];
type BattleType = Schemas["BattleTypeEnum"];

// The picker's choice that names a new table instead of a sector (map-less campaigns only).
const NEW_TABLE = "new";

/** Where the battle is fought: one of the campaign's sectors, or, in a campaign without a map,
 * a table named here (the API refuses a new name on a map). */
function SectorField({
  sectors,
  sector,
  name,
  onChange,
  messages,
}: {
  sectors: readonly Schemas["Sector"][];
  sector: string;
  name: string;
  onChange: (sector: string, name: string) => void;
  messages: string[];
}) {
  return (
    <>
      <div className="field">
        <label htmlFor="battle-sector">Sector</label>
        <select
          id="battle-sector"
          value={sector}
          onChange={(e) => onChange(e.target.value, name)}
          aria-invalid={messages.length > 0}
          aria-describedby="battle-sector-errors"
        >
          <option value="">choose…</option>
          {sectors.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name} ({option.kind_label.toLowerCase()}
              {option.owner_label ? `, held by ${option.owner_label}` : ""})
            </option>
          ))}
          <option value={NEW_TABLE}>another table (name it)</option>
        </select>
        <FieldErrors id="battle-sector-errors" messages={messages} />
      </div>
      {sector === NEW_TABLE ? (
        <div className="field">
          <label htmlFor="battle-sector-name">Table name</label>
          <input
            id="battle-sector-name"
            value={name}
            onChange={(e) => onChange(sector, e.target.value)}
            aria-invalid={messages.length > 0}
            aria-describedby="battle-sector-errors"
            autoComplete="off"
          />
        </div>
      ) : null}
    </>
  );
}

function sectorOf(sector: string, name: string): Pick<Schemas["BattleCreateInputRequest"], "sector" | "sector_name"> {
  if (sector === NEW_TABLE) return { sector_name: name.trim() };
  return { sector: sector ? Number(sector) : null };
}

interface Draft {
  sector: string;
  sectorName: string;
  battleType: BattleType;
  attacker: number;
  defender: number;
  battalions: string[];
  continues: string;
  feeds: string[];
}

/** The umpire's new battle: the sector, its type, who attacks, the battalions of each side, and
 * which earlier battle it continues or which battles it feeds. */
export function BattleForm({
  campaign,
  sectors,
  battalions,
  battles,
  onCreated,
}: {
  campaign: Schemas["Campaign"];
  sectors: readonly Schemas["Sector"][];
  battalions: readonly Schemas["BattalionTree"][];
  battles: readonly Battle[];
  onCreated?: (battle: Battle) => void;
}) {
  const queryClient = useQueryClient();
  const battleTypes = useTerms("battle_type");
  const [first, second] = campaign.sides;
  const [draft, setDraft] = useState<Draft>({
    sector: "",
    sectorName: "",
    battleType: "Local Attack",
    attacker: first?.id ?? 0,
    defender: second?.id ?? 0,
    battalions: [],
    continues: "",
    feeds: [],
  });
  const [key, setKey] = useState(idempotencyKey);
  const change = (part: Partial<Draft>) => setDraft({ ...draft, ...part });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST("/api/v1/campaigns/{campaign_slug}/battles/", {
          params: { path: { campaign_slug: campaign.slug }, header: { "Idempotency-Key": key } },
          body: {
            ...sectorOf(draft.sector, draft.sectorName),
            battle_type: draft.battleType,
            attacker_id: draft.attacker,
            defender_id: draft.defender,
            battalion_codes: draft.battalions,
            continues_id: draft.continues || null,
            feeds_ids: draft.feeds,
          },
        }),
      ),
    onSuccess: (battle) => {
      setKey(idempotencyKey());
      void queryClient.invalidateQueries({ queryKey: queryKeys.battles(campaign.slug) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.campaign(campaign.slug) });
      onCreated?.(battle);
    },
  });
  const { errorsFor, errorsUnder, unplaced } = placedErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const toggle = <T,>(list: T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const fighting = [draft.attacker, draft.defender];
  const sideSelect = (name: "attacker" | "defender", label: string) => (
    <div className="field">
      <label htmlFor={`battle-${name}`}>{label}</label>
      <select
        id={`battle-${name}`}
        value={draft[name]}
        onChange={(e) => change({ [name]: Number(e.target.value) })}
        aria-describedby={`battle-${name}-errors`}
      >
        {campaign.sides.map((side) => (
          <option key={side.id} value={side.id}>
            {side.name}
          </option>
        ))}
      </select>
      <FieldErrors id={`battle-${name}-errors`} messages={errorsFor(`${name}_id`)} />
    </div>
  );
  const linkable = [...battles].sort((a, b) => b.day - a.day);
  return (
    <form className="battle-form" onSubmit={submit} noValidate aria-label="New battle">
      <h2>New battle</h2>
      <SectorField
        sectors={sectors}
        sector={draft.sector}
        name={draft.sectorName}
        onChange={(sector, sectorName) => change({ sector, sectorName })}
        messages={errorsFor("sector", "sector_name")}
      />
      <div className="field">
        <label htmlFor="battle-type">Battle type</label>
        <select
          id="battle-type"
          value={draft.battleType}
          onChange={(e) => change({ battleType: e.target.value as BattleType })}
          aria-describedby="battle-type-errors"
        >
          {battleTypes.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </select>
        <FieldErrors id="battle-type-errors" messages={errorsFor("battle_type")} />
      </div>
      {sideSelect("attacker", "Attacker")}
      {sideSelect("defender", "Defender")}
      {campaign.sides
        .filter((side) => fighting.includes(side.id))
        .map((side) => (
          <fieldset key={side.id}>
            <legend>Battalions of {side.name}</legend>
            <ul className="checklist">
              {battalions
                .filter((battalion) => battalion.side === side.id)
                .map((battalion) => (
                  <li key={battalion.id}>
                    <label>
                      <input
                        type="checkbox"
                        checked={draft.battalions.includes(battalion.code)}
                        onChange={(e) =>
                          change({ battalions: toggle(draft.battalions, battalion.code, e.target.checked) })
                        }
                      />{" "}
                      {battalion.code}
                      {battalion.name ? ` ${battalion.name}` : ""}
                      {battalion.in_reserve ? " (in reserve)" : ""}
                    </label>
                  </li>
                ))}
            </ul>
          </fieldset>
        ))}
      <FieldErrors id="battle-battalions-errors" messages={errorsUnder("battalion_codes")} />
      <div className="field">
        <label htmlFor="battle-continues">Continues the battle of</label>
        <select
          id="battle-continues"
          value={draft.continues}
          onChange={(e) => change({ continues: e.target.value })}
          aria-describedby="battle-continues-errors"
        >
          <option value="">no earlier battle</option>
          {linkable.map((battle) => (
            <option key={battle.id} value={battle.id}>
              Day {battle.day}: {battle.sector_name}
            </option>
          ))}
        </select>
        <FieldErrors id="battle-continues-errors" messages={errorsFor("continues_id")} />
      </div>
      {linkable.length ? (
        <fieldset>
          <legend>Feeds (battles its forces leave it for)</legend>
          <ul className="checklist">
            {linkable.map((battle) => (
              <li key={battle.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={draft.feeds.includes(battle.id)}
                    onChange={(e) => change({ feeds: toggle(draft.feeds, battle.id, e.target.checked) })}
                  />{" "}
                  Day {battle.day}: {battle.sector_name}
                </label>
              </li>
            ))}
          </ul>
          <FieldErrors id="battle-feeds-errors" messages={errorsUnder("feeds_ids")} />
        </fieldset>
      ) : null}
      <SubmitErrors error={create.error} unplaced={unplaced()} />
      <button type="submit" disabled={create.isPending}>
        {create.isPending ? "Creating…" : "Create battle"}
      </button>
    </form>
  );
}
