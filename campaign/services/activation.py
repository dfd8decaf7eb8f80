"""Spending activation points: the side's pool, or (Malta) each division's own."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaign import models
from campaign.access import Owner
from campaign.choices import ActivationState, CampaignStatus, DayStatus, EventVerb
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import (
    campaign_lock,
    campaign_require_status,
    campaign_save,
    campaign_status_refusal,
)
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import optional_rule_on, optional_rule_require, procedure_key, procedure_run
from rules_engine.great_battles.activation import (
    DAWN_TURN,
    LAST_TURN,
    ActivationChoice,
    ActivationColumn,
    ActivationColumnsMixed,
    ActivationLedger,
    ActivationPoolOverspent,
    ActivationRuleError,
)
from rules_engine.great_battles.campaign_pools import MALTA_RULE, PoolOwner
from rules_engine.profiles import CampaignStep
from rules_engine.registry import TABLES

COST_RULE = TABLES["gb.activation_cost"].rule.text()
POOL_RULE = ActivationRuleError.rule.text()
DIVISION_POOLS_RULE = MALTA_RULE.text()
REACTIVATION_RULE = TABLES["gb.reactivation_modifiers"].rule.text()
INITIATIVE_RULE = TABLES["gb.initiative_activation"].rule.text()
# How many battlegroups each column may draw its battalions from.
COLUMN_BATTLEGROUPS = {
    ActivationColumn.ONE_BATTALION: 1,
    ActivationColumn.ONE_BATTLEGROUP: 1,
    ActivationColumn.TWO_BATTLEGROUPS: 2,
    ActivationColumn.THREE_BATTLEGROUPS: 3,
}


def _column(value: str) -> ActivationColumn:
    try:
        return ActivationColumn(value)
    except ValueError:
        choices = ", ".join(c.value for c in ActivationColumn)
        raise DomainError(f"{value!r} is not an activation column ({choices})", field="column") from None


DIVISION_POOLS = "gb.malta.division_pools"
Pool = models.Side | models.Force


def activation_pool_of(
    campaign: models.Campaign, side: models.Side, force: models.Force | None, day: int, turn: int
) -> Pool:
    """The pool that pays at ``turn`` of ``day``: the side's, or (Malta, from day 1 turn 2)
    the division's own when the campaign switched division pools on (rules notes CR-03)."""
    if force is None or not optional_rule_on(campaign, DIVISION_POOLS):
        return side
    owner = procedure_run(campaign, DIVISION_POOLS, {"day": day, "turn": turn}, ()).outcome
    return force if owner is PoolOwner.DIVISION else side


def _pool_book(
    campaign: models.Campaign,
    side: models.Side,
    pool: Pool,
    day: models.CampaignDay,
    turn: int,
    column: ActivationColumn,
) -> int:
    """Book the side's choices of the day and this one on the activation chart
    (``gb.activation_pool``, with the club's settings): what this one costs, or a
    refusal naming the field when the chart does not allow it.

    The pool is what the side holds now plus what it spent earlier today, so the
    day's choices are booked against the points it held before them.
    """
    key = procedure_key(campaign, CampaignStep.ACTIVATION_POOL)
    if key is None:
        raise ConflictError(
            "this campaign's rules have no activation-point pool", field="column", code="no_activation_pool"
        )
    paid_by: dict[str, object] = (
        {"force": pool} if isinstance(pool, models.Force) else {"force__isnull": True}
    )
    earlier = list(
        day.activation_spends.filter(side=side, **paid_by)
        .order_by("turn", "pk")
        .values_list("turn", "column", "cost")
    )
    spent_earlier = sum(cost for _, _, cost in earlier)
    choices = [f"{day.number}/{t}/{c}" for t, c, _ in earlier] + [f"{day.number}/{turn}/{column.value}"]
    try:
        run = procedure_run(
            campaign,
            key,
            {"pool": pool.activation_points + spent_earlier, "choices": choices},
            ("day", day.number, "activation", side.name),
        )
    except ActivationColumnsMixed as exc:
        raise DomainError(
            f"{pool.name} already chose for {models.activation_turn_name(turn)}: {exc.problem}",
            field="turn",
            rule=exc.rule.text(),
            code="turn_already_chosen",
        ) from exc
    except ActivationPoolOverspent as exc:
        raise DomainError(
            f"{pool.name}'s activation pool would go below zero: {exc.problem}",
            field="column",
            rule=exc.rule.text(),
            code="pool_overspent",
        ) from exc
    except ActivationRuleError as exc:
        raise DomainError(exc.problem, field="turn", rule=exc.rule.text()) from exc
    ledger: ActivationLedger = run.outcome
    chosen = ActivationChoice(day.number, turn, column)
    return next(entry.cost for entry in ledger.entries if entry.choice == chosen)


