"""Supply lines on the campaign map (rules notes MS-01 to MS-04).

Each battalion on the map gets a situation proposed from the sectors its side holds
(``gb.map_supply_situation`` reads the traced line, with the club's settings). The umpire sees
the proposal, with each battalion's path and reason, and confirms it, overriding any battalion
with a reason; the night's first step applies the proposal again at nightfall, keeping the
umpire's overrides of that day, so replacements and the C Ops' action points follow the map as
it stands when the day ends, whether or not the umpire confirmed.

What wins (rules notes MS-07): the umpire's override of the day, with its reason; else the
situation the day's last confirmed battle report gave the battalion (the table judged it, the
umpire confirmed it); else the map's proposal.
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from campaign import models, selectors
from campaign.choices import CampaignStatus, DayStatus, EventVerb
from campaign.selectors import SupplyBattalion, SupplyForce, SupplyMap
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import procedure_run
from rules_engine.great_battles.night import MapSupplyReading
from rules_engine.vocab import SupplySituation, counted

MAP_SUPPLY = "gb.map_supply_situation"
# What an umpire may confirm for a battalion on the map (reserves are off it).
ON_MAP = (SupplySituation.OK, SupplySituation.SEPARATED, SupplySituation.ISOLATED)


@dataclass(frozen=True)
class BattalionSupply:
    battalion: SupplyBattalion
    proposed: SupplySituation
    reason: str
    path: list[int] | None  # sector ids from where it stands to the source; None: no line
    links_to_c_ops: int | None


@dataclass(frozen=True)
class ForceSupply:
    """A division's C Ops and its own line: cut off from every source, its action-point roll
    takes the variant's isolation penalty (GB-B-17)."""

    force: SupplyForce
    path: list[int] | None

    @property
    def isolated_from_source(self) -> bool:
        return self.path is None


@dataclass(frozen=True)
class SupplyProposal:
    drawn: SupplyMap
    battalions: list[BattalionSupply]
    forces: list[ForceSupply]  # the C Ops on the map


def supply_proposal(campaign: models.Campaign) -> SupplyProposal:
    """Every battalion's proposed situation, traced for the whole campaign in one pass: five
    queries and one search per side and per C Ops, whatever the number of battalions."""
    drawn = selectors.supply_map(campaign.pk)
    distances: dict[int, dict[int, int]] = {}  # force id → links from its C Ops
    forces = []
    for force in drawn.forces.values():
        if force.sector_id is None:
            continue
        lines = drawn.lines[force.side_id]
        distances[force.id] = lines.distances_from(force.sector_id)
        forces.append(ForceSupply(force, lines.path_to_source(force.sector_id)))
    battalions = []
    for battalion in drawn.battalions:
        force = drawn.forces[battalion.force_id]
        path = drawn.lines[battalion.side_id].path_to_source(battalion.sector_id)
        links = distances[force.id].get(battalion.sector_id) if force.id in distances else None
        reading: MapSupplyReading = procedure_run(
            campaign,
            MAP_SUPPLY,
            {
                "line_to_source": path is not None,
                "links_to_c_ops": links,
                "c_ops_on_map": force.sector_id is not None,
            },
            (),
        ).outcome
        battalions.append(BattalionSupply(battalion, reading.situation, reading.reason, path, links))
    return SupplyProposal(drawn, battalions, forces)


@dataclass(frozen=True)
class Reported:
    """A battalion's supply situation as the day's last confirmed battle report gave it."""

    situation: str
    battle: str  # where: "the battle at Hal Far"


def supply_reported(day: models.CampaignDay | None) -> dict[str, Reported]:
    """Each battalion's situation by code from the day's confirmed battle reports, the last
    reported winning (one query): at nightfall it wins over the map's proposal (MS-07)."""
    if day is None:
        return {}
    reported: dict[str, Reported] = {}
    battles = (
        models.Battle.objects.filter(day=day, report__isnull=False)
        .select_related("sector")
        .order_by("pk")
        .only("report", "sector__name")
    )
    for battle in battles:
        for entry in (battle.report or {}).get("battalions", []):
            if entry.get("supply_situation"):
                reported[entry["code"]] = Reported(
                    entry["supply_situation"], f"the battle at {battle.sector.name}"
                )
    return reported


