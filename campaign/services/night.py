"""The night phase (Great Battles 004 § Night Phase), as an exactly-once operation.

Each step works on the whole campaign with set-based queries (bulk updates, bulk inserts of roll
records), so its query count does not grow with the number of stands.  Dice come from the campaign
seed and a stream per step and battalion, so a rerun after a crash rolls the same faces.  With Panzer
Korps in the profile the night is also its night segment: command rolls that remove forces, and
no-show forces rolling for availability again the next day.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from django.apps import apps
from django.db import connection, transaction
from django.db.models import Count, Q, QuerySet

from campaign import models, polls
from campaign.access import Owner
from campaign.choices import (
    ActivationState,
    ArrivalStatus,
    BattleStatus,
    CampaignStatus,
    DayStatus,
    EventVerb,
    FuelState,
    OperationKind,
    SideOrderStatus,
    StandStatus,
)
from campaign.services.activation import DIVISION_POOLS
from campaign.services.airborne import airborne_spared_extra_loss
from campaign.services.audit import Actor, RollContext, event_record, roll_records_copy, roll_records_write
from campaign.services.broker import tasks_send_on_commit
from campaign.services.campaigns import (
    campaign_lock,
    campaign_lock_save,
    campaign_save,
    campaign_status_refusal,
)
from campaign.services.dice import dice_day_seed
from campaign.services.errors import ConflictError
from campaign.services.map_snapshots import map_snapshot_after_night
from campaign.services.night_counts import battalions_lost_or_cut_off, per_side, update_counted_per_side
from campaign.services.night_orders import night_orders_apply
from campaign.services.night_report import SYSTEM_ACTOR, night_reports_notify
from campaign.services.operations import (
    OperationProcedure,
    operation_kind_register,
    operation_reports_write,
    operation_start,
)
from campaign.services.rules import RuleRun, optional_rule_on, procedure_key, procedure_run
from campaign.services.supply import supply_night
from campaign.services.victory import victory_night, victory_planned
from rules_engine.great_battles.common import Quality
from rules_engine.great_battles.night import StandFate
from rules_engine.panzer_korps.night import removes_force
from rules_engine.profiles import CampaignStep
from rules_engine.vocab import SupplySituation, counted

AMMO_VARIANT = "gb.variant.ammo_night_removal"
FUEL_SUPPLY = "n43.fuel_supply"
GRADES = {grade.value: grade for grade in Quality}


def _night_started_already(day: models.CampaignDay) -> ConflictError:
    return ConflictError(
        f"the night phase of day {day.number} has already been started",
        field="day",
        code="night_phase_exists",
    )


NIGHT_PHASE_FOLLOW_UP_TASK = "campaign.tasks.night_phase_follow_up_task"


def night_phase_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why the night phase of the current day may not start now, or None (the umpire's
    ``run_night`` action): the day is under way, its night not started, every battle reported."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.ACTIVE)
    if refusal is not None:
        return refusal
    day = campaign.days.filter(number=campaign.current_day).first()
    if day is None:
        return ConflictError("no campaign day is under way", field="day", code="no_day")
    if models.Operation.objects.filter(campaign=campaign, kind=OperationKind.NIGHT_PHASE, day=day).exists():
        return _night_started_already(day)
    if day.status != DayStatus.DAY:
        return ConflictError(
            f"day {day.number} is {day.get_status_display().lower()}, not under way",
            field="day",
            code="wrong_day_status",
        )
    unreported = list(
        day.battles.filter(status__in=[BattleStatus.PLANNED, BattleStatus.SET_UP, BattleStatus.IN_PROGRESS])
        .order_by("pk")
        .values_list("sector__name", flat=True)
    )
    if unreported:
        return ConflictError(
            f"day {day.number} has battles not yet reported: {', '.join(unreported)}",
            field="battles",
            code="battles_unreported",
        )
    return None


@transaction.atomic
def night_phase_start(campaign_id: int, actor: Actor) -> models.Operation:
    """Create the night phase of the current day and enqueue it; 409 if not ready."""
    with polls.statuses_rendered(campaign_id) as outdated:
        campaign = campaign_lock(campaign_id)
        refusal = night_phase_refusal(campaign)
        if refusal is not None:
            raise refusal
        day = campaign.days.get(number=campaign.current_day)
        operation = operation_start(
            campaign,
            OperationKind.NIGHT_PHASE,
            actor,
            day=day,
            steps=[step.name for step in NIGHT_STEPS.values() if step.planned(campaign, day)],
            started=(EventVerb.NIGHT_PHASE_STARTED, f"Night phase of day {day.number} started"),
            duplicate=_night_started_already(day),
        )
        day.status = DayStatus.NIGHT
        day.save(update_fields=["status"])
        _side_orders_lapse(campaign, day, actor)
        models.NightSnapshot.objects.create(operation=operation, values=_night_snapshot(campaign.pk, day))
        campaign.night_version = campaign.version + 1  # the version this save gives it
        campaign_save(campaign, "night_version")
        outdated.append(campaign.night_version - 1)  # shown until this commit
    return operation


def _side_orders_lapse(campaign: models.Campaign, day: models.CampaignDay, actor: Actor) -> None:
    """The sides' orders for this night the umpire has not approved lapse as it starts, and the
    umpires are told which (rules notes C-19): never dropped without a word."""
    unapproved = models.SideOrder.objects.filter(
        campaign=campaign,
        day_number=day.number,
        status__in=[SideOrderStatus.DRAFT, SideOrderStatus.SUBMITTED, SideOrderStatus.RETURNED],
    ).select_related("side")
    lapsed = [
        {"order": str(order.public_id), "side": order.side.name, "kind": order.kind, "status": order.status}
        for order in unapproved.order_by("side_id", "pk")
    ]
    if not lapsed:
        return
    unapproved.update(status=SideOrderStatus.LAPSED)
    sides = ", ".join(sorted({str(entry["side"]) for entry in lapsed}))
    event_record(
        campaign,
        EventVerb.SIDE_ORDERS_LAPSED,
        day,
        f"Night phase of day {day.number} started with {counted(len(lapsed), 'order')} not approved "
        f"({sides}): they lapsed",
        actor,
        after={"lapsed": lapsed},
    )


def _night_snapshot(campaign_id: int, day: models.CampaignDay) -> dict[str, dict[str, list[Any]]]:
    """The fields the night writes (``NightSnapshot.FIELDS``) as they are: what reads show until
    its last commit. The night commits a step at a time, so that a crash never repeats a
    committed step; its commits in between are hidden instead. Of the stands, only those the
    night may write before its replacements (which keep the stands they change: ``_stands_set``),
    found through indexes: an empty night reads none, whatever the campaign's size."""
    snapshot = {}
    for name, fields in models.NightSnapshot.FIELDS.items():
        model = apps.get_model("campaign", name)
        rows = model._default_manager.filter(**{"pk" if name == "campaign" else "campaign_id": campaign_id})
        values = rows.values_list("pk", *fields).order_by()
        if name == "stand":
            values = _stands_written(values, day)
        snapshot[name] = {str(pk): values for pk, *values in values}
    return snapshot


