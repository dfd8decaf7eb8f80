"""Webhook subscriptions: an umpire subscribes a URL to some of a campaign's events,
changes or ends the subscription, sends it a test event, or sends a failed delivery
again. Every one of these writes records an event (umpires only; it never carries the secret).

The fan-out and the deliveries are :mod:`campaign.services.webhooks`'s, which the audit
trail calls as it records an event, so these writes live apart from it.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    WEBHOOK_EVENTS,
    WEBHOOK_PING,
    DeliveryStatus,
    EventVerb,
    WebhookAudience,
    WebhookKind,
)
from campaign.services.audit import Actor, event_record
from campaign.services.broker import tasks_send_on_commit
from campaign.services.campaigns import campaign_lock
from campaign.services.discord import discord_url_refusal
from campaign.services.errors import ConflictError, DomainError, NotFoundError
from campaign.services.webhooks import WEBHOOK_DELIVER_TASK, url_refusal

URL_MAX_LENGTH = 500
SECRET_MIN_LENGTH = 16
SECRET_MAX_LENGTH = 128


def _checked_url(url: str) -> str:
    url = url.strip()
    if len(url) > URL_MAX_LENGTH:
        raise DomainError(f"the URL is longer than {URL_MAX_LENGTH} characters", field="url")
    if refusal := url_refusal(url):
        raise DomainError(refusal, field="url", code="invalid_url")
    return url


def _checked_kind(kind: str, url: str) -> str:
    if kind not in WebhookKind.values:
        allowed = ", ".join(WebhookKind.values)
        raise DomainError(f"{kind!r} is no kind of webhook (choose from {allowed})", field="kind")
    if kind == WebhookKind.DISCORD and (refusal := discord_url_refusal(url)):
        raise DomainError(refusal, field="url", code="invalid_url")
    return kind


def _checked_events(events: Sequence[str]) -> list[str]:
    if not events:
        raise DomainError("subscribe to at least one event", field="events")
    unknown = [event for event in events if event not in WEBHOOK_EVENTS]
    if unknown:
        allowed = ", ".join(WEBHOOK_EVENTS)
        raise DomainError(
            f"not webhook events: {', '.join(map(str, unknown))} (choose from {allowed})",
            field="events",
            code="invalid_event",
        )
    return list(dict.fromkeys(str(event) for event in events))


def _checked_secret(secret: str) -> str:
    if not SECRET_MIN_LENGTH <= len(secret) <= SECRET_MAX_LENGTH:
        raise DomainError(
            f"the secret must have {SECRET_MIN_LENGTH} to {SECRET_MAX_LENGTH} characters", field="secret"
        )
    return secret


def webhook_validate(url: str, events: Sequence[str], secret: str | None = None) -> None:
    """Check a subscription's inputs (the admin's form calls this before saving)."""
    _checked_url(url)
    _checked_events(events)
    if secret:
        _checked_secret(secret)


def _checked_audience(
    campaign: models.Campaign, audience: str, side_id: int | None
) -> tuple[str, int | None]:
    """The audience and its side: a side's subscription names one of the campaign's sides, the
    others none."""
    if audience not in WebhookAudience.values:
        allowed = ", ".join(WebhookAudience.values)
        raise DomainError(f"{audience!r} is no audience (choose from {allowed})", field="audience")
    if audience != WebhookAudience.SIDE:
        if side_id is not None:
            raise DomainError("only a side's subscription names a side", field="side")
        return audience, None
    if side_id is None:
        raise DomainError("name the side whose news the subscription receives", field="side")
    if not campaign.sides.filter(pk=side_id).exists():
        raise DomainError(f"side {side_id} is no side of {campaign.name}", field="side")
    return audience, side_id


def _description(subscription: models.WebhookSubscription) -> dict[str, Any]:
    """What the timeline shows of a subscription: never its secret."""
    return {
        "url": subscription.url,
        "events": list(subscription.events),
        "active": subscription.active,
        "audience": subscription.audience,
        "kind": subscription.kind,
        "hold_for_approval": subscription.hold_for_approval,
        "side": subscription.side_id,
    }


@transaction.atomic
def webhook_subscribe(
    campaign_id: int,
    actor: Actor,
    *,
    url: str,
    events: Sequence[str],
    secret: str | None = None,
    active: bool = True,
    audience: str = WebhookAudience.UMPIRES,
    side_id: int | None = None,
    api_key_id: int | None = None,
    kind: str = WebhookKind.JSON,
    hold_for_approval: bool = False,
) -> models.WebhookSubscription:
    """Subscribe ``url`` for ``audience`` (what it receives is what that audience reads); without
    a ``secret`` the service makes one (read it once from the result). ``api_key_id``: the
    side's key that subscribes (revoking it switches the subscription off)."""
    campaign = campaign_lock(campaign_id, finished_ok=True)
    audience, side_id = _checked_audience(campaign, audience, side_id)
    url = _checked_url(url)
    subscription = models.WebhookSubscription.objects.create(
        campaign=campaign,
        kind=_checked_kind(kind, url),
        hold_for_approval=hold_for_approval,
        audience=audience,
        side_id=side_id,
        api_key_id=api_key_id,
        url=url,
        events=_checked_events(events),
        secret=_checked_secret(secret) if secret is not None else secrets.token_urlsafe(32),
        active=active,
        created_by_id=actor.user_id,
    )
    event_record(
        campaign,
        EventVerb.WEBHOOK_SUBSCRIBED,
        subscription,
        f"Webhook subscribed: {subscription.url}",
        actor,
        after=_description(subscription),
    )
    return subscription


