"""A member's notifications."""

from __future__ import annotations

from typing import Any, ClassVar

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs
from api.permissions import authenticated_user_id
from api.serializers.notifications import (
    NotificationCountSerializer,
    NotificationSerializer,
    NotificationsReadSerializer,
)
from api.views.base import IsSignedIn
from api.viewsets import ApiViewSet
from campaign import models, selectors
from campaign.services import notifications as notification_services


@extend_schema(tags=["notifications"])
@extend_schema_view(
    list=extend_schema(
        summary="Your inbox: your notifications of every campaign you are in, newest first",
        description="Orders due, orders sent back, a battle assigned to you, a draft waiting for your "
        "opponent, a night report ready: each with its page in the web app (`link`). `?campaign=` "
        "narrows it to one campaign, `?unread=true` to the unread ones. Signed-in people only: an "
        "API key acts for nobody in person.",
    ),
    retrieve=extend_schema(summary="One of your notifications"),
)
class NotificationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet[models.Notification]):
    serializer_class = NotificationSerializer
    permission_classes = [IsSignedIn]
    filterset_class = filters.NotificationFilter
    ordering_fields: ClassVar[list[str]] = []
    lookup_field = "public_id"
    lookup_url_kwarg = "pk"
    lookup_value_regex = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"

    def get_queryset(self) -> QuerySet[models.Notification]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request
            return models.Notification.objects.none()
        return selectors.notifications(authenticated_user_id(self.request))

    @extend_schema(
        summary="How many of your notifications are unread (the bell's number)",
        parameters=[OpenApiParameter("campaign", str, description="only this campaign's (its slug)")],
        responses=NotificationCountSerializer,
    )
    @action(detail=False, methods=["get"], url_path="unread-count", pagination_class=None, filter_backends=[])
    def unread_count(self, request: Request) -> Response:
        unread = selectors.notifications_unread(
            authenticated_user_id(request), request.query_params.get("campaign")
        )
        return Response(NotificationCountSerializer({"unread": unread}).data)

    @extend_schema(
        summary="Mark one of your notifications read", request=None, responses=NotificationSerializer
    )
    @action(detail=True, methods=["post"])
    def read(self, request: Request, **kwargs: Any) -> Response:
        notification = notification_services.notification_read(self.actor, self.kwargs["pk"])
        return self.respond(notification)

    @extend_schema(
        summary="Mark all your notifications read (of one campaign, if named)",
        request=inputs.NotificationsReadAllInput,
        responses=NotificationsReadSerializer,
    )
    @action(detail=False, methods=["post"], url_path="read-all")
    def read_all(self, request: Request) -> Response:
        data = self.validated(inputs.NotificationsReadAllInput)
        campaign_id = None
        if "campaign" in data:
            campaign_id = selectors.member_campaign_id(authenticated_user_id(request), data["campaign"])
            if campaign_id is None:
                raise ValidationError(
                    {"campaign": [f"You are not a member of a campaign {data['campaign']!r}."]}
                )
        marked = notification_services.notifications_read_all(self.actor, campaign_id)
        return Response(NotificationsReadSerializer({"marked": marked}).data)
