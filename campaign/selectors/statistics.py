"""The campaign's statistics: each side's figures day by day, and a battalion's service history.

Every figure is read from what was recorded when it happened, never from today's state: the dawn
tallies (``SideDayTally``), the confirmed battle reports (``Battle.report``), the activation
spends, the night reports, the roll log (the night's replacement rolls) and the events (objectives
awarded, sectors changing hands, battalions moving). The statistics read a fixed number of
queries whatever the number of days; the serializers show each figure as
:func:`campaign.access.statistics_figures_shown` lets the reader see it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import IntegerField, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from campaign import models
from campaign.access import (
    CampaignAccess,
    battle_report_shown,
    battles_readable,
    events_readable,
    rolls_readable,
    statistics_figures_shown,
)
from campaign.choices import EventVerb

# What a night report says that the statistics count (a counter the night did not plan: 0).
NIGHT_COUNTERS = ("extra_stands_lost", "activation_points_carried", "barrage_rounds_replenished")


@dataclass
class SideDayFigures:
    """One side's figures for one campaign day: its battles that day and its night after."""

    stands_lost: int = 0  # destroyed in the day's battles, and lost by isolation in the night
    stands_suppressed: int = 0  # in the day's battles
    stands_replaced: int = 0  # by the night's replacement rolls
    activation_points_earned: int = 0  # objectives taken: the reports' and the sectors' awards
    activation_points_spent: int = 0  # on activations and in battles
    activation_points_carried: int | None = None  # to the next day; None: no night yet
    barrage_rounds_fired: int = 0
    barrage_rounds_replenished: int | None = None  # by the night; None: no night yet
    sectors_held: int = 0  # at the day's end (or now, for a day still under way)
    victory_points: int = 0  # of the sectors held then


# Each day's figures of a side in words (the API's `figures`, the CSV's columns),
# and those the night phase takes (unknown until the day's night is done).
FIGURE_WORDS = {
    "stands_lost": "Stands lost",
    "stands_suppressed": "Stands suppressed",
    "stands_replaced": "Stands replaced",
    "activation_points_earned": "Activation points earned",
    "activation_points_spent": "Activation points spent",
    "activation_points_carried": "Activation points carried over",
    "barrage_rounds_fired": "Barrage rounds fired",
    "barrage_rounds_replenished": "Barrage rounds replenished",
    "sectors_held": "Sectors held",
    "victory_points": "Victory points held",
}
AFTER_NIGHT = frozenset({"activation_points_carried", "barrage_rounds_replenished"})


@dataclass(frozen=True)
class SideDay:
    """One side on one day: its dawn tally and the day's figures."""

    tally: models.SideDayTally
    figures: SideDayFigures

    @property
    def side_id(self) -> int:
        return self.tally.side_id


@dataclass(frozen=True)
class DayTallies:
    day: models.CampaignDay
    tallies: list[SideDay]
    night_done: bool  # its night's report is in: the night's figures are known


@dataclass(frozen=True)
class Statistics:
    sides: list[models.Side]
    days: list[DayTallies]


def figures_shown(access: CampaignAccess, side_day: SideDay) -> dict[str, int | None]:
    """The side's figures of the day as ``access`` may read them: None where hidden."""
    shown = statistics_figures_shown(access, side_day.side_id)
    return {
        name: getattr(side_day.figures, name) if shown is None or name in shown else None
        for name in FIGURE_WORDS
    }


