"""Webhook subscriptions and their deliveries."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.actions import ActionsField, ActionsLabelsField
from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign import models
from campaign.choices import DELIVERY_ACTION_CHOICES, WEBHOOK_DELIVERY_EVENT_CHOICES, WEBHOOK_EVENT_CHOICES
from campaign.services.webhook_subscriptions import delivery_actions
from campaign.services.webhooks import delivery_sending, previous_secret_signs


class WebhookSerializer(LabelledModelSerializer[models.WebhookSubscription]):
    """A subscription as its umpires see it: never with its secret."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    events = serializers.ListField(child=serializers.ChoiceField(choices=WEBHOOK_EVENT_CHOICES))
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)
    previous_secret_until = serializers.SerializerMethodField(
        help_text="after a new secret: until then the old one signs too (a second signature in "
        "X-Campaign-Signature); null when no old secret signs any more"
    )

    class Meta:
        model = models.WebhookSubscription
        fields = [
            "id",
            "url",
            "kind",
            "events",
            "active",
            "audience",
            "side",
            "hold_for_approval",
            "previous_secret_until",
            "created_by",
            "created_at",
        ]

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_previous_secret_until(self, subscription: models.WebhookSubscription) -> str | None:
        until = subscription.previous_secret_until
        if until is None or not previous_secret_signs(subscription):
            return None
        return serializers.DateTimeField().to_representation(until)


class WebhookCreatedSerializer(WebhookSerializer):
    """The answer to a subscription: with the secret once, when the service made it."""

    shown_once = ("secret",)  # never copied into a replayed answer (api.idempotency)
    secret = serializers.SerializerMethodField(
        help_text="the secret the service made, shown this once; null when you sent your own "
        "(or when an Idempotency-Key replays this answer)"
    )

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_secret(self, subscription: models.WebhookSubscription) -> str | None:
        return subscription.secret if self.context.get("secret_made") else None


class WebhookPayloadObjectSerializer(LabelledSerializer[dict[str, object]]):
    type = serializers.CharField(help_text="the kind of row the event is about (Battle, Operation, ...)")
    id = serializers.JSONField(allow_null=True, help_text="its id as the API names it (a public id)")
    repr = serializers.CharField(help_text="what it is, in words")


class WebhookPayloadLinksSerializer(LabelledSerializer[dict[str, str]]):
    """API paths to read more with, each answering 200 to the subscription's audience."""

    campaign = serializers.CharField()
    event = serializers.CharField(required=False, help_text="the event, when the audience may read it")
    day = serializers.CharField(required=False)
    dice = serializers.CharField(required=False, help_text="after a night: the day's revealed dice")
    report = serializers.CharField(required=False, help_text="after a night: the side audience's own report")
    object = serializers.CharField(required=False, help_text="what the event is about, when readable")


class WebhookPayloadSerializer(LabelledSerializer[dict[str, object]]):
    """The JSON body of every webhook request (docs/api.md, Webhooks); a ping carries ``events``
    in place of ``day``, ``object``, ``message`` and ``links``; a Discord channel's delivery also
    keeps the Discord message it posts (``discord``)."""

    id = serializers.UUIDField(
        allow_null=True, help_text="the event's id; null when the audience may not read it"
    )
    event = serializers.CharField(help_text="the event's name: one of the webhook events, or `ping`")
    campaign = serializers.SlugField(help_text="the campaign's slug")
    day = serializers.IntegerField(required=False, allow_null=True)
    object = WebhookPayloadObjectSerializer(required=False)
    message = serializers.CharField(required=False, help_text="what happened, in words for third parties")
    events = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="a ping's: the events subscribed to"
    )
    created_at = serializers.DateTimeField()
    links = WebhookPayloadLinksSerializer(required=False)
    discord = serializers.DictField(required=False, help_text="a Discord channel's: the message posted")


@extend_schema_field(WebhookPayloadSerializer)
class WebhookPayloadField(serializers.JSONField):
    """The payload as it was sent, documented by :class:`WebhookPayloadSerializer`."""


class WebhookDeliverySerializer(LabelledModelSerializer[models.WebhookDelivery]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    event = serializers.ChoiceField(
        source="payload.event", choices=WEBHOOK_DELIVERY_EVENT_CHOICES, read_only=True
    )
    actions = ActionsField(
        delivery_actions,
        DELIVERY_ACTION_CHOICES,
        help_text="what you may do with it now (umpires): `retry` once it failed every retry, while its "
        "webhook is switched on; `publish` or `discard` a post held for approval",
    )
    actions_labels = ActionsLabelsField(delivery_actions, DELIVERY_ACTION_CHOICES)
    sending = serializers.SerializerMethodField(
        help_text="a worker is still to send it, or to send it again after a failed attempt"
    )
    payload = WebhookPayloadField(read_only=True, help_text="the body sent (or held, or to send)")

    def get_sending(self, delivery: models.WebhookDelivery) -> bool:
        return delivery_sending(delivery)

    class Meta:
        model = models.WebhookDelivery
        fields = [
            "id",
            "event",
            "status",
            "attempts",
            "response_status",
            "error",
            "created_at",
            "last_attempt_at",
            "next_attempt_at",
            "delivered_at",
            "payload",
            "sending",
            "actions",
            "actions_labels",
        ]
