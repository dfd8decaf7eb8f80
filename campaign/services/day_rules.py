"""Campaign-level rules of the Great Battles charts and the Malta scenario (004 FAQ 44-45) that the
umpire calls for during a day: the day-end roll, the artillery plan, postponed arrivals,
entrenchments, air support, a C Ops overrun and C Ops action points saved as activation points.

Each refuses, naming the field and the rule, when the campaign does not play the rule; each roll
is recorded with its rule reference (rules notes CR-03 to CR-09).
"""

from __future__ import annotations

from django.db import transaction

from campaign import models
from campaign.access import PUBLIC, Owner
from campaign.choices import (
    ArrivalStatus,
    ArtilleryMode,
    CampaignStatus,
    DayStatus,
    EventVerb,
)
from campaign.services.activation import DIVISION_POOLS, Pool, activation_pool_of, day_under_way, turn_check
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import optional_rule_on, optional_rule_require, procedure_key, procedure_run
from campaign.services.supply import supply_cops_isolated, supply_isolate_tonight
from rules_engine import catalog
from rules_engine.great_battles.barrage import BarrageOrder
from rules_engine.great_battles.campaign_pools import (
    C_OPS_OVERRUN_POINTS_LOST,
    UNSPECIFIED_RESERVE,
    EntrenchRefused,
    MaltaSide,
    lose_points,
)
from rules_engine.profiles import CampaignStep
from rules_engine.registry import TABLES
from rules_engine.vocab import SupplySituation

DAY_END = "gb.malta.day_end"
BARRAGE_ORDERS = "gb.malta.barrage_orders"
RESERVE_DELAY = "gb.malta.reserve_delay"
ENTRENCHMENT = "gb.malta.entrenchment"
AIR_SUPPORT = "gb.malta.air_support"
COPS_ACTION_POINTS = "gb.variant.cops_action_points"
ACTION_TO_ACTIVATION = "gb.variant.action_to_activation"
OVERRUN_RULE = TABLES["gb.c_ops_overrun_points_lost"].rule.text()


def _rule_text(key: str) -> str:
    return catalog.get_procedure(key).rule.text()


def _force(campaign: models.Campaign, force_id: int) -> models.Force:
    force = campaign.forces.select_for_update().select_related("side").filter(pk=force_id).first()
    if force is None:
        raise DomainError(f"force {force_id} is not in campaign {campaign.slug}", field="force_id")
    return force


def _locked_pool(campaign: models.Campaign, force: models.Force, day: int, turn: int) -> Pool:
    pool = activation_pool_of(campaign, force.side, force, day, turn)
    model = type(pool)
    return model.objects.select_for_update().get(pk=pool.pk)


