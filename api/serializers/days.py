"""Campaign days, their segments, the activation points spent, artillery orders and the dawn's preview."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, WIND_TEXT_HELP
from campaign import models
from rules_engine.panzer_korps.wind import wind_words


class SegmentSerializer(LabelledModelSerializer[models.DaySegmentRecord]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    wind_text = serializers.SerializerMethodField(help_text=WIND_TEXT_HELP)

    class Meta:
        model = models.DaySegmentRecord
        fields = [
            "id",
            "segment",
            "order",
            "turns",
            "initiative_side",
            "wind_direction",
            "wind_velocity",
            "wind_text",
        ]

    def get_wind_text(self, segment: models.DaySegmentRecord) -> str:
        return wind_words(segment.wind_velocity, segment.wind_direction)


class DaySerializer(LabelledModelSerializer[models.CampaignDay]):
    id = serializers.UUIDField(
        source="public_id", read_only=True, help_text="says nothing: a day is named by its number"
    )
    segments = SegmentSerializer(many=True, read_only=True)

    class Meta:
        model = models.CampaignDay
        fields = ["id", "number", "date", "weather", "status", "segments", "journal", "journal_written_at"]
        extra_kwargs = {
            "journal": {"read_only": True, "help_text": "the umpire's public account of the day"},
            "journal_written_at": {"read_only": True},
        }


class ActivationSpendSerializer(LabelledModelSerializer[models.ActivationSpend]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)
    battalions = serializers.SlugRelatedField[models.Battalion](
        many=True, read_only=True, slug_field="code", help_text="battalion codes activated"
    )

    class Meta:
        model = models.ActivationSpend
        fields = ["id", "side", "day", "turn", "column", "cost", "battalions", "created_at"]


class ArtilleryOrderSerializer(LabelledModelSerializer[models.ArtilleryOrder]):
    """A barrage template's mode for one day."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)

    class Meta:
        model = models.ArtilleryOrder
        fields = ["id", "side", "day", "template", "mode", "created_at"]


class DeploymentPreviewSerializer(LabelledSerializer[Any]):
    """One battalion leaving reserve, as the dawn would deploy it (campaign.services.days.DeploymentPlan)."""

    battalion = serializers.CharField(source="battalion.code", help_text="battalion code")
    battalion_name = serializers.CharField(source="battalion.name")
    range_inches = serializers.FloatField(source="order.range_inches", help_text="to the nearest enemy")
    friendly_intervening = serializers.BooleanField(source="order.friendly_intervening")
    side_order = serializers.UUIDField(
        source="order.side_order", allow_null=True, help_text="the id of the sealed order it comes from"
    )
    cell = serializers.CharField(help_text="the deployment chart's column read")
    destroyed = serializers.IntegerField(source="casualties.destroyed", help_text="stands destroyed")
    suppressed = serializers.IntegerField(source="casualties.suppressed", help_text="stands suppressed")
    retreat_inches = serializers.IntegerField(source="casualties.retreat_inches")
    stands_destroyed = serializers.SerializerMethodField(help_text="labels of the stands destroyed")
    stands_suppressed = serializers.SerializerMethodField(help_text="labels of the stands suppressed")
    text = serializers.CharField(help_text="the timeline's words for it")

    def get_stands_destroyed(self, plan: Any) -> list[str]:
        return [stand.label for stand in plan.destroyed]

    def get_stands_suppressed(self, plan: Any) -> list[str]:
        return [stand.label for stand in plan.suppressed]


class DawnPreviewSerializer(LabelledSerializer[Any]):
    day = serializers.IntegerField(help_text="the day that would dawn")
    rule = serializers.CharField(help_text="the deployment chart's rule reference")
    deployments = DeploymentPreviewSerializer(many=True)
