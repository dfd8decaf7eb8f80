"""The umpire's to-do list: what waits for them in a campaign now."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.contrib.postgres.aggregates import ArrayAgg

from campaign import models
from campaign.choices import (
    CampaignStatus,
    DayStatus,
    OperationKind,
    OperationStatus,
    SideOrderStatus,
    TodoKind,
)
from campaign.selectors.schedule import club_schedule_next, deadline_text
from rules_engine.profiles import CampaignStep, get_profile
from rules_engine.vocab import PLAYED_DAY_SEGMENTS, DaySegment, counted, label_of


@dataclass(frozen=True)
class TodoItem:
    kind: TodoKind
    text: str  # in words
    link: str  # the web app's page where it is done, from the site's root
    count: int = 1


def umpire_todo(campaign: models.Campaign, now: datetime.datetime) -> list[TodoItem]:
    """What waits for the umpire now, in the order of ``TodoKind``: orders submitted, battles with
    drafts filed (both sides, or one), the day's supply unconfirmed, segments left, arrival rolls
    running, the night phase due. A fixed number of queries, whatever the campaign's size."""
    base = f"/campaigns/{campaign.slug}"
    items: list[TodoItem] = []
    submitted = models.SideOrder.objects.filter(campaign=campaign, status=SideOrderStatus.SUBMITTED).count()
    if submitted:
        words = "order waits" if submitted == 1 else "orders wait"
        items.append(
            TodoItem(
                TodoKind.ORDERS_SUBMITTED,
                f"{submitted} {words} for your approval",
                f"{base}/orders",
                submitted,
            )
        )
    sides = dict(campaign.sides.values_list("pk", "name"))
    battles = (
        models.Battle.objects.filter(campaign=campaign, report__isnull=True, drafts__isnull=False)
        .select_related("sector", "day")
        .annotate(filed=ArrayAgg("drafts__side_id", distinct=True))
        .order_by("day__number", "pk")
    )
    for battle in battles:
        where = f"the battle at {battle.sector.name} (day {battle.day.number})"
        link = f"{base}/battles/{battle.public_id}"
        if len(battle.filed) >= 2:
            items.append(
                TodoItem(
                    TodoKind.DRAFTS_FILED,
                    f"Both sides filed their drafts of {where}: reconcile and confirm the report",
                    link,
                )
            )
        else:
            filed = battle.filed[0]
            awaited = battle.defender_id if filed == battle.attacker_id else battle.attacker_id
            items.append(
                TodoItem(
                    TodoKind.DRAFT_AWAITED,
                    f"{sides[filed]} filed its draft of {where}; {sides[awaited]}'s is awaited",
                    link,
                )
            )
    day = campaign.days.filter(number=campaign.current_day).first()
    if (
        day is None
        or day.status not in (DayStatus.DAWN, DayStatus.DAY)
        or campaign.status != CampaignStatus.ACTIVE
    ):
        return items
    traced = models.Sector.supply_source_for.through.objects.filter(sector__campaign=campaign).exists()
    if traced and day.supply_confirmed_at is None:
        items.append(
            TodoItem(
                TodoKind.SUPPLY_UNCONFIRMED, f"Supply of day {day.number} is not confirmed", f"{base}/night"
            )
        )
    left: list[DaySegment] = []
    if (
        get_profile(campaign.profile).procedure_for(CampaignStep.SEGMENT_TURNS)
        and day.ended_after_turn is None
    ):
        played = day.segments.count()
        left = list(PLAYED_DAY_SEGMENTS[played:])
    if left:
        words = "segment" if len(left) == 1 else "segments"
        items.append(
            TodoItem(
                TodoKind.SEGMENTS_LEFT,
                f"{len(left)} {words} of day {day.number} left to play: next the {label_of(left[0]).lower()}",
                f"{base}/day",
                len(left),
            )
        )
    rolling = models.Operation.objects.filter(
        campaign=campaign,
        kind=OperationKind.ARRIVALS,
        status__in=[OperationStatus.PENDING, OperationStatus.RUNNING],
    ).count()
    if rolling:
        items.append(
            TodoItem(
                TodoKind.ARRIVALS_ROLLING,
                "Reinforcements are rolling for arrival: wait for their reports",
                f"{base}/day",
                rolling,
            )
        )
    scheduled = club_schedule_next(campaign, day.dawned_at, now) if day.status == DayStatus.DAY else None
    if day.status == DayStatus.DAY and (not left or (scheduled is not None and scheduled <= now)):
        unreported = models.Battle.objects.filter(day=day, report__isnull=True).count()
        text = f"The night phase of day {day.number} is due"
        if scheduled is not None:
            text += f" (the club's schedule: {deadline_text(scheduled)})"
        if unreported:
            text += f"; {counted(unreported, 'battle')} still to report first"
        items.append(TodoItem(TodoKind.NIGHT_DUE, text, f"{base}/night"))
    return items