def activation_costs(day: int, turns: Sequence[int]) -> list[ActivationChoice]:
    """Every column of the activation chart at each of ``turns`` of ``day`` (the turns the segment
    under way plays), each with the cost the chart gives it: what the umpire chooses a spend from."""
    return [
        ActivationChoice(day=day, turn=turn, column=column) for turn in turns for column in ActivationColumn
    ]


def activation_spend_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why no activation points may be spent now, or None (the umpire's ``spend_activation_points``
    action): they are spent while a campaign day is under way."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.ACTIVE)
    under_way = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY)
    if refusal is None and not under_way.exists():
        refusal = ConflictError(
            "activation points are spent during a campaign day", field="day", code="no_day"
        )
    return refusal


@transaction.atomic
def activation_spend(
    campaign_id: int,
    actor: Actor,
    *,
    side_id: int,
    column: str,
    turn: int,
    battalion_codes: Sequence[str],
    expected_version: int | None = None,
) -> models.ActivationSpend:
    """Buy one activation column for ``turn`` (0 = dawn) and activate the battalions.

    A gone-to-ground battalion is reactivated only when the campaign switched
    on the reactivation variant, by its 2D10 roll; the points are spent either way.
    """
    campaign = campaign_lock(campaign_id, expected_version)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    side = campaign.sides.select_for_update().filter(pk=side_id).first()
    if side is None:
        raise DomainError(f"side {side_id} is not in campaign {campaign.slug}", field="side_id")
    refusal = activation_spend_refusal(campaign)
    if refusal is not None:
        raise refusal
    day = campaign.days.get(number=campaign.current_day, status=DayStatus.DAY)
    chosen = _column(column)
    turn_check(day, turn)
    codes = list(battalion_codes)
    battalions = {
        b.code: b for b in campaign.battalions.select_related("battlegroup__force").filter(code__in=codes)
    }
    for index, code in enumerate(codes):
        if code not in battalions:
            raise DomainError(f"battalion {code} is not in this campaign", field=f"battalion_codes[{index}]")
        if battalions[code].side_id != side.pk:
            raise DomainError(
                f"battalion {code} is not on side {side.name}", field=f"battalion_codes[{index}]"
            )
        if codes.index(code) != index:
            raise DomainError(f"battalion {code} is named twice", field=f"battalion_codes[{index}]")
    if not codes:
        raise DomainError("name at least one battalion to activate", field="battalion_codes")
    if chosen is ActivationColumn.ONE_BATTALION and len(codes) != 1:
        raise DomainError(
            "the 1 Bn column activates exactly one battalion", field="battalion_codes", rule=COST_RULE
        )
    groups = {b.battlegroup_id for b in battalions.values()}
    if len(groups) > COLUMN_BATTLEGROUPS[chosen]:
        raise DomainError(
            f"the {chosen.value} column covers at most {COLUMN_BATTLEGROUPS[chosen]} battlegroup(s), "
            f"these battalions come from {len(groups)}",
            field="battalion_codes",
            rule=COST_RULE,
        )
    forces = {b.battlegroup.force for b in battalions.values()}
    pool = activation_pool_of(campaign, side, next(iter(forces)), day.number, turn)
    if isinstance(pool, models.Force) and len(forces) > 1:
        raise DomainError(
            "each division pays from its own activation pool: these battalions come from "
            + " and ".join(sorted(f.name for f in forces)),
            field="battalion_codes",
            rule=DIVISION_POOLS_RULE,
            code="several_divisions",
        )
    if isinstance(pool, models.Force):
        pool = models.Force.objects.select_for_update().get(pk=pool.pk)
    cost = _pool_book(campaign, side, pool, day, turn, chosen)

    spend = models.ActivationSpend.objects.create(
        side=side,
        day=day,
        turn=turn,
        column=chosen.value,
        cost=cost,
        force=pool if isinstance(pool, models.Force) else None,
    )
    spend.battalions.set(battalions.values())
    before_points = pool.activation_points
    pool.activation_points -= cost
    pool.save(update_fields=["activation_points"])

    reactivation_key = procedure_key(campaign, CampaignStep.REACTIVATION)
    reactivation_on = reactivation_key is not None and optional_rule_on(campaign, reactivation_key)
    activated, stayed_down, rolls = [], [], []
    for code in codes:
        battalion = battalions[code]
        if battalion.activation == ActivationState.GONE_TO_GROUND:
            if not reactivation_on or reactivation_key is None:
                raise DomainError(
                    f"battalion {code} has gone to ground and cannot be reactivated today",
                    field=f"battalion_codes[{codes.index(code)}]",
                    rule=COST_RULE,
                )
            context = RollContext(day=day, battalion=battalion, owner=Owner.side(side.pk))
            run = procedure_run(
                campaign,
                reactivation_key,
                _reactivation_inputs(battalion),
                ("day", day.number, "turn", turn, "reactivation", code),
                context=context,
            )
            success = bool(run.outcome.outcome)
            rolls += run.records(
                campaign,
                actor,
                context,
                {"activation": ActivationState.ACTIVATED if success else ActivationState.GONE_TO_GROUND},
            )
            if not success:
                stayed_down.append(code)
                continue
        activated.append(battalion.pk)
    models.RollRecord.objects.bulk_create(rolls)
    models.Battalion.objects.filter(pk__in=activated).update(activation=ActivationState.ACTIVATED)
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.ACTIVATION_SPENT,
        side,
        f"{pool.name} spent {cost} AP on {chosen.value} at {models.activation_turn_name(turn)}: "
        + ", ".join(codes)
        + (f" (still gone to ground: {', '.join(stayed_down)})" if stayed_down else ""),
        actor,
        before={"activation_points": before_points},
        after={
            "pool": pool.name,
            "activation_points": pool.activation_points,
            "activated": [c for c in codes if c not in stayed_down],
        },
    )
    return spend