def _stands_written(stands: QuerySet[Any, Any], day: models.CampaignDay) -> QuerySet[Any, Any]:
    """Of ``stands``, those the steps before the replacements may write: the suppressed back in
    order, the destroyed the replacements rebuild, and those with an order tonight (none can be
    queued once the night has started)."""
    ordered = models.NightOrder.objects.filter(day=day, applied=False, stand__isnull=False).values("stand_id")
    return stands.filter(status__in=[StandStatus.SUPPRESSED, StandStatus.DESTROYED]).union(
        stands.filter(pk__in=ordered)
    )


# When a step is planned, decided as the night starts (each step is a committed transaction):
# the profile's night rules, FUPs only when one has a clear road, the ammo variant when the club
# plays it, and orders when any were queued (none can be once the night has started).
Planning = Callable[[models.Campaign, models.CampaignDay], bool]


def _always(campaign: models.Campaign, day: models.CampaignDay) -> bool:
    return True


def _in_profile(rule: CampaignStep) -> Planning:
    """Planned when the campaign's profile has ``rule`` (Panzer Korps' night)."""
    return lambda campaign, day: procedure_key(campaign, rule) is not None


def _orders_queued(campaign: models.Campaign, day: models.CampaignDay) -> bool:
    return day.night_orders.filter(applied=False).exists()


