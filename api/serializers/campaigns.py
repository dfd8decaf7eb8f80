"""A campaign, its sides and the umpire's to-do."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.permissions import CAMPAIGN_KWARG
from api.serializers.base import WIND_TEXT_HELP, FogMaskedSerializer
from campaign import models
from campaign.choices import DayStatus, MemberRole, TodoKind, enum_choices
from campaign.selectors import club_schedule_next, night_before, night_in_progress, summary_access
from campaign.services.day_rules import activation_points_sources
from rules_engine.panzer_korps.wind import wind_words
from rules_engine.vocab import Weather


class SideSerializer(FogMaskedSerializer[models.Side]):
    public_fields = frozenset({"id", "name", "nations", "is_axis"})

    class Meta:
        model = models.Side
        fields = [
            "id",
            "name",
            "nations",
            "is_axis",
            "activation_points",
            "carry_over_base",
            "carry_over_direction",
            "activation_cap",
            "barrage_rounds",
            "barrage_first_day_rounds",
            "barrage_rounds_per_day",
            "barrage_templates",
            "barrage_templates_in_use",
            "supply_quality",
            "artillery_quality",
            "air_cover_priority",
            "command_system",
            "training",
            "fog_of_war",
        ]

    def side_id_of(self, instance: models.Side) -> int:
        return instance.pk


class SideSummarySerializer(SideSerializer):
    """A side in a campaign summary: its pools, when the caller may see them."""

    class Meta(SideSerializer.Meta):
        fields = [
            "id",
            "name",
            "nations",
            "is_axis",
            "activation_points",
            "activation_cap",
            "barrage_rounds",
            "barrage_templates",
            "barrage_templates_in_use",
        ]


NIGHT_IN_PROGRESS_HELP = (
    "a night phase is under way: what you see is the state before it, until it is done (never half of it)"
)


class CampaignSerializer(LabelledModelSerializer[models.Campaign]):
    """The campaign summary: where the day stands, and the sides' pools as the caller may see them."""

    url = serializers.SerializerMethodField()
    day_status = serializers.ChoiceField(choices=DayStatus.choices, read_only=True, allow_null=True)
    weather = serializers.ChoiceField(choices=enum_choices(Weather), read_only=True, allow_null=True)
    turns = serializers.IntegerField(read_only=True, allow_null=True, help_text="turns of the segment")
    segment_turns = serializers.SerializerMethodField(
        help_text="the turns of the day the segment under way plays (turns count on through the day's "
        "segments), with 0, the dawn turn, in the day's first segment: what a turn may be chosen from"
    )
    wind_direction = serializers.CharField(read_only=True, allow_null=True)
    wind_velocity = serializers.CharField(read_only=True, allow_null=True)
    wind_text = serializers.SerializerMethodField(help_text=WIND_TEXT_HELP)
    initiative_side = serializers.IntegerField(source="initiative_side_id", read_only=True, allow_null=True)
    role = serializers.ChoiceField(source="my_role", choices=MemberRole.choices, read_only=True)
    side = serializers.IntegerField(
        source="my_side_id", read_only=True, allow_null=True, help_text="the caller's side, if a player"
    )
    sides = serializers.SerializerMethodField()
    next_club_night = serializers.DateField(
        read_only=True, allow_null=True, help_text="the next club night's date, today included"
    )
    next_night_phase = serializers.SerializerMethodField(
        help_text="when the club schedule next starts the night phase (or reminds the umpires if a "
        "battle is unreported): its first time after the day under way dawned; null without a schedule"
    )
    night_in_progress = serializers.SerializerMethodField()
    activation_points_help = serializers.SerializerMethodField(
        help_text="in words, where a side's activation points come from in this campaign and how the "
        "umpire adds them, as the rules it plays have it"
    )

    def get_segment_turns(self, campaign: models.Campaign) -> list[int]:
        turns, before = getattr(campaign, "turns", None), getattr(campaign, "turns_before", 0)
        if turns is None:
            return []
        return [*([0] if before == 0 else []), *range(before + 1, before + turns + 1)]

    class Meta:
        model = models.Campaign
        fields = [
            "id",
            "url",
            "slug",
            "name",
            "description",
            "profile",
            "optional_rules",
            "theatre",
            "year",
            "season",
            "start_date",
            "status",
            "current_day",
            "current_segment",
            "day_status",
            "weather",
            "turns",
            "segment_turns",
            "wind_direction",
            "wind_velocity",
            "wind_text",
            "initiative_side",
            "version",
            "role",
            "side",
            "sides",
            "next_club_night",
            "next_night_phase",
            "night_in_progress",
            "activation_points_help",
            "result",
            "winner",
            "finished_day",
        ]
        extra_kwargs = {
            "result": {"help_text": "how it ended, once finished"},
            "winner": {"help_text": "the winning side's id; null while going on, or drawn"},
        }

    def get_wind_text(self, campaign: models.Campaign) -> str:
        # The segment under way's, annotated by the selector like the two fields above.
        return wind_words(getattr(campaign, "wind_velocity", None), getattr(campaign, "wind_direction", None))

    def get_url(self, campaign: models.Campaign) -> str:
        return reverse(
            "api:campaign-detail", kwargs={CAMPAIGN_KWARG: campaign.slug}, request=self.context.get("request")
        )

    @extend_schema_field(serializers.DateTimeField(allow_null=True))
    def get_next_night_phase(self, campaign: models.Campaign) -> str | None:
        dawned_at = getattr(campaign, "day_under_way_dawned_at")  # noqa: B009  (an annotation)
        moment = club_schedule_next(campaign, dawned_at, timezone.now())
        return serializers.DateTimeField().to_representation(moment) if moment else None

    @extend_schema_field(SideSummarySerializer(many=True))
    def get_sides(self, campaign: models.Campaign) -> Any:
        """The pools as they were before a night under way (read in one moment with the campaign)."""
        context = {**self.context, "access": summary_access(campaign)}
        sides = list(campaign.sides.all())
        before = night_before(campaign.pk, "side") if night_in_progress(campaign) else None
        if before is not None:
            for side in sides:
                before.restore(side)
        return SideSummarySerializer(sides, many=True, context=context).data

    @extend_schema_field(serializers.BooleanField(help_text=NIGHT_IN_PROGRESS_HELP))
    def get_night_in_progress(self, campaign: models.Campaign) -> bool:
        return night_in_progress(campaign)

    def get_activation_points_help(self, campaign: models.Campaign) -> str:
        return activation_points_sources(campaign)


class TodoItemSerializer(LabelledSerializer[Any]):
    kind = serializers.ChoiceField(choices=TodoKind.choices)
    text = serializers.CharField(help_text="what waits, in words")
    link = serializers.CharField(help_text="the web app's page where it is done, from the site's root")
    count = serializers.IntegerField(help_text="how many (orders, segments, operations); 1 otherwise")


class TodoSerializer(LabelledSerializer[Any]):
    items = TodoItemSerializer(
        many=True, help_text="in the order the umpire meets them; empty: nothing waits"
    )
