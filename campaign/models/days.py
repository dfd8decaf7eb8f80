"""Campaign days and their segments, and what each side spends and tallies in a day."""

from __future__ import annotations

from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.utils import timezone

from campaign import choices
from campaign.models.campaigns import Campaign, Side
from campaign.models.forces import Battalion, Force
from rules_engine.panzer_korps.wind import WindDirection, WindVelocity
from rules_engine.vocab import DaySegment as Segment
from rules_engine.vocab import Weather

JOURNAL_MAX_LENGTH = 2000


class CampaignDay(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="days")
    number = models.PositiveSmallIntegerField()
    date = models.DateField()
    weather = models.CharField(max_length=1, choices=choices.enum_choices(Weather), blank=True)
    status = models.CharField(max_length=6, choices=choices.DayStatus.choices, default="dawn")
    dawned_at = models.DateTimeField(
        default=timezone.now, help_text="when it dawned: the club schedule acts only on a later moment"
    )
    # The umpire's confirmation of the day's supply proposal, and the situations they chose against it
    # (battalion code → situation): the night applies the proposal at nightfall with these kept.
    supply_confirmed_at = models.DateTimeField(null=True, blank=True)
    supply_overrides = models.JSONField(default=dict, blank=True)
    # Battalions a C Ops overrun isolates for tonight (codes): a rule's outcome, not the umpire's
    # choice, so a later confirmation of the supply keeps them (rules notes MS-04).
    supply_overrun_isolated = models.JSONField(default=list, blank=True)
    ended_after_turn = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the Allied turn after which the day-end roll ended the day (Malta)"
    )
    dice_seed = models.CharField(
        max_length=64, blank=True, help_text="the day's dice seed, revealed after its night phase"
    )
    # The umpire's short account of the day: public, shown on the timeline to every member.
    journal = models.TextField(max_length=JOURNAL_MAX_LENGTH, blank=True)
    journal_written_at = models.DateTimeField(null=True, blank=True)
    # What the API names it by: ids in sequence would count other campaigns' rows.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="one_day_per_number")]

    def __str__(self) -> str:
        return f"Day {self.number} ({self.date})"


class DaySegmentRecord(models.Model):
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="segments")
    segment = models.CharField(max_length=20, choices=choices.enum_choices(Segment))
    order = models.PositiveSmallIntegerField()
    turns = models.PositiveSmallIntegerField(null=True, blank=True)
    initiative_side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The rules engine's words (rules_engine.panzer_korps.wind): an override offers them by name.
    wind_direction = models.CharField(max_length=20, blank=True, choices=choices.enum_choices(WindDirection))
    wind_velocity = models.CharField(max_length=20, blank=True, choices=choices.enum_choices(WindVelocity))
    # What the API names it by: ids in sequence would count other campaigns' rows.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["day", "order"]
        constraints = [models.UniqueConstraint(fields=["day", "segment"], name="one_record_per_segment")]

    def __str__(self) -> str:
        return f"Day {self.day.number}, {self.get_segment_display().lower()}"


def activation_turn_name(turn: int) -> str:
    """A turn as people name it: turn 0 is the dawn turn."""
    return f"turn {turn}" if turn else "the dawn turn"


class ActivationSpend(models.Model):
    """One activation-chart choice: a column bought for a turn of a day."""

    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="activation_spends")
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="activation_spends")
    turn = models.PositiveSmallIntegerField(help_text="0 for the dawn turn, else 1..10")
    column = models.CharField(max_length=10)
    cost = models.PositiveSmallIntegerField()
    force = models.ForeignKey(
        Force,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="activation_spends",
        help_text="the division whose pool paid; empty: the side's pool",
    )
    battalions = models.ManyToManyField(Battalion, related_name="activation_spends")
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day", "turn", "id"]

    def __str__(self) -> str:
        return (
            f"{self.side} day {self.day.number}, {activation_turn_name(self.turn)}: "
            f"{self.column} ({self.cost} AP)"
        )


class ArtilleryOrder(models.Model):
    """A barrage template's mode for one day, as the side's artillery plan notes it at dawn."""

    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="artillery_orders")
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="artillery_orders")
    template = models.PositiveSmallIntegerField(help_text="the template's number, 1..the side's templates")
    mode = models.CharField(max_length=12, choices=choices.ArtilleryMode.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["day", "side", "template"]
        constraints = [
            models.UniqueConstraint(fields=["side", "day", "template"], name="one_mode_per_template_and_day")
        ]

    def __str__(self) -> str:
        return f"{self.side} template {self.template}, day {self.day.number}: {self.get_mode_display()}"


class SideDayTally(models.Model):
    """A side's strength and stocks as a campaign day dawned: the charts' series.

    Taken once per side and day, so a chart of many days is one query, never a
    replay of the roll log."""

    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="day_tallies")
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="side_tallies")
    strength = models.JSONField(help_text="stand type → {status → count}")
    activation_points = models.PositiveSmallIntegerField()
    division_activation_points = models.JSONField(
        default=dict, help_text="division (force) name → its own activation pool"
    )
    barrage_rounds = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["day__number", "side"]
        constraints = [models.UniqueConstraint(fields=["side", "day"], name="one_tally_per_side_and_day")]
        verbose_name_plural = "side day tallies"

    def __str__(self) -> str:
        return f"{self.side} at dawn of day {self.day.number}"
