"""Webhook subscriptions and their deliveries."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.audit import Event
from campaign.models.campaigns import Campaign, Side
from campaign.models.members import CampaignAPIKey


class WebhookSubscription(models.Model):
    """A third-party app's URL, told of a campaign's events, signed with its secret."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=128, help_text="HMAC-SHA256 key of the X-Campaign-Signature header")
    # A renewed secret's old one still signs (beside the new) until then, so a receiver can
    # switch secrets without refusing a delivery (WEBHOOK_SECRET_OVERLAP_HOURS).
    previous_secret = models.CharField(max_length=128, blank=True, default="")
    previous_secret_until = models.DateTimeField(null=True, blank=True)
    events = models.JSONField(help_text="event verbs delivered (choices.WEBHOOK_EVENTS)")
    active = models.BooleanField(default=True)
    kind = models.CharField(
        max_length=10, choices=choices.WebhookKind.choices, default=choices.WebhookKind.JSON
    )
    # Each post waits for an umpire to publish it (or discard it): nothing reaches the club first.
    hold_for_approval = models.BooleanField(default=False)
    # Whose eyes it reads with (campaign.access): a side's subscription names the side.
    audience = models.CharField(
        max_length=10, choices=choices.WebhookAudience.choices, default=choices.WebhookAudience.UMPIRES
    )
    side = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="webhooks",
        help_text="its audience",
    )
    # The side's key that made it, if one did: it sends nothing once the key is revoked or
    # expired, and goes with the key.
    api_key = models.ForeignKey(
        CampaignAPIKey, null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the API names it by: every campaign's subscriptions share the table, which ids in
    # sequence would count.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(audience=choices.WebhookAudience.SIDE, side__isnull=False)
                | (~Q(audience=choices.WebhookAudience.SIDE) & Q(side__isnull=True)),
                name="webhook_side_audience_names_its_side",
            )
        ]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one subscription, with every attempt's outcome;
    a ping's test event is no campaign event."""

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="webhook_deliveries"
    )
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=choices.DeliveryStatus.choices, default=choices.DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    # When a pending delivery's next attempt is due after a failed one: the backoff's, or later
    # when the receiver asked to wait (a 429's Retry-After); None before the first attempt.
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # What the API and the X-Campaign-Delivery header name it by: a receiver reading numbers
    # would count every campaign's deliveries in between.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [
            # The sweeper looks for overdue pending deliveries every few seconds.
            models.Index(
                fields=["created_at"],
                condition=Q(status=choices.DeliveryStatus.PENDING),
                name="webhook_delivery_pending",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["subscription", "event"], name="one_delivery_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.payload['event']} → {self.subscription} ({self.status})"
