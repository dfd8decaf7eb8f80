"""Night orders (rules notes C-11, C-18): queued and taken back during the day, carried out
by the night phase's orders step."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaign import models
from campaign.choices import (
    AttachmentKind,
    DayStatus,
    EventVerb,
    NightOrderKind,
    SideOrderStatus,
    StandStatus,
    StandType,
)
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import ConflictError, DomainError, NotFoundError
from campaign.services.rules import procedure_run
from rules_engine import catalog
from rules_engine.great_battles.equipment import UNIT_TYPES, AttachmentSlot, UnitType

ATTACHMENT_CHECK = "gb.attachment_check"
# The chart's unit type of each kind of stand the campaign keeps (rules notes C-18).
STAND_UNIT_TYPES = {
    StandType.INFANTRY: UnitType.INFANTRY,
    StandType.SMG: UnitType.INFANTRY,
    StandType.ENGINEER: UnitType.INFANTRY,
    StandType.RECCE: UnitType.INFANTRY,
    StandType.ARMOUR: UnitType.ARMOR,
    StandType.AT_GUN: UnitType.ANTI_TANK,
    StandType.FIELD_GUN: UnitType.FIELD_GUN,
    StandType.HEAVY_WEAPONS: UnitType.HEAVY_WEAPONS,
    StandType.HQ: UnitType.HQ,
    StandType.TRANSPORT: UnitType.TRANSPORT,
}
ATTACHMENT_KINDS = {
    AttachmentSlot.HQ: AttachmentKind.HQ,
    AttachmentSlot.HEAVY_WEAPONS: AttachmentKind.HEAVY_WEAPONS,
    AttachmentSlot.OTHER: AttachmentKind.OTHER,
}


def night_orders_apply(operation: models.Operation) -> dict[str, Any]:
    """The night's step that carries out its queued orders: withdrawals to reserve, stands
    attached and detached; each side's report names the battalions it withdrew."""
    orders = list(
        models.NightOrder.objects.filter(day=operation.day, applied=False).select_related(
            "battalion", "stand"
        )
    )
    withdrawn = [o.battalion_id for o in orders if o.kind == NightOrderKind.WITHDRAW]
    models.Battalion.objects.filter(pk__in=withdrawn).update(in_reserve=True, sector=None)
    moved: list[models.Stand] = []
    for order in orders:
        if order.kind in (NightOrderKind.ATTACH, NightOrderKind.DETACH) and order.stand is not None:
            order.stand.battalion_id = order.target_battalion_id or order.stand.battalion_id
            order.stand.attached = order.kind == NightOrderKind.ATTACH
            order.stand.attachment_kind = order.attachment_kind if order.stand.attached else ""
            moved.append(order.stand)
    models.Stand.objects.bulk_update(moved, ["battalion", "attached", "attachment_kind"])
    models.NightOrder.objects.filter(pk__in=[o.pk for o in orders]).update(applied=True)
    # The sides' approved orders these came from are carried out now.
    models.SideOrder.objects.filter(night_order__in=[o.pk for o in orders]).update(
        status=SideOrderStatus.APPLIED
    )
    part: dict[str, Any] = {"sides": {}}
    for order in orders:
        if order.kind == NightOrderKind.WITHDRAW:
            side = part["sides"].setdefault(str(order.battalion.side_id), {})
            side.setdefault("moved_to_reserve", []).append(order.battalion.code)
    return part


