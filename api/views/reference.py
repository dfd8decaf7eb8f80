"""The reference endpoints: equipment and the rules catalogue."""

from __future__ import annotations

import contextlib
from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from api import filters, inputs
from api.contract import ApiContractMixin
from api.pagination import PagePagination
from api.permissions import IsAuthenticatedOrAPIKey
from api.serializers.reference import EquipmentSerializer, RuleEntrySerializer
from api.viewsets import ApiViewSet
from campaign import models, selectors
from rules_engine import catalog
from rules_engine.registry import CatalogError
from rules_engine.results import RuleSystem


@extend_schema(tags=["reference"])
@extend_schema_view(
    list=extend_schema(summary="Vehicles and guns by nation and year"),
    retrieve=extend_schema(summary="One equipment entry"),
)
class EquipmentViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ApiViewSet[models.Equipment]):
    serializer_class = EquipmentSerializer
    filterset_class = filters.EquipmentFilter
    permission_classes = [IsAuthenticatedOrAPIKey]
    ordering_fields = ["name", "year_from", "id"]

    def get_queryset(self) -> QuerySet[models.Equipment]:
        return selectors.equipment()


@extend_schema(tags=["reference"])
class RuleViewSet(ApiContractMixin, viewsets.ViewSet):
    """The rules catalog (``rules_engine.catalog``): every table and procedure of the three systems."""

    permission_classes = [IsAuthenticatedOrAPIKey]
    pagination_class = PagePagination
    lookup_field = "key"
    lookup_value_regex = r"[^/]+"

    @extend_schema(
        summary="Rules catalog", parameters=[inputs.RuleQuery], responses=RuleEntrySerializer(many=True)
    )
    def list(self, request: Request) -> Response:
        query = inputs.RuleQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        system = RuleSystem(query.validated_data["system"]) if "system" in query.validated_data else None
        kind = query.validated_data.get("kind")
        entries = [
            *(
                catalog.describe_procedure(p)
                for p in catalog.procedures(system)
                if kind in (None, "procedure")
            ),
            *(catalog.describe_table(t) for t in catalog.tables(system) if kind in (None, "table")),
        ]
        paginator = self.pagination_class()
        # Django's paginator pages a list as well as a queryset.
        page: list[Any] | None = paginator.paginate_queryset(entries, request, view=self)
        return paginator.get_paginated_response(RuleEntrySerializer(page, many=True).data)

    @extend_schema(
        summary="One table (with its chart) or procedure (with its inputs)",
        description="A procedure and the table it reads may share a key (gb.activation_cost): "
        "the procedure answers, unless `kind=table` asks for the table.",
        parameters=[
            OpenApiParameter("key", str, OpenApiParameter.PATH, description="e.g. gb.weather"),
            OpenApiParameter(
                "kind", str, enum=["procedure", "table"], description="which, when both have the key"
            ),
        ],
        responses=RuleEntrySerializer,
    )
    def retrieve(self, request: Request, key: str) -> Response:
        query = inputs.RuleQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        kind = query.validated_data.get("kind")
        entry = None
        if kind in (None, "procedure"):
            with contextlib.suppress(CatalogError):
                entry = catalog.describe_procedure(catalog.get_procedure(key))
        if entry is None and kind in (None, "table"):
            with contextlib.suppress(CatalogError):
                entry = catalog.describe_table(catalog.get_table(key), with_data=True)
        if entry is None:
            raise NotFound(f"No {kind or 'table or procedure'} {key!r} in the rules catalog.")
        return Response(RuleEntrySerializer(entry).data)
