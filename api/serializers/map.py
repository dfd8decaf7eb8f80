"""The map: sectors, links, the forces and battles on them, and the document the map view draws."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, FogMaskedSerializer, access_of
from campaign import access as access_rules
from campaign import models
from campaign.choices import MapMoment

CONTESTED = "Contested"


def _side_name(serializer: serializers.BaseSerializer[Any], side_id: int | None) -> str | None:
    side = access_of(serializer).sides.get(side_id) if side_id is not None else None
    return side.name if side is not None else None


class SectorForceSerializer(LabelledModelSerializer[models.Force]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)

    class Meta:
        model = models.Force
        fields = ["id", "name", "side"]


class SectorBattalionSerializer(LabelledModelSerializer[models.Battalion]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)

    class Meta:
        model = models.Battalion
        fields = ["id", "code", "side"]


class SectorBattleSerializer(LabelledModelSerializer[models.Battle]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)

    class Meta:
        model = models.Battle
        fields = ["id", "day", "status", "attacker", "defender"]


class MapSectorSerializer(LabelledModelSerializer[models.Sector]):
    """A sector as every member sees it: the ground and who holds it are public."""

    owner_label = serializers.SerializerMethodField(help_text="the side holding it, or Contested")
    supply_source_for = serializers.SerializerMethodField(
        help_text="ids of the sides it is a source of supply for, while that side holds it"
    )

    class Meta:
        model = models.Sector
        fields = [
            "id",
            "key",
            "name",
            "kind",
            "terrain",
            "victory_points",
            "owner",
            "owner_label",
            "x",
            "y",
            "geometry",
            "supply_source_for",
        ]

    def get_owner_label(self, sector: models.Sector) -> str:
        return _side_name(self, sector.owner_id) or CONTESTED

    def get_supply_source_for(self, sector: models.Sector) -> list[int]:
        return [side.pk for side in sector.supply_source_for.all()]


class SectorSerializer(MapSectorSerializer):
    """A sector with what stands and is fought on it, as far as the reader sees."""

    forces = serializers.SerializerMethodField(
        help_text="forces whose C Ops stands here, as the fog of war shows"
    )
    battalions = serializers.SerializerMethodField(help_text="battalions here, as the fog of war shows")
    battles = serializers.SerializerMethodField(help_text="battles fought here that the reader sees")

    class Meta(MapSectorSerializer.Meta):
        fields = [*MapSectorSerializer.Meta.fields, "forces", "battalions", "battles"]

    @extend_schema_field(SectorForceSerializer(many=True))
    def get_forces(self, sector: models.Sector) -> Any:
        return SectorForceSerializer(getattr(sector, "visible_forces", []), many=True).data

    @extend_schema_field(SectorBattalionSerializer(many=True))
    def get_battalions(self, sector: models.Sector) -> Any:
        return SectorBattalionSerializer(getattr(sector, "visible_battalions", []), many=True).data

    @extend_schema_field(SectorBattleSerializer(many=True))
    def get_battles(self, sector: models.Sector) -> Any:
        return SectorBattleSerializer(
            getattr(sector, "visible_battles", []), many=True, context=self.context
        ).data


class MapLinkSerializer(LabelledModelSerializer[models.SectorLink]):
    class Meta:
        model = models.SectorLink
        fields = ["a", "b", "kind"]


class MapForceSerializer(LabelledModelSerializer[models.Force]):
    """A force where the reader sees its C Ops (the selector left out the others)."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    side_label = serializers.SerializerMethodField(help_text="the side's name")
    fup_sector = serializers.SerializerMethodField(
        help_text="its forming-up point when apart from its C Ops and seen; null: with its C Ops, or unseen"
    )

    class Meta:
        model = models.Force
        fields = ["id", "name", "side", "side_label", "sector", "fup_sector"]

    def get_side_label(self, force: models.Force) -> str | None:
        return _side_name(self, force.side_id)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_fup_sector(self, force: models.Force) -> int | None:
        return force.fup_sector_id if getattr(force, "fup_sector_seen", False) else None


