"""Orders of battle: forces (divisions), battlegroups, battalions, stands and their equipment,
and the airborne drops a force makes."""

from __future__ import annotations

from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.campaigns import Campaign, Side
from campaign.models.map import Sector
from rules_engine.great_battles.airborne import AntiAircraft, Delivery, DriftTheatre, DropHeight, DropTime
from rules_engine.vocab import LeaderRating, Nation, SupplySituation


class Equipment(models.Model):
    """Reference vehicles and guns by nation and year (loaded by a data migration)."""

    key = models.CharField(max_length=120, unique=True)
    nation = models.CharField(
        max_length=20, choices=choices.enum_choices(Nation), blank=True, help_text="blank: any nation"
    )
    name = models.CharField(max_length=120)
    category = models.CharField(max_length=40)
    year_from = models.PositiveSmallIntegerField(null=True, blank=True)
    year_to = models.PositiveSmallIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, help_text="the chart's codes (gun, armour, speed...)")
    source = models.CharField(max_length=200)

    class Meta:
        ordering = ["nation", "name"]
        verbose_name_plural = "equipment"

    def __str__(self) -> str:
        return f"{self.name} ({self.nation})"


class Force(models.Model):
    """A division or independent force under one leader."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="forces")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="forces")
    name = models.CharField(max_length=200)
    nation = models.CharField(max_length=20, choices=choices.enum_choices(Nation))
    home_nation = models.BooleanField(default=True)
    leader_name = models.CharField(max_length=200, blank=True)
    leader_rating = models.CharField(max_length=1, choices=choices.enum_choices(LeaderRating), default="C")
    leader_decorations = models.JSONField(default=list, blank=True)
    mobility = models.CharField(max_length=12, choices=choices.Mobility.choices, default="foot")
    sector = models.ForeignKey(
        Sector,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="forces",
        help_text="where its C Ops (divisional HQ) stands; empty: off the map",
    )
    fup_sector = models.ForeignKey(
        Sector,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="forming_up_forces",
        help_text="its forming-up point when apart from its C Ops; empty: with its C Ops",
    )
    fup_road_clear = models.BooleanField(default=True, help_text="the night phase moves the FUP up to C Ops")
    arrival_status = models.CharField(
        max_length=16, choices=choices.ArrivalStatus.choices, default=choices.ArrivalStatus.ON_TABLE
    )
    # Reinforcement schedule: the campaign day it is due and the entry zone its
    # side chose; on arrival the deployment chart adds where it marches on.
    arrival_day = models.PositiveSmallIntegerField(null=True, blank=True)
    arrival_zone = models.CharField(max_length=60, blank=True)
    deployment_zone = models.CharField(
        max_length=60, blank=True, help_text="where the deployment chart sent it on arrival"
    )
    availability = models.CharField(max_length=80, blank=True)
    arrival_attempts = models.PositiveSmallIntegerField(
        default=0, help_text="day segments it has tried to arrive in, the one it arrived in included"
    )
    arrival_turns_left = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="a reserve's turns still to wait, once its delay is rolled (Malta)"
    )
    activation_points = models.PositiveSmallIntegerField(
        default=0, help_text="the division's own activation pool (Malta: from day 1, turn 2)"
    )
    # What the API names it by: a player sees an enemy force only once it is seen, and ids in
    # sequence would count the enemy's hidden ones (reserves, forces not yet met).
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["campaign", "side", "name"]
        indexes = [models.Index(fields=["campaign", "arrival_status"])]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="force_name_unique_in_campaign")
        ]

    def __str__(self) -> str:
        return self.name


class AirborneDrop(models.Model):
    """A force's planned airborne landing: rolled for each of its stands at the dawn of ``day``
    (004 § Drop Zone, 6.1-6.3)."""

    force = models.OneToOneField(Force, on_delete=models.CASCADE, related_name="airborne_drop")
    day = models.PositiveSmallIntegerField(help_text="the campaign day it lands, at dawn")
    drop_zone = models.ForeignKey(
        "Sector", null=True, blank=True, on_delete=models.SET_NULL, related_name="airborne_drops"
    )
    delivery = models.CharField(
        max_length=10, choices=choices.enum_choices(Delivery), default=Delivery.PARADROP.value
    )
    height = models.CharField(max_length=10, choices=choices.enum_choices(DropHeight), default="Normal")
    anti_aircraft = models.CharField(
        max_length=10, choices=choices.enum_choices(AntiAircraft), default=AntiAircraft.NONE.value
    )
    time = models.CharField(max_length=5, choices=choices.enum_choices(DropTime), default=DropTime.DAY.value)
    drift_theatre = models.CharField(
        max_length=10, choices=choices.enum_choices(DriftTheatre), default=DriftTheatre.CRETE.value
    )
    dropped = models.BooleanField(default=False, help_text="rolled and applied at that day's dawn")

    def __str__(self) -> str:
        return f"{self.force} drops on day {self.day}"


class Battlegroup(models.Model):
    """Regiment, or brigade for the Commonwealth."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="battlegroups")
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=10, choices=choices.GroupKind.choices, default="regiment")
    has_hq = models.BooleanField(default=True)
    # What the API names it by: ids in sequence would count the rows a reader does not see.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["force", "name"]

    def __str__(self) -> str:
        return self.name


