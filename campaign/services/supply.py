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

import json
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from campaign import models, selectors
from campaign.choices import CampaignStatus, DayStatus, EventVerb
from campaign.selectors import SupplyBattalion, SupplyForce, SupplyMap
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.night_counts import AnyOf
from campaign.services.rules import club_settings, procedure_run
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
    # The rule rolls no dice: its reading depends on its three inputs alone, read once each.
    readings: dict[tuple[bool, int | None, bool], MapSupplyReading] = {}
    for battalion in drawn.battalions:
        force = drawn.forces[battalion.force_id]
        path = drawn.lines[battalion.side_id].path_to_source(battalion.sector_id)
        links = distances[force.id].get(battalion.sector_id) if force.id in distances else None
        inputs = (path is not None, links, force.sector_id is not None)
        if inputs not in readings:
            readings[inputs] = procedure_run(
                campaign,
                MAP_SUPPLY,
                {"line_to_source": inputs[0], "links_to_c_ops": inputs[1], "c_ops_on_map": inputs[2]},
                (),
            ).outcome
        reading = readings[inputs]
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
    proposed = [(entry.battalion, entry.proposed.value) for entry in proposal.battalions]
    return _applied(proposed, overrides, reported)


def _applied(
    proposed: Sequence[tuple[SupplyBattalion, str]],
    overrides: Mapping[str, str],
    reported: Mapping[str, Reported],
) -> dict[int, str]:
    final = {}
    for battalion, situation in proposed:
        by_report = reported.get(battalion.code)
        final[battalion.id] = overrides.get(
            battalion.code, by_report.situation if by_report is not None else situation
        )
    return final


def _counts(counts: Mapping[str, int]) -> str:
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
        f"Supply lines confirmed for day {day.number}: {_counts(Counter(final.values()))}"
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
    return _cut_off_codes({entry.battalion.id: entry.battalion.code for entry in proposal.battalions}, final)


def _cut_off_codes(codes: Mapping[int, str], final: Mapping[int, str]) -> dict[str, list[str]]:
    return {
        situation.value.lower(): sorted(codes[pk] for pk, s in final.items() if s == situation.value)
        for situation in (SupplySituation.ISOLATED, SupplySituation.SEPARATED)
    }


@dataclass(frozen=True)
class _Tonight:
    """What the night's supply step looks at: battalions on the map with the map's proposal for
    each, in the order of their codes. After a trace, every one; with a valid trace, only those
    the map proposes out of supply, the day's overrides and reports name or whose situation is
    not OK: any other is in supply and stays so, counted in ``on_map`` alone."""

    proposed: list[tuple[SupplyBattalion, str]]
    on_map: list[tuple[int, int]]  # (side id, battalions on the map), sides by their first code


