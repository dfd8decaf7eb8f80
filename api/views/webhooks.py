"""Webhook subscriptions and their deliveries."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs, schema
from api.permissions import (
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsUmpireInPerson,
    IsUmpireInPersonOrSideWriteKey,
    request_api_key,
    side_key_writes,
)
from api.serializers.webhooks import WebhookCreatedSerializer, WebhookDeliverySerializer, WebhookSerializer
from api.views.base import PublicIdLookup
from api.viewsets import CampaignScopedViewSet
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import WebhookAudience
from campaign.services import webhook_subscriptions as webhook_services

WEBHOOK_KWARG = "webhook_pk"
# Not IsUmpireOrReadOnly: a side's write-granted key reads as its player, yet manages its side's.
WEBHOOK_PERMISSIONS = [IsAuthenticatedOrAPIKey, IsCampaignMember, IsUmpireInPersonOrSideWriteKey]
# What the club reads is the umpire's to publish, signed in: never a key's.
UMPIRES_ONLY = [*WEBHOOK_PERMISSIONS, IsUmpireInPerson]


@extend_schema(tags=["webhooks"])
@extend_schema_view(
    list=extend_schema(summary="Webhook subscriptions (umpires; side write keys)"),
    retrieve=extend_schema(summary="One webhook subscription (umpires; side write keys)"),
)
class WebhookViewSet(
    PublicIdLookup,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.WebhookSubscription],
):
    """Subscriptions; their secrets are never shown, except once when the service made one."""

    model = models.WebhookSubscription
    serializer_class = WebhookSerializer
    # Signed in, or a side's write key for its own side's news: revoking the key switches off
    # what it subscribed.
    permission_classes = WEBHOOK_PERMISSIONS
    filterset_class = filters.WebhookFilter
    ordering_fields = ["created_at", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.WebhookSubscription]:
        return selectors.webhooks(access, side_key_writes(self.request))

    @extend_schema(
        summary="Subscribe a URL to events (umpires; side write keys)",
        description="Each event a subscription asks for is POSTed to its URL as JSON, signed with "
        "HMAC-SHA256 (docs/api.md, Webhooks). Omit `secret` and the service makes one: the "
        "response shows it this once.",
        request=inputs.WebhookInput,
        responses={201: WebhookCreatedSerializer},
        examples=[schema.WEBHOOK_CREATE_EXAMPLE, schema.WEBHOOK_CREATED_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.WebhookInput)
        api_key = request_api_key(request)
        if api_key is not None:  # a side's key: its own side's news, whatever it asked
            data |= {"audience": WebhookAudience.SIDE, "side_id": api_key.side_id, "api_key_id": api_key.pk}
        subscription = webhook_services.webhook_subscribe(
            self.campaign_access.campaign.pk, self.actor, **data
        )
        return self.respond(
            subscription,
            status.HTTP_201_CREATED,
            serializer_class=WebhookCreatedSerializer,
            secret_made="secret" not in data,
        )

    @extend_schema(
        summary="Change a subscription: URL, events, secret, active (umpires; side write keys)",
        request=inputs.WebhookInput,
        responses=WebhookSerializer,
    )
    def partial_update(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.WebhookInput, partial=True)
        data.pop("kind", None)  # a channel's kind is set when subscribing
        if request_api_key(request) is not None:  # a side's key keeps its subscriptions its side's
            data.pop("audience", None)
            data.pop("side_id", None)
        subscription = webhook_services.webhook_update(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk, **data
        )
        return self.respond(subscription)

    @extend_schema(
        summary="Unsubscribe, with the delivery log (umpires; side write keys)",
        responses={204: OpenApiResponse(description="Unsubscribed")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        webhook_services.webhook_unsubscribe(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary="Send a signed test event (umpires; side write keys)",
        description="Queues one delivery with `X-Campaign-Event: ping`, sent by a worker like every "
        "delivery (and retried like one); the answer's Location is that delivery, in the log.",
        request=None,
        responses={202: WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"])
    def ping(self, request: Request, **kwargs: Any) -> Response:
        delivery = webhook_services.webhook_ping(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk
        )
        queued = WebhookDeliverySerializer(delivery, context=self.get_serializer_context())
        url = self.location(
            delivery, "webhook-delivery", pk=delivery.public_id, **{WEBHOOK_KWARG: self.kwargs["pk"]}
        )
        return Response(queued.data, status=status.HTTP_202_ACCEPTED, headers={"Location": url})


@extend_schema(
    tags=["webhooks"],
    parameters=[
        OpenApiParameter(
            WEBHOOK_KWARG, OpenApiTypes.UUID, OpenApiParameter.PATH, description="the subscription's id"
        )
    ],
)
@extend_schema_view(
    list=extend_schema(summary="A subscription's delivery log, newest first (umpires; side write keys)"),
    retrieve=extend_schema(summary="One delivery and its attempts' outcome (umpires; side write keys)"),
)
class WebhookDeliveryViewSet(
    PublicIdLookup,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.WebhookDelivery],
):
    model = models.WebhookDelivery
    serializer_class = WebhookDeliverySerializer
    permission_classes = WEBHOOK_PERMISSIONS
    filterset_class = filters.WebhookDeliveryFilter
    ordering_fields = ["created_at", "last_attempt_at", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.WebhookDelivery]:
        subscription = get_object_or_404(
            selectors.webhooks(access, side_key_writes(self.request)), public_id=self.kwargs[WEBHOOK_KWARG]
        )
        return selectors.webhook_deliveries(subscription)

    @extend_schema(
        summary="Publish a held post (umpires)",
        description="A post held for approval goes to its receiver, sent by a worker; 409 unless held.",
        request=None,
        responses={202: WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=UMPIRES_ONLY)
    def publish(self, request: Request, **kwargs: Any) -> Response:
        delivery = self.get_object()
        delivery = webhook_services.webhook_delivery_publish(
            self.campaign_access.campaign.pk, self.actor, delivery.subscription_id, delivery.pk
        )
        return self.respond(delivery, status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary="Discard a held post (umpires)",
        description="It never reaches its receiver and stays in the log; 409 unless held.",
        request=None,
        responses={200: WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"], permission_classes=UMPIRES_ONLY)
    def discard(self, request: Request, **kwargs: Any) -> Response:
        delivery = self.get_object()
        delivery = webhook_services.webhook_delivery_discard(
            self.campaign_access.campaign.pk, self.actor, delivery.subscription_id, delivery.pk
        )
        return self.respond(delivery)

    @extend_schema(
        summary="Send a failed delivery again (umpires; side write keys)",
        description="With a fresh count of attempts, by a worker; 409 unless it failed.",
        request=None,
        responses={202: WebhookDeliverySerializer},
    )
    @action(detail=True, methods=["post"])
    def retry(self, request: Request, **kwargs: Any) -> Response:
        delivery = self.get_object()
        delivery = webhook_services.webhook_delivery_retry(
            self.campaign_access.campaign.pk, self.actor, delivery.subscription_id, delivery.pk
        )
        return self.respond(delivery, status.HTTP_202_ACCEPTED)
