"""The campaign's event timeline."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign import models


class EventSerializer(LabelledModelSerializer[models.Event]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    object_id = serializers.SerializerMethodField(
        help_text="the object's number, for an object named by one; null when it is named by object_public_id"
    )
    object_public_id = serializers.UUIDField(
        read_only=True, allow_null=True, help_text="the object's public id, for an object named by one"
    )
    day = serializers.IntegerField(source="day_number", read_only=True, allow_null=True)
    actor = serializers.CharField(source="actor.get_username", read_only=True, allow_null=True)

    class Meta:
        model = models.Event
        fields = [
            "id",
            "verb",
            "actor",
            "request_id",
            "day",
            "object_type",
            "object_id",
            "object_public_id",
            "object_repr",
            "message",
            "before",
            "after",
            "visibility",
            "side",
            "created_at",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_object_id(self, event: models.Event) -> int | None:
        # The row's number would count the rows of its table the reader does not see.
        return event.object_id if event.object_public_id is None else None