def statistics(access: CampaignAccess) -> Statistics:
    """Every side's dawn tallies and figures, day by day: nine queries, however many days."""
    campaign = access.campaign
    tallies = list(
        models.SideDayTally.objects.filter(day__campaign=campaign)
        .select_related("day")
        .order_by("day__number", "side_id")
    )
    figures: dict[tuple[int, int], SideDayFigures] = defaultdict(SideDayFigures)
    _battle_figures(campaign, figures)
    for day, side_id, cost in (
        models.ActivationSpend.objects.filter(day__campaign=campaign)
        .values("day__number", "side_id")
        .annotate(cost=Sum("cost"))
        .values_list("day__number", "side_id", "cost")
    ):
        figures[day, side_id].activation_points_spent += cost
    _night_figures(campaign, figures)
    for day_number, side_pk, awarded in (
        models.Event.objects.filter(campaign=campaign, verb=EventVerb.OBJECTIVE_AWARDED)
        .values("day_number", "object_id")
        .annotate(points=Sum(Cast(KT("after__awarded"), IntegerField())))
        .values_list("day_number", "object_id", "points")
    ):
        if day_number is not None and side_pk is not None:
            figures[day_number, side_pk].activation_points_earned += awarded or 0
    day_numbers = sorted({tally.day.number for tally in tallies})
    sectors = list(campaign.sectors.values_list("pk", "owner_id", "victory_points"))
    points = {pk: value for pk, _, value in sectors}
    for day, owners in owners_by_day(access, {pk: owner for pk, owner, _ in sectors}, day_numbers).items():
        for sector_id, owner in owners.items():
            if owner is not None:
                figures[day, owner].sectors_held += 1
                figures[day, owner].victory_points += points[sector_id]
    nights = {day for (day, _), side in figures.items() if side.barrage_rounds_replenished is not None}
    days: list[DayTallies] = []
    for tally in tallies:
        if not days or days[-1].day.pk != tally.day_id:
            days.append(DayTallies(tally.day, [], tally.day.number in nights))
        days[-1].tallies.append(SideDay(tally, figures[tally.day.number, tally.side_id]))
    return Statistics(sides=[access.sides[pk] for pk in sorted(access.sides)], days=days)


def _reported_battles(
    campaign: models.Campaign,
) -> tuple[list[tuple[int, Any]], dict[str, int]]:
    """The confirmed reports (day, report) and the side of each battalion they name, by code."""
    reports = list(
        campaign.battles.filter(report__isnull=False)
        .order_by("day__number", "pk")
        .values_list("day__number", "report")
    )
    sides = dict(
        models.Battle.battalions.through.objects.filter(
            battle__campaign=campaign, battle__report__isnull=False
        ).values_list("battalion__code", "battalion__side_id")
    )
    return reports, sides


def _battle_figures(campaign: models.Campaign, figures: dict[tuple[int, int], SideDayFigures]) -> None:
    reports, sides = _reported_battles(campaign)
    for day, report in reports:
        for entry in report.get("battalions", ()):
            side_id = sides.get(str(entry.get("code")))
            if side_id is None:
                continue
            side = figures[day, side_id]
            side.stands_lost += len(entry.get("destroyed", ()))
            side.stands_suppressed += len(entry.get("suppressed", ()))
            side.activation_points_spent += entry.get("activation_points_spent", 0)
            side.barrage_rounds_fired += entry.get("barrage_rounds_spent", 0)
            side.activation_points_earned += sum(
                o.get("activation_points", 0) for o in entry.get("objectives", ())
            )


def _night_figures(campaign: models.Campaign, figures: dict[tuple[int, int], SideDayFigures]) -> None:
    """The night reports' counters and the replacement rolls' stands returned."""
    keys = {name: Cast(KT(f"body__{name}"), IntegerField()) for name in NIGHT_COUNTERS}
    for day, side_id, lost, carried, replenished in (
        models.NightReport.objects.filter(day__campaign=campaign)
        .annotate(**keys)
        .values_list("day__number", "side_id", *NIGHT_COUNTERS)
    ):
        side = figures[day, side_id]
        side.stands_lost += lost or 0
        side.activation_points_carried = carried or 0
        side.barrage_rounds_replenished = replenished or 0
    for day, side_id, replaced in _replacement_rolls(models.RollRecord.objects.filter(campaign=campaign)):
        figures[day, side_id].stands_replaced += replaced


def _replacement_rolls(rolls: Any) -> Iterable[tuple[int, int, int]]:
    """(day, side, stands returned) of each battalion's replacement roll in a night: its rows
    (one a die) share the outcome's changes, so each outcome counts once."""
    return (
        (day, side_id, replaced)
        for day, side_id, _, _, replaced in rolls.filter(changes__has_key="replaced")
        .values_list(
            "day__number", "side_id", "battalion_id", "stream", Cast(KT("changes__replaced"), IntegerField())
        )
        .order_by()  # the model's ordering would join the DISTINCT and count every die
        .distinct()
    )