@dataclass(frozen=True)
class ReviewedBattalion:
    """One battalion of the proposal the umpire reviews: what the map proposes, what the day's
    battle report said, what the umpire chose, and what the night will apply."""

    supply: BattalionSupply
    reported: Reported | None
    override: str | None
    line: str  # the traced line in words: the sectors' names from where it stands to its source

    @property
    def applies(self) -> str:
        if self.override is not None:
            return self.override
        return self.reported.situation if self.reported is not None else self.supply.proposed.value

    @property
    def applies_because(self) -> str:
        if self.override is not None:
            return "the umpire's override"
        if self.reported is not None:
            return f"reported after {self.reported.battle}"
        return "the map's proposal"


@dataclass(frozen=True)
class SupplyReview:
    """What the umpire confirms: today's proposal, and what they confirmed of it so far."""

    campaign: models.Campaign
    day: models.CampaignDay | None  # the day under way (None before day 1 dawns)
    proposal: SupplyProposal
    reported: Mapping[str, Reported]
    sector_names: Mapping[int, str]

    @property
    def situations(self) -> list[str]:
        """What the umpire may confirm for a battalion on the map."""
        return [situation.value for situation in ON_MAP]

    @property
    def actions(self) -> list[str]:
        """What the umpire may do with it now: confirm while the day is fought, before its night."""
        open_day = self.day is not None and self.day.status in (DayStatus.DAWN, DayStatus.DAY)
        # Traced only on a map whose pack lists sources of supply (the night's supply step too).
        traced = bool(self.proposal.drawn.ground.listed_sources) and bool(self.proposal.battalions)
        if open_day and self.campaign.status == CampaignStatus.ACTIVE and traced:
            return ["confirm"]
        return []

    @property
    def warning(self) -> str | None:
        """Said before the night starts while today's supply is unconfirmed; None otherwise."""
        if self.day is None or self.day.supply_confirmed_at is not None or not self.actions:
            return None
        count = len(self.proposal.battalions)
        return (
            f"Supply for day {self.day.number} is not confirmed: the night will apply the map's "
            f"proposal, with the day's battle reports, to {counted(count, 'battalion')}."
        )

    @property
    def chosen(self) -> Mapping[str, str]:
        return supply_kept(self.day) if self.day is not None else {}

    @property
    def overrides(self) -> list[dict[str, str]]:
        return [{"code": code, "situation": situation} for code, situation in sorted(self.chosen.items())]

    @property
    def battalions(self) -> list[ReviewedBattalion]:
        chosen = self.chosen
        return [
            ReviewedBattalion(
                entry,
                self.reported.get(entry.battalion.code),
                chosen.get(entry.battalion.code),
                " → ".join(self.sector_names[pk] for pk in entry.path)
                if entry.path
                else "no line to a source of supply",
            )
            for entry in self.proposal.battalions
        ]

    @property
    def sources(self) -> list[dict[str, Any]]:
        ground = self.proposal.drawn.ground
        return [
            {"side": side, "sectors": sorted(ground.sources(side))} for side in self.proposal.drawn.side_ids
        ]


def supply_review(campaign: models.Campaign) -> SupplyReview:
    day = campaign.days.filter(number=campaign.current_day).first()
    names = dict(models.Sector.objects.filter(campaign=campaign).values_list("pk", "name"))
    return SupplyReview(campaign, day, supply_proposal(campaign), supply_reported(day), names)


def supply_cops_isolated(campaign: models.Campaign) -> frozenset[int]:
    """The forces whose C Ops is "isolated from source of supply" for its action-point roll
    (GB-B-17): on the map, a C Ops with no line to a source (MS-01); anywhere, a division whose
    battalions on the table are all isolated as today's supply stands (the proposal with the
    umpire's confirmed overrides and an overrun's; off the map, their situations as set)."""
    proposal = supply_proposal(campaign)
    day = campaign.days.filter(number=campaign.current_day).first()
    final = _final(proposal, supply_kept(day) if day is not None else {}, supply_reported(day))
    situations: dict[int, set[str]] = defaultdict(set)
    on_table = models.Battalion.objects.filter(campaign=campaign, in_reserve=False).values_list(
        "pk", "battlegroup__force_id", "supply_situation"
    )
    for pk, force_id, situation in on_table:
        situations[force_id].add(final.get(pk, situation))
    cut_off = {force for force, held in situations.items() if held == {SupplySituation.ISOLATED.value}}
    return frozenset(cut_off | {f.force.id for f in proposal.forces if f.isolated_from_source})