def night_order_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why no night order may be queued now, or None (the umpire's ``queue_night_order`` action):
    orders are for the night of a day under way, queued before its night phase starts (C-11)."""
    day = campaign.days.filter(number=campaign.current_day).exclude(status=DayStatus.DONE).first()
    if day is None:
        return ConflictError("no campaign day is under way", field="day", code="no_day")
    if day.status == DayStatus.NIGHT:
        return ConflictError(
            f"the night phase of day {day.number} has started: orders had to be queued before it",
            field="day",
            code="night_started",
        )
    return None


def _day_taking_orders(campaign: models.Campaign) -> models.CampaignDay:
    """The day whose night the orders are for."""
    refusal = night_order_refusal(campaign)
    if refusal is not None:
        raise refusal
    return campaign.days.get(number=campaign.current_day)


def stand_may_be_ordered(stand: models.Stand) -> bool:
    """Whether an order may name ``stand`` (to attach or detach it): a destroyed stand takes none.
    The order forms offer exactly these."""
    return stand.status != StandStatus.DESTROYED


def _attached_after(day: models.CampaignDay, target: models.Battalion, stand: models.Stand) -> list[str]:
    """The types of the stands attached to ``target`` once tonight's queued orders and ``stand``'s
    are carried out."""
    queued = day.night_orders.filter(applied=False)
    leaving = queued.filter(kind__in=[NightOrderKind.ATTACH, NightOrderKind.DETACH]).values("stand_id")
    staying = (
        target.stands.filter(attached=True)
        .exclude(status=StandStatus.DESTROYED)
        .exclude(pk__in=leaving)
        .values_list("stand_type", flat=True)
    )
    joining = queued.filter(kind=NightOrderKind.ATTACH, target_battalion=target).values_list(
        "stand__stand_type", flat=True
    )
    return [*staying, *joining, stand.stand_type]


def _attachment_check(
    campaign: models.Campaign, day: models.CampaignDay, stand: models.Stand, target: models.Battalion
) -> AttachmentKind:
    """Great Battles' attachment limits for ``stand`` joining ``target`` (rules notes C-18): a
    rule table, no roll, so nothing is recorded but the order's event; refused naming the rule.
    Answers the kind of attachment the stand's type makes it."""
    unit_type = STAND_UNIT_TYPES[StandType(stand.stand_type)]
    slot = UNIT_TYPES[unit_type].attachment
    rule = catalog.get_procedure(ATTACHMENT_CHECK).rule.text()
    if slot is None:
        raise DomainError(
            f"a {stand.get_stand_type_display()} stand is not an attachment: HQ, heavy weapons, armour, "
            "AT guns and field guns are",
            field="stand_label",
            rule=rule,
            code="not_an_attachment",
        )
    attached = [STAND_UNIT_TYPES[StandType(t)].value for t in _attached_after(day, target, stand)]
    check = procedure_run(campaign, ATTACHMENT_CHECK, {"attachments": attached}, ("night-order",)).outcome
    if not check.legal:
        raise DomainError(
            f"attaching {stand} to {target.code} breaks the attachment limits: {'; '.join(check.problems)}",
            field="target_battalion_code",
            rule=rule,
            code="attachment_limit",
        )
    return ATTACHMENT_KINDS[slot]


@transaction.atomic
def night_order_queue(
    campaign_id: int,
    actor: Actor,
    *,
    kind: str,
    battalion_code: str,
    stand_label: str = "",
    target_battalion_code: str = "",
    attachment_kind: str = "",
) -> models.NightOrder:
    """Queue a withdrawal or an attach/detach for tonight's night phase.

    An attachment is checked against Great Battles' limits with the orders already queued;
    its kind follows from the stand's type (``attachment_kind``, when given, must agree)."""
    campaign = campaign_lock(campaign_id)
    day = _day_taking_orders(campaign)
    if kind not in NightOrderKind.values:
        raise DomainError(f"{kind!r} is not a night order ({', '.join(NightOrderKind.values)})", field="kind")
    battalion = campaign.battalions.select_related("side").filter(code=battalion_code).first()
    if battalion is None:
        raise DomainError(f"battalion {battalion_code} is not in this campaign", field="battalion_code")
    stand = target = None
    pending = day.night_orders.filter(applied=False)
    check_after: dict[str, Any] | None = None
    if kind == NightOrderKind.WITHDRAW:
        if battalion.in_reserve:
            raise DomainError(f"battalion {battalion_code} is already in reserve", field="battalion_code")
        if pending.filter(kind=NightOrderKind.WITHDRAW, battalion=battalion).exists():
            raise DomainError(
                f"battalion {battalion_code} is already ordered to withdraw tonight", field="battalion_code"
            )
    else:
        stand = battalion.stands.filter(label=stand_label).first()
        if stand is None:
            raise DomainError(
                f"stand {stand_label} is not in battalion {battalion_code}", field="stand_label"
            )
        if not stand_may_be_ordered(stand):
            raise DomainError(f"stand {stand} is destroyed", field="stand_label")
        if pending.filter(stand=stand).exclude(kind=NightOrderKind.WITHDRAW).exists():
            raise DomainError(f"stand {stand} already has an order tonight", field="stand_label")
        target = campaign.battalions.filter(code=target_battalion_code, side_id=battalion.side_id).first()
        if target is None:
            raise DomainError(
                f"battalion {target_battalion_code} is not on {battalion.side.name}'s side",
                field="target_battalion_code",
            )
        if kind == NightOrderKind.DETACH and not stand.attached:
            raise DomainError(f"stand {stand} is not attached, so it cannot be detached", field="stand_label")
        if kind == NightOrderKind.ATTACH:
            if target.pk == battalion.pk and stand.attached:
                raise DomainError(f"stand {stand} is already attached to {target.code}", field="stand_label")
            fits = _attachment_check(campaign, day, stand, target)
            if attachment_kind and attachment_kind != fits:
                raise DomainError(
                    f"a {stand.get_stand_type_display()} stand is attached as {fits.label}, "
                    f"not {attachment_kind}",
                    field="attachment_kind",
                    rule=catalog.get_procedure(ATTACHMENT_CHECK).rule.text(),
                )
            attachment_kind = fits.value
            check_after = {"attachment_check": ATTACHMENT_CHECK, "legal": True}
    order = models.NightOrder.objects.create(
        campaign=campaign,
        day=day,
        kind=kind,
        battalion=battalion,
        stand=stand,
        target_battalion=target,
        attachment_kind=attachment_kind if kind == NightOrderKind.ATTACH else "",
    )
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.NIGHT_ORDER_QUEUED,
        order,
        f"Night order for the night of day {day.number}: {night_order_words(order)}",
        actor,
        after={"kind": kind, "battalion": battalion.code, **(check_after or {})},
    )
    return order


