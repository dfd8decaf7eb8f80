"""Spending the side's campaign-wide activation-point pool."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaign import models
from campaign.access import Owner
from campaign.choices import ActivationState, CampaignStatus, DayStatus, EventVerb
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError
from campaign.services.rules import optional_rule_on, procedure_key, procedure_run
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
from rules_engine.profiles import CampaignStep
from rules_engine.registry import TABLES

COST_RULE = TABLES["gb.activation_cost"].rule.text()
POOL_RULE = ActivationRuleError.rule.text()
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


def _pool_book(
    campaign: models.Campaign, side: models.Side, day: models.CampaignDay, turn: int, column: ActivationColumn
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
    earlier = list(
        day.activation_spends.filter(side=side).order_by("turn", "pk").values_list("turn", "column", "cost")
    )
    spent_earlier = sum(cost for _, _, cost in earlier)
    choices = [f"{day.number}/{t}/{c}" for t, c, _ in earlier] + [f"{day.number}/{turn}/{column.value}"]
    try:
        run = procedure_run(
            campaign,
            key,
            {"pool": side.activation_points + spent_earlier, "choices": choices},
            ("day", day.number, "activation", side.name),
        )
    except ActivationColumnsMixed as exc:
        raise DomainError(
            f"{side.name} already chose for {models.activation_turn_name(turn)}: {exc.problem}",
            field="turn",
            rule=exc.rule.text(),
            code="turn_already_chosen",
        ) from exc
    except ActivationPoolOverspent as exc:
        raise DomainError(
            f"{side.name}'s activation pool would go below zero: {exc.problem}",
            field="column",
            rule=exc.rule.text(),
            code="pool_overspent",
        ) from exc
    except ActivationRuleError as exc:
        raise DomainError(exc.problem, field="turn", rule=exc.rule.text()) from exc
    ledger: ActivationLedger = run.outcome
    chosen = ActivationChoice(day.number, turn, column)
    return next(entry.cost for entry in ledger.entries if entry.choice == chosen)


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
    day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
    if day is None:
        raise ConflictError("activation points are spent during a campaign day", field="day", code="no_day")
    chosen = _column(column)
    if not DAWN_TURN <= turn <= LAST_TURN:
        raise DomainError(f"turn must be {DAWN_TURN} (dawn) to {LAST_TURN}", field="turn", rule=COST_RULE)
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
    cost = _pool_book(campaign, side, day, turn, chosen)

    spend = models.ActivationSpend.objects.create(
        side=side, day=day, turn=turn, column=chosen.value, cost=cost
    )
    spend.battalions.set(battalions.values())
    before_points = side.activation_points
    side.activation_points -= cost
    side.save(update_fields=["activation_points"])

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
            stands = list(battalion.stands.all())
            run = procedure_run(
                campaign,
                reactivation_key,
                {
                    "quality": battalion.quality,
                    "nation": battalion.battlegroup.force.nation,
                    "suppressed": sum(s.status == "suppressed" for s in stands),
                    "eliminated": sum(s.status == "destroyed" for s in stands),
                },
                ("day", day.number, "turn", turn, "reactivation", code),
            )
            success = bool(run.outcome.outcome)
            rolls += run.records(
                campaign,
                actor,
                RollContext(day=day, battalion=battalion, owner=Owner.side(side.pk)),
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
        f"{side.name} spent {cost} AP on {chosen.value} at {models.activation_turn_name(turn)}: "
        + ", ".join(codes)
        + (f" (still gone to ground: {', '.join(stayed_down)})" if stayed_down else ""),
        actor,
        before={"activation_points": before_points},
        after={
            "activation_points": side.activation_points,
            "activated": [c for c in codes if c not in stayed_down],
        },
    )
    return spend