def _tonight(campaign: models.Campaign, named: Iterable[str]) -> _Tonight:
    """The proposal from the campaign's supply trace while the map it was traced on stands; else
    traced again, and the trace kept. The trace's row is locked first: a write to the map that
    commits later bumps its ``map_changes`` after this night (the triggers wait for the lock)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {models.SupplyTrace._meta.db_table} AS trace "
            "(campaign_id, map_changes, settings, sides, cut_off) VALUES (%s, 0, '{}', '[]', '[]') "
            "ON CONFLICT (campaign_id) DO UPDATE SET map_changes = trace.map_changes "
            "RETURNING map_changes, traced_at, settings, sides, cut_off",
            [campaign.pk],
        )
        map_changes, traced_at, settings, sides, cut_off = cursor.fetchone()
    rule_settings = json.loads(json.dumps(club_settings(campaign, MAP_SUPPLY), default=str))
    if traced_at == map_changes and json.loads(settings) == rule_settings:
        proposed = dict(json.loads(cut_off))
        return _Tonight(
            [
                (b, proposed.get(b.id, SupplySituation.OK.value))
                for b in _looked_at(campaign, proposed, named)
            ],
            [(side, count) for side, count in json.loads(sides)],
        )
    proposal = supply_proposal(campaign)
    on_map = Counter(entry.battalion.side_id for entry in proposal.battalions)
    tonight = _Tonight(
        [(entry.battalion, entry.proposed.value) for entry in proposal.battalions], list(on_map.items())
    )
    models.SupplyTrace.objects.filter(pk=campaign.pk).update(
        traced_at=map_changes,
        settings=rule_settings,
        sides=tonight.on_map,
        cut_off=[
            [b.id, situation] for b, situation in tonight.proposed if situation != SupplySituation.OK.value
        ],
    )
    return tonight


def _looked_at(
    campaign: models.Campaign, proposed: Mapping[int, str], codes: Iterable[str]
) -> list[SupplyBattalion]:
    """The battalions on the map among ``proposed`` or ``codes``, or not in supply as they stand,
    found through indexes (the not-OK ones through ``battalion_on_map_not_ok``), by code."""
    on_map = models.Battalion.objects.filter(campaign=campaign, in_reserve=False, sector__isnull=False)
    ids = on_map.exclude(supply_situation=SupplySituation.OK.value).order_by().values("pk")
    if proposed:
        ids = ids.union(on_map.filter(pk__in=list(proposed)).order_by().values("pk"))
    if codes:
        ids = ids.union(on_map.filter(code__in=sorted(set(codes))).order_by().values("pk"))
    rows = (
        models.Battalion.objects.filter(AnyOf("pk", ids))
        .order_by("code")
        .values_list(
            "pk", "code", "side_id", "battlegroup__force_id", "sector_id", "supply_situation", "public_id"
        )
    )
    return [SupplyBattalion(*row) for row in rows]


def supply_night(operation: models.Operation, actor: Actor) -> dict[str, Any]:
    """The night's supply step: the proposal applied at nightfall with the day's overrides, before
    the replacements read it. Each side's report counts its isolated and separated battalions.
    After a day that moved nothing its work is the day's: see ``_tonight``."""
    day = operation.day
    reported = supply_reported(day)
    kept_over_lines = supply_kept(day)
    tonight = _tonight(operation.campaign, [*kept_over_lines, *reported])
    final = _applied(tonight.proposed, kept_over_lines, reported)
    before = {battalion.id: battalion.situation for battalion, _ in tonight.proposed}
    _situations_write({pk: s for pk, s in final.items() if s != before[pk]})
    # The battalions not looked at are in supply, proposed so and kept so.
    counts = Counter(final.values())
    counts[SupplySituation.OK.value] += sum(count for _, count in tonight.on_map) - len(final)
    confirmed = (
        f"as the umpire confirmed ({len(kept_over_lines)} overridden)"
        if day.supply_confirmed_at is not None
        else "without the umpire's confirmation: the proposal as it stands"
    )
    codes = {battalion.id: battalion.code for battalion, _ in tonight.proposed}
    kept = sorted(code for code in reported if code not in kept_over_lines and code in codes.values())
    if kept:
        confirmed += f", battle reports kept for {', '.join(kept)}"
    event_record(
        operation.campaign,
        EventVerb.SUPPLY_APPLIED,
        operation.campaign,
        f"Supply lines applied at nightfall of day {day.number} {confirmed}: {_counts(counts)}",
        actor,
        after={
            "day": day.number,
            "overrides": kept_over_lines,
            "reported": {code: reported[code].situation for code in kept},
            **_cut_off_codes(codes, final),
        },
    )
    part: dict[str, Any] = {"sides": {}}
    for side_id, _ in tonight.on_map:
        part["sides"][str(side_id)] = {
            "battalions_isolated": 0,
            "battalions_separated": 0,
            "isolated_battalions": [],
        }
    for battalion, _ in tonight.proposed:
        side = part["sides"][str(battalion.side_id)]
        situation = final[battalion.id]
        if situation == SupplySituation.ISOLATED.value:
            side["battalions_isolated"] += 1
            side["isolated_battalions"].append(battalion.code)
        elif situation == SupplySituation.SEPARATED.value:
            side["battalions_separated"] += 1
    return part