@transaction.atomic
def day_end_roll(campaign_id: int, actor: Actor, *, allied_turn: int) -> models.RollRecord:
    """Malta house rule 2: at the end of Allied turns 7-10 a d10 at or above the turn number ends
    the day; the current segment is cut short at that turn and no later segment opens."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, DAY_END, "allied_turn")
    if day.ended_after_turn is not None:
        raise ConflictError(
            f"day {day.number} already ended after Allied turn {day.ended_after_turn}",
            field="allied_turn",
            code="day_over",
        )
    stream = ("day", day.number, "day_end", allied_turn)
    if campaign.rolls.filter(procedure=DAY_END, stream="/".join(map(str, stream))).exists():
        raise ConflictError(
            f"the day-end roll after Allied turn {allied_turn} has been made",
            field="allied_turn",
            code="rolled",
        )
    # Both sides see it at the table; its segment is read once the roll is made.
    run = procedure_run(
        campaign, DAY_END, {"allied_turn": allied_turn}, stream, context=RollContext(day=day, owner=PUBLIC)
    )
    if run.outcome is None:
        raise DomainError(
            f"the day-end roll is made at the end of Allied turns 7 to 10, not after turn {allied_turn}",
            field="allied_turn",
            rule=_rule_text(DAY_END),
        )
    segment = day.segments.filter(segment=campaign.current_segment).first()
    changes: dict[str, int] = {}
    if run.outcome.outcome:
        day.ended_after_turn = allied_turn
        day.save(update_fields=["ended_after_turn"])
        changes["ended_after_turn"] = allied_turn
        if segment is not None and segment.turns is not None:
            earlier = sum(s.turns or 0 for s in day.segments.filter(order__lt=segment.order))
            cut = allied_turn - earlier
            if 0 < cut < segment.turns:  # the segment's remaining turns are not played
                segment.turns = cut
                segment.save(update_fields=["turns"])
                changes["segment_turns"] = cut
    (record,) = models.RollRecord.objects.bulk_create(
        run.records(campaign, actor, RollContext(day=day, segment=segment, owner=PUBLIC), changes)
    )
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        day,
        f"Day-end roll after Allied turn {allied_turn}: {record.line}",
        actor,
        after=changes,
        owner=PUBLIC,
    )
    return record


def artillery_order_check(
    campaign: models.Campaign, side: models.Side, *, template: int, mode: str, day_number: int
) -> None:
    """A template the side has, in a mode the scenario allows it on ``day_number`` (Malta, house
    rule 7: the Axis only on call on day 1); refused naming the rule. A side's sealed order is
    checked the same way when it is submitted."""
    if mode not in ArtilleryMode.values:
        raise DomainError(
            f"{mode!r} is not an artillery mode ({', '.join(ArtilleryMode.values)})", field="mode"
        )
    if not 1 <= template <= side.barrage_templates:
        raise DomainError(
            f"{side.name} has templates 1 to {side.barrage_templates}, not {template}", field="template"
        )
    if optional_rule_on(campaign, BARRAGE_ORDERS):
        malta_side = MaltaSide.AXIS if side.is_axis else MaltaSide.ALLIED
        allowed = procedure_run(campaign, BARRAGE_ORDERS, {"side": malta_side, "day": day_number}, ()).outcome
        if BarrageOrder(mode) not in allowed:
            words = " and ".join(ArtilleryMode(order.value).label.lower() for order in allowed)
            raise DomainError(
                f"{side.name} may order only {words} artillery on day {day_number}; "
                f"{ArtilleryMode(mode).label.lower()} is allowed from day 2",
                field="mode",
                rule=_rule_text(BARRAGE_ORDERS),
                code="mode_not_allowed",
            )


@transaction.atomic
def artillery_order_set(
    campaign_id: int, actor: Actor, *, side_id: int, template: int, mode: str
) -> models.ArtilleryOrder:
    """Note a barrage template's mode for today; Malta (house rule 7): the Axis only on call on day 1."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    side = campaign.sides.filter(pk=side_id).first()
    if side is None:
        raise DomainError(f"side {side_id} is not in campaign {campaign.slug}", field="side_id")
    artillery_order_check(campaign, side, template=template, mode=mode, day_number=day.number)
    order, _ = models.ArtilleryOrder.objects.update_or_create(
        side=side, day=day, template=template, defaults={"mode": mode}
    )
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        side,
        f"{side.name} template {template} is {ArtilleryMode(mode).label.lower()} on day {day.number}",
        actor,
        after={"template": template, "mode": mode},
    )
    return order


@transaction.atomic
def arrival_postpone(campaign_id: int, actor: Actor, *, force_id: int, entry_point: str) -> models.RollRecord:
    """Malta house rule 5: a planned arrival postponed 4-10 turns ("average" dice) to a new entry
    point; the arrival rolls count the turns down from when it falls due (rules notes CR-06)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    force = _force(campaign, force_id)
    if force.arrival_status not in (ArrivalStatus.SCHEDULED, ArrivalStatus.ROLLING):
        raise ConflictError(
            f"{force.name} has no planned arrival to postpone: "
            f"it is {force.get_arrival_status_display().lower()}",
            field="force_id",
            code="not_scheduled",
        )
    if not entry_point.strip():
        raise DomainError("name the new entry point", field="entry_point")
    postponed_before = campaign.rolls.filter(
        procedure=RESERVE_DELAY, force=force, stream__contains="/postpone/"
    ).count()
    context = RollContext(day=day, force=force, owner=Owner.side(force.side_id))
    run = procedure_run(
        campaign,
        RESERVE_DELAY,
        {"unit": force.name},
        ("day", day.number, "postpone", force.name.replace("/", "-"), postponed_before + 1),
        context=context,
    )
    before = {"arrival_zone": force.arrival_zone, "arrival_turns_left": force.arrival_turns_left}
    force.arrival_turns_left = run.outcome.outcome
    force.arrival_zone = entry_point.strip()
    force.availability = UNSPECIFIED_RESERVE
    force.save(update_fields=["arrival_turns_left", "arrival_zone", "availability"])
    after = {"arrival_zone": force.arrival_zone, "arrival_turns_left": force.arrival_turns_left}
    (record,) = models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, after))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        force,
        f"{force.name}'s arrival postponed {force.arrival_turns_left} turns, to {force.arrival_zone}",
        actor,
        before=before,
        after=after,
    )
    return record


def _stand(campaign: models.Campaign, battalion_code: str, stand_label: str) -> models.Stand:
    stand = (
        models.Stand.objects.select_for_update()
        .select_related("battalion__side")
        .filter(campaign=campaign, battalion__code=battalion_code, label=stand_label)
        .first()
    )
    if stand is None:
        raise DomainError(
            f"stand {battalion_code}/{stand_label} is not in this campaign", field="stand_label"
        )
    return stand


@transaction.atomic
def stand_entrench(
    campaign_id: int,
    actor: Actor,
    *,
    battalion_code: str,
    stand_label: str,
    action_points: int = 0,
    at_start: bool = False,
) -> models.Stand:
    """Malta house rule 8: an Allied stand outside a town starts entrenched (day 1), or a stationary
    infantry stand spends action points until 5 entrench it; kept across days until it moves."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, ENTRENCHMENT, "action_points")
    stand = _stand(campaign, battalion_code, stand_label)
    if stand.entrenched:
        raise ConflictError(f"stand {stand} is already entrenched", field="stand_label", code="entrenched")
    try:
        run = procedure_run(
            campaign,
            ENTRENCHMENT,
            {
                "stand_type": stand.stand_type,
                "action_points_so_far": stand.entrenchment_points,
                "action_points_spent": action_points,
                "at_start": at_start,
                "allied": not stand.battalion.side.is_axis,
                "day": day.number,
            },
            (),
        )
    except EntrenchRefused as exc:
        raise DomainError(
            str(exc), field="at_start" if at_start else "action_points", rule=exc.rule.text()
        ) from exc
    before = {"entrenchment_points": stand.entrenchment_points, "entrenched": stand.entrenched}
    stand.entrenchment_points = run.outcome.action_points
    stand.entrenched = run.outcome.entrenched
    stand.save(update_fields=["entrenchment_points", "entrenched"])
    campaign_save(campaign)
    after = {"entrenchment_points": stand.entrenchment_points, "entrenched": stand.entrenched}
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        stand.battalion,
        f"Stand {stand} "
        + (
            "is entrenched" if stand.entrenched else f"has dug {stand.entrenchment_points} of 5 action points"
        ),
        actor,
        before=before,
        after=after,
    )
    return stand