def supply_isolate_tonight(day: models.CampaignDay, codes: Iterable[str]) -> None:
    """Battalions isolated tonight whatever their lines (a C Ops overrun): kept at nightfall as an
    umpire's override of the day is, and shown with the overrides in the proposal."""
    day.supply_overrun_isolated = sorted({*day.supply_overrun_isolated, *codes})
    day.save(update_fields=["supply_overrun_isolated"])


def supply_kept(day: models.CampaignDay) -> dict[str, str]:
    """The situations the night keeps over the map's lines (battalion code → situation): a C Ops
    overrun's isolation, and the umpire's last confirmation, which wins where it names a battalion."""
    overrun = dict.fromkeys(day.supply_overrun_isolated, SupplySituation.ISOLATED.value)
    return {**overrun, **day.supply_overrides}


def _situations_write(changed: Mapping[int, str]) -> None:
    """One UPDATE per situation for the battalions whose situation changes."""
    by_situation: dict[str, list[int]] = defaultdict(list)
    for pk, situation in changed.items():
        by_situation[situation].append(pk)
    for situation, pks in by_situation.items():
        models.Battalion.objects.filter(pk__in=pks).update(supply_situation=situation)


def _final(
    proposal: SupplyProposal, overrides: Mapping[str, str], reported: Mapping[str, Reported]
) -> dict[int, str]:
    """Each battalion's situation (MS-05): the umpire's where they chose one, else the day's
    confirmed battle report's, else the proposal's."""
    final = {}
    for entry in proposal.battalions:
        code = entry.battalion.code
        by_report = reported.get(code)
        final[entry.battalion.id] = overrides.get(
            code, by_report.situation if by_report is not None else entry.proposed.value
        )
    return final


def _counts(situations: Mapping[int, str]) -> str:
    counts = Counter(situations.values())
    return ", ".join(f"{counts[s.value]} {s.value}" for s in ON_MAP)