def _opted(rule: str) -> Planning:
    """Planned when the club plays the optional ``rule`` (the ammo variant, fuel supply)."""
    return lambda campaign, day: optional_rule_on(campaign, rule)


def _fups_can_move(campaign: models.Campaign, day: models.CampaignDay) -> bool:
    return _fups_to_move(campaign.pk).exists()


def _supply_traced(campaign: models.Campaign, day: models.CampaignDay) -> bool:
    """Supply lines are traced on a map whose pack names sources of supply."""
    return models.Sector.supply_source_for.through.objects.filter(sector__campaign=campaign).exists()


def _victory_defined(campaign: models.Campaign, day: models.CampaignDay) -> bool:
    return victory_planned(campaign)


@dataclasses.dataclass(frozen=True)
class _NightDice:
    """A step's dice: each roll from its side's seed of the dice day in a stream of the night's
    day, the step and what rolls (a rerun rolls the same faces), its roll rows handed to ``write``."""

    operation: models.Operation
    stream: str
    write: Callable[[list[dict[str, Any]]], None]

    def roll(self, key: str, inputs: Mapping[str, Any], *subject: str, side_id: int | None = None) -> RuleRun:
        """Roll ``key`` for ``subject``, with the seed of ``side_id``'s readers (a procedure that
        rolls no dice needs no side)."""
        stream: tuple[str | int, ...] = ("day", self.operation.day.number, "night", self.stream, *subject)
        context = None if side_id is None else self._context(side_id)
        return procedure_run(self.operation.campaign, key, inputs, stream, context=context)

    def _context(
        self,
        side_id: int,
        battalion: models.Battalion | None = None,
        force: models.Force | None = None,
    ) -> RollContext:
        return RollContext(
            day=self.operation.day, battalion=battalion, force=force, owner=Owner.side(side_id)
        )

    def record(
        self,
        run: RuleRun,
        changes: Mapping[str, Any],
        side_id: int,
        *,
        battalion: models.Battalion | None = None,
        force: models.Force | None = None,
    ) -> list[dict[str, Any]]:
        """The run's roll rows, read by the side and the umpires, handed to ``write``."""
        rows = run.rows(
            self.operation.campaign, SYSTEM_ACTOR, self._context(side_id, battalion, force), changes
        )
        self.write(rows)
        return rows


@contextlib.contextmanager
def _night_dice(operation: models.Operation, stream: str, *, copy_open: bool = False) -> Iterator[_NightDice]:
    """The step's dice; their rows are written in one COPY as the block ends (none without a roll), or
    with ``copy_open`` as they are made, the COPY open while the dice roll: no query may run in it then."""
    if copy_open:
        operation.campaign.side_names  # noqa: B018 -- read before the COPY: each roll's audience names its side
        with roll_records_copy() as write:
            yield _NightDice(operation, stream, write)
        return
    rows: list[dict[str, Any]] = []
    yield _NightDice(operation, stream, rows.extend)
    roll_records_write(rows)


def _fups_to_move(campaign_id: int) -> QuerySet[models.Force]:
    """Forces whose forming-up point stands apart from their C Ops, with the road clear."""
    return models.Force.objects.filter(campaign_id=campaign_id, fup_sector__isnull=False, fup_road_clear=True)


def _move_fups(operation: models.Operation) -> dict[str, Any]:
    # The FUP joins its C Ops: an empty fup_sector is "with its C Ops".
    moved = update_counted_per_side(_fups_to_move(operation.campaign_id), {"fup_sector": None})
    return per_side("fups_moved", moved)


def _flip_suppressed(operation: models.Operation) -> dict[str, Any]:
    suppressed = models.Stand.objects.filter(campaign_id=operation.campaign_id, status=StandStatus.SUPPRESSED)
    flipped = update_counted_per_side(suppressed, {"status": StandStatus.OK}, side_via="battalion")
    return per_side("suppressions_flipped", flipped)


