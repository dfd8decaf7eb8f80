"""A side's sealed orders between club nights (rules notes C-19).

A side's players draft orders for the coming night and dawn, edit them and submit them
before the side's deadline (:func:`campaign.selectors.side_orders_deadline`, from the club
schedule). Nobody but the side and the umpires reads them (``access.side_orders_readable``;
their events are the side's). The umpire approves each one, and it becomes what it
describes through the service that makes it, with that service's checks: a night order
(withdrawal, attachment, detachment), a battalion's move on the map, an artillery
template's mode, a reserve battalion deployed by the next dawn (with its deployments). Or
the umpire sends it back with a reason, or amends it. Orders still unapproved when the
night phase starts lapse and are listed for the umpires (``night._side_orders_lapse``).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from campaign import models
from campaign.access import CampaignAccess, campaign_umpires, side_players
from campaign.choices import (
    ArtilleryMode,
    CampaignStatus,
    DayStatus,
    EventVerb,
    NotificationKind,
    SideOrderKind,
    SideOrderStatus,
)
from campaign.links import campaign_page
from campaign.selectors import deadline_text, side_orders_day, side_orders_deadline
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.day_rules import artillery_order_check, artillery_order_set
from campaign.services.days import (
    DeploymentOrder,
    deployment_plans_check,
    deployment_range_check,
    ordered_deployments,
)
from campaign.services.errors import ConflictError, DomainError, NotFoundError
from campaign.services.night_orders import battalion_order_words, night_order_queue, stand_may_be_ordered
from campaign.services.notifications import notification_send, notifications_done, reminder_register
from campaign.services.sectors import battalion_move

# Orders the issue lists that sealed orders do not take (yet): refused by name, never accepted
# and left undone. Activation columns are spent at the table.
NOT_TAKEN = {
    "activation": "activation columns are spent at the table during the day, not as a sealed order",
}
# The payload's fields by kind: name → (type, required).
PAYLOAD_FIELDS: Mapping[str, Mapping[str, tuple[type, bool]]] = {
    SideOrderKind.WITHDRAW: {"battalion_code": (str, True)},
    SideOrderKind.ATTACH: {
        "battalion_code": (str, True),
        "stand_label": (str, True),
        "target_battalion_code": (str, True),
    },
    SideOrderKind.DETACH: {
        "battalion_code": (str, True),
        "stand_label": (str, True),
        "target_battalion_code": (str, True),
    },
    SideOrderKind.MOVE: {"battalion_code": (str, True), "sector": (str, True)},
    SideOrderKind.ARTILLERY: {"template": (int, True), "mode": (str, True)},
    SideOrderKind.DEPLOY: {
        "battalion_code": (str, True),
        "range_inches": (float, True),
        "friendly_intervening": (bool, False),
    },
}
# What a person reads for each payload field (the order form asks in these words).
PAYLOAD_FIELD_LABELS: Mapping[str, str] = {
    "battalion_code": "Battalion",
    "stand_label": "Stand",
    "target_battalion_code": "To battalion",
    "sector": "To sector",
    "template": "Template",
    "mode": "Mode",
    "range_inches": "Range to the nearest enemy (inches)",
    "friendly_intervening": "Friendly troops intervening",
}
OPEN = (SideOrderStatus.DRAFT, SideOrderStatus.RETURNED)
# The statuses each action takes an order from: the writes below refuse any other, and
# side_order_actions offers exactly these (its side's players the first three, umpires the rest).
ACTION_STATUSES: Mapping[str, tuple[SideOrderStatus, ...]] = {
    "edit": OPEN,
    "submit": OPEN,
    "withdraw": (*OPEN, SideOrderStatus.SUBMITTED),
    "approve": (SideOrderStatus.SUBMITTED,),
    "send_back": (SideOrderStatus.SUBMITTED,),
    "amend": (SideOrderStatus.SUBMITTED,),
}
PLAYER_ACTIONS = ("edit", "submit", "withdraw")


def side_order_actions(access: CampaignAccess, order: models.SideOrder) -> list[str]:
    """What the reader may do with ``order`` as it stands now: its side's players edit, submit and
    withdraw it, the umpires approve, send back and amend it, each only from the statuses the
    write takes (a day's night phase or a deadline may still refuse it, saying why)."""
    if access.is_umpire:
        mine = [action for action in ACTION_STATUSES if action not in PLAYER_ACTIONS]
    elif access.playing_side_id == order.side_id:
        mine = list(PLAYER_ACTIONS)
    else:
        return []
    return [action for action in mine if order.status in ACTION_STATUSES[action]]


def _kind_check(kind: str) -> SideOrderKind:
    if kind in NOT_TAKEN:
        raise DomainError(
            f"{kind!r} orders are not taken: {NOT_TAKEN[kind]}", field="kind", code="kind_not_taken"
        )
    if kind not in SideOrderKind.values:
        raise DomainError(
            f"{kind!r} is not an order ({', '.join(SideOrderKind.values)})", field="kind", code="invalid_kind"
        )
    return SideOrderKind(kind)


def _payload_check(
    campaign: models.Campaign, side: models.Side, kind: SideOrderKind, payload: Any, day_number: int
) -> dict[str, Any]:
    """The payload's shape for ``kind``, and what it names the side's own; the full checks are
    the applying service's, at approval (the state may change before then)."""
    if not isinstance(payload, Mapping):
        raise DomainError("the order's payload is an object of its fields", field="payload")
    fields = PAYLOAD_FIELDS[kind]
    unknown = sorted(set(payload) - set(fields))
    if unknown:
        raise DomainError(
            f"a {kind.label.lower()} order has no field {', '.join(unknown)} (it has {', '.join(fields)})",
            field=f"payload.{unknown[0]}",
        )
    clean: dict[str, Any] = {}
    for name, (kind_of, required) in fields.items():
        value = payload.get(name)
        if value is None or value == "":
            if required:
                raise DomainError(f"a {kind.label.lower()} order needs {name}", field=f"payload.{name}")
            continue
        if kind_of is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise DomainError(f"{name} is a whole number", field=f"payload.{name}")
        if kind_of is str and not isinstance(value, str):
            raise DomainError(f"{name} is text", field=f"payload.{name}")
        if kind_of is bool and not isinstance(value, bool):
            raise DomainError(f"{name} is true or false", field=f"payload.{name}")
        if kind_of is float:  # the range of a deployment, bounded as the dawn bounds it
            deployment_range_check(value, f"payload.{name}")
        clean[name] = value.strip() if isinstance(value, str) else value
    for name in ("battalion_code", "target_battalion_code"):
        if name in clean and not side.battalions.filter(code=clean[name]).exists():
            raise DomainError(f"battalion {clean[name]} is not {side.name}'s", field=f"payload.{name}")
    if "stand_label" in clean:
        stand = models.Stand.objects.filter(
            battalion__side=side, battalion__code=clean["battalion_code"], label=clean["stand_label"]
        ).first()
        if stand is None:
            raise DomainError(
                f"stand {clean['stand_label']} is not in battalion {clean['battalion_code']}",
                field="payload.stand_label",
            )
        # Refused now rather than when the umpire approves it and the night order is queued.
        if not stand_may_be_ordered(stand):
            raise DomainError(
                f"stand {clean['battalion_code']}/{stand.label} is destroyed", field="payload.stand_label"
            )
    if "sector" in clean and not campaign.sectors.filter(key=clean["sector"]).exists():
        raise DomainError(f"sector {clean['sector']} is not on the campaign map", field="payload.sector")
    if kind == SideOrderKind.ARTILLERY:
        try:
            artillery_order_check(
                campaign, side, template=clean["template"], mode=clean["mode"], day_number=day_number
            )
        except DomainError as refused:
            refused.field = f"payload.{refused.field}"
            raise
    return clean


def _side(campaign: models.Campaign, side_id: int) -> models.Side:
    side = campaign.sides.filter(pk=side_id).first()
    if side is None:
        raise NotFoundError(f"side {side_id} is not in campaign {campaign.slug}", field="side")
    return side


def _order_lock(campaign: models.Campaign, order_id: int, side_id: int | None = None) -> models.SideOrder:
    """The order, locked; ``side_id``: only that side's (another side's order does not exist for it)."""
    orders = models.SideOrder.objects.select_for_update(of=("self",)).select_related("side")
    order = orders.filter(campaign=campaign, pk=order_id).first()
    if order is None or (side_id is not None and order.side_id != side_id):
        raise NotFoundError("the order does not exist", field="order")
    return order


def _status_require(order: models.SideOrder, action: str, doing: str) -> None:
    allowed = ACTION_STATUSES[action]
    if order.status not in allowed:
        raise ConflictError(
            f"the order is {order.get_status_display().lower()}: only an order "
            f"{' or '.join(s.label.lower() for s in allowed)} can be {doing}",
            field="status",
            code="wrong_order_status",
        )


def _night_not_started(campaign: models.Campaign, day_number: int) -> None:
    day = campaign.days.filter(number=day_number).only("status").first()
    if day is not None and day.status in (DayStatus.NIGHT, DayStatus.DONE):
        raise ConflictError(
            f"the night phase of day {day_number} has started: its orders are closed",
            field="day",
            code="night_started",
        )


def _inches(value: Any) -> str:
    """A stored range as text, whatever is stored (an order drafted before ranges were bounded
    may hold a number no float holds, or no number)."""
    try:
        return f'{float(value):g}"'
    except (TypeError, ValueError, OverflowError):
        return f'{str(value)[:20]}"'


def order_sector_names(campaign_id: int) -> dict[str, str]:
    """The campaign's sector names by the keys move orders store, for :func:`order_words`."""
    return dict(models.Sector.objects.filter(campaign_id=campaign_id).values_list("key", "name"))


def order_words(order: models.SideOrder, sector_names: Mapping[str, str] | None = None) -> str:
    """What the order says, wherever it is shown (its side's and the umpires' timeline, the orders
    page; never a webhook): the sector by its name, not the key it is stored by. ``sector_names``
    (:func:`order_sector_names`) saves a query an order when many are worded."""
    p = order.payload
    match order.kind:
        case SideOrderKind.WITHDRAW | SideOrderKind.ATTACH | SideOrderKind.DETACH:
            return battalion_order_words(
                order.kind, p["battalion_code"], p.get("stand_label", ""), p.get("target_battalion_code", "")
            )
        case SideOrderKind.MOVE:
            names = order_sector_names(order.campaign_id) if sector_names is None else sector_names
            return f"{p['battalion_code']} to move to {names.get(p['sector'], p['sector'])}"
        case SideOrderKind.DEPLOY:
            distance = _inches(p["range_inches"])
            return f"{p['battalion_code']} to deploy from reserve at dawn, {distance} from the enemy"
        case _:
            # The mode by its label: "pre-registered", not the code "registered" it is stored by.
            return f"artillery template {p['template']}, {ArtilleryMode(p['mode']).label.lower()}"


@transaction.atomic
def side_order_draft(
    campaign_id: int, actor: Actor, *, side_id: int, kind: str, payload: Any
) -> models.SideOrder:
    """A side's player drafts an order for the coming night and dawn (sealed from the enemy)."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    side = _side(campaign, side_id)
    order_kind = _kind_check(kind)
    day_number = side_orders_day(campaign)
    clean = _payload_check(campaign, side, order_kind, payload, day_number)
    order = models.SideOrder.objects.create(
        campaign=campaign,
        side=side,
        day_number=day_number,
        kind=order_kind,
        payload=clean,
        created_by_id=actor.user_id,
    )
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_DRAFTED,
        order,
        f"Order drafted for day {day_number}: {order_words(order)}",
        actor,
        after={"kind": kind, "payload": clean},
    )
    return order


@transaction.atomic
def side_order_edit(
    campaign_id: int,
    actor: Actor,
    order_id: int,
    *,
    side_id: int,
    kind: str | None = None,
    payload: Any = None,
) -> models.SideOrder:
    """The side changes a draft, or an order sent back (which becomes a draft again)."""
    campaign = campaign_lock(campaign_id)
    order = _order_lock(campaign, order_id, side_id)
    _status_require(order, "edit", "edited")
    order_kind = _kind_check(kind) if kind is not None else SideOrderKind(order.kind)
    before = {"kind": order.kind, "payload": order.payload}
    order.payload = _payload_check(
        campaign, order.side, order_kind, order.payload if payload is None else payload, order.day_number
    )
    order.kind, order.status = order_kind, SideOrderStatus.DRAFT
    order.save(update_fields=["kind", "payload", "status", "updated_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_EDITED,
        order,
        f"Order edited: {order_words(order)}",
        actor,
        before=before,
        after={"kind": order.kind, "payload": order.payload},
    )
    return order


@transaction.atomic
def side_order_submit(
    campaign_id: int, actor: Actor, order_id: int, *, side_id: int, now: Any = None
) -> models.SideOrder:
    """The side hands the order to the umpires; refused after the side's deadline, naming it."""
    campaign = campaign_lock(campaign_id)
    order = _order_lock(campaign, order_id, side_id)
    _status_require(order, "submit", "submitted")
    _night_not_started(campaign, order.day_number)
    # As drafting checks it: an order stored before a check existed is refused, naming the field.
    _payload_check(campaign, order.side, SideOrderKind(order.kind), order.payload, order.day_number)
    deadline = side_orders_deadline(campaign, order.day_number)
    now = now or timezone.now()
    if deadline is not None and now > deadline:
        raise ConflictError(
            f"orders for day {order.day_number} closed on {deadline_text(deadline)}",
            field="deadline",
            code="deadline_passed",
        )
    order.status, order.submitted_at = SideOrderStatus.SUBMITTED, now
    order.save(update_fields=["status", "submitted_at", "updated_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.ORDERS_SUBMITTED,
        order,
        f"{order.side.name}'s order submitted for day {order.day_number}: {order_words(order)}",
        actor,
        after={"kind": order.kind, "payload": order.payload},
    )
    notification_send(
        campaign,
        campaign_umpires(campaign).select_related("user"),
        NotificationKind.ORDER_SUBMITTED,
        f"{order.side.name} submitted an order for day {order.day_number}",
        f"{order_words(order)}. Approve it, send it back or amend it before the night phase.",
        campaign_page(campaign.slug, "orders"),
        actor,
        key=_submitted_key(order, now),
    )
    return order


@transaction.atomic
def side_order_withdraw(campaign_id: int, actor: Actor, order_id: int, *, side_id: int) -> models.SideOrder:
    """The side takes an order back before the umpire decides on it."""
    campaign = campaign_lock(campaign_id)
    order = _order_lock(campaign, order_id, side_id)
    _status_require(order, "withdraw", "withdrawn")
    before = order.status
    order.status = SideOrderStatus.WITHDRAWN
    order.save(update_fields=["status", "updated_at"])
    _submission_done(order)
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_WITHDRAWN,
        order,
        f"Order withdrawn: {order_words(order)}",
        actor,
        before={"status": before},
    )
    return order


def _apply_night(campaign: models.Campaign, actor: Actor, order: models.SideOrder) -> SideOrderStatus:
    p = order.payload
    order.night_order = night_order_queue(
        campaign.pk,
        actor,
        kind=order.kind,
        battalion_code=p["battalion_code"],
        stand_label=p.get("stand_label", ""),
        target_battalion_code=p.get("target_battalion_code", ""),
    )
    return SideOrderStatus.APPROVED  # applied by its night phase


def _apply_move(campaign: models.Campaign, actor: Actor, order: models.SideOrder) -> SideOrderStatus:
    battalion = order.side.battalions.filter(code=order.payload["battalion_code"]).first()
    sector = campaign.sectors.filter(key=order.payload["sector"]).first()
    if battalion is None or sector is None:
        raise DomainError("the battalion or sector the order names is gone", field="payload")
    battalion_move(campaign.pk, actor, battalion.pk, sector_id=sector.pk)
    return SideOrderStatus.APPLIED


def _apply_artillery(campaign: models.Campaign, actor: Actor, order: models.SideOrder) -> SideOrderStatus:
    artillery_order_set(
        campaign.pk,
        actor,
        side_id=order.side_id,
        template=order.payload["template"],
        mode=order.payload["mode"],
    )
    return SideOrderStatus.APPLIED


def _apply_deploy(campaign: models.Campaign, actor: Actor, order: models.SideOrder) -> SideOrderStatus:
    """Checked as the next dawn will deploy it, with the side orders already approved for it;
    that dawn carries it out (``days.ordered_deployments``)."""
    planned = [o for o in ordered_deployments(campaign, order.day_number) if o.side_order != order.public_id]
    p = order.payload
    mine = DeploymentOrder(
        battalion=p["battalion_code"],
        range_inches=p["range_inches"],
        friendly_intervening=p.get("friendly_intervening", False),
        side_order=order.public_id,
    )
    try:
        deployment_plans_check(campaign, [*planned, mine])
    except DomainError as refused:
        name = (refused.field or "").rsplit(".", 1)[-1]
        name = "battalion_code" if name == "battalion" else name
        refused.field = f"payload.{name}" if name in PAYLOAD_FIELDS[SideOrderKind.DEPLOY] else "payload"
        raise
    return SideOrderStatus.APPROVED  # applied by the next dawn


APPLY: Mapping[str, Callable[[models.Campaign, Actor, models.SideOrder], SideOrderStatus]] = {
    SideOrderKind.WITHDRAW: _apply_night,
    SideOrderKind.ATTACH: _apply_night,
    SideOrderKind.DETACH: _apply_night,
    SideOrderKind.MOVE: _apply_move,
    SideOrderKind.ARTILLERY: _apply_artillery,
    SideOrderKind.DEPLOY: _apply_deploy,
}


def _decided(order: models.SideOrder, actor: Actor) -> None:
    order.decided_by_id = actor.user_id
    order.decided_at = timezone.now()
    _submission_done(order)


def _submission_done(order: models.SideOrder) -> None:
    """The order is decided or withdrawn: the umpires' news of its submission is done."""
    if order.submitted_at is not None:
        notifications_done(
            order.campaign, NotificationKind.ORDER_SUBMITTED, _submitted_key(order, order.submitted_at)
        )


def _submitted_key(order: models.SideOrder, at: datetime.datetime) -> str:
    return f"order:{order.pk}:{at.isoformat()}"  # each submission: one sent back comes again


@transaction.atomic
def side_order_approve(campaign_id: int, actor: Actor, order_id: int) -> models.SideOrder:
    """The umpire approves a submitted order: it becomes the night order, move, artillery order
    or dawn deployment it describes through that service and its checks (refused with their
    reason, nothing written). Only on the day it is for, before that day's night phase."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    order = _order_lock(campaign, order_id)
    _status_require(order, "approve", "approved")
    day = campaign.days.filter(number=campaign.current_day, status=DayStatus.DAY).first()
    if day is None or day.number != order.day_number:
        under_way = f"day {day.number} is under way" if day is not None else "no day is under way"
        raise ConflictError(
            f"the order is for day {order.day_number} and {under_way}: approve it while its day is under way",
            field="day",
            code="wrong_day",
        )
    order.status = APPLY[order.kind](campaign, actor, order)
    _decided(order, actor)
    order.save(update_fields=["status", "night_order", "decided_by", "decided_at", "updated_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_APPROVED,
        order,
        f"Order approved: {order_words(order)}",
        actor,
        after={"status": order.status},
    )
    return order


@transaction.atomic
def side_order_return(campaign_id: int, actor: Actor, order_id: int, *, reason: str) -> models.SideOrder:
    """The umpire sends a submitted order back to its side with a reason."""
    reason = reason.strip()
    if not reason:
        raise DomainError("say why the order is sent back", field="reason")
    campaign = campaign_lock(campaign_id)
    order = _order_lock(campaign, order_id)
    _status_require(order, "send_back", "sent back")
    order.status, order.reason = SideOrderStatus.RETURNED, reason
    _decided(order, actor)
    order.save(update_fields=["status", "reason", "decided_by", "decided_at", "updated_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_RETURNED,
        order,
        f"Order sent back: {order_words(order)}. {reason}",
        actor,
        after={"reason": reason},
    )
    assert order.decided_at is not None  # set by _decided
    notification_send(
        campaign,
        side_players(campaign, [order.side_id]).select_related("user"),
        NotificationKind.ORDERS_SENT_BACK,
        f"Order sent back for day {order.day_number}",
        f"The umpire sent back your order ({order_words(order)}): {reason}",
        _orders_link(campaign),
        actor,
        side_id=order.side_id,
        # Each sending back is news, even of an order sent back before.
        key=f"order:{order.public_id}:returned:{order.decided_at.isoformat()}",
    )
    return order


class _Rehearsed(Exception):
    """Rolls back an approval rehearsed for an amendment."""


def _approval_rehearse(campaign: models.Campaign, actor: Actor, order: models.SideOrder) -> None:
    """Refused as approving ``order`` would be refused now, through the very services approval
    calls, in a savepoint rolled back: nothing of it is kept (nor its on-commit work)."""
    night_order = order.night_order
    try:
        with transaction.atomic():
            APPLY[order.kind](campaign, actor, order)
            raise _Rehearsed
    except _Rehearsed:
        pass
    except DomainError as refused:
        # Named as the amendment's field where the approving service names one of the payload's.
        if refused.field in PAYLOAD_FIELDS[SideOrderKind(order.kind)]:
            refused.field = f"payload.{refused.field}"
        raise
    finally:
        order.night_order = night_order


@transaction.atomic
def side_order_amend(
    campaign_id: int, actor: Actor, order_id: int, *, payload: Any, reason: str
) -> models.SideOrder:
    """The umpire changes what a submitted order says (its kind stays), saying why (the side
    reads it on the order and its timeline); it stays submitted. Checked as the action it
    becomes: an amendment its approval would refuse is refused now, nothing written."""
    reason = reason.strip()
    if not reason:
        raise DomainError("say why the order is amended: its side reads it", field="reason")
    campaign = campaign_lock(campaign_id)
    order = _order_lock(campaign, order_id)
    _status_require(order, "amend", "amended")
    before = {"payload": order.payload, "reason": order.reason}
    order.payload = _payload_check(campaign, order.side, SideOrderKind(order.kind), payload, order.day_number)
    _approval_rehearse(campaign, actor, order)
    order.reason = reason
    order.save(update_fields=["payload", "reason", "updated_at"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.SIDE_ORDER_AMENDED,
        order,
        f"Order amended by the umpire: {order_words(order)}. {reason}",
        actor,
        before=before,
        after={"payload": order.payload, "reason": reason},
    )
    return order


REMINDER_ACTOR = Actor(request_id="orders-due-reminder")


def _orders_link(campaign: models.Campaign) -> str:
    return campaign_page(campaign.slug, "orders")


# How a side's orders of a day are counted for its players, each status group in its words.
ORDER_COUNT_WORDS = (
    ((SideOrderStatus.APPROVED, SideOrderStatus.APPLIED), "approved"),
    ((SideOrderStatus.SUBMITTED,), "awaiting the umpire"),
    (OPEN, "not submitted yet"),
)


def _orders_count_text(counts: Mapping[tuple[int, str], int], side_id: int) -> str:
    """Every order of the side counted where it stands ("2 approved, 1 not submitted yet"):
    an order the umpire decided is not "0 submitted"."""
    parts = []
    for statuses, words in ORDER_COUNT_WORDS:
        n = sum(counts.get((side_id, status), 0) for status in statuses)
        if n:
            parts.append(f"{n} {words}")
    return ", ".join(parts) or "none yet"


@transaction.atomic
def orders_due_announce(campaign_id: int, day_number: int, deadline: datetime.datetime) -> bool:
    """Tell the timeline (and the webhooks, Discord channels included) that day ``day_number``'s
    orders close at ``deadline``, once a day however often the sweep runs; whether it told now."""
    campaign = campaign_lock(campaign_id)
    if campaign.events.filter(verb=EventVerb.ORDERS_DUE, after__orders_day=day_number).exists():
        return False
    campaign_save(campaign)
    closes = deadline_text(deadline)
    event_record(
        campaign,
        EventVerb.ORDERS_DUE,
        campaign,
        f"Orders for day {day_number} close on {closes}",
        REMINDER_ACTOR,
        after={"orders_day": day_number, "closes": closes, "deadline": deadline.isoformat()},
    )
    return True


def side_orders_remind(now: datetime.datetime) -> int:
    """The reminder sweep's source for orders due: once a side's deadline is less than
    ``ORDERS_REMINDER_HOURS`` away, its players are told once per campaign day (a subject key),
    with what their side has submitted so far, and the timeline says when orders close. How many
    members it told."""
    window = datetime.timedelta(hours=settings.ORDERS_REMINDER_HOURS)
    told = 0
    for campaign in models.Campaign.objects.filter(status=CampaignStatus.ACTIVE):
        day_number = side_orders_day(campaign)
        deadline = side_orders_deadline(campaign, day_number)
        if deadline is None or not now < deadline <= now + window:
            continue
        orders_due_announce(campaign.pk, day_number, deadline)
        counts = {
            (row["side_id"], row["status"]): row["n"]
            for row in models.SideOrder.objects.filter(campaign=campaign, day_number=day_number)
            .values("side_id", "status")
            .annotate(n=Count("pk"))
        }
        for side in campaign.sides.all():
            told += len(
                notification_send(
                    campaign,
                    side_players(campaign, [side.pk]).select_related("user"),
                    NotificationKind.ORDERS_DUE,
                    f"Orders for day {day_number} close on {deadline_text(deadline)}",
                    f"{side.name}'s orders for day {day_number}: {_orders_count_text(counts, side.pk)}. "
                    "Orders not submitted by then are refused.",
                    _orders_link(campaign),
                    REMINDER_ACTOR,
                    side_id=side.pk,
                    key=f"orders_due:day:{day_number}",
                )
            )
    return told


reminder_register("orders-due", side_orders_remind)
