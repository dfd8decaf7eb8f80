"""The night phase: background operations, the snapshot taken before a night, the sides'
night reports and the orders given for the night."""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.campaigns import Campaign, Side
from campaign.models.days import CampaignDay, DaySegmentRecord
from campaign.models.forces import Battalion, Stand


class Operation(models.Model):
    """Background work on a campaign (night phase, arrival rolls): runs once.

    The unique constraint makes a second start for the same phase impossible;
    ``completed_steps`` lets a rerun after a crash skip what is already applied.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="operations")
    kind = models.CharField(max_length=12, choices=choices.OperationKind.choices)
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="operations")
    segment = models.ForeignKey(
        DaySegmentRecord, null=True, blank=True, on_delete=models.CASCADE, related_name="operations"
    )
    status = models.CharField(
        max_length=8, choices=choices.OperationStatus.choices, default=choices.OperationStatus.PENDING
    )
    steps = models.JSONField(default=list, help_text="the steps planned, in order")
    completed_steps = models.JSONField(default=list)
    attempts = models.PositiveSmallIntegerField(default=0)
    report = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="renewed by the run at each commit; once past, the sweeper sends the operation again",
    )
    # What the API names it by: a player sees night phases, not arrival rolls nor other
    # campaigns' operations, which ids in sequence would count.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["-id"]
        indexes = [
            # The sweeper's question, every few seconds: which unfinished operations are stale?
            models.Index(
                fields=["lease_expires_at", "created_at"],
                condition=Q(status__in=[choices.OperationStatus.PENDING, choices.OperationStatus.RUNNING]),
                name="operation_unfinished",
            )
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kind", "day"],
                condition=Q(segment__isnull=True),
                name="one_night_phase_per_day",
            ),
            models.UniqueConstraint(
                fields=["campaign", "kind", "day", "segment"],
                condition=Q(segment__isnull=False),
                name="one_arrival_roll_per_segment",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of day {self.day.number} ({self.get_status_display().lower()})"


class NightSnapshot(models.Model):
    """What a night phase writes, as it was when the night started.

    The night commits a step at a time (:mod:`campaign.services.operations`); until its
    last commit, force status and the order of battle show these values, so nobody sees a
    night half-applied. Deleted when the night finishes.
    """

    # Model name → the fields the night's steps and finish write (a step that writes
    # another field adds it here).
    FIELDS: ClassVar[dict[str, tuple[str, ...]]] = {
        "campaign": ("current_segment",),
        "side": ("activation_points", "barrage_rounds", "barrage_templates_in_use"),
        "force": (
            "fup_sector_id",
            "arrival_status",
            "arrival_day",
            "availability",
            "arrival_attempts",
            "activation_points",
        ),
        "battalion": (
            "in_reserve",
            "wiped_out_day",
            "activation",
            "ammo_low_markers",
            "supply_situation",
            "sector_id",
            "fuel_state",
        ),
        "stand": ("status", "grade", "battalion_id", "attached", "attachment_kind"),
    }

    operation = models.OneToOneField(Operation, on_delete=models.CASCADE, related_name="snapshot")
    values = models.JSONField(help_text="model name → primary key → the FIELDS' values, in order")

    def __str__(self) -> str:
        return f"state before the {self.operation}"


class NightReport(models.Model):
    """What one side learns from a night phase or an arrival roll.

    Its kind is its operation's (``operation.kind``): one home, queried through the join that
    scopes reports to their campaign anyway.
    """

    operation = models.ForeignKey(Operation, on_delete=models.CASCADE, related_name="night_reports")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="night_reports")
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="night_reports")
    body = models.JSONField()
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [models.UniqueConstraint(fields=["operation", "side"], name="one_report_per_side")]

    def __str__(self) -> str:
        return f"{self.side}: {self.title}"

    @property
    def title(self) -> str:
        """What the report is about, in words: "Night of day 1", "Arrivals, day 2, morning"."""
        segment = self.operation.segment
        if self.operation.kind == choices.OperationKind.ARRIVALS and segment is not None:
            return f"Arrivals, day {self.day.number}, {segment.segment}"
        return f"Night of day {self.day.number}"


class NightOrder(models.Model):
    """An umpire's order carried out in the next night phase."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="night_orders")
    day = models.ForeignKey(CampaignDay, on_delete=models.CASCADE, related_name="night_orders")
    kind = models.CharField(max_length=10, choices=choices.NightOrderKind.choices)
    battalion = models.ForeignKey(Battalion, on_delete=models.CASCADE, related_name="night_orders")
    stand = models.ForeignKey(
        Stand, null=True, blank=True, on_delete=models.CASCADE, related_name="night_orders"
    )
    target_battalion = models.ForeignKey(
        Battalion, null=True, blank=True, on_delete=models.CASCADE, related_name="incoming_night_orders"
    )
    attachment_kind = models.CharField(max_length=16, choices=choices.AttachmentKind.choices, blank=True)
    applied = models.BooleanField(default=False)
    # What the API names it by: a side reads the night orders its sealed orders became, never
    # the enemy's, which ids in sequence would count.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.battalion}"


class SideOrder(models.Model):
    """A side's sealed order for a campaign day's night and dawn: drafted and submitted by its
    players, read by nobody else but the umpires, who approve it (it becomes the night order,
    move or artillery order it describes), send it back or amend it (rules notes C-19)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="side_orders")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="orders")
    day_number = models.PositiveSmallIntegerField(help_text="the campaign day whose night and dawn it is for")
    kind = models.CharField(max_length=12, choices=choices.SideOrderKind.choices)
    payload = models.JSONField(help_text="what the order says, by kind (docs/api.md, Sealed orders)")
    status = models.CharField(
        max_length=10, choices=choices.SideOrderStatus.choices, default=choices.SideOrderStatus.DRAFT
    )
    reason = models.TextField(blank=True, help_text="the umpire's reason when sent back or amended")
    night_order = models.OneToOneField(
        NightOrder, null=True, blank=True, on_delete=models.SET_NULL, related_name="side_order"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    submitted_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["-day_number", "id"]
        indexes = [models.Index(fields=["campaign", "side", "day_number"])]

    def __str__(self) -> str:
        # Neutral: an event's object text reaches webhooks, which must not carry what is
        # ordered, nor a number counting the orders of every side.
        return f"Order for day {self.day_number}"

    @property
    def label(self) -> str:
        """What its side and the umpires call it: its kind, what it names and its day
        ("Deploy G1, day 2"), never its id. Read from whatever is stored, checked or not."""
        p = self.payload if isinstance(self.payload, dict) else {}
        code, stand = p.get("battalion_code", ""), p.get("stand_label", "")
        named: dict[str, str] = {
            choices.SideOrderKind.ATTACH: f"Attach {code}/{stand}",
            choices.SideOrderKind.DETACH: f"Detach {code}/{stand}",
            choices.SideOrderKind.MOVE: f"Move {code}",
            choices.SideOrderKind.ARTILLERY: f"Artillery template {p.get('template', '')}",
            choices.SideOrderKind.DEPLOY: f"Deploy {code}",
        }
        return f"{named.get(str(self.kind), f'Withdraw {code}')}, day {self.day_number}"