def _replacements(operation: models.Operation) -> dict[str, Any]:
    campaign = operation.campaign
    key = procedure_key(campaign, CampaignStep.NIGHT_REPLACEMENTS)
    if key is None:
        return {}
    day = operation.day
    destroyed_in = models.Stand.objects.filter(campaign=campaign, status=StandStatus.DESTROYED)
    battalions = battalions_lost_or_cut_off(campaign.pk)
    part: dict[str, Any] = {"sides": {}}
    if not battalions:  # nothing lost, nobody cut off: nothing to read, roll or write
        return part
    supply = dict(campaign.sides.values_list("pk", "supply_quality"))
    # A row per stand, without model instances: thousands at a time.
    destroyed = _stands_by_battalion(destroyed_in.order_by("battalion_id", "label"))
    isolated = [b.pk for b, _ in battalions if b.supply_situation == SupplySituation.ISOLATED.value]
    intact = _stands_by_battalion(
        models.Stand.objects.filter(battalion_id__in=isolated)
        .exclude(status=StandStatus.DESTROYED)
        .order_by("battalion_id", "stand_type", "label")
    )

    spared = airborne_spared_extra_loss(campaign, isolated)
    changed: dict[int, tuple[str, str]] = {}  # stand pk → (status, grade)
    to_reserve: set[int] = set()
    rebuilt: set[int] = set()
    # The COPY is open while the dice roll: the database stores each battalion's rolls as
    # the next is rolled. No query runs inside it: everything read was read above.
    with _night_dice(operation, "replacements", copy_open=True) as dice:
        for battalion, alive in battalions:
            stands = destroyed.get(battalion.pk, [])
            wiped_out = alive == 0
            if wiped_out and battalion.wiped_out_day is None:
                to_reserve.add(battalion.pk)
            run = dice.roll(
                key,
                {
                    **_replacement_inputs(
                        battalion, stands, supply[battalion.side_id], day.number, wiped_out
                    ),
                    # Isolated paratroops roll the isolated row without its extra stand (GB-B-37).
                    **({"airborne_without_c_ops": True} if battalion.pk in spared else {}),
                },
                battalion.code,
                side_id=battalion.side_id,
            )
            result = run.outcome
            for stand, fate in zip(stands, result.stands, strict=True):
                if fate.fate is StandFate.REPLACED:
                    returns_as = fate.returns_as.value if fate.returns_as else stand.grade
                    changed[stand.pk] = (StandStatus.OK, returns_as)
                    rebuilt.add(battalion.pk)
            extra = intact.get(battalion.pk, [])[: result.extra_stands_lost]
            changed.update((stand.pk, (StandStatus.DESTROYED, stand.grade)) for stand in extra)
            if not wiped_out and alive == sum(1 for stand in extra if not stand.attached):
                to_reserve.add(battalion.pk)  # wiped out tonight: its full day in reserve is tomorrow
            rows = dice.record(
                run,
                {"replaced": result.replaced, "extra_stands_lost": len(extra)},
                battalion.side_id,
                battalion=battalion,
            )
            side = part["sides"].setdefault(str(battalion.side_id), _side_replacements())
            side["replacements_rolled"] += len(rows)
            side["replacements_due"] += len(stands)
            side["replacements_returned"] += result.replaced
            side["extra_stands_lost"] += len(extra)
            side["battalions"].append(
                {"code": battalion.code, "text": result.outcome_text(), "lines": [r["line"] for r in rows]}
            )
            if battalion.pk in to_reserve:
                side.setdefault("moved_to_reserve", []).append(battalion.code)
    _stands_set(operation, changed)
    models.Battalion.objects.filter(pk__in=to_reserve).update(
        in_reserve=True, wiped_out_day=day.number, sector=None
    )
    # A rebuilt battalion's wait is over once any stand is back.
    models.Battalion.objects.filter(pk__in=rebuilt, wiped_out_day__isnull=False).update(wiped_out_day=None)
    return part


def _replacement_inputs(
    battalion: models.Battalion,
    stands: list[Any],
    supply_quality: str,
    day_number: int,
    wiped_out: bool,
) -> dict[str, Any]:
    """A battalion's row and column of the replacement table, and its destroyed stands."""
    return {
        "situation": SupplySituation.RESERVE if battalion.in_reserve else battalion.supply_situation,
        "supply_quality": supply_quality,
        "destroyed_grades": tuple(_grade(stand.grade or battalion.quality) for stand in stands),
        "destroyed_attached": tuple(stand.attached for stand in stands),
        "destroyed_labels": tuple(stand.label for stand in stands),
        "battalion": battalion.code,
        "wiped_out": wiped_out,
        "full_days_waited": day_number - battalion.wiped_out_day if battalion.wiped_out_day else 0,
    }


