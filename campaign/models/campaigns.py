"""A campaign, its sides and the club nights it is played on."""

from __future__ import annotations

from functools import cached_property

from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.ids import UNSEQUENCED_ID_HELP, unsequenced_id
from rules_engine import fairness
from rules_engine.nineteen43.common import (
    AirCoverPriority,
    CommandSystem,
    Training,
)
from rules_engine.vocab import DaySegment as Segment
from rules_engine.vocab import Front, Season, SupplyQuality


class Campaign(models.Model):
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=100, unique=True)
    description = models.TextField(blank=True)
    profile = models.CharField(max_length=50, help_text="ruleset profile key (rules_engine.profiles)")
    optional_rules = models.JSONField(
        default=list, blank=True, help_text="optional/variant rule keys switched on"
    )
    rule_settings = models.JSONField(
        default=dict, blank=True, help_text='club readings of ambiguous tables: {"procedure.field": value}'
    )
    table_dice = models.JSONField(
        default=dict,
        blank=True,
        help_text='set-up steps the club rolls at the table, and who enters them: {"procedure": "umpire" '
        'or "players"} (players: the battle\'s players too)',
    )
    theatre = models.CharField(max_length=30, choices=choices.enum_choices(Front))
    year = models.PositiveSmallIntegerField()
    season = models.CharField(max_length=10, choices=choices.enum_choices(Season))
    start_date = models.DateField(help_text="the historical date of campaign day 1")
    # Club schedule for the night phase: weekday (0 = Monday) and time, or none.
    night_weekday = models.PositiveSmallIntegerField(null=True, blank=True)
    night_time = models.TimeField(null=True, blank=True)
    # How long before the club's night phase a side's orders close (rules notes C-19).
    orders_lead_hours = models.PositiveSmallIntegerField(
        default=0, help_text="hours before the night phase at which sides' orders close"
    )
    night_schedule_acted_for = models.DateTimeField(
        null=True,
        blank=True,
        help_text="the last scheduled moment the club schedule acted on (night started or umpires reminded)",
    )
    victory = models.JSONField(
        default=dict,
        blank=True,
        help_text="the pack's victory conditions (docs/scenario-format.md)",
    )
    status = models.CharField(max_length=10, choices=choices.CampaignStatus.choices, default="setup")
    current_day = models.PositiveSmallIntegerField(default=0)
    current_segment = models.CharField(max_length=20, choices=choices.enum_choices(Segment), blank=True)
    # The secret master seed: never served (the API, exports and the timeline leave it out).
    rng_seed = models.CharField(
        max_length=64,
        blank=True,
        help_text="the secret master seed of the dice; empty in a pack: a fresh one",
    )
    # Provably fair dice (rules_engine.fairness): the published commitment of the seed's hash
    # chain, its length in days, and the last day whose seed is revealed. Rolls use day
    # ``dice_revealed_through + 1``'s seed.
    dice_commitment = models.CharField(
        max_length=64, help_text="SHA-256 hash chain commitment of the seed, published at creation"
    )
    dice_chain_length = models.PositiveIntegerField(
        default=fairness.DEFAULT_CHAIN_LENGTH, help_text="links of the seed's hash chain: days it can roll"
    )
    dice_revealed_through = models.PositiveSmallIntegerField(
        default=0, help_text="the last day whose dice seed is revealed; rolls use the next day's"
    )
    version = models.PositiveIntegerField(
        default=1, help_text="optimistic concurrency: bumped by every change"
    )
    night_version = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="while a night phase is under way: the version it started at, whose state reads show",
    )
    # Taking a sector of a kind awards activation points at once (Malta: 2 per port), as the pack says.
    objective_awards = models.JSONField(
        default=list,
        blank=True,
        help_text='[{"kind": sector kind, "activation_points": n, "rule": source reference}]',
    )
    # Once finished (a victory condition met at a night): who won and how; read-only from then on.
    result = models.TextField(blank=True)
    winner = models.ForeignKey(
        "Side", null=True, blank=True, on_delete=models.SET_NULL, related_name="+", help_text="empty: drawn"
    )
    finished_day = models.PositiveSmallIntegerField(null=True, blank=True)
    # What the API gives as its id (its slug names it): a number would count the service's campaigns.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            # Set with the seed (campaign.services.dice.dice_commitment_fields) on every way in.
            models.CheckConstraint(condition=~Q(dice_commitment=""), name="campaign_commits_to_its_dice"),
        ]

    def __str__(self) -> str:
        return self.name

    @cached_property
    def side_names(self) -> dict[int, str]:
        """Its sides' names by id, read once per instance: each roll's dice audience names sides
        (campaign.access.dice_audience), and a night rolls thousands of times."""
        return dict(self.sides.values_list("pk", "name"))


class ClubNight(models.Model):
    """Which real date the club plays a campaign day."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="club_nights")
    campaign_day = models.PositiveSmallIntegerField()
    play_date = models.DateField()

    class Meta:
        ordering = ["campaign", "campaign_day"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "campaign_day"], name="one_club_night_per_campaign_day"
            )
        ]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.campaign_day} on {self.play_date}"


class Side(models.Model):
    id = models.BigIntegerField(
        primary_key=True, default=unsequenced_id, editable=False, help_text=UNSEQUENCED_ID_HELP
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sides")
    name = models.CharField(max_length=100)
    nations = models.JSONField(default=list, help_text="nation names (rules_engine.vocab.Nation)")
    is_axis = models.BooleanField(default=False)
    # Activation points: the campaign-wide pool and its carry-over rule.
    activation_points = models.PositiveSmallIntegerField(default=0)
    carry_over_base = models.SmallIntegerField(default=0)
    carry_over_direction = models.CharField(
        max_length=1, choices=choices.CarryOverDirection.choices, default=choices.CarryOverDirection.RISING
    )
    activation_cap = models.PositiveSmallIntegerField(default=20)
    # Barrage rounds and templates.
    barrage_rounds = models.PositiveIntegerField(default=0)
    barrage_first_day_rounds = models.PositiveIntegerField(default=0)
    barrage_rounds_per_day = models.PositiveIntegerField(default=0)
    barrage_templates = models.PositiveSmallIntegerField(default=0)
    barrage_templates_in_use = models.PositiveSmallIntegerField(default=0)
    supply_quality = models.CharField(
        max_length=10, choices=choices.enum_choices(SupplyQuality), default="Average"
    )
    artillery_quality = models.CharField(max_length=20, default="Average")
    air_cover_priority = models.CharField(
        max_length=10, choices=choices.enum_choices(AirCoverPriority), default="Modest"
    )
    command_system = models.CharField(
        max_length=10, choices=choices.enum_choices(CommandSystem), default="Normal"
    )
    training = models.CharField(max_length=12, choices=choices.enum_choices(Training), default="Average")
    fog_of_war = models.JSONField(
        default=dict, blank=True, help_text="what the enemy sees: identified_units, battle_results, strengths"
    )

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="side_name_unique_in_campaign")
        ]

    def __str__(self) -> str:
        return self.name