@transaction.atomic
def stand_move(campaign_id: int, actor: Actor, *, battalion_code: str, stand_label: str) -> models.Stand:
    """A stand that moves leaves its entrenchment, finished or not (Malta house rule 8)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    stand = _stand(campaign, battalion_code, stand_label)
    before = {"entrenchment_points": stand.entrenchment_points, "entrenched": stand.entrenched}
    stand.entrenchment_points, stand.entrenched = 0, False
    stand.save(update_fields=["entrenchment_points", "entrenched"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        stand.battalion,
        f"Stand {stand} moved: no longer entrenched",
        actor,
        before=before,
        after={"entrenchment_points": 0, "entrenched": False},
    )
    return stand


@transaction.atomic
def air_support_request(campaign_id: int, actor: Actor, *, force_id: int, turn: int) -> models.RollRecord:
    """Malta: an air support template costs an activation point of the paying pool and comes on a
    d10 of 3 or less; a side asks at most once a turn (rules notes CR-07)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, AIR_SUPPORT, "force_id")
    turn_check(day, turn)
    force = _force(campaign, force_id)
    side = force.side
    stream = ("day", day.number, "turn", turn, "air_support", side.name)
    if campaign.rolls.filter(procedure=AIR_SUPPORT, stream="/".join(map(str, stream))).exists():
        raise ConflictError(
            f"{side.name} has asked for air support in {models.activation_turn_name(turn)} already: "
            "one template a turn at most",
            field="turn",
            code="air_support_asked",
        )
    pool = _locked_pool(campaign, force, day.number, turn)
    if pool.activation_points < 1:
        raise DomainError(
            f"{pool.name} has no activation point to spend on air support",
            field="force_id",
            rule=_rule_text(AIR_SUPPORT),
            code="pool_overspent",
        )
    malta_side = MaltaSide.AXIS if side.is_axis else MaltaSide.ALLIED
    context = RollContext(day=day, force=force, owner=Owner.side(side.pk))
    run = procedure_run(campaign, AIR_SUPPORT, {"side": malta_side}, stream, context=context)
    pool.activation_points -= 1
    pool.save(update_fields=["activation_points"])
    changes = {"activation_points": pool.activation_points, "air_template": bool(run.outcome.outcome)}
    (record,) = models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, changes))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        force,
        f"{pool.name} spent 1 AP on air support in {models.activation_turn_name(turn)}: {record.line}",
        actor,
        after=changes,
    )
    return record


