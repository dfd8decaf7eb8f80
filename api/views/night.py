"""The night: operations and the night's reports."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs, schema
from api.serializers.night import NightReportSerializer, OperationSerializer
from api.views.base import PublicIdLookup
from api.viewsets import CampaignScopedViewSet, ReadOnlyCampaignViewSet, VersionedListMixin
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.choices import OperationKind
from campaign.services import days as day_services
from campaign.services import night as night_services


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(summary="Background operations (night phases; arrival rolls for umpires)"),
    retrieve=extend_schema(summary="An operation's status and progress"),
)
class OperationViewSet(
    PublicIdLookup, mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.Operation]
):
    model = models.Operation
    serializer_class = OperationSerializer
    filterset_class = filters.OperationFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.Operation]:
        return selectors.operations(access)

    @extend_schema(
        summary="Start the night phase or arrival rolls (umpires; idempotent)",
        description="Answers 202 at once; a worker runs the operation. Poll the operation's URL "
        "(Location) for status and progress. Arrival rolls start on their own as a segment opens; "
        "`arrivals` starts them in the current segment for forces that fell due since (409 when none "
        "is due or the segment's rolls exist). Send an Idempotency-Key to retry safely.",
        request=inputs.OperationStartInput,
        responses={202: OperationSerializer},
        examples=[schema.OPERATION_START_EXAMPLE],
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        kind = self.validated(inputs.OperationStartInput)["kind"]
        campaign_id = self.campaign_access.campaign.pk
        if kind == OperationKind.ARRIVALS:
            operation = day_services.segment_arrivals_start(campaign_id, self.actor)
        else:
            operation = night_services.night_phase_start(campaign_id, self.actor)
        return self.respond(operation, status.HTTP_202_ACCEPTED)


@extend_schema(tags=["operations"])
@extend_schema_view(
    list=extend_schema(summary="Night and arrival reports, each of its kind (players: their side's)"),
    retrieve=extend_schema(summary="One night or arrival report"),
)
class NightReportViewSet(
    PublicIdLookup, VersionedListMixin[models.NightReport], ReadOnlyCampaignViewSet[models.NightReport]
):
    model = models.NightReport
    serializer_class = NightReportSerializer
    filterset_class = filters.NightReportFilter

    def visible(self, access: CampaignAccess) -> QuerySet[models.NightReport]:
        return selectors.night_reports(access)