def _subscription_lock(
    campaign_id: int, subscription_id: int
) -> tuple[models.Campaign, models.WebhookSubscription]:
    campaign = campaign_lock(campaign_id, finished_ok=True)
    subscription = (
        models.WebhookSubscription.objects.select_for_update()
        .filter(campaign=campaign, pk=subscription_id)
        .first()
    )
    if subscription is None:
        raise NotFoundError("no such webhook in this campaign", field="webhook")
    return campaign, subscription


@transaction.atomic
def webhook_update(
    campaign_id: int,
    actor: Actor,
    subscription_id: int,
    *,
    url: str | None = None,
    events: Sequence[str] | None = None,
    secret: str | None = None,
    active: bool | None = None,
    audience: str | None = None,
    side_id: int | None = None,
    hold_for_approval: bool | None = None,
) -> models.WebhookSubscription:
    """Change what is given; a new secret signs every attempt from now on; a new audience
    (with its side) reads the events from now on."""
    campaign, subscription = _subscription_lock(campaign_id, subscription_id)
    before = _description(subscription)
    if audience is not None or side_id is not None:
        subscription.audience, subscription.side_id = _checked_audience(
            campaign, audience or subscription.audience, side_id
        )
    if url is not None:
        subscription.url = _checked_url(url)
        _checked_kind(subscription.kind, subscription.url)
    if events is not None:
        subscription.events = _checked_events(events)
    if secret is not None and secret != subscription.secret:
        # The old secret signs beside the new for a while: the receiver switches in its own time.
        subscription.previous_secret = subscription.secret
        subscription.previous_secret_until = timezone.now() + datetime.timedelta(
            hours=settings.WEBHOOK_SECRET_OVERLAP_HOURS
        )
        subscription.secret = _checked_secret(secret)
    if active is not None:
        subscription.active = active
    if hold_for_approval is not None:
        subscription.hold_for_approval = hold_for_approval
    subscription.save(
        update_fields=[
            *("url", "events", "secret", "previous_secret", "previous_secret_until"),
            *("active", "audience", "side", "hold_for_approval"),
        ]
    )
    event_record(
        campaign,
        EventVerb.WEBHOOK_UPDATED,
        subscription,
        f"Webhook to {subscription.url} changed" + (", with a new secret" if secret is not None else ""),
        actor,
        before=before,
        after=_description(subscription),
    )
    return subscription


@transaction.atomic
def webhook_unsubscribe(campaign_id: int, actor: Actor, subscription_id: int) -> None:
    """Delete the subscription with its delivery log; pending retries find nothing to send."""
    campaign, subscription = _subscription_lock(campaign_id, subscription_id)
    event_record(
        campaign,
        EventVerb.WEBHOOK_UNSUBSCRIBED,
        subscription,
        f"Webhook unsubscribed: {subscription.url}",
        actor,
        before=_description(subscription),
    )
    subscription.delete()


@transaction.atomic
def webhook_ping(campaign_id: int, actor: Actor, subscription_id: int) -> models.WebhookDelivery:
    """A signed test event for the subscription's URL: a delivery of no campaign event,
    sent by a worker like every delivery (never from the caller's request)."""
    campaign, subscription = _subscription_lock(campaign_id, subscription_id)
    payload = {
        "id": None,
        "event": WEBHOOK_PING,
        "campaign": campaign.slug,
        "events": subscription.events,
        "created_at": timezone.now().isoformat(),
    }
    delivery = models.WebhookDelivery.objects.create(subscription=subscription, event=None, payload=payload)
    event_record(
        campaign, EventVerb.WEBHOOK_PINGED, subscription, f"Webhook to {subscription.url} pinged", actor
    )
    tasks_send_on_commit(WEBHOOK_DELIVER_TASK, [delivery.pk])
    return delivery


# A delivery is sent again once it failed every retry (webhook_delivery_retry refuses any other).
RETRIABLE = (DeliveryStatus.FAILED,)


