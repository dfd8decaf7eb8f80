"""The roll log and the roll record a write that rolled answers."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs, schema
from api.changes import ChangesMixin
from api.pagination import TimelineCursorPagination
from api.serializers.rolls import RollOverrideSerializer, RollProcedureSerializer, RollSerializer
from api.views.base import PublicIdLookup
from api.viewsets import CampaignScopedViewSet, ReadOnlyCampaignViewSet, VersionedListMixin
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services import overrides as override_services


def roll_answer(view: CampaignScopedViewSet[Any], record: models.RollRecord) -> Response:
    """A write that rolled answers its roll record (201), at its URL in the roll log."""
    return view.respond(
        record,
        status.HTTP_201_CREATED,
        serializer_class=RollSerializer,
        queryset=selectors.rolls(view.campaign_access),
        location=view.location(record, "roll", pk=record.public_id),
    )


ROLL_ANSWER = {201: RollSerializer}


@extend_schema(tags=["audit"])
@extend_schema_view(
    list=extend_schema(summary="Roll log (players: their own units' rolls)"),
    retrieve=extend_schema(summary="One roll record"),
)
class RollViewSet(
    PublicIdLookup,
    ChangesMixin[models.RollRecord],
    VersionedListMixin[models.RollRecord],
    ReadOnlyCampaignViewSet[models.RollRecord],
):
    change_kind = "rollrecord"
    model = models.RollRecord
    serializer_class = RollSerializer
    filterset_class = filters.RollFilter
    pagination_class = TimelineCursorPagination
    ordering_fields = []  # the cursor fixes the order

    def visible(self, access: CampaignAccess) -> QuerySet[models.RollRecord]:
        return selectors.rolls(access)

    @extend_schema(
        summary="The procedures the roll log holds, with their titles",
        description="The choices of the `procedure` filter: those of the rolls you may read.",
        responses=RollProcedureSerializer(many=True),
    )
    @action(detail=False, methods=["get"], pagination_class=None, filter_backends=[])
    def procedures(self, request: Request, **kwargs: Any) -> Response:
        procedures = selectors.roll_procedures(self.campaign_access)
        return Response([RollProcedureSerializer(procedure).data for procedure in procedures])

    @extend_schema(
        summary="Override a rolled value (umpires; idempotent)",
        description="Replaces values the roll set (`changes`: name → value) on the object it changed, "
        "with a reason. The original roll stays in the log; the override is a new roll record "
        "naming it. Send an Idempotency-Key to retry safely.",
        request=inputs.RollOverrideInput,
        responses={
            201: OpenApiResponse(RollOverrideSerializer, examples=[schema.ROLL_OVERRIDE_RESPONSE_EXAMPLE])
        },
        examples=[schema.ROLL_OVERRIDE_EXAMPLE],
    )
    @action(detail=True, methods=["post"])
    def override(self, request: Request, **kwargs: Any) -> Response:
        data = self.validated(inputs.RollOverrideInput)
        original = self.get_object()
        override = override_services.roll_override(
            self.campaign_access.campaign.pk, self.actor, original.pk, **data
        )
        rolls = self.get_queryset().in_bulk([original.pk, override.pk])
        both = {"original": rolls[original.pk], "override": rolls[override.pk]}
        return Response(
            RollOverrideSerializer(both, context=self.get_serializer_context()).data,
            status=status.HTTP_201_CREATED,
        )
