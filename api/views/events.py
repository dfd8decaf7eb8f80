"""The campaign's event timeline."""

from __future__ import annotations

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema, extend_schema_view

from api import filters
from api.changes import ChangesMixin
from api.pagination import TimelineCursorPagination
from api.serializers.events import EventSerializer
from api.views.base import PublicIdLookup
from api.viewsets import ReadOnlyCampaignViewSet, VersionedListMixin
from campaign import models, selectors
from campaign.access import CampaignAccess


@extend_schema(tags=["audit"])
@extend_schema_view(
    list=extend_schema(summary="Event timeline (players: public entries and their own side's)"),
    retrieve=extend_schema(summary="One event"),
)
class EventViewSet(
    PublicIdLookup,
    ChangesMixin[models.Event],
    VersionedListMixin[models.Event],
    ReadOnlyCampaignViewSet[models.Event],
):
    change_kind = "event"
    model = models.Event
    serializer_class = EventSerializer
    filterset_class = filters.EventFilter
    pagination_class = TimelineCursorPagination
    ordering_fields = []

    def visible(self, access: CampaignAccess) -> QuerySet[models.Event]:
        return selectors.events(access)
