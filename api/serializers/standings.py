"""How a campaign stands: its victory conditions and each day's statistics."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.permissions import CAMPAIGN_KWARG
from api.serializers.base import access_of
from api.serializers.campaigns import SideSummarySerializer
from api.serializers.force_status import StrengthLabelsField, TallyCountsSerializer, stand_type_labels
from campaign import models
from campaign.choices import CampaignStatus
from campaign.selectors import AFTER_NIGHT, FIGURE_WORDS, DayTallies, SideDay, Statistics, figures_shown
from campaign.services.campaigns import campaign_ended


class StatisticsSideSerializer(LabelledModelSerializer[models.Side]):
    class Meta:
        model = models.Side
        fields = ["id", "name", "is_axis"]


FIGURE_HELP = {
    "stands_lost": "destroyed in the day's confirmed battles, and lost by isolation in its night",
    "stands_suppressed": "in the day's confirmed battles",
    "stands_replaced": "returned by the night's replacement rolls",
    "activation_points_earned": "awarded for objectives taken in the day's battles",
    "activation_points_spent": "on activations and in the day's battles",
    "activation_points_carried": "carried over the night to the next day; null until the night",
    "barrage_rounds_fired": "in the day's confirmed battles",
    "barrage_rounds_replenished": "by the night; null until the night",
    "sectors_held": "at the day's end, or now while the day goes on",
    "victory_points": "of the sectors held then",
}


class SideTallySerializer(LabelledSerializer[SideDay]):
    """One side on one day: its pools and strength at dawn as the campaign summary shows them
    (strength only in full), and the day's figures as its fog of war shows each."""

    side = serializers.IntegerField(source="side_id")
    activation_points = serializers.IntegerField(source="tally.activation_points", allow_null=True)
    division_activation_points = serializers.DictField(
        source="tally.division_activation_points",
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="division → its own activation pool at dawn (Malta); null unless the caller sees the side",
    )
    barrage_rounds = serializers.IntegerField(source="tally.barrage_rounds", allow_null=True)
    strength = serializers.DictField(
        source="tally.strength",
        child=TallyCountsSerializer(),
        allow_null=True,
        help_text="stand type → status → count, and stands in action; null unless the caller sees "
        "the side in full",
    )
    strength_labels = serializers.SerializerMethodField()

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for name, help_text in FIGURE_HELP.items():
            fields[name] = serializers.IntegerField(
                source=f"figures.{name}",
                allow_null=True,
                help_text=f"{help_text}; null where hidden from you",
            )
        return fields

    @extend_schema_field(StrengthLabelsField)
    def get_strength_labels(self, side_day: SideDay) -> dict[str, str] | None:
        return stand_type_labels(side_day.tally.strength)

    def to_representation(self, instance: SideDay) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        access = access_of(self)
        shown = SideSummarySerializer.shown_fields(access, instance.side_id)
        if shown is not None:
            data.update({name: None for name in ("activation_points", "barrage_rounds") if name not in shown})
            if "activation_points" not in shown:
                data["division_activation_points"] = None
            data["strength"] = data["strength_labels"] = None
        data.update(figures_shown(access, instance))
        return data


class StatisticsDaySerializer(LabelledSerializer[DayTallies]):
    day = serializers.IntegerField(source="day.number")
    date = serializers.DateField(source="day.date")
    sides = SideTallySerializer(source="tallies", many=True)
    night_done = serializers.BooleanField(
        help_text="its night phase is done: the figures taken after the night are known (null before it)"
    )


class StatisticsFigureSerializer(LabelledSerializer[Any]):
    key = serializers.CharField(help_text="the field of each side's entry")
    title = serializers.CharField(help_text="the figure in words")
    after_night = serializers.BooleanField(
        help_text="taken by the night phase: null until the day's night is done"
    )


class StatisticsLinksSerializer(LabelledSerializer[Any]):
    csv = serializers.CharField(help_text="the same figures as a CSV file, a row per day and side")


class StatisticsSerializer(LabelledSerializer[Statistics]):
    """The charts' series: each side's strength and stocks at every dawn, and each day's figures."""

    sides = StatisticsSideSerializer(many=True)
    days = StatisticsDaySerializer(many=True)
    figures = serializers.SerializerMethodField(help_text="each day's figures of a side, in order, in words")
    links = serializers.SerializerMethodField()

    @extend_schema_field(StatisticsFigureSerializer(many=True))
    def get_figures(self, stats: Statistics) -> list[dict[str, Any]]:
        return [
            {"key": key, "title": title, "after_night": key in AFTER_NIGHT}
            for key, title in FIGURE_WORDS.items()
        ]

    @extend_schema_field(StatisticsLinksSerializer)
    def get_links(self, stats: Statistics) -> dict[str, str]:
        slug = access_of(self).campaign.slug
        url = reverse(
            "api:campaign-statistics", kwargs={CAMPAIGN_KWARG: slug}, request=self.context.get("request")
        )
        return {"csv": f"{url}?format=csv"}


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
    finished = serializers.SerializerMethodField(help_text="the campaign has ended: the summary says how")
    winner = serializers.IntegerField(source="campaign.winner_id", allow_null=True, help_text="once finished")
    result = serializers.CharField(source="campaign.result", help_text="once finished; empty before")
    finished_day = serializers.IntegerField(source="campaign.finished_day", allow_null=True)
    conditions = VictoryConditionSerializer(many=True, help_text="in the order the night checks them")
    end_day = serializers.IntegerField(
        source="end.day", allow_null=True, default=None, help_text="the day whose night ends it at the latest"
    )
    end_text = serializers.CharField(allow_null=True, help_text="what ends it if no condition is met")
    sides = VictorySideSerializer(many=True)

    def get_finished(self, standing: Any) -> bool:
        return campaign_ended(standing.campaign)


def statistics_table(data: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The statistics' answer (``StatisticsSerializer``'s data) as a table for CSV, a row per day and
    side: the same figures, null where hidden from the reader."""
    names = {side["id"]: side["name"] for side in data["sides"]}
    pools = {"activation_points": "Activation points at dawn", "barrage_rounds": "Barrage rounds at dawn"}
    columns = ["Day", "Date", "Side", *pools.values(), *(figure["title"] for figure in data["figures"])]
    rows = [
        [
            day["day"],
            day["date"],
            names[entry["side"]],
            *(entry[name] for name in pools),
            *(entry[figure["key"]] for figure in data["figures"]),
        ]
        for day in data["days"]
        for entry in day["sides"]
    ]
    return {"columns": columns, "rows": rows}
