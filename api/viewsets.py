"""Base viewsets: transactions, permissions, scoping and idempotency in one place,
so a concrete viewset names its selector, serializer and filters and little else.

Errors need nothing here: ``EXCEPTION_HANDLER`` (:func:`api.errors.exception_handler`)
turns every exception into the one error body and rolls the transaction back.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, ClassVar, TypeVar, cast

from django.db import transaction
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponseBase
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, serializers
from rest_framework.permissions import SAFE_METHODS
from rest_framework.response import Response
from rest_framework.viewsets import GenericViewSet

from api.idempotency import idempotent
from api.permissions import (
    CAMPAIGN_KWARG,
    CampaignAccessMixin,
    IsAuthenticatedOrAPIKey,
    IsCampaignMember,
    IsUmpireOrReadOnly,
    request_api_key,
)
from campaign.access import CampaignAccess
from campaign.services.audit import Actor

_M = TypeVar("_M", bound=Model)
_Input = TypeVar("_Input", bound=serializers.Serializer[Any])

REQUEST_ID_HEADER = "X-Request-ID"
# Anonymous callers 403; non-members 404; members read, umpires write.
CAMPAIGN_PERMISSIONS = [IsAuthenticatedOrAPIKey, IsCampaignMember, IsUmpireOrReadOnly]


class ApiViewSet(GenericViewSet[_M]):
    """Every write runs in one transaction: a refused or crashed request commits nothing."""

    # OrderingFilter accepts only these; a subclass lists fields every viewer may see.
    ordering_fields: ClassVar[list[str]] = ["id"]

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method in SAFE_METHODS:
            return super().dispatch(request, *args, **kwargs)
        with transaction.atomic():
            response = super().dispatch(request, *args, **kwargs)
            if response.status_code >= 400:  # DRF turned an exception into this answer
                transaction.set_rollback(True)
            return response

    @property
    def actor(self) -> Actor:
        """Who the services record as acting, with the client's request id when it sent one."""
        request_id = self.request.headers.get(REQUEST_ID_HEADER, "")[:64] or uuid.uuid4().hex
        api_key = request_api_key(self.request)
        if api_key is not None:
            return Actor.of_api_key(api_key.prefix, request_id)
        return Actor(user=self.request.user, request_id=request_id)

    def validated(self, input_class: type[_Input], *, partial: bool = False) -> dict[str, Any]:
        """The request body, checked for shape by ``input_class`` (400 with field paths if not);
        ``partial`` for a PATCH, which sends only what changes."""
        serializer = input_class(data=self.request.data, partial=partial)
        serializer.is_valid(raise_exception=True)
        return dict(serializer.validated_data)

    def idempotent(self, write: Callable[[], Response]) -> Response:
        return idempotent(self.request, write)


@extend_schema(
    parameters=[
        OpenApiParameter(
            CAMPAIGN_KWARG, str, OpenApiParameter.PATH, description="the campaign's slug (`GET /campaigns/`)"
        )
    ]
)
class CampaignScopedViewSet(CampaignAccessMixin, ApiViewSet[_M]):
    """A collection under ``/campaigns/{campaign_slug}/``: members only (404 for anybody
    else), writes for umpires, rows from the selector of what the caller may see."""

    model: ClassVar[type[Model]]
    permission_classes = CAMPAIGN_PERMISSIONS

    def visible(self, access: CampaignAccess) -> QuerySet[_M]:
        """The rows the caller may see: a :mod:`campaign.selectors` function."""
        raise NotImplementedError

    def get_queryset(self) -> QuerySet[_M]:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no request, no campaign
            return cast(QuerySet[_M], self.model._default_manager.none())
        return self.visible(self.campaign_access)

    def get_serializer_context(self) -> dict[str, Any]:
        context = super().get_serializer_context()
        if CAMPAIGN_KWARG in self.kwargs:
            context["access"] = self.campaign_access
        return context


class ReadOnlyCampaignViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, CampaignScopedViewSet[_M]):
    pass