INITIATIVE = "gb.initiative_activation"
REACTIVATION = "gb.reactivation"


def _battalion(campaign: models.Campaign, code: str) -> models.Battalion:
    battalion = (
        campaign.battalions.select_for_update()
        .select_related("battlegroup__force", "side")
        .filter(code=code)
        .first()
    )
    if battalion is None:
        raise DomainError(f"battalion {code} is not in this campaign", field="battalion_code")
    return battalion


def day_under_way(campaign: models.Campaign) -> models.CampaignDay:
    """The campaign day under way (its turns being played), else 409."""
    day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
    if day is None:
        raise ConflictError("no campaign day is under way", field="day", code="no_day")
    return day


def turn_check(day: models.CampaignDay, turn: int) -> None:
    """A turn of the day: dawn (0) to 10, and none after the day-end roll ended the day."""
    if not DAWN_TURN <= turn <= LAST_TURN:
        raise DomainError(f"turn must be {DAWN_TURN} (dawn) to {LAST_TURN}", field="turn", rule=COST_RULE)
    if day.ended_after_turn is not None and turn > day.ended_after_turn:
        raise ConflictError(
            f"day {day.number} ended after Allied turn {day.ended_after_turn}: turn {turn} is not played",
            field="turn",
            code="day_over",
        )


def _reactivation_inputs(battalion: models.Battalion) -> dict[str, object]:
    stands = list(battalion.stands.all())
    return {
        "quality": battalion.quality,
        "nation": battalion.battlegroup.force.nation,
        "suppressed": sum(s.status == "suppressed" for s in stands),
        "eliminated": sum(s.status == "destroyed" for s in stands),
    }


