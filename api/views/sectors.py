"""The map's sectors, each with the forces and battles a reader sees on it."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import inputs
from api.serializers.map import SectorSerializer
from api.viewsets import ReadOnlyCampaignViewSet, VersionedListMixin
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services import sectors as sector_services


@extend_schema(tags=["map"])
@extend_schema_view(
    list=extend_schema(summary="Sectors of the campaign map, with what you see on them"),
    retrieve=extend_schema(summary="One sector"),
)
class SectorViewSet(VersionedListMixin[models.Sector], ReadOnlyCampaignViewSet[models.Sector]):
    model = models.Sector
    serializer_class = SectorSerializer
    ordering_fields = ["name", "id"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.Sector]:
        return selectors.sectors(access)

    @extend_schema(
        summary="Give a sector to a side, or make it contested (umpires; idempotent)",
        description="Records who holds it now and why (every member reads the reason), and tells "
        "webhooks subscribed to sector.control_changed. Refused in the night phase. Send an "
        "Idempotency-Key to retry safely.",
        request=inputs.SectorControlInput,
        responses=SectorSerializer,
    )
    @action(detail=True, methods=["post"])
    def control(self, request: Request, **kwargs: Any) -> Response:
        campaign_id = self.campaign_access.campaign.pk
        sector = sector_services.sector_control_set(
            campaign_id, self.actor, self.get_object().pk, **self.validated(inputs.SectorControlInput)
        )
        return self.respond(sector)
