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
from api.serializers.papers import PaperLinkSerializer, paper_links
from campaign import models
from campaign.choices import CAMPAIGN_ACTION_CHOICES, DayStatus, MemberRole, TodoKind, enum_choices
from campaign.paper import campaign_papers
from campaign.selectors import club_schedule_next, night_before, night_in_progress, summary_access
from campaign.services.activation import activation_costs
from campaign.services.campaign_actions import campaign_actions
from campaign.services.day_rules import activation_points_sources
from rules_engine.great_battles.activation import ActivationChoice, ActivationColumn
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


class ActivationCostSerializer(LabelledSerializer[ActivationChoice]):
    """One column of the activation chart at one turn, with its cost."""

    turn = serializers.IntegerField(read_only=True, help_text="0 for the dawn turn, else 1..10")
    column = serializers.ChoiceField(
        source="column.value", choices=enum_choices(ActivationColumn), read_only=True
    )
    cost = serializers.IntegerField(read_only=True, help_text="in activation points")


class CampaignSerializer(LabelledModelSerializer[models.Campaign]):
    """The campaign summary: where the day stands, and the sides' pools as the caller may see them."""

    id = serializers.UUIDField(
        source="public_id", read_only=True, help_text="says nothing: a campaign is named by its slug"
    )
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
    chronicle_url = serializers.SerializerMethodField(
        help_text="the chronicle of the campaign so far (PDF), printed for you: null until day 1 dawns"
    )
    papers = serializers.SerializerMethodField(
        help_text="what you may print now, as links in words: the day under way's briefings of the sides "
        "in prints_for, then the chronicle so far; empty until day 1 dawns"
    )
    you_umpire = serializers.SerializerMethodField(
        help_text="you umpire this campaign: its umpire pages and every write are yours"
    )
    prints_for = serializers.SerializerMethodField(
        help_text="the ids of the sides whose papers (briefings, battle packets) you may print: every "
        "side for umpires, their own for players, none for observers"
    )
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
    activation_costs = serializers.SerializerMethodField(
        help_text="the activation chart's columns at each turn of segment_turns with what each costs "
        "(cheaper at the dawn turn): what a spend chooses from; empty while no segment is under way"
    )
    actions = serializers.SerializerMethodField(
        help_text="what you may do with the campaign and its day now, each offered exactly when its "
        "write would be accepted: `start` (POST start/), `dawn` (POST days/dawn/), `open_next_segment` "
        "(POST days/{number}/advance-segment/; not after the day's last segment), "
        "`spend_activation_points`, `create_battle`, `queue_night_order`, `run_night` (POST "
        "operations/ of kind night_phase; not while a battle of the day is unreported) (umpires; "
        "nothing for players)"
    )
    actions_labels = serializers.SerializerMethodField(help_text="the actions in words, in their order")

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
            "chronicle_url",
            "papers",
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
            "you_umpire",
            "prints_for",
            "next_club_night",
            "next_night_phase",
            "night_in_progress",
            "activation_points_help",
            "activation_costs",
            "actions",
            "actions_labels",
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

    @extend_schema_field(serializers.URLField(allow_null=True))
    def get_chronicle_url(self, campaign: models.Campaign) -> str | None:
        if not campaign.current_day:
            return None
        return reverse(
            "api:campaign-chronicle",
            kwargs={CAMPAIGN_KWARG: campaign.slug},
            request=self.context.get("request"),
        )

    @extend_schema_field(PaperLinkSerializer(many=True))
    def get_papers(self, campaign: models.Campaign) -> Any:
        context = {**self.context, "campaign": campaign}
        return paper_links(campaign_papers(summary_access(campaign)), context)

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

    def get_you_umpire(self, campaign: models.Campaign) -> bool:
        return summary_access(campaign).is_umpire

    @extend_schema_field(serializers.ListField(child=serializers.IntegerField()))
    def get_prints_for(self, campaign: models.Campaign) -> list[int]:
        access = summary_access(campaign)
        return [side.pk for side in campaign.sides.all() if access.prints_for(side.pk)]

    @extend_schema_field(serializers.BooleanField(help_text=NIGHT_IN_PROGRESS_HELP))
    def get_night_in_progress(self, campaign: models.Campaign) -> bool:
        return night_in_progress(campaign)

    def get_activation_points_help(self, campaign: models.Campaign) -> str:
        return activation_points_sources(campaign)

    @extend_schema_field(ActivationCostSerializer(many=True))
    def get_activation_costs(self, campaign: models.Campaign) -> Any:
        choices = activation_costs(campaign.current_day, self.get_segment_turns(campaign))
        row = ActivationCostSerializer(context=self.context)
        return [row.to_representation(choice) for choice in choices]

    @extend_schema_field(
        serializers.ListField(child=serializers.ChoiceField(choices=CAMPAIGN_ACTION_CHOICES))
    )
    def get_actions(self, campaign: models.Campaign) -> list[str]:
        # Asked once per campaign: the labels below read the same list.
        cached: dict[int, list[str]] = self.context.setdefault("campaign_actions", {})
        if campaign.pk not in cached:
            cached[campaign.pk] = campaign_actions(summary_access(campaign))
        return cached[campaign.pk]

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_actions_labels(self, campaign: models.Campaign) -> list[str]:
        words = dict(CAMPAIGN_ACTION_CHOICES)
        return [words[action] for action in self.get_actions(campaign)]


class TodoItemSerializer(LabelledSerializer[Any]):
    kind = serializers.ChoiceField(choices=TodoKind.choices)
    text = serializers.CharField(help_text="what waits, in words")
    link = serializers.CharField(help_text="the web app's page where it is done, from the site's root")
    count = serializers.IntegerField(help_text="how many (orders, segments, operations); 1 otherwise")


class TodoSerializer(LabelledSerializer[Any]):
    items = TodoItemSerializer(
        many=True, help_text="in the order the umpire meets them; empty: nothing waits"
    )