@transaction.atomic
def battalion_deactivate(campaign_id: int, actor: Actor, *, battalion_code: str) -> models.Battalion:
    """An activated battalion deactivates for the defensive benefit (FAQ 2): with the
    reactivation variant it may roll to come back the same day (unlike one gone to ground)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day_under_way(campaign)
    battalion = _battalion(campaign, battalion_code)
    if battalion.activation != ActivationState.ACTIVATED:
        raise ConflictError(
            f"battalion {battalion.code} is {battalion.get_activation_display().lower()}, not activated",
            field="battalion_code",
            code="not_activated",
        )
    battalion.activation = ActivationState.DEACTIVATED
    battalion.save(update_fields=["activation"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        battalion,
        f"{battalion.code} deactivated for the defensive benefit",
        actor,
        before={"activation": ActivationState.ACTIVATED},
        after={"activation": battalion.activation},
    )
    return battalion


@transaction.atomic
def battalion_reactivate(
    campaign_id: int, actor: Actor, *, battalion_code: str, turn: int
) -> models.RollRecord:
    """Reactivation variant (May 2003 summary): a voluntarily deactivated battalion comes back,
    at no cost in activation points, on 2D10 under its rally number; one try a turn."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, REACTIVATION, "battalion_code")
    turn_check(day, turn)
    battalion = _battalion(campaign, battalion_code)
    if battalion.activation != ActivationState.DEACTIVATED:
        raise ConflictError(
            f"battalion {battalion.code} is {battalion.get_activation_display().lower()}: only a battalion "
            "that deactivated itself may roll to reactivate (one gone to ground waits for the next day)",
            field="battalion_code",
            code="not_deactivated",
            rule=REACTIVATION_RULE,
        )
    stream = ("day", day.number, "turn", turn, "reactivation", battalion.code)
    if campaign.rolls.filter(procedure=REACTIVATION, stream="/".join(map(str, stream))).exists():
        raise ConflictError(
            f"{battalion.code} has rolled to reactivate in {models.activation_turn_name(turn)}",
            field="turn",
            code="rolled",
        )
    context = RollContext(day=day, battalion=battalion, owner=Owner.side(battalion.side_id))
    run = procedure_run(campaign, REACTIVATION, _reactivation_inputs(battalion), stream, context=context)
    if run.outcome.outcome:
        battalion.activation = ActivationState.ACTIVATED
        battalion.save(update_fields=["activation"])
    (record,) = models.RollRecord.objects.bulk_create(
        run.records(campaign, actor, context, {"activation": battalion.activation})
    )
    campaign_save(campaign)
    event_record(campaign, EventVerb.RULE_APPLIED, battalion, f"{battalion.code}: {record.line}", actor)
    return record


@transaction.atomic
def battlegroup_initiative_activate(
    campaign_id: int, actor: Actor, *, battalion_code: str, turn: int, row: str | None = None
) -> list[models.RollRecord]:
    """Variant 2, "Initiative" activation (FAQ 45): the battalion with the battlegroup's HQ, on
    2 actions, activates its whole battlegroup for 1 activation point on 1D10 by nation and
    morale, a second try with the second action; with no point left, one try on 1D20 (both
    actions). The point is spent whatever the rolls; the battlegroup acts at -10 morale."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = day_under_way(campaign)
    optional_rule_require(campaign, INITIATIVE, "battalion_code")
    turn_check(day, turn)
    battalion = _battalion(campaign, battalion_code)
    group = battalion.battlegroup
    if not group.has_hq:
        raise DomainError(
            f"{group.name} has no battlegroup HQ to act on its initiative", field="battalion_code"
        )
    force = group.force
    stream_base = ("day", day.number, "turn", turn, "initiative", battalion.code)
    if campaign.rolls.filter(
        procedure=INITIATIVE, stream__startswith="/".join(map(str, stream_base))
    ).exists():
        raise ConflictError(
            f"{battalion.code} has tried initiative activation in {models.activation_turn_name(turn)}",
            field="turn",
            code="rolled",
        )
    pool = activation_pool_of(campaign, battalion.side, force, day.number, turn)
    pool = type(pool).objects.select_for_update().get(pk=pool.pk)
    has_points = pool.activation_points > 0
    values = {"nation": force.nation, "quality": battalion.quality, "side_has_activation_points": has_points}
    if row:
        values["row"] = row
    runs = []
    context = RollContext(day=day, battalion=battalion, owner=Owner.side(battalion.side_id))
    try:
        for attempt in (1, 2) if has_points else (1,):
            run = procedure_run(campaign, INITIATIVE, values, (*stream_base, attempt), context=context)
            runs.append(run)
            if run.outcome.outcome:
                break
    except ValueError as exc:  # a nation the chart has no row for (GB-A-11)
        raise DomainError(str(exc), field="row", rule=INITIATIVE_RULE) from exc
    activated = bool(runs[-1].outcome.outcome)
    before = pool.activation_points
    if has_points:
        pool.activation_points -= 1
        pool.save(update_fields=["activation_points"])
    if activated:
        models.Battalion.objects.filter(battlegroup=group).update(activation=ActivationState.ACTIVATED)
    changes = {"activation_points": pool.activation_points, "battlegroup_activated": activated}
    records = models.RollRecord.objects.bulk_create(
        [record for run in runs for record in run.records(campaign, actor, context, changes)]
    )
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.RULE_APPLIED,
        battalion,
        f"{group.name} initiative activation by {battalion.code}: "
        + ("activated (acts at -10 morale)" if activated else "not activated")
        + (f"; {pool.name} spent 1 AP" if has_points else "; no AP left: one 1D20 try"),
        actor,
        before={"activation_points": before},
        after=changes,
    )
    return records