def delivery_actions(access: CampaignAccess, delivery: models.WebhookDelivery) -> list[str]:
    """What the reader may do with ``delivery`` now: an umpire sends a failed one again while its
    webhook is switched on, and publishes or discards a held one."""
    if not access.is_umpire:
        return []
    if delivery.status == DeliveryStatus.HELD:
        return ["publish", "discard"] if delivery.subscription.active else ["discard"]
    return ["retry"] if delivery.status in RETRIABLE and delivery.subscription.active else []


def _held_delivery(
    campaign_id: int, subscription_id: int, delivery_id: int
) -> tuple[models.Campaign, models.WebhookSubscription, models.WebhookDelivery]:
    campaign, subscription = _subscription_lock(campaign_id, subscription_id)
    delivery = subscription.deliveries.select_for_update().filter(pk=delivery_id).first()
    if delivery is None:
        raise NotFoundError(f"the webhook to {subscription.url} has no such delivery", field="delivery")
    if delivery.status != DeliveryStatus.HELD:
        raise ConflictError(
            f"the delivery is {delivery.get_status_display().lower()}: "
            "only a held one is published or discarded",
            field="delivery",
            code="wrong_status",
        )
    return campaign, subscription, delivery


@transaction.atomic
def webhook_delivery_publish(
    campaign_id: int, actor: Actor, subscription_id: int, delivery_id: int
) -> models.WebhookDelivery:
    """An umpire lets a held post go: a worker sends it like any delivery."""
    campaign, subscription, delivery = _held_delivery(campaign_id, subscription_id, delivery_id)
    if not subscription.active:
        raise ConflictError(
            f"the webhook to {subscription.url} is switched off: switch it on before publishing",
            field="webhook",
            code="inactive",
        )
    delivery.status = DeliveryStatus.PENDING
    delivery.save(update_fields=["status"])
    event_record(
        campaign,
        EventVerb.WEBHOOK_PUBLISHED,
        subscription,
        f"Webhook to {subscription.url}: a held post of {delivery.payload['event']} published",
        actor,
        before={"status": DeliveryStatus.HELD},
        after={"status": delivery.status},
    )
    tasks_send_on_commit(WEBHOOK_DELIVER_TASK, [delivery.pk])
    return delivery


@transaction.atomic
def webhook_delivery_discard(
    campaign_id: int, actor: Actor, subscription_id: int, delivery_id: int
) -> models.WebhookDelivery:
    """An umpire keeps a held post from the club for good (it stays in the log)."""
    campaign, subscription, delivery = _held_delivery(campaign_id, subscription_id, delivery_id)
    delivery.status = DeliveryStatus.DISCARDED
    delivery.save(update_fields=["status"])
    event_record(
        campaign,
        EventVerb.WEBHOOK_DISCARDED,
        subscription,
        f"Webhook to {subscription.url}: a held post of {delivery.payload['event']} discarded",
        actor,
        before={"status": DeliveryStatus.HELD},
        after={"status": delivery.status},
    )
    return delivery


@transaction.atomic
def webhook_delivery_retry(
    campaign_id: int, actor: Actor, subscription_id: int, delivery_id: int
) -> models.WebhookDelivery:
    """Send a failed delivery again, with a fresh count of attempts (a receiver that was down
    for longer than the retries lasted gets what it missed)."""
    campaign, subscription = _subscription_lock(campaign_id, subscription_id)
    delivery = subscription.deliveries.select_for_update().filter(pk=delivery_id).first()
    if delivery is None:
        raise NotFoundError(f"the webhook to {subscription.url} has no such delivery", field="delivery")
    if delivery.status not in RETRIABLE:
        raise ConflictError(
            f"the delivery is {delivery.get_status_display().lower()}: only a failed one is sent again",
            field="delivery",
            code="wrong_status",
        )
    if not subscription.active:
        raise ConflictError(
            f"the webhook to {subscription.url} is switched off: switch it on before sending again",
            field="webhook",
            code="inactive",
        )
    before = {"status": delivery.status, "attempts": delivery.attempts}
    delivery.status, delivery.attempts, delivery.last_attempt_at = DeliveryStatus.PENDING, 0, None
    delivery.next_attempt_at = None
    delivery.save(update_fields=["status", "attempts", "last_attempt_at", "next_attempt_at"])
    event_record(
        campaign,
        EventVerb.WEBHOOK_RETRIED,
        subscription,
        f"Webhook to {subscription.url}: a delivery of {delivery.payload['event']} sent again",
        actor,
        before=before,
        after={"status": delivery.status, "attempts": 0},
    )
    tasks_send_on_commit(WEBHOOK_DELIVER_TASK, [delivery.pk])
    return delivery
