/** Links to a side's printable papers (PDF, fog-filtered by the API as the side's players see
 * the campaign), for the sides the API says the reader prints for (`prints_for`). */
import type { Schemas } from "../api/client";

type Side = Schemas["Campaign"]["sides"][number];

function printableSides(campaign: Schemas["Campaign"], among: number[] | null = null): Side[] {
  return campaign.sides.filter(
    (side) => campaign.prints_for.includes(side.id) && (among === null || among.includes(side.id)),
  );
}

function PaperLinks({ label, links }: { label: string; links: [string, string][] }) {
  if (!links.length) return null;
  return (
    <nav aria-label={label} className="papers">
      <span className="muted">{label}:</span>
      {links.map(([href, text]) => (
        <a key={href} href={href} target="_blank" rel="noopener">
          {text}
        </a>
      ))}
    </nav>
  );
}

/** The briefings of the day under way, and the chronicle of the campaign so far (printed for the reader). */
export function BriefingLinks({ campaign }: { campaign: Schemas["Campaign"] }) {
  const day = campaign.current_day ?? 0;
  if (day < 1) return null;
  const base = `/api/v1/campaigns/${campaign.slug}/days/${day}/briefing/`;
  const links = printableSides(campaign).map((side): [string, string] => [
    `${base}?side=${side.id}`,
    `${side.name}'s briefing for day ${day} (PDF)`,
  ]);
  if (campaign.chronicle_url) links.push([campaign.chronicle_url, "The chronicle so far (PDF)"]);
  return <PaperLinks label="Print" links={links} />;
}

/** A battle's packets, one per side fighting it. */
export function PacketLinks({ campaign, battle }: { campaign: Schemas["Campaign"]; battle: Schemas["Battle"] }) {
  const base = `/api/v1/campaigns/${campaign.slug}/battles/${battle.id}/packet/`;
  const links = printableSides(campaign, [battle.attacker, battle.defender]).map((side): [string, string] => [
    `${base}?side=${side.id}`,
    `${side.name}'s battle packet (PDF)`,
  ]);
  return <PaperLinks label="Print" links={links} />;
}