def _side_replacements() -> dict[str, Any]:
    return {
        "replacements_rolled": 0,
        "replacements_due": 0,
        "replacements_returned": 0,
        "extra_stands_lost": 0,
        "battalions": [],
    }


def _grade(name: str) -> Quality | str:
    """A known grade's member (skips the inputs' name lookup), else the name for the inputs to refuse."""
    return GRADES.get(name, name)


def _stands_by_battalion(stands: QuerySet[models.Stand]) -> dict[int, list[Any]]:
    """Each battalion's stands as rows of ``pk``, ``grade``, ``attached`` and ``label``."""
    grouped: dict[int, list[Any]] = defaultdict(list)
    for row in stands.values_list("pk", "battalion_id", "grade", "attached", "label", named=True):
        grouped[row.battalion_id].append(row)
    return grouped


def _stands_set(operation: models.Operation, changed: dict[int, tuple[str, str]]) -> None:
    """One statement for every stand's new status and grade (``bulk_update`` builds a CASE per
    row) that also keeps, in the night's snapshot, what the stands were: the snapshot holds only
    the stands the night writes, and these (an isolated battalion's extra losses) are found here.
    A stand the snapshot holds already keeps its values from before the night."""
    stand = models.Stand._meta
    # The snapshot's fields are the stand's columns (``battalion_id`` its key's), in its order.
    were = ", ".join(f"stand.{connection.ops.quote_name(f)}" for f in models.NightSnapshot.FIELDS["stand"])
    snapshot, values = (
        connection.ops.quote_name(models.NightSnapshot._meta.db_table),
        connection.ops.quote_name("values"),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "WITH new AS (SELECT * FROM unnest(%s::bigint[], %s::text[], %s::text[]) "
            "AS new(id, status, grade)), "
            f"was AS (SELECT jsonb_object_agg(stand.id::text, jsonb_build_array({were})) AS stands "
            f"FROM {stand.db_table} AS stand JOIN new ON new.id = stand.id), "
            f"changed AS (UPDATE {stand.db_table} AS stand SET status = new.status, grade = new.grade "
            "FROM new WHERE stand.id = new.id) "
            f"UPDATE {snapshot} SET {values} = jsonb_set({values}, '{{stand}}', "
            f"coalesce(was.stands, '{{}}') || coalesce({values} -> 'stand', '{{}}')) "
            "FROM was WHERE operation_id = %s",
            [list(changed), [s for s, _ in changed.values()], [g for _, g in changed.values()], operation.pk],
        )


def _night_command(operation: models.Operation) -> dict[str, Any]:
    """Panzer Korps night segment: forces on the table roll command; a failure leaves unless surrounded."""
    campaign = operation.campaign
    key = procedure_key(campaign, CampaignStep.NIGHT_COMMAND)
    if key is None:
        return {}
    on_table = Q(battlegroups__battalions__in_reserve=False)
    forces = list(
        campaign.forces.filter(arrival_status__in=[ArrivalStatus.ON_TABLE, ArrivalStatus.ARRIVED])
        .annotate(
            battalions_on_table=Count("battlegroups__battalions", filter=on_table),
            isolated=Count(
                "battlegroups__battalions",
                filter=on_table
                & Q(battlegroups__battalions__supply_situation=SupplySituation.ISOLATED.value),
            ),
        )
        .filter(battalions_on_table__gt=0)
        .order_by("pk")
    )
    removed: list[int] = []
    part: dict[str, Any] = {"sides": {}}
    with _night_dice(operation, "command") as dice:
        for force in forces:
            # Every battalion on the table cut off (PK-30).
            surrounded = force.isolated == force.battalions_on_table
            run = dice.roll(
                key,
                {
                    "leader": force.leader_rating,
                    "force": force.name,
                    "surrounded": surrounded,
                    "out_of_supply": surrounded,
                },
                # By name, a natural key like the battalions' codes; "/" separates stream labels.
                force.name.replace("/", "-"),
                side_id=force.side_id,
            )
            leaves = removes_force(run.outcome)
            if leaves:
                removed.append(force.pk)
            dice.record(
                run,
                {"arrival_status": ArrivalStatus.IN_RESERVE} if leaves else {},
                force.side_id,
                force=force,
            )
            side = part["sides"].setdefault(str(force.side_id), {"command_rolls": [], "forces_removed": []})
            side["command_rolls"].append(run.outcome.line())
            if leaves:
                side["forces_removed"].append(force.name)
        models.Force.objects.filter(pk__in=removed).update(arrival_status=ArrivalStatus.IN_RESERVE)
        models.Battalion.objects.filter(battlegroup__force_id__in=removed).update(
            in_reserve=True, sector=None
        )
    return part