@transaction.atomic
def force_cops_overrun(campaign_id: int, actor: Actor, *, force_id: int, turn: int) -> models.Force:
    """C Ops overrun: the division's pool loses 10 activation points and its battalions are
    isolated for the coming night (004 Unit Type Capabilities, C Ops)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    turn_check(day, turn)
    force = _force(campaign, force_id)
    pool = _locked_pool(campaign, force, day.number, turn)
    change = lose_points(pool.activation_points, C_OPS_OVERRUN_POINTS_LOST)
    pool.activation_points = change.after
    pool.save(update_fields=["activation_points"])
    division = models.Battalion.objects.filter(battlegroup__force=force)
    isolated = division.update(supply_situation=SupplySituation.ISOLATED.value)
    # On a map the night traces supply lines again: the overrun holds over them (rules notes MS-04).
    supply_isolate_tonight(day, division.values_list("code", flat=True))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        force,
        f"{force.name}'s C Ops overrun ({OVERRUN_RULE}): {pool.name} loses "
        f"{change.before - change.after} activation points, {isolated} battalions isolated",
        actor,
        before={"activation_points": change.before},
        after={"activation_points": change.after, "battalions_isolated": isolated},
    )
    return force


def force_rule_actions(campaign: models.Campaign) -> list[str]:
    """What the umpire may do with a division's C Ops now, the same for every force of ``campaign``
    (force_cops_action_points refuses anything else): ``roll_cops_action_points`` while a day's
    turns are played in a campaign playing variant 1, and ``save_action_points`` when the roll may
    save its actions as activation points (variant 2)."""
    if campaign.status != CampaignStatus.ACTIVE or not optional_rule_on(campaign, COPS_ACTION_POINTS):
        return []
    if not campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).exists():
        return []
    actions = ["roll_cops_action_points"]
    if optional_rule_on(campaign, ACTION_TO_ACTIVATION):
        actions.append("save_action_points")
    return actions


@transaction.atomic
def force_cops_action_points(
    campaign_id: int,
    actor: Actor,
    *,
    force_id: int,
    turn: int,
    quality: str,
    convert: bool = True,
) -> models.RollRecord:
    """Variant 1 (FAQ 45): the C Ops rolls its action points (no HQ +10%; +10 on the roll when
    isolated from its source of supply, as the supply service traces it with the umpire's
    overrides: GB-B-17) and may save them as the division's activation points."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, COPS_ACTION_POINTS, "force_id")
    turn_check(day, turn)
    force = _force(campaign, force_id)
    stream = ("day", day.number, "turn", turn, "cops_action_points", force.name.replace("/", "-"))
    if campaign.rolls.filter(procedure=COPS_ACTION_POINTS, stream="/".join(map(str, stream))).exists():
        raise ConflictError(
            f"{force.name}'s C Ops has rolled for {models.activation_turn_name(turn)}",
            field="turn",
            code="rolled",
        )
    isolated = force.pk in supply_cops_isolated(campaign)
    context = RollContext(day=day, force=force, owner=Owner.side(force.side_id))
    run = procedure_run(
        campaign,
        COPS_ACTION_POINTS,
        {"quality": quality, "isolated_from_source": isolated},
        stream,
        context=context,
    )
    actions = int(run.outcome.outcome)
    changes: dict[str, int] = {"action_points": actions}
    if convert and actions:
        optional_rule_require(campaign, ACTION_TO_ACTIVATION, "convert")
        pool = _locked_pool(campaign, force, day.number, turn)
        gained = procedure_run(
            campaign,
            ACTION_TO_ACTIVATION,
            {
                "pool": pool.activation_points,
                "action_points_converted": actions,
                "cap": force.side.activation_cap,
            },
            (),
        ).outcome
        pool.activation_points = gained.after
        pool.save(update_fields=["activation_points"])
        changes["activation_points"] = gained.after
    (record,) = models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, changes))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        force,
        f"{force.name}'s C Ops: {record.line}"
        + (
            f"; saved as activation points ({changes['activation_points']})"
            if "activation_points" in changes
            else ""
        ),
        actor,
        after=changes,
    )
    return record


def activation_points_sources(campaign: models.Campaign) -> str:
    """In words, where a side's activation points come from in ``campaign`` and how the umpire adds
    them, as the services apply the rules it plays (rules notes C-05, CR-03, CR-09): a read, for the
    day page beside the pool."""
    carry_over = procedure_key(campaign, CampaignStep.CARRY_OVER)
    sources = [
        "a confirmed battle report adds the points it awards and takes off those it spent",
        "the night rolls to carry the saved points over to the next day (one d10 a point, at or under the "
        "side's score)"
        if carry_over is not None and optional_rule_on(campaign, carry_over)
        else "the night keeps the saved points, up to the side's cap",
    ]
    if optional_rule_on(campaign, COPS_ACTION_POINTS) and optional_rule_on(campaign, ACTION_TO_ACTIVATION):
        sources.insert(
            0,
            "the umpire rolls a C Ops' action points (once a division a turn) and saves them as "
            "activation points, up to the side's cap",
        )
    opening = (
        "The side's own pool pays only for the first turns of day 1, with the scenario's starting points, "
        "and loses what is left of them that night; from then on each division pays from its own pool, "
        "which the Forces page shows. "
        if optional_rule_on(campaign, DIVISION_POOLS)
        else "The side starts with the scenario's points. "
    )
    *first, last = [f"when {source}" for source in sources]
    return f"{opening}Points come in {', '.join(first)} and {last}."