@transaction.atomic
def supply_confirm(
    campaign_id: int,
    actor: Actor,
    overrides: Sequence[Mapping[str, Any]] = (),
    expected_version: int | None = None,
) -> models.CampaignDay:
    """The umpire confirms today's supply proposal, overriding battalions with a reason each
    (``overrides``: ``{"battalion": id, "situation": ..., "reason": ...}``); the situations are
    written at once and the night applies the proposal again at nightfall with them kept."""
    campaign = campaign_lock(campaign_id, expected_version)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = campaign.days.filter(number=campaign.current_day).first()
    if day is None or day.status not in (DayStatus.DAWN, DayStatus.DAY):
        raise ConflictError(
            "supply is confirmed during a campaign day, before its night phase starts",
            field="day",
            code="no_day",
        )
    proposal = supply_proposal(campaign)
    on_map = {entry.battalion.public_id: entry for entry in proposal.battalions}
    chosen: dict[str, str] = {}
    reasons: list[tuple[BattalionSupply, str, str]] = []
    for index, override in enumerate(overrides):
        prefix = f"overrides[{index}]"
        battalion_id = override.get("battalion")
        entry = on_map.get(battalion_id) if isinstance(battalion_id, uuid.UUID) else None
        if entry is None:
            raise DomainError(
                f"battalion {override.get('battalion')} is not on this campaign's map: "
                "supply is traced for the battalions on it",
                field=f"{prefix}.battalion",
            )
        if entry.battalion.code in chosen:
            raise DomainError(
                f"battalion {entry.battalion.code} is overridden twice", field=f"{prefix}.battalion"
            )
        situation = override.get("situation")
        if situation not in {s.value for s in ON_MAP}:
            raise DomainError(
                f"{situation!r} is not a supply situation on the map ({', '.join(s.value for s in ON_MAP)})",
                field=f"{prefix}.situation",
            )
        reason = str(override.get("reason") or "").strip()
        if not reason:
            proposed = entry.proposed.value
            raise DomainError(
                f"say why battalion {entry.battalion.code} is {situation}, not {proposed}",
                field=f"{prefix}.reason",
            )
        chosen[entry.battalion.code] = situation
        reasons.append((entry, situation, reason))
    # This confirmation replaces the last one whole: a battalion it does not override goes back to
    # its battle report's or the proposal's situation (a C Ops overrun's isolation stays, MS-04).
    day.supply_overrides = chosen
    final = _final(proposal, supply_kept(day), supply_reported(day))
    now = {entry.battalion.id: entry.battalion.situation for entry in proposal.battalions}
    _situations_write({pk: s for pk, s in final.items() if s != now[pk]})
    day.supply_confirmed_at = timezone.now()
    day.save(update_fields=["supply_confirmed_at", "supply_overrides"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SUPPLY_CONFIRMED,
        campaign,
        f"Supply lines confirmed for day {day.number}: {_counts(final)}"
        + (f" ({len(chosen)} overridden)" if chosen else ""),
        actor,
        after={"day": day.number, "overrides": chosen, **_cut_off(proposal, final)},
    )
    subjects = models.Battalion.objects.in_bulk([entry.battalion.id for entry, _, _ in reasons])
    for entry, situation, reason in reasons:
        event_record(
            campaign,
            EventVerb.SUPPLY_OVERRIDDEN,
            subjects[entry.battalion.id],
            f"Battalion {entry.battalion.code}: {situation}, not {entry.proposed.value} "
            f"as proposed ({entry.reason}): {reason}",
            actor,
            before={"proposed": entry.proposed.value, "reason": entry.reason},
            after={"situation": situation, "reason": reason},
        )
    return day


def _cut_off(proposal: SupplyProposal, final: Mapping[int, str]) -> dict[str, list[str]]:
    codes = {entry.battalion.id: entry.battalion.code for entry in proposal.battalions}
    return {
        situation.value.lower(): sorted(codes[pk] for pk, s in final.items() if s == situation.value)
        for situation in (SupplySituation.ISOLATED, SupplySituation.SEPARATED)
    }


def supply_night(operation: models.Operation, actor: Actor) -> dict[str, Any]:
    """The night's supply step: the proposal applied at nightfall with the day's overrides, before
    the replacements read it. Each side's report counts its isolated and separated battalions."""
    day = operation.day
    proposal = supply_proposal(operation.campaign)
    reported = supply_reported(day)
    kept_over_lines = supply_kept(day)
    final = _final(proposal, kept_over_lines, reported)
    before = {entry.battalion.id: entry.battalion.situation for entry in proposal.battalions}
    _situations_write({pk: s for pk, s in final.items() if s != before[pk]})
    confirmed = (
        f"as the umpire confirmed ({len(kept_over_lines)} overridden)"
        if day.supply_confirmed_at is not None
        else "without the umpire's confirmation: the proposal as it stands"
    )
    kept = sorted(
        code
        for code in reported
        if code not in kept_over_lines and code in {e.battalion.code for e in proposal.battalions}
    )
    if kept:
        confirmed += f", battle reports kept for {', '.join(kept)}"
    event_record(
        operation.campaign,
        EventVerb.SUPPLY_APPLIED,
        operation.campaign,
        f"Supply lines applied at nightfall of day {day.number} {confirmed}: {_counts(final)}",
        actor,
        after={
            "day": day.number,
            "overrides": kept_over_lines,
            "reported": {code: reported[code].situation for code in kept},
            **_cut_off(proposal, final),
        },
    )
    part: dict[str, Any] = {"sides": {}}
    for entry in proposal.battalions:
        side = part["sides"].setdefault(
            str(entry.battalion.side_id),
            {"battalions_isolated": 0, "battalions_separated": 0, "isolated_battalions": []},
        )
        situation = final[entry.battalion.id]
        if situation == SupplySituation.ISOLATED.value:
            side["battalions_isolated"] += 1
            side["isolated_battalions"].append(entry.battalion.code)
        elif situation == SupplySituation.SEPARATED.value:
            side["battalions_separated"] += 1
    return part
