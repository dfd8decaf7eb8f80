"""A campaign's API keys."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from api import inputs
from api.serializers.api_keys import APIKeyCreatedSerializer, APIKeySerializer
from api.viewsets import UMPIRES_IN_PERSON, CampaignScopedViewSet
from campaign import models, selectors
from campaign.access import CampaignAccess
from campaign.services import api_keys as api_key_services


@extend_schema(tags=["api keys"])
@extend_schema_view(
    list=extend_schema(summary="The campaign's API keys (umpires)"),
    retrieve=extend_schema(summary="One API key (umpires)"),
)
class APIKeyViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[models.CampaignAPIKey]
):
    """Keys for third-party apps. Managed by the umpire in person, never by a key."""

    model = models.CampaignAPIKey
    serializer_class = APIKeySerializer
    permission_classes = UMPIRES_IN_PERSON
    lookup_field = "prefix"
    lookup_value_regex = r"[A-Za-z0-9]+"
    ordering_fields = ["created", "name"]

    def visible(self, access: CampaignAccess) -> QuerySet[models.CampaignAPIKey]:
        return selectors.api_keys(access)

    @extend_schema(
        summary="Create an API key (umpires; the key is in this response only)",
        request=inputs.APIKeyCreateInput,
        responses={201: APIKeyCreatedSerializer},
    )
    def create(self, request: Request, **kwargs: Any) -> Response:
        api_key, plain = api_key_services.api_key_create(
            self.campaign_access.campaign.pk, self.actor, **self.validated(inputs.APIKeyCreateInput)
        )
        return self.respond(
            api_key, status.HTTP_201_CREATED, serializer_class=APIKeyCreatedSerializer, plain_key=plain
        )

    @extend_schema(summary="Revoke an API key for good (umpires)", request=None, responses=APIKeySerializer)
    @action(detail=True, methods=["post"])
    def revoke(self, request: Request, **kwargs: Any) -> Response:
        api_key = api_key_services.api_key_revoke(
            self.campaign_access.campaign.pk, self.actor, self.get_object().prefix
        )
        return self.respond(api_key)
