"""The state a club umpire keeps between club nights.

Campaign → sides → forces (divisions) → battlegroups → battalions → stands;
campaign days and their segments; linked battles and their reports; and two
append-only audit trails: roll records (every die that changed state, with the
whole rules-engine result) and events (who did what, before and after).
"""

from __future__ import annotations

import hashlib
import secrets
from functools import cached_property
from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q
from django.utils import timezone
from rest_framework_api_key.models import AbstractAPIKey, APIKeyManager

from campaign import choices
from rules_engine import fairness
from rules_engine.great_battles.airborne import AntiAircraft, Delivery, DriftTheatre, DropHeight, DropTime
from rules_engine.nineteen43.common import (
    AirCoverPriority,
    BattleType,
    CommandSystem,
    ProximityTerrain,
    Training,
)
from rules_engine.panzer_korps.wind import WindDirection, WindVelocity
from rules_engine.presenters import RollOutput
from rules_engine.vocab import DaySegment as Segment
from rules_engine.vocab import Front, LeaderRating, Nation, Season, SupplyQuality, SupplySituation, Weather


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


def calendar_token_new() -> str:
    """A member's calendar feed secret: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=choices.MemberRole.choices)
    side = models.ForeignKey(Side, null=True, blank=True, on_delete=models.CASCADE, related_name="members")
    # Kept in clear, not hashed: the member reads their feed's URL again in the web app. It
    # opens the club nights' dates and nothing else, and renewing it shuts the old URL.
    calendar_token = models.CharField(
        max_length=64,
        unique=True,
        default=calendar_token_new,
        help_text="the secret of the member's iCal feed",
    )
    # The inbox always holds every notification; this only stops the e-mails.
    notification_emails = models.BooleanField(
        default=True, help_text="notifications are e-mailed too (they always reach the inbox)"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="one_membership_per_user_and_campaign"),
            models.CheckConstraint(
                condition=Q(role="player", side__isnull=False) | ~Q(role="player"),
                name="players_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} in {self.campaign}"


class Invitation(models.Model):
    """A single-use link that makes the signed-in user who opens it a member, with its role."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=choices.MemberRole.choices)
    side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    # Only the token's hash: a leaked table invites nobody.
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the link's token")
    expires_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role="player", side__isnull=False) | (~Q(role="player") & Q(side__isnull=True)),
                name="invited_players_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"invitation {self.pk} to {self.campaign} as {self.role}"

    @staticmethod
    def token_hash_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()


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


class Sector(models.Model):
    """A piece of the campaign's ground: where forces stand and battles are fought.

    A pack with a map places its sectors (``x``/``y`` in the scenario's coordinates, or a
    GeoJSON ``geometry``) and links them; a campaign without one has unplaced sectors named
    by its battles (a "table"), and nothing is adjacent there (see :attr:`placed`).
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sectors")
    key = models.SlugField(max_length=60, help_text="the pack's name for it, unique in the campaign")
    name = models.CharField(max_length=100)
    kind = models.CharField(
        max_length=10, choices=choices.SectorKind.choices, default=choices.SectorKind.OPEN
    )
    terrain = models.CharField(
        max_length=20,
        choices=choices.enum_choices(ProximityTerrain),
        blank=True,
        help_text="the 1943 set-up proximity table's row for battles fought here; blank: the umpire says",
    )
    victory_points = models.PositiveSmallIntegerField(default=0)
    owner = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="sectors_held",
        help_text="empty: contested (nobody holds it)",
    )
    x = models.FloatField(null=True, blank=True, help_text="scenario coordinates (0..1000), for drawing")
    y = models.FloatField(null=True, blank=True)
    geometry = models.JSONField(
        null=True, blank=True, help_text="GeoJSON geometry, when the pack has real geography"
    )
    supply_source_for = models.ManyToManyField(
        Side,
        blank=True,
        related_name="supply_sources",
        help_text="the sides this sector supplies (its source)",
    )

    class Meta:
        ordering = ["campaign", "name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="sector_key_unique_in_campaign"),
            models.UniqueConstraint(fields=["campaign", "name"], name="sector_name_unique_in_campaign"),
            models.CheckConstraint(
                condition=Q(x__isnull=True, y__isnull=True) | Q(x__isnull=False, y__isnull=False),
                name="sector_position_has_x_and_y",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def placed(self) -> bool:
        """On a drawn map (a pack's sector), not a table named by a battle of a map-less campaign."""
        return self.x is not None or self.geometry is not None


class SectorLink(models.Model):
    """Two adjacent sectors (undirected: stored once, the lower id as ``a``)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sector_links")
    a = models.ForeignKey(Sector, on_delete=models.CASCADE, related_name="links_as_a")
    b = models.ForeignKey(Sector, on_delete=models.CASCADE, related_name="links_as_b")
    kind = models.CharField(max_length=5, choices=choices.LinkKind.choices, default=choices.LinkKind.ROAD)

    class Meta:
        ordering = ["campaign", "a", "b"]
        constraints = [
            models.UniqueConstraint(fields=["a", "b"], name="one_link_per_sector_pair"),
            models.CheckConstraint(condition=Q(a__lt=models.F("b")), name="sector_link_lower_id_first"),
        ]

    def __str__(self) -> str:
        return f"{self.a} – {self.b} ({self.get_kind_display().lower()})"


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
    night half-applied. Deleted when the night finishes. It holds every row of the other
    models but only the stands the night writes (``campaign.services.night``), so that an
    empty night copies none: a stand it does not hold is as it was.
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


class WebhookSubscription(models.Model):
    """A third-party app's URL, told of a campaign's events, signed with its secret."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=128, help_text="HMAC-SHA256 key of the X-Campaign-Signature header")
    events = models.JSONField(help_text="event verbs delivered (choices.WEBHOOK_EVENTS)")
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)
    # What the API names it by: every campaign's subscriptions share the table, which ids in
    # sequence would count.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.url