def _artillery(operation: models.Operation) -> dict[str, Any]:
    """Replenish every side's barrage rounds and return its templates, in one statement that also
    reads what they were (its sub-select locks the rows first, so they are the latest)."""
    sides = connection.ops.quote_name(models.Side._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {sides} AS side SET barrage_rounds = side.barrage_rounds + side.barrage_rounds_per_day, "
            "barrage_templates_in_use = 0 "
            f"FROM (SELECT id, barrage_rounds, barrage_templates_in_use FROM {sides} "
            "WHERE campaign_id = %s ORDER BY id FOR UPDATE) AS before WHERE side.id = before.id "
            "RETURNING side.id, before.barrage_rounds, side.barrage_rounds_per_day, "
            "before.barrage_templates_in_use",
            [operation.campaign_id],
        )
        replenished = sorted(cursor.fetchall())
    part: dict[str, Any] = {"sides": {}}
    for side_id, rounds, per_day, templates in replenished:
        part["sides"][str(side_id)] = {
            "barrage_rounds_before": rounds,
            "barrage_rounds_replenished": per_day,
            "barrage_rounds_after": rounds + per_day,
            "templates_returned": templates,
        }
    return part


def _carry_over(operation: models.Operation) -> dict[str, Any]:
    """Each pool's saved points through the night: the side's, and with Malta's division pools
    each division's own (the side's starting points are day 1's only: rules notes CR-03)."""
    campaign = operation.campaign
    key = procedure_key(campaign, CampaignStep.CARRY_OVER)
    rolled = key is not None and optional_rule_on(campaign, key)
    division_pools = optional_rule_on(campaign, DIVISION_POOLS)
    part: dict[str, Any] = {"sides": {}}
    sides = list(campaign.sides.order_by("pk"))
    forces = list(campaign.forces.order_by("pk")) if division_pools else []
    started: dict[models.Side | models.Force, int] = {side: side.activation_points for side in sides}
    started.update((force, force.activation_points) for force in forces)
    with _night_dice(operation, "carry_over") as dice:

        def carry(pool: models.Side | models.Force, side: models.Side) -> int:
            before = pool.activation_points
            if rolled and key is not None and before:
                run = dice.roll(
                    key,
                    {
                        "points": before,
                        "day_ending": operation.day.number,
                        "base_score": side.carry_over_base,
                        "shift_per_day": 1 if side.carry_over_direction == "+" else -1,
                        "cap": side.activation_cap,
                        "side": pool.name,
                    },
                    # By name, a natural key like the battalions' codes; "/" separates stream labels.
                    pool.name.replace("/", "-"),
                    side_id=side.pk,
                )
                pool.activation_points = run.outcome.carried
                force = pool if isinstance(pool, models.Force) else None
                dice.record(run, {"activation_points": pool.activation_points}, side.pk, force=force)
            else:  # no carry-over roll in this campaign: saved points are kept, up to the cap
                pool.activation_points = min(before, side.activation_cap)
            return before

        for side in sides:
            if division_pools:  # the starting points paid for day 1's first turns only
                before = side.activation_points
                side.activation_points = 0
            else:
                before = carry(side, side)
            report: dict[str, Any] = {
                "activation_points_before": before,
                "activation_points_carried": side.activation_points,
                "activation_points_lost": before - side.activation_points,
            }
            part["sides"][str(side.pk)] = report
            for force in (f for f in forces if f.side_id == side.pk):
                force_before = carry(force, side)
                report["activation_points_before"] += force_before
                report["activation_points_carried"] += force.activation_points
                report["activation_points_lost"] += force_before - force.activation_points
                report.setdefault("divisions", []).append(
                    {"name": force.name, "before": force_before, "carried": force.activation_points}
                )
        # No statement when none changed.
        models.Side.objects.bulk_update(
            [s for s in sides if s.activation_points != started[s]], ["activation_points"]
        )
        models.Force.objects.bulk_update(
            [f for f in forces if f.activation_points != started[f]], ["activation_points"]
        )
    return part


