"""The campaign map: sectors and the links between them."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from campaign import choices
from campaign.models.campaigns import Campaign, Side
from campaign.models.ids import UNSEQUENCED_ID_HELP, unsequenced_id
from rules_engine.nineteen43.common import (
    ProximityTerrain,
)


class Sector(models.Model):
    """A piece of the campaign's ground: where forces stand and battles are fought.

    A pack with a map places its sectors (``x``/``y`` in the scenario's coordinates, or a
    GeoJSON ``geometry``) and links them; a campaign without one has unplaced sectors named
    by its battles (a "table"), and nothing is adjacent there (see :attr:`placed`).
    """

    id = models.BigIntegerField(
        primary_key=True, default=unsequenced_id, editable=False, help_text=UNSEQUENCED_ID_HELP
    )
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


class MapSnapshot(models.Model):
    """The map as it stood at a dawn or after a night, kept for its replay (never recomputed).

    ``state`` is zlib-compressed JSON (``campaign.services.map_snapshots``): the moment's rows
    the map draws, by battalion (never by stand), and what each audience (the umpires, each
    side, observers) saw of them then, as :mod:`campaign.access` said at that moment.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="map_snapshots")
    day_number = models.PositiveIntegerField()
    moment = models.CharField(max_length=5, choices=choices.MapMoment.choices)
    state = models.BinaryField()
    taken_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "day_number", "moment"]  # dawn before night
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "day_number", "moment"], name="one_map_snapshot_per_moment"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.day_number} {self.get_moment_display().lower()}"
