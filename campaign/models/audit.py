"""The two append-only audit trails: roll records (every die that changed state, with the
whole rules-engine result) and events (who did what, before and after)."""

from __future__ import annotations

from functools import cached_property

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.battles import Battle
from campaign.models.campaigns import Campaign, Side
from campaign.models.days import CampaignDay, DaySegmentRecord
from campaign.models.forces import Battalion, Force
from rules_engine import fairness
from rules_engine.results import RollOutput


class RollRecord(models.Model):
    """Append-only: one rules-engine result that changed campaign state."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    day = models.ForeignKey(
        CampaignDay, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls"
    )
    segment = models.ForeignKey(
        DaySegmentRecord, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls"
    )
    battle = models.ForeignKey(Battle, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls")
    force = models.ForeignKey(Force, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls")
    battalion = models.ForeignKey(
        Battalion, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls"
    )
    procedure = models.CharField(max_length=80)
    stream = models.CharField(max_length=200, help_text="dice stream labels under the day's dice seed")
    dice_day = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="the day whose seed rolled it; empty: rolled from the campaign seed, before day seeds",
    )
    at_table = models.BooleanField(
        default=False, help_text="rolled with physical dice at the table, its faces entered by its actor"
    )
    dice_audience = models.CharField(
        max_length=240,
        default=fairness.PUBLIC_AUDIENCE,
        help_text="whose chain's day seed rolled it (campaign.access.dice_audience): exactly its readers",
    )
    inputs = models.JSONField(help_text="the procedure's inputs, to replay it")
    result = models.JSONField(help_text="the rules-engine result, whole")
    line = models.TextField()
    changes = models.JSONField(default=dict, help_text="what this roll changed: field → value")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    request_id = models.CharField(max_length=64, blank=True)
    override_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.RESTRICT, related_name="overrides"
    )
    # Who reads it besides the umpires (campaign.access): every member, its battle's sides, or its side.
    visibility = models.CharField(
        max_length=6, choices=choices.Visibility.choices, default=choices.Visibility.UMPIRE
    )
    side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.CASCADE, related_name="rolls", help_text="its owner"
    )
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(fields=["campaign", "procedure"]),
            models.Index(fields=["campaign", "id"]),
            models.Index(fields=["campaign", "dice_day"]),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility=choices.Visibility.SIDE, side__isnull=False)
                | ~Q(visibility=choices.Visibility.SIDE) & Q(side__isnull=True),
                name="roll_of_a_side_names_it",
            ),
            models.CheckConstraint(
                condition=~Q(visibility=choices.Visibility.BATTLE) | Q(battle__isnull=False),
                name="roll_of_a_battles_sides_names_it",
            ),
        ]

    def __str__(self) -> str:
        return self.line

    @property
    def table_roll(self) -> str:
        """How a roll entered from dice rolled at the table is shown (the roll log, the papers, the
        dice document): "rolled at the table by <member>"; empty for a roll of the seed's dice."""
        if not self.at_table:
            return ""
        return f"rolled at the table by {self.actor.get_username() if self.actor else 'a former member'}"

    @cached_property
    def output(self) -> RollOutput | None:
        """The roll as shown (dice, faces, modifiers, threshold, outcome, rule); None for an
        umpire's override, whose result is what it changed."""
        return None if "override" in self.result else RollOutput.from_dict(self.result)


class Event(models.Model):
    """Append-only timeline entry written by services in their transaction."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="events")
    verb = models.CharField(max_length=40, choices=choices.EventVerb.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    request_id = models.CharField(max_length=64, blank=True)
    day_number = models.PositiveSmallIntegerField(null=True, blank=True)
    object_type = models.CharField(max_length=40)
    object_id = models.BigIntegerField(null=True, blank=True)
    # The object's public id when it has one: the API names the object by it, never by object_id.
    object_public_id = models.UUIDField(null=True, blank=True)
    object_repr = models.CharField(max_length=200)
    message = models.TextField()
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    # Who reads it besides the umpires: set by audit.event_record from its verb (EVENT_VISIBILITY).
    visibility = models.CharField(
        max_length=6, choices=choices.EVENT_VISIBILITY_CHOICES, default=choices.Visibility.UMPIRE
    )
    side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.CASCADE, related_name="events", help_text="its owner"
    )
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["campaign", "id"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(visibility=choices.Visibility.SIDE, side__isnull=False)
                | Q(visibility__in=[choices.Visibility.PUBLIC, choices.Visibility.UMPIRE], side__isnull=True),
                name="event_of_a_side_names_it",
            )
        ]

    def __str__(self) -> str:
        return self.message