def _ammo(operation: models.Operation) -> dict[str, Any]:
    campaign = operation.campaign
    battalions = list(
        models.Battalion.objects.filter(campaign=campaign, ammo_low_markers__gt=0).select_related("side")
    )
    rolled: dict[int, int] = defaultdict(int)
    with _night_dice(operation, "ammo") as dice:
        for battalion in battalions:
            rolled[battalion.side_id] += 1
            run = dice.roll(
                AMMO_VARIANT,
                {
                    "markers": battalion.ammo_low_markers,
                    "supply_quality": battalion.side.supply_quality,
                    "situation": battalion.supply_situation,
                    "stand": battalion.code,
                },
                battalion.code,
                side_id=battalion.side_id,
            )
            battalion.ammo_low_markers = run.outcome.left
            dice.record(
                run, {"ammo_low_markers": battalion.ammo_low_markers}, battalion.side_id, battalion=battalion
            )
        models.Battalion.objects.bulk_update(battalions, ["ammo_low_markers"])
    return per_side("ammo_markers_rolled", rolled)


def _refuel(operation: models.Operation) -> dict[str, Any]:
    """Fuel through the night (000 § 21 read for the campaign, rules notes N43-29): the supply
    services reach a battalion in supply or in reserve (full again) and one separated from its
    C Ops a step (empty to low, low to full); an isolated one keeps what it has. No dice."""
    battalions = models.Battalion.objects.filter(campaign_id=operation.campaign_id)
    supplied = battalions.filter(
        supply_situation__in=[SupplySituation.OK.value, SupplySituation.RESERVE.value],
        fuel_state__in=[FuelState.LOW, FuelState.EMPTY],
    )
    refuelled = Counter(update_counted_per_side(supplied, {"fuel_state": FuelState.FULL}))
    separated = battalions.filter(supply_situation=SupplySituation.SEPARATED.value)
    # Low to full before empty to low, so no battalion moves two steps.
    for before, after in ((FuelState.LOW, FuelState.FULL), (FuelState.EMPTY, FuelState.LOW)):
        refuelled.update(update_counted_per_side(separated.filter(fuel_state=before), {"fuel_state": after}))
    return per_side("battalions_refuelled", dict(refuelled))


def _inactive(operation: models.Operation) -> dict[str, Any]:
    active = models.Battalion.objects.filter(campaign_id=operation.campaign_id).exclude(
        activation=ActivationState.INACTIVE
    )
    inactive = update_counted_per_side(active, {"activation": ActivationState.INACTIVE})
    return per_side("battalions_set_inactive", inactive)


def _availability_reroll(operation: models.Operation) -> dict[str, Any]:
    """Panzer Korps: a force that sent word it will not arrive rolls for availability again tomorrow."""
    campaign = operation.campaign
    key = procedure_key(campaign, CampaignStep.NIGHT_AVAILABILITY_REROLL)
    if key is None:
        return {}
    with _night_dice(operation, "availability") as dice:  # a roll the night records nowhere
        rerolled = dice.roll(key, {}).outcome
    to_reroll = campaign.forces.filter(
        arrival_status=ArrivalStatus.WILL_NOT_ARRIVE, availability__in=[a.value for a in rerolled]
    )
    counts = update_counted_per_side(
        to_reroll,
        {
            "arrival_status": ArrivalStatus.SCHEDULED,
            "arrival_day": operation.day.number + 1,
            "availability": "",
            "arrival_attempts": 0,
        },
    )
    return per_side("forces_to_reroll_availability", counts)


@dataclasses.dataclass(frozen=True)
class NightStep:
    """A step of the night: what it does, whether this night plans it, and the counters each
    side's report shows for it (0 when the step ran but found nothing of the side's)."""

    name: str
    run: Callable[[models.Operation], dict[str, Any]]
    planned: Planning = _always
    # A step that rolls for every battalion or force commits when done if it rolled (its part
    # names the sides it rolled for), so a crash after it never rolls again; the quick set-based
    # steps commit with the step after them.
    commits_alone: bool = False
    counters: tuple[str, ...] = ()


