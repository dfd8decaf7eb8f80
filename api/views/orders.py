"""Sealed orders: night orders and each side's orders for the day."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs, schema
from api.changes import ChangesMixin
from api.permissions import IsAuthenticatedOrAPIKey, IsCampaignMember, IsSidePlayerInPerson, IsUmpire
from api.serializers.orders import NightOrderSerializer, SideOrdersDeadlineSerializer, SideOrderSerializer
from api.views.base import UMPIRE_PERMISSIONS, PublicIdLookup
from api.viewsets import CampaignScopedViewSet, VersionedListMixin
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services import night_orders as night_order_services
from campaign.services import orders as order_services


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(
        summary="Night orders, newest day first (umpires)",
        description="Withdrawals to reserve, attachments and detachments queued for night phases; "
        "`applied` once their night carried them out.",
    ),
    retrieve=extend_schema(summary="One night order (umpires)"),
)
class NightOrderViewSet(
    PublicIdLookup,
    ChangesMixin[models.NightOrder],
    VersionedListMixin[models.NightOrder],
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.NightOrder],
):
    change_kind = "nightorder"
    model = models.NightOrder
    serializer_class = NightOrderSerializer
    permission_classes = UMPIRE_PERMISSIONS
    filterset_class = filters.NightOrderFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.NightOrder]:
        return selectors.night_orders(access)

    @extend_schema(
        summary="Queue an order for tonight's night phase (umpires; idempotent)",
        description="Withdraw a battalion to reserve, or attach or detach one of its stands to a "
        "battalion of the same side. An attachment is checked against Great Battles' attachment "
        "limits (1 HQ, 1 heavy weapons and 2 others per battalion, counting the orders already "
        "queued): refused with a 400 naming the rule. 409 once the day's night phase has started. "
        "Send an Idempotency-Key to retry safely.",
        request=inputs.NightOrderInput,
        responses={201: NightOrderSerializer},
        examples=[schema.NIGHT_ORDER_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        order = night_order_services.night_order_queue(
            self.campaign_access.campaign.pk, self.actor, **self.validated(inputs.NightOrderInput)
        )
        return self.respond(order, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Take a queued order back (umpires)",
        description="Only before its night phase starts (409 after).",
        responses={204: OpenApiResponse(description="Taken back")},
    )
    def destroy(self, request: Request, **kwargs: Any) -> Response:
        night_order_services.night_order_cancel(
            self.campaign_access.campaign.pk, self.actor, self.get_object().pk
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


SIDE_ORDER_PLAYER_ACTIONS = frozenset({"create", "partial_update", "submit", "withdraw"})
SIDE_ORDER_UMPIRE_ACTIONS = frozenset({"approve", "send_back", "amend"})


@extend_schema(tags=["orders"])
@extend_schema_view(
    list=extend_schema(
        summary="Sealed orders: your side's, or for umpires every side's submitted ones",
        description="A side's players read all of their side's orders (drafts too); umpires every "
        "side's once submitted (`?status=submitted` is the approval queue); nobody else any. An "
        "answer carries an ETag: send it back in If-None-Match for a 304 while nothing changed.",
    ),
    retrieve=extend_schema(summary="One sealed order"),
)
class SideOrderViewSet(
    PublicIdLookup,
    ChangesMixin[models.SideOrder],
    VersionedListMixin[models.SideOrder],
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    CampaignScopedViewSet[models.SideOrder],
):
    change_kind = "sideorder"
    model = models.SideOrder
    serializer_class = SideOrderSerializer
    filterset_class = filters.SideOrderFilter
    ordering_fields = ["id", "day_number"]

    def get_permissions(self) -> list[Any]:
        base = [IsAuthenticatedOrAPIKey(), IsCampaignMember()]
        if self.action in SIDE_ORDER_PLAYER_ACTIONS:
            return [*base, IsSidePlayerInPerson()]
        if self.action in SIDE_ORDER_UMPIRE_ACTIONS:
            return [*base, IsUmpire()]
        return base

    def visible(self, access: CampaignAccess) -> QuerySet[models.SideOrder]:
        return selectors.side_orders(access)

    @property
    def _ids(self) -> tuple[int, Any]:
        return self.campaign_access.campaign.pk, self.actor

    @property
    def _side_id(self) -> int:
        side_id = self.campaign_access.player_side_id
        assert side_id is not None  # IsSidePlayerInPerson let only players in
        return side_id

    @extend_schema(
        summary="Draft an order for your side (players; idempotent)",
        description="For the coming night and dawn. The payload is checked for shape and that what "
        "it names is your side's; the full checks are the applying service's, at approval. "
        "`deploy` and `activation` orders are refused, named. Only your side and the umpires read it.",
        request=inputs.SideOrderInput,
        responses={201: SideOrderSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_draft(
            campaign_id, actor, side_id=self._side_id, **self.validated(inputs.SideOrderInput)
        )
        return self.respond(order, status.HTTP_201_CREATED)

    @extend_schema(
        summary="Edit a draft or an order sent back (players)",
        description="An order sent back becomes a draft again; submit it once more.",
        request=inputs.SideOrderEditInput,
        responses={200: SideOrderSerializer},
    )
    def partial_update(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_edit(
            campaign_id,
            actor,
            self.get_object().pk,
            side_id=self._side_id,
            **self.validated(inputs.SideOrderEditInput, partial=True),
        )
        return self.respond(order)

    @extend_schema(
        summary="Submit an order to the umpires (players; idempotent)",
        description="Refused (409, naming the deadline) after your side's deadline: the club night "
        "that plays the order's day, less the club's lead time.",
        request=None,
        responses={200: SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def submit(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_submit(
            campaign_id, actor, self.get_object().pk, side_id=self._side_id
        )
        return self.respond(order)

    @extend_schema(
        summary="Withdraw an order before the umpire decides (players)",
        request=None,
        responses={200: SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def withdraw(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_withdraw(
            campaign_id, actor, self.get_object().pk, side_id=self._side_id
        )
        return self.respond(order)

    @extend_schema(
        summary="Approve a submitted order (umpires)",
        description="It becomes the night order, move or artillery order it describes, through the "
        "same service and checks: refused with that service's reason (nothing written). Only while "
        "the order's day is under way.",
        request=None,
        responses={200: SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def approve(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_approve(campaign_id, actor, self.get_object().pk)
        return self.respond(order)

    @extend_schema(
        summary="Send a submitted order back with a reason (umpires)",
        request=inputs.SideOrderReturnInput,
        responses={200: SideOrderSerializer},
    )
    @action(detail=True, methods=["post"], url_path="send-back", url_name="send-back")
    def send_back(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_return(
            campaign_id, actor, self.get_object().pk, **self.validated(inputs.SideOrderReturnInput)
        )
        return self.respond(order)

    @extend_schema(
        summary="Amend what a submitted order says (umpires)",
        description="Its kind stays; it stays submitted, to be approved.",
        request=inputs.SideOrderAmendInput,
        responses={200: SideOrderSerializer},
    )
    @action(detail=True, methods=["post"])
    def amend(self, request: Request, **kwargs: Any) -> Response:
        campaign_id, actor = self._ids
        order = order_services.side_order_amend(
            campaign_id, actor, self.get_object().pk, **self.validated(inputs.SideOrderAmendInput)
        )
        return self.respond(order)

    @extend_schema(
        summary="When new orders close",
        description="The campaign day new orders are for and its deadline (null: none set by the "
        "club schedule; orders close when the night phase starts).",
        responses={200: SideOrdersDeadlineSerializer},
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def deadline(self, request: Request, **kwargs: Any) -> Response:
        campaign = self.campaign_access.campaign
        day = selectors.side_orders_day(campaign)
        moment = selectors.side_orders_deadline(campaign, day)
        data = {
            "day": day,
            "deadline": moment,
            "deadline_text": selectors.deadline_text(moment) if moment is not None else None,
        }
        return Response(SideOrdersDeadlineSerializer(data).data)