def night_order_words(order: models.NightOrder) -> str:
    """What the order says, wherever it is shown (the timeline, the night orders' list)."""
    stand = order.stand.label if order.stand is not None else ""
    target = order.target_battalion.code if order.target_battalion is not None else ""
    return battalion_order_words(order.kind, order.battalion.code, stand, target)


def battalion_order_words(kind: str, battalion: str, stand: str, target: str) -> str:
    """A withdrawal, attachment or detachment in words: one sentence for the night order and the
    sealed order it may come from (:func:`campaign.services.orders.order_words`)."""
    if kind == NightOrderKind.WITHDRAW:
        return f"{battalion} to withdraw to reserve"
    verb = "attached" if kind == NightOrderKind.ATTACH else "detached"
    return f"{battalion}/{stand} to be {verb} to {target}"


@transaction.atomic
def night_order_cancel(campaign_id: int, actor: Actor, order_id: int) -> None:
    """Take a queued order back before its night phase starts."""
    campaign = campaign_lock(campaign_id)
    order = (
        models.NightOrder.objects.select_for_update(of=("self",))
        .select_related("day", "battalion", "stand", "target_battalion")
        .filter(campaign=campaign, pk=order_id)
        .first()
    )
    if order is None:
        raise NotFoundError(f"night order {order_id} does not exist", field="order")
    if order.applied or order.day.status in (DayStatus.NIGHT, DayStatus.DONE):
        raise ConflictError(
            f"the night phase of day {order.day.number} has started or is over: its orders stand",
            field="day",
            code="night_started",
        )
    words = night_order_words(order)
    event_record(
        campaign,
        EventVerb.NIGHT_ORDER_CANCELLED,
        order,
        f"Night order taken back: {words}",
        actor,
        before={"kind": order.kind, "battalion": order.battalion.code},
    )
    order.delete()
    campaign_save(campaign)
