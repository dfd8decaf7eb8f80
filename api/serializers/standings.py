"""How a campaign stands: its victory conditions and each day's statistics."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import access_of
from api.serializers.campaigns import SideSummarySerializer
from api.serializers.force_status import StrengthLabelsField, TallyCountsSerializer, stand_type_labels
from campaign import models
from campaign.choices import CampaignStatus
from campaign.selectors import DayTallies, Statistics


class StatisticsSideSerializer(LabelledModelSerializer[models.Side]):
    class Meta:
        model = models.Side
        fields = ["id", "name", "is_axis"]


class SideTallySerializer(LabelledSerializer[models.SideDayTally]):
    """One side at one dawn: pools as the campaign summary shows them, strength only in full."""

    side = serializers.IntegerField(source="side_id")
    activation_points = serializers.IntegerField(allow_null=True)
    division_activation_points = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="division → its own activation pool at dawn (Malta); null unless the caller sees the side",
    )
    barrage_rounds = serializers.IntegerField(allow_null=True)
    strength = serializers.DictField(
        child=TallyCountsSerializer(),
        allow_null=True,
        help_text="stand type → status → count, and stands in action; null unless the caller sees "
        "the side in full",
    )
    strength_labels = serializers.SerializerMethodField()

    @extend_schema_field(StrengthLabelsField)
    def get_strength_labels(self, tally: models.SideDayTally) -> dict[str, str] | None:
        return stand_type_labels(tally.strength)

    def to_representation(self, instance: models.SideDayTally) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = SideSummarySerializer.shown_fields(access_of(self), instance.side_id)
        if shown is not None:
            data.update({name: None for name in ("activation_points", "barrage_rounds") if name not in shown})
            if "activation_points" not in shown:
                data["division_activation_points"] = None
            data["strength"] = data["strength_labels"] = None
        return data


class StatisticsDaySerializer(LabelledSerializer[DayTallies]):
    day = serializers.IntegerField(source="day.number")
    date = serializers.DateField(source="day.date")
    sides = SideTallySerializer(source="tallies", many=True)


class StatisticsSerializer(LabelledSerializer[Statistics]):
    """The charts' series: each side's strength and stocks at every dawn."""

    sides = StatisticsSideSerializer(many=True)
    days = StatisticsDaySerializer(many=True)


class VictorySectorSerializer(LabelledSerializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.IntegerField(source="owner_id", allow_null=True, help_text="null: contested")
    held = serializers.BooleanField(help_text="by the condition's side")


class VictoryConditionSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField(source="side_id")
    side_name = serializers.CharField()
    result = serializers.CharField(help_text="what the campaign's result reads when it is met")
    sectors = VictorySectorSerializer(many=True, help_text="the sectors its side must hold")
    victory_points = serializers.IntegerField(allow_null=True, help_text="the threshold; null: none")
    points_held = serializers.IntegerField(help_text="the victory points of the sectors its side holds")
    by_day = serializers.IntegerField(allow_null=True, help_text="met only at a night up to this day")
    met = serializers.BooleanField(
        help_text="as the map stands: tonight's night phase would end the campaign"
    )
    expired = serializers.BooleanField(help_text="its day is past")
    standing = serializers.CharField(help_text="where its side stands, in words")


class VictorySideSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField(source="side_id")
    name = serializers.CharField()
    sectors_held = serializers.IntegerField()
    victory_points = serializers.IntegerField(help_text="of the sectors it holds")


class VictorySerializer(LabelledSerializer[Any]):
    """The victory conditions and each side's standing (``campaign.selectors.victory_standing``)."""

    status = serializers.ChoiceField(source="campaign.status", choices=CampaignStatus.choices)
    summary = serializers.CharField(help_text="where the campaign stands, or how it ended, in words")
    winner = serializers.IntegerField(source="campaign.winner_id", allow_null=True, help_text="once finished")
    result = serializers.CharField(source="campaign.result", help_text="once finished; empty before")
    finished_day = serializers.IntegerField(source="campaign.finished_day", allow_null=True)
    conditions = VictoryConditionSerializer(many=True, help_text="in the order the night checks them")
    end_day = serializers.IntegerField(
        source="end.day", allow_null=True, default=None, help_text="the day whose night ends it at the latest"
    )
    end_text = serializers.CharField(allow_null=True, help_text="what ends it if no condition is met")
    sides = VictorySideSerializer(many=True)