def owners_by_day(
    access: CampaignAccess, owners_now: Mapping[int, int | None], day_numbers: list[int]
) -> dict[int, dict[int, int | None]]:
    """Who held each sector at the end of each of ``day_numbers``: today's owners, with the
    changes of hands recorded after that day undone (one query; the events are public)."""
    by_name = {side.name: pk for pk, side in access.sides.items()}
    changes = list(
        models.Event.objects.filter(campaign=access.campaign, verb=EventVerb.SECTOR_CONTROL_CHANGED)
        .order_by("-pk")
        .values_list("day_number", "object_id", "before")
    )
    owners = dict(owners_now)
    result: dict[int, dict[int, int | None]] = {}
    undone = 0
    for day in reversed(day_numbers):
        while undone < len(changes) and (changes[undone][0] or 0) > day:
            _, sector_id, before = changes[undone]
            if sector_id is not None:
                owners[sector_id] = by_name.get(str((before or {}).get("owner")))
            undone += 1
        result[day] = dict(owners)
    return result


# A battalion's service history ------------------------------------------------


@dataclass(frozen=True)
class BattleServed:
    battle: models.Battle
    line: Mapping[str, Any] | None  # its line of the report as the reader sees it; None: not shown

    @property
    def stands_lost(self) -> int | None:
        return None if self.line is None else len(self.line.get("destroyed", ()))

    @property
    def stands_suppressed(self) -> int | None:
        return None if self.line is None else len(self.line.get("suppressed", ()))

    @property
    def activation_points_spent(self) -> int | None:
        return None if self.line is None else int(self.line.get("activation_points_spent", 0))


@dataclass(frozen=True)
class NightServed:
    day: int
    stands_replaced: int
    lines: list[str]  # the replacement rolls, one a die


@dataclass(frozen=True)
class BattalionHistory:
    battalion: models.Battalion
    battles: list[BattleServed]
    nights: list[NightServed]
    moves: list[models.Event]
    stands_lost: int | None  # in its battles; None: the reader sees none of their lines
    stands_replaced: int | None  # None: its side's replacement rolls are not the reader's to read


def battalion_history(access: CampaignAccess, battalion: models.Battalion) -> BattalionHistory:
    """``battalion``'s battles, nights and moves as the reader may read them: the battles their
    side fought (lines of the report as battle reports show them), the replacement rolls and the
    moves they may read (``campaign.access``). Three queries."""
    battles = list(
        battalion.battles.filter(battles_readable(access))
        .select_related("day", "sector", "winner", "attacker", "defender")
        .order_by("day__number", "pk")
    )
    served = []
    for battle in battles:
        line = None
        if battle.report is not None:
            shown = battle_report_shown(access, battle.report, {battalion.code: battalion.side_id})
            line = next((e for e in shown.get("battalions", ()) if e.get("code") == battalion.code), None)
        served.append(BattleServed(battle, line))
    nights: dict[int, NightServed] = {}
    rolls = (
        models.RollRecord.objects.filter(
            rolls_readable(access), battalion=battalion, changes__has_key="replaced"
        )
        .order_by("day__number", "pk")
        .values_list("day__number", "stream", "line", Cast(KT("changes__replaced"), IntegerField()))
    )
    streams: set[tuple[int, str]] = set()
    for day, stream, line, replaced in rolls:
        night = nights.setdefault(day, NightServed(day, 0, []))
        if (day, stream) not in streams:  # the outcome's changes, on each of its dice
            streams.add((day, stream))
            night = nights[day] = NightServed(day, night.stands_replaced + replaced, night.lines)
        night.lines.append(line)
    moves = list(
        models.Event.objects.filter(
            events_readable(access),
            campaign=access.campaign,
            verb=EventVerb.BATTALION_MOVED,
            object_id=battalion.pk,
        ).order_by("pk")
    )
    lost = [b.stands_lost for b in served if b.stands_lost is not None]
    any_shown = bool(lost) or not served
    # A side's replacement rolls are its own (and the umpires'): for anybody else, none is not zero.
    replaced = (
        sum(n.stands_replaced for n in nights.values()) if access.sees_in_full(battalion.side_id) else None
    )
    return BattalionHistory(
        battalion, served, list(nights.values()), moves, sum(lost) if any_shown else None, replaced
    )