# The night's steps in the order it runs them.
NIGHT_STEPS = {
    step.name: step
    for step in (
        # First: the replacements and the C Ops read the situations the map gives at nightfall.
        NightStep(
            "supply",
            lambda operation: supply_night(operation, SYSTEM_ACTOR),
            _supply_traced,
            counters=("battalions_isolated", "battalions_separated"),
        ),
        NightStep("move_fups", _move_fups, _fups_can_move, counters=("fups_moved",)),
        NightStep("flip_suppressed", _flip_suppressed, counters=("suppressions_flipped",)),
        NightStep(
            "replacements",
            _replacements,
            commits_alone=True,
            counters=(
                "replacements_rolled",
                "replacements_due",
                "replacements_returned",
                "extra_stands_lost",
            ),
        ),
        NightStep("orders", night_orders_apply, _orders_queued),
        NightStep(
            "night_command", _night_command, _in_profile(CampaignStep.NIGHT_COMMAND), commits_alone=True
        ),
        NightStep("artillery", _artillery),
        NightStep("carry_over", _carry_over),
        NightStep("ammo", _ammo, _opted(AMMO_VARIANT), commits_alone=True, counters=("ammo_markers_rolled",)),
        NightStep("refuel", _refuel, _opted(FUEL_SUPPLY), counters=("battalions_refuelled",)),
        NightStep("inactive", _inactive, counters=("battalions_set_inactive",)),
        NightStep(
            "availability_reroll",
            _availability_reroll,
            _in_profile(CampaignStep.NIGHT_AVAILABILITY_REROLL),
            counters=("forces_to_reroll_availability",),
        ),
        # Last: the campaign ends on the night's state, and nothing after it writes to the campaign.
        NightStep("victory", lambda operation: victory_night(operation, SYSTEM_ACTOR), _victory_defined),
    )
}


def night_phase_step(operation: models.Operation, step: str) -> dict[str, Any]:
    return NIGHT_STEPS[step].run(operation)


def night_phase_follow_up(operation_id: int) -> None:
    """What follows the night's last commit, in one task (a message costs the night more than
    the work it saves in it, issue 34): the members told their night reports are ready, then the
    map the night left kept for the replay (else the next dawn keeps it). Each is safe to run twice."""
    night_reports_notify(operation_id)
    map_snapshot_after_night(operation_id)


def night_phase_finish(operation: models.Operation) -> list[int]:
    """Write each side's night report, close the day, notify the members; the versions shown
    before (during the night, and before it) whose polled statuses this commit outdates."""
    # The night shows, whole, with this commit.
    day = operation.day
    # The day's dice seed is revealed with it (campaign.services.dice): nothing rolls with it again.
    campaign = campaign_lock_save(
        operation.campaign_id, current_segment="", night_version=None, dice_revealed_through=day.number
    )
    # Every figure is the side's own: the steps report per side, nothing campaign-wide.
    counters = dict.fromkeys(
        (counter for step in operation.steps for counter in NIGHT_STEPS[step].counters), 0
    )
    reports = operation_reports_write(operation, counters)
    day.status = DayStatus.DONE
    day.dice_seed = dice_day_seed(campaign, day.number)
    day.save(update_fields=["status", "dice_seed"])
    models.NightSnapshot.objects.filter(operation=operation).delete()
    event_record(
        campaign,
        EventVerb.NIGHT_PHASE_DONE,
        operation,
        f"Night phase of day {day.number} done; its dice seed is revealed",
        SYSTEM_ACTOR,
        # Every member reads it: what each side learnt stays in its night report.
        after={"day": day.number, "reports": len(reports), "dice_seed": day.dice_seed},
    )
    # A task, not the night's work: the night's last commit stays as small at every size, and a
    # burst of nights finishes before their maps are kept (config.settings.queues).
    tasks_send_on_commit(NIGHT_PHASE_FOLLOW_UP_TASK, [operation.pk])
    shown = operation.campaign.night_version  # as the operation was read: during the night
    return [] if shown is None else [shown - 1, shown]


operation_kind_register(
    OperationKind.NIGHT_PHASE,
    OperationProcedure(
        step=night_phase_step,
        commits_alone=lambda step, part: NIGHT_STEPS[step].commits_alone and bool(part.get("sides")),
        finish=night_phase_finish,
    ),
)
