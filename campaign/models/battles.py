"""Linked battles and the players' drafts of their reports."""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models

from campaign import choices
from campaign.models.campaigns import Campaign, Side
from campaign.models.days import CampaignDay, DaySegmentRecord
from campaign.models.forces import Battalion
from campaign.models.map import Sector
from rules_engine.nineteen43.common import (
    BattleType,
)


class Battle(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    # RESTRICT, not PROTECT: a battle holds its day and sides, yet deleting the whole campaign works.
    day = models.ForeignKey(CampaignDay, on_delete=models.RESTRICT, related_name="battles")
    segments = models.ManyToManyField(DaySegmentRecord, blank=True, related_name="battles")
    sector = models.ForeignKey(Sector, on_delete=models.RESTRICT, related_name="battles")
    battle_type = models.CharField(max_length=30, choices=choices.enum_choices(BattleType))
    attacker = models.ForeignKey(Side, on_delete=models.RESTRICT, related_name="battles_attacking")
    defender = models.ForeignKey(Side, on_delete=models.RESTRICT, related_name="battles_defending")
    status = models.CharField(max_length=12, choices=choices.BattleStatus.choices, default="planned")
    continues = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="continued_by",
        help_text="the battle on the same sector the day before",
    )
    feeds = models.ManyToManyField(
        "self",
        symmetrical=False,
        blank=True,
        related_name="fed_by",
        help_text="battles that forces leave this one for",
    )
    battalions = models.ManyToManyField(Battalion, blank=True, related_name="battles")
    setup = models.JSONField(default=dict, blank=True, help_text="1943 set-up results by step")
    lull_checks_from_turn = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the set-up proximity die: the first turn of combat lull checks"
    )
    lulls = models.JSONField(default=list, blank=True, help_text="each lull check: turn, length (or none)")
    attacker_decided_by = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="+",
        help_text="the high roller of the set-up's attacker decision; empty: not rolled",
    )
    report = models.JSONField(null=True, blank=True, help_text="the structured battle report as applied")
    winner = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="battles_won",
        help_text="from its report; empty: not reported, or nobody won",
    )
    # What the API names it by: every campaign shares the table, and in a campaign of three
    # sides a player does not read the battles the others fight, which ids in sequence count.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["campaign", "day", "sector__name", "id"]

    def __str__(self) -> str:
        return f"{self.sector} (day {self.day.number})"


class BattleDraft(models.Model):
    """A player's draft of a battle's report, one per side of the battle: the shape of
    ``battle_report``'s input; the battle changes only when the umpire confirms (rules notes C-20)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battle_drafts")
    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="drafts")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="battle_drafts")
    report = models.JSONField(help_text="the report as the side's player drafted it (battle_report's input)")
    status = models.CharField(
        max_length=10, choices=choices.DraftStatus.choices, default=choices.DraftStatus.FILED
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["battle", "side"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "side"], name="one_draft_per_battle_side"),
        ]

    def __str__(self) -> str:
        return f"{self.side}'s draft of {self.battle}"