class Battalion(models.Model):
    battlegroup = models.ForeignKey(Battlegroup, on_delete=models.CASCADE, related_name="battalions")
    # Denormalised for set-based queries over a whole campaign or side.
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battalions")
    side = models.ForeignKey(Side, on_delete=models.CASCADE, related_name="battalions")
    code = models.CharField(max_length=20, help_text="the umpire's ID, e.g. A1")
    name = models.CharField(max_length=200, blank=True)
    quality = models.CharField(max_length=20, help_text="in the campaign profile's quality scale")
    stands_started = models.PositiveSmallIntegerField(default=0)
    activation = models.CharField(
        max_length=16, choices=choices.ActivationState.choices, default=choices.ActivationState.INACTIVE
    )
    in_reserve = models.BooleanField(default=False)
    supply_situation = models.CharField(
        max_length=10, choices=choices.enum_choices(SupplySituation), default=SupplySituation.OK.value
    )
    ammo_low_markers = models.PositiveSmallIntegerField(default=0)
    wiped_out_day = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the day every stand was lost: it waits a full day in reserve"
    )
    fuel_state = models.CharField(max_length=5, choices=choices.FuelState.choices, default="n/a")
    sector = models.ForeignKey(
        Sector,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="battalions",
        help_text="where it stands; empty: off the map (reserves are)",
    )
    # What the API names it by: the fog of war hides enemy battalions (reserves, unspotted), and
    # ids in sequence would count them (rules notes C-17).
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["campaign", "code"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "code"], name="battalion_code_unique_in_campaign")
        ]
        # What the night works on, found without reading the campaign's other battalions: an
        # empty night costs the same at every size (issue 34).
        indexes = [
            models.Index(
                fields=["campaign"],
                condition=~Q(activation=choices.ActivationState.INACTIVE),
                name="battalion_not_inactive",
            ),
            models.Index(
                fields=["campaign"],
                condition=Q(supply_situation=SupplySituation.ISOLATED.value),
                name="battalion_isolated",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class Stand(models.Model):
    battalion = models.ForeignKey(Battalion, on_delete=models.CASCADE, related_name="stands")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="stands")
    label = models.CharField(max_length=60)
    stand_type = models.CharField(max_length=16, choices=choices.StandType.choices)
    equipment = models.ForeignKey(Equipment, null=True, blank=True, on_delete=models.PROTECT)
    status = models.CharField(max_length=10, choices=choices.StandStatus.choices, default="ok")
    attached = models.BooleanField(default=False)
    attachment_kind = models.CharField(max_length=16, choices=choices.AttachmentKind.choices, blank=True)
    grade = models.CharField(
        max_length=20, blank=True, help_text="own quality when it differs from the battalion's"
    )
    entrenchment_points = models.PositiveSmallIntegerField(
        default=0, help_text="action points spent digging in where it stands (Malta: 5 entrench it)"
    )
    entrenched = models.BooleanField(default=False, help_text="hard cover until it moves (Malta)")
    # What the API names it by: enemy stands are hidden unless their strengths are shown.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["battalion", "label"]
        indexes = [models.Index(fields=["campaign", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(attached=False, attachment_kind="") | Q(attached=True) & ~Q(attachment_kind=""),
                name="attached_stands_have_a_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.battalion.code}/{self.label}"