class MapBattalionSerializer(FogMaskedSerializer[models.Battalion]):
    public_fields = access_rules.BATTALION_PUBLIC | {"side_label"}

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    side_label = serializers.SerializerMethodField(help_text="the side's name")

    class Meta:
        model = models.Battalion
        fields = ["id", "code", "name", "side", "side_label", "sector", "in_reserve", "supply_situation"]

    def side_id_of(self, instance: models.Battalion) -> int:
        return instance.side_id

    def get_side_label(self, battalion: models.Battalion) -> str | None:
        return _side_name(self, battalion.side_id)


class MapBattleSerializer(LabelledModelSerializer[models.Battle]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)

    class Meta:
        model = models.Battle
        fields = ["id", "sector", "status", "attacker", "defender"]


class MapSupplySideSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField()
    sources = serializers.ListField(child=serializers.IntegerField(), help_text="sector ids")
    lines = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2),
        help_text="[sector, next sector toward its source] for each sector the side's lines reach; "
        "empty for an enemy side",
    )


class MapSupplySerializer(LabelledSerializer[Any]):
    """The map document's supply part (``campaign.selectors.supply_map_part``)."""

    sides = MapSupplySideSerializer(many=True)
    isolated = serializers.ListField(
        child=serializers.UUIDField(), help_text="battalion ids of the sides you see in full"
    )
    separated = serializers.ListField(
        child=serializers.UUIDField(), help_text="battalion ids of the sides you see in full"
    )


class MapPointSerializer(LabelledSerializer[Any]):
    x = serializers.FloatField()
    y = serializers.FloatField()

    def to_representation(self, instance: Any) -> dict[str, float]:
        return {"x": instance[0], "y": instance[1]}


class MapBoxSerializer(LabelledSerializer[Any]):
    left = serializers.FloatField()
    top = serializers.FloatField()
    right = serializers.FloatField()
    bottom = serializers.FloatField()

    def to_representation(self, instance: Any) -> dict[str, float]:
        return dict(zip(("left", "top", "right", "bottom"), instance, strict=True))


class MapLabelSerializer(LabelledSerializer[Any]):
    """Where a sector's name stands on the map (``campaign.map_layout.place_labels``), in the map's
    frame: no name overlaps another or a marker; the printed briefing draws them in the same places."""

    sector = serializers.IntegerField(source="sector_id")
    x = serializers.FloatField(help_text="the name's anchor")
    y = serializers.FloatField(help_text="the name's baseline")
    anchor = serializers.ChoiceField(
        choices=[("start", "Starts at x"), ("middle", "Centred on x"), ("end", "Ends at x")],
        help_text="SVG text-anchor: which end of the name x is",
    )
    box = MapBoxSerializer(help_text="what the name may cover")
    leader = MapPointSerializer(
        allow_null=True,
        help_text="where a line from the sector's marker meets a name moved away from it; "
        "null: the name stands next to its marker",
    )


class MapMomentSerializer(LabelledSerializer[Any]):
    """A moment kept for the map's replay (``GET map/?day=&moment=``)."""

    day = serializers.IntegerField()
    moment = serializers.ChoiceField(choices=MapMoment.choices)
    title = serializers.SerializerMethodField(help_text="what a person reads for it, e.g. Day 2, at dawn")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        day, moment = instance
        return super().to_representation({"day": day, "moment": moment})

    def get_title(self, instance: dict[str, Any]) -> str:
        return f"Day {instance['day']}, {MapMoment(instance['moment']).label.lower()}"


class MapDocumentSerializer(LabelledSerializer[Any]):
    """One side's view of the campaign map (the umpire's: everything), as it stands or as it
    stood at a moment kept for the replay."""

    day = serializers.IntegerField(allow_null=True, help_text="the day replayed; null: the map as it stands")
    moment = serializers.ChoiceField(
        choices=MapMoment.choices,
        allow_null=True,
        help_text="the moment replayed; null: the map as it stands",
    )
    moments = MapMomentSerializer(
        many=True, read_only=True, help_text="the moments kept for the replay, in order"
    )

    sectors = MapSectorSerializer(many=True, read_only=True)
    links = MapLinkSerializer(many=True, read_only=True)
    forces = MapForceSerializer(many=True, read_only=True)
    battalions = MapBattalionSerializer(many=True, read_only=True)
    battles = MapBattleSerializer(many=True, read_only=True)
    supply = MapSupplySerializer(read_only=True)
    labels = MapLabelSerializer(many=True, read_only=True)