class WebhookDelivery(models.Model):
    """One event sent (or being sent) to one subscription, with every attempt's outcome;
    a ping's test event is no campaign event."""

    subscription = models.ForeignKey(WebhookSubscription, on_delete=models.CASCADE, related_name="deliveries")
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.CASCADE, related_name="webhook_deliveries"
    )
    payload = models.JSONField()
    status = models.CharField(
        max_length=10, choices=choices.DeliveryStatus.choices, default=choices.DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # What the API and the X-Campaign-Delivery header name it by: a receiver reading numbers
    # would count every campaign's deliveries in between.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "webhook deliveries"
        indexes = [
            # The sweeper looks for overdue pending deliveries every few seconds.
            models.Index(
                fields=["created_at"],
                condition=Q(status=choices.DeliveryStatus.PENDING),
                name="webhook_delivery_pending",
            )
        ]
        constraints = [
            models.UniqueConstraint(fields=["subscription", "event"], name="one_delivery_per_event")
        ]

    def __str__(self) -> str:
        return f"{self.payload['event']} → {self.subscription} ({self.status})"


NOTIFICATION_TITLE_MAX, NOTIFICATION_LINK_MAX, NOTIFICATION_KEY_MAX = 200, 300, 100


class Notification(models.Model):
    """One member's inbox entry (and its e-mail): written by ``services.notifications``,
    carrying only what its recipient may read."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=choices.NotificationKind.choices)
    title = models.CharField(max_length=NOTIFICATION_TITLE_MAX)
    body = models.TextField(blank=True)
    link = models.CharField(
        max_length=NOTIFICATION_LINK_MAX, help_text="the web app's page it is about, from the site's root"
    )
    # A sweep sending the same reminder again finds it here (one per recipient, kind and key).
    dedupe_key = models.CharField(
        max_length=NOTIFICATION_KEY_MAX,
        blank=True,
        help_text="what it is about, e.g. operation:12; empty: never deduplicated",
    )
    email = models.CharField(
        max_length=10, choices=choices.NotificationEmail.choices, default=choices.NotificationEmail.PENDING
    )
    # The sweeper's lease: a pending e-mail is sent again once this is a lease old (its task lost).
    email_tried_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # What the API names it by: ids in sequence would count other members' notifications.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["recipient", "-id"]),
            # The unread count and the bell: a member's unread ones.
            models.Index(fields=["recipient"], condition=Q(read_at__isnull=True), name="notification_unread"),
            # The sweeper looks for e-mails whose task was lost.
            models.Index(
                fields=["email_tried_at"],
                condition=Q(email=choices.NotificationEmail.PENDING),
                name="notification_email_pending",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "campaign", "kind", "dedupe_key"],
                condition=~Q(dedupe_key=""),
                name="one_notification_per_subject",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.title}"


class CampaignAPIKeyManager(APIKeyManager):
    def get_usable_keys(self) -> models.QuerySet[CampaignAPIKey]:
        # With the campaign: the query that authenticates a key also loads what it may reach.
        return super().get_usable_keys().select_related("campaign")


class CampaignAPIKey(AbstractAPIKey):
    """A third-party app's key: hashed, revocable, expiring, scoped to one campaign and
    either one side (that side's player view) or the public summary (no side)."""

    objects: ClassVar[CampaignAPIKeyManager] = CampaignAPIKeyManager()

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="api_keys")
    side = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
        help_text="empty: the public (observer) view",
    )
    can_write = models.BooleanField(default=False, help_text="read-only unless granted")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "campaign API key"
        db_table = "api_campaignapikey"  # made by the api app, which held the model before
