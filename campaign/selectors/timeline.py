"""The campaign's timeline: day by day, what was recorded as it happened (events, battles, the
night's reports, the rolls), as the reader's fog allows.

Every row comes through the reader's own selectors (:func:`~campaign.selectors.scoped.events`,
``battles``, ``night_reports``, ``rolls``), so the timeline has no fog rule of its own: a player
reads here exactly the entries they read in those lists. A fixed number of queries, however
many days and entries."""

from __future__ import annotations

import dataclasses
import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import Count

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import EventVerb, OperationKind, TimelineKind
from campaign.links import battle_page, campaign_page
from campaign.selectors import scoped

# The events the timeline tells, by kind. The rest (members, webhooks, keys, drafts) is the
# club's administration, not the campaign's story; battles are told from their own rows.
EVENT_KINDS: dict[str, TimelineKind] = {
    EventVerb.DAY_DAWNED: TimelineKind.DAY,
    EventVerb.SEGMENT_ADVANCED: TimelineKind.DAY,
    EventVerb.ACTIVATION_SPENT: TimelineKind.DAY,
    EventVerb.RULE_APPLIED: TimelineKind.DAY,
    EventVerb.ROLL_OVERRIDDEN: TimelineKind.DAY,
    EventVerb.SUPPLY_CONFIRMED: TimelineKind.DAY,
    EventVerb.SUPPLY_OVERRIDDEN: TimelineKind.DAY,
    EventVerb.AIRBORNE_LANDED: TimelineKind.BATTLE,
    EventVerb.BATTLE_LULL_CHECKED: TimelineKind.BATTLE,
    EventVerb.SECTOR_CONTROL_CHANGED: TimelineKind.CONTROL,
    EventVerb.OBJECTIVE_AWARDED: TimelineKind.CONTROL,
    EventVerb.FORCE_DEPLOYED: TimelineKind.ARRIVAL,
    EventVerb.REINFORCEMENT_SCHEDULED: TimelineKind.ARRIVAL,
    EventVerb.REINFORCEMENT_POSTPONED: TimelineKind.ARRIVAL,
    EventVerb.ARRIVAL_DUE: TimelineKind.ARRIVAL,
    EventVerb.ARRIVALS_RESOLVED: TimelineKind.ARRIVAL,
    EventVerb.FORCE_MOVED: TimelineKind.ORDERS,
    EventVerb.BATTALION_MOVED: TimelineKind.ORDERS,
    EventVerb.SIDE_ORDER_APPROVED: TimelineKind.ORDERS,
    EventVerb.SIDE_ORDER_AMENDED: TimelineKind.ORDERS,
    EventVerb.SIDE_ORDERS_LAPSED: TimelineKind.ORDERS,
    EventVerb.NIGHT_ORDER_QUEUED: TimelineKind.ORDERS,
    EventVerb.NIGHT_PHASE_STARTED: TimelineKind.NIGHT,
    EventVerb.NIGHT_PHASE_DONE: TimelineKind.NIGHT,
    EventVerb.SUPPLY_APPLIED: TimelineKind.NIGHT,
    EventVerb.CAMPAIGN_FINISHED: TimelineKind.NIGHT,
}


@dataclass(frozen=True)
class TimelineLink:
    text: str  # in words
    href: str  # the web app's page, from the site's root


@dataclass(frozen=True)
class TimelineEntry:
    kind: TimelineKind
    text: str
    at: datetime.datetime
    sides: tuple[int, ...] = ()
    links: tuple[TimelineLink, ...] = ()
    # What the force filter reads: the force named, or the battalions a battle fought with.
    forces: frozenset[int] = frozenset()
    battalions: frozenset[int] = frozenset()


@dataclass
class TimelineDay:
    day: models.CampaignDay
    rolls: int  # the day's rolls the reader may read
    links: list[TimelineLink]
    entries: list[TimelineEntry] = field(default_factory=list)


@dataclass(frozen=True)
class TimelineFilter:
    side_id: int | None = None
    force_id: int | None = None
    kind: TimelineKind | None = None


def _event_entries(access: CampaignAccess, battles_seen: set[int]) -> Iterable[tuple[int, TimelineEntry]]:
    events = scoped.events(access).filter(verb__in=list(EVENT_KINDS), day_number__isnull=False)
    slug = access.campaign.slug
    for event in events.order_by("pk"):
        links: tuple[TimelineLink, ...] = ()
        if event.object_type == "Battle" and event.object_id in battles_seen:
            links = (TimelineLink("The battle", battle_page(slug, event.object_public_id)),)
        yield (
            event.day_number or 0,
            TimelineEntry(
                kind=EVENT_KINDS[event.verb],
                text=event.message,
                at=event.created_at,
                sides=(event.side_id,) if event.side_id is not None else (),
                links=links,
                forces=frozenset({event.object_id or 0}) if event.object_type == "Force" else frozenset(),
                battalions=frozenset({event.object_id or 0})
                if event.object_type == "Battalion"
                else frozenset(),
            ),
        )


def _battle_text(access: CampaignAccess, battle: models.Battle) -> str:
    sides = access.sides
    text = (
        f"{battle.get_battle_type_display()} at {battle.sector.name}: {sides[battle.attacker_id].name} "
        f"attacking {sides[battle.defender_id].name}, {battle.get_status_display().lower()}"
    )
    if battle.winner_id is not None:
        text += f", won by {sides[battle.winner_id].name}"
    return text


def _battle_losses(access: CampaignAccess, battle: models.Battle, battalions: list[models.Battalion]) -> str:
    """The stands its report destroyed, by side, counted from the report's lines the reader sees
    (:func:`campaign.access.battle_report_shown`); empty when it names none."""
    side_of = {battalion.code: battalion.side_id for battalion in battalions}
    shown = access_rules.battle_report_shown(access, battle.report or {}, side_of)
    lost: dict[int, int] = {}
    for line in shown.get("battalions", []):
        side_id = side_of[str(line["code"])]
        lost[side_id] = lost.get(side_id, 0) + len(line.get("destroyed", []))
    if not any(lost.values()):
        return ""
    counts = ", ".join(
        f"{access.sides[side_id].name} {count}" for side_id, count in sorted(lost.items()) if count
    )
    return f"Stands destroyed at {battle.sector.name}: {counts}"


def _battle_entries(
    access: CampaignAccess, battles: list[models.Battle]
) -> Iterable[tuple[int, TimelineEntry]]:
    slug = access.campaign.slug
    for battle in battles:
        battalions: list[models.Battalion] = battle.visible_battalions  # type: ignore[attr-defined]
        entry = TimelineEntry(
            kind=TimelineKind.BATTLE,
            text=_battle_text(access, battle),
            at=battle.day.dawned_at,  # a battle keeps no time of its own: fought in its day
            sides=(battle.attacker_id, battle.defender_id),
            links=(
                TimelineLink("The battle", battle_page(slug, battle.public_id)),
                TimelineLink("Its rolls", f"{campaign_page(slug, 'rolls')}?battle={battle.public_id}"),
            ),
            battalions=frozenset(battalion.pk for battalion in battalions),
        )
        yield battle.day.number, entry
        losses = _battle_losses(access, battle, battalions)
        if losses:
            yield battle.day.number, dataclasses.replace(entry, kind=TimelineKind.LOSSES, text=losses)


def _report_entries(access: CampaignAccess) -> Iterable[tuple[int, TimelineEntry]]:
    """Each night report the reader reads (their side's; the umpires every side's): what the night
    did, and the stands it lost and returned."""
    night_page = campaign_page(access.campaign.slug, "night")
    reports = scoped.night_reports(access).filter(operation__kind=OperationKind.NIGHT_PHASE)
    for report in reports.order_by("day__number", "side_id"):
        side = access.sides[report.side_id].name
        body, link = report.body, (TimelineLink("The night report", night_page),)
        yield (
            report.day.number,
            TimelineEntry(
                TimelineKind.NIGHT,
                f"{side}: {report.title.lower()} reported",
                report.created_at,
                (report.side_id,),
                link,
            ),
        )
        losses = (
            f"{side}: {body.get('replacements_returned', 0)} of {body.get('replacements_due', 0)} "
            "destroyed stands returned as replacements"
        )
        if body.get("extra_stands_lost"):
            losses += f"; {body['extra_stands_lost']} stands lost, isolated"
        yield (
            report.day.number,
            TimelineEntry(TimelineKind.LOSSES, losses, report.created_at, (report.side_id,), link),
        )


def _kept(entry: TimelineEntry, wanted: TimelineFilter, force_battalions: set[int]) -> bool:
    if wanted.kind is not None and entry.kind != wanted.kind:
        return False
    if wanted.side_id is not None and wanted.side_id not in entry.sides:
        return False
    if wanted.force_id is not None:
        return wanted.force_id in entry.forces or bool(entry.battalions & force_battalions)
    return True


def timeline(access: CampaignAccess, wanted: TimelineFilter) -> list[TimelineDay]:
    """Every day dawned, oldest first, with its entries in the order they happened, filtered."""
    slug = access.campaign.slug
    roll_counts = dict(
        scoped.rolls(access)
        .filter(day__isnull=False)
        .order_by()
        .values_list("day__number")
        .annotate(count=Count("pk"))
        .values_list("day__number", "count")
    )
    days = {
        day.number: TimelineDay(
            day=day,
            rolls=roll_counts.get(day.number, 0),
            links=[
                TimelineLink("The day's rolls", f"{campaign_page(slug, 'rolls')}?day={day.number}"),
                TimelineLink("The night's reports", campaign_page(slug, "night")),
            ],
        )
        for day in scoped.days(access)
    }
    battles = list(scoped.battles(access))
    force_battalions: set[int] = set()
    if wanted.force_id is not None:
        force_battalions = set(
            models.Battalion.objects.filter(battlegroup__force_id=wanted.force_id).values_list(
                "pk", flat=True
            )
        )
    sources = (
        _event_entries(access, {battle.pk for battle in battles}),
        _battle_entries(access, battles),
        _report_entries(access),
    )
    for source in sources:
        for number, entry in source:
            if number in days and _kept(entry, wanted, force_battalions):
                days[number].entries.append(entry)
    for day in days.values():
        day.entries.sort(key=lambda entry: entry.at)
    return list(days.values())
