"""Output serializers: what each role sees of a row.

Which rows a caller sees is decided by the querysets of :mod:`campaign.selectors`;
these show the fields of a visible row :mod:`campaign.access` lets them see. A row of a side the caller
does not see in full (an identified enemy battalion, say) keeps its public
fields, and its strength fields when that side's fog of war reveals strengths;
every other field is null. Inputs are in :mod:`api.inputs`.
"""

from __future__ import annotations

import calendar
import uuid
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar, cast

from django.db import models as db_models
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import (
    LabelledModelSerializer,
    LabelledSerializer,
    add_labels,
    code_field_name,
    labels_of,
    with_field,
)
from api.permissions import CAMPAIGN_KWARG
from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    COPS_QUALITY_CHOICES,
    DAY_SEGMENT_CHOICES,
    FORCE_ACTION_CHOICES,
    MAP_SUPPLY_SITUATION_CHOICES,
    REINFORCEMENT_ACTION_CHOICES,
    SUPPLY_ACTION_CHOICES,
    SUPPLY_SITUATION_CHOICES,
    WEBHOOK_DELIVERY_EVENT_CHOICES,
    WEBHOOK_EVENT_CHOICES,
    ActivationState,
    ArrivalStatus,
    CampaignStatus,
    DayStatus,
    DraftItemKind,
    DraftItemStatus,
    DraftStatus,
    FuelState,
    MemberRole,
    OperationKind,
    StandStatus,
    StandType,
    TodoKind,
    enum_choices,
)
from campaign.report_drafts import BATTLE_FIELDS, OWN_SIDE_FIELDS, UNCHANGED
from campaign.selectors import (
    BattalionStatus,
    DayTallies,
    DraftComparison,
    ForceStatus,
    OwnDraft,
    Statistics,
    club_schedule_next,
    night_before,
    night_in_progress,
    roll_change_choices,
    summary_access,
)
from campaign.services.orders import order_sector_names, order_words
from campaign.services.reinforcements import reinforcement_actions
from campaign.services.scenario_rules import activation_points_sources, force_rule_actions
from rules_engine import catalog, fairness
from rules_engine.dice import DiceRoll
from rules_engine.nineteen43.lulls import LullLength
from rules_engine.panzer_korps.wind import wind_words
from rules_engine.presenters import RollOutput, describe_rule
from rules_engine.registry import CatalogError
from rules_engine.results import Applies, Comparison, Modifier
from rules_engine.vocab import SupplySituation, Weather

PUBLIC_ID_HELP = "what to name it by in URLs, cursors and after=: not in sequence, so it counts nothing"
STAND_TYPE_LABELS = labels_of(StandType.choices)

_M = TypeVar("_M", bound=db_models.Model)


def access_of(serializer: serializers.BaseSerializer[Any]) -> CampaignAccess:
    access = serializer.context["access"]
    assert isinstance(access, CampaignAccess)
    return access


class FogMaskedSerializer(LabelledModelSerializer[_M]):
    """A row of one side: in full for its side and the umpires, else public fields only."""

    public_fields: ClassVar[frozenset[str]] = frozenset({"id"})
    strength_fields: ClassVar[frozenset[str]] = frozenset()

    def side_id_of(self, instance: _M) -> int:
        raise NotImplementedError

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for name, field in fields.items():
            if code_field_name(name) not in self.public_fields:
                field.allow_null = True  # masked for some callers: the schema says so
        return fields

    @classmethod
    def shown_fields(cls, access: CampaignAccess, side_id: int) -> frozenset[str] | None:
        """The fields ``access`` sees of a row of ``side_id``; None when it sees them all."""
        return access_rules.fields_shown(access, side_id, cls.public_fields, cls.strength_fields)

    def to_representation(self, instance: _M) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = self.shown_fields(access_of(self), self.side_id_of(instance))
        if shown is None:
            return data
        return {name: value if code_field_name(name) in shown else None for name, value in data.items()}


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


WIND_TEXT_HELP = (
    'the wind as people say it: "light breeze from the South-East", "no wind"; empty before it is rolled'
)
NIGHT_IN_PROGRESS_HELP = (
    "a night phase is under way: what you see is the state before it, until it is done (never half of it)"
)


class CampaignSerializer(LabelledModelSerializer[models.Campaign]):
    """The campaign summary: where the day stands, and the sides' pools as the caller may see them."""

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
            "next_club_night",
            "next_night_phase",
            "night_in_progress",
            "activation_points_help",
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

    @extend_schema_field(serializers.BooleanField(help_text=NIGHT_IN_PROGRESS_HELP))
    def get_night_in_progress(self, campaign: models.Campaign) -> bool:
        return night_in_progress(campaign)

    def get_activation_points_help(self, campaign: models.Campaign) -> str:
        return activation_points_sources(campaign)


FORCE_PUBLIC = frozenset({"id", "side", "name", "nation"})
# Where a force stands: shown to a reader who does not see its side in full only where the
# fog of war shows it (the selector's sector_seen and fup_sector_seen annotations).
FORCE_PLACES = {"sector": "sector_seen", "sector_name": "sector_seen"}
FORCE_FUP_PLACES = {"fup_sector": "fup_sector_seen", "fup_sector_name": "fup_sector_seen"}


class ForceSerializer(FogMaskedSerializer[models.Force]):
    public_fields = FORCE_PUBLIC

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)

    sector_name = serializers.CharField(
        source="sector.name", read_only=True, allow_null=True, help_text="where its C Ops stands"
    )
    fup_sector_name = serializers.CharField(
        source="fup_sector.name",
        read_only=True,
        allow_null=True,
        help_text="its forming-up point, when apart from its C Ops (null: with its C Ops)",
    )

    class Meta:
        model = models.Force
        fields = [
            "id",
            "side",
            "name",
            "nation",
            "home_nation",
            "leader_name",
            "leader_rating",
            "leader_decorations",
            "mobility",
            "sector",
            "sector_name",
            "fup_sector",
            "fup_sector_name",
            "fup_road_clear",
            "arrival_status",
            "arrival_day",
            "arrival_zone",
            "deployment_zone",
            "activation_points",
            "availability",
            "arrival_attempts",
        ]

    def side_id_of(self, instance: models.Force) -> int:
        return instance.side_id

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for name in (*FORCE_PLACES, *FORCE_FUP_PLACES):
            fields[name].allow_null = True
        return fields

    def to_representation(self, instance: models.Force) -> dict[str, Any]:
        data = super().to_representation(instance)
        if access_of(self).sees_in_full(instance.side_id):
            return data
        # FogMaskedSerializer nulled them; the fog of war shows them where the enemy is in contact.
        for places in (FORCE_PLACES, FORCE_FUP_PLACES):
            for name, seen in places.items():
                if getattr(instance, seen, False):
                    data[name] = _force_place(instance, name)
        return data


def _force_place(force: models.Force, name: str) -> Any:
    sector = force.sector if name.startswith("sector") else force.fup_sector
    if sector is None:
        return None
    return sector.name if name.endswith("_name") else sector.pk


class StandSerializer(FogMaskedSerializer[models.Stand]):
    public_fields = frozenset({"id", "battalion", "battalion_code", "label", "stand_type", "status"})

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    battalion = serializers.UUIDField(
        source="battalion.public_id", read_only=True, help_text="the battalion's id"
    )
    battalion_code = serializers.CharField(source="battalion.code", read_only=True)
    equipment = serializers.CharField(
        source="equipment.key", read_only=True, allow_null=True, help_text="reference equipment key"
    )
    equipment_name = serializers.CharField(
        source="equipment.name", read_only=True, allow_null=True, help_text="the equipment as people name it"
    )

    class Meta:
        model = models.Stand
        fields = [
            "id",
            "battalion",
            "battalion_code",
            "label",
            "stand_type",
            "status",
            "equipment",
            "equipment_name",
            "entrenched",
            "entrenchment_points",
            "attached",
            "attachment_kind",
            "grade",
        ]

    def side_id_of(self, instance: models.Stand) -> int:
        return instance.battalion.side_id


class BattalionSerializer(FogMaskedSerializer[models.Battalion]):
    public_fields = access_rules.BATTALION_PUBLIC
    strength_fields = access_rules.BATTALION_STRENGTHS

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    force = serializers.UUIDField(
        source="battlegroup.force.public_id", read_only=True, help_text="its force's id"
    )
    battlegroup = serializers.UUIDField(
        source="battlegroup.public_id", read_only=True, help_text="its battlegroup's id"
    )
    sector_name = serializers.CharField(
        source="sector.name", read_only=True, allow_null=True, help_text="where it stands; null: off the map"
    )

    class Meta:
        model = models.Battalion
        fields = [
            "id",
            "code",
            "name",
            "side",
            "force",
            "battlegroup",
            "quality",
            "stands_started",
            "activation",
            "in_reserve",
            "supply_situation",
            "ammo_low_markers",
            "wiped_out_day",
            "fuel_state",
            "sector",
            "sector_name",
        ]

    def side_id_of(self, instance: models.Battalion) -> int:
        return instance.side_id


class BattalionTreeSerializer(BattalionSerializer):
    # The selector already left out stands the caller may not see.
    public_fields = BattalionSerializer.public_fields | {"stands"}
    stands = StandSerializer(many=True, read_only=True)

    class Meta(BattalionSerializer.Meta):
        fields = [*BattalionSerializer.Meta.fields, "stands"]


class BattlegroupTreeSerializer(LabelledModelSerializer[models.Battlegroup]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    battalions = BattalionTreeSerializer(many=True, read_only=True)

    class Meta:
        model = models.Battlegroup
        fields = ["id", "name", "kind", "has_hq", "battalions"]


class ForceTreeSerializer(ForceSerializer):
    """A force with its battlegroups, battalions and stands (those the caller may see)."""

    # Its battlegroups as the selector filtered them; its actions are none for a player.
    public_fields = FORCE_PUBLIC | {"battlegroups", "actions", "actions_labels"}
    battlegroups = BattlegroupTreeSerializer(many=True, read_only=True)
    actions = serializers.SerializerMethodField(
        help_text="what you may do with its C Ops now: `roll_cops_action_points` while a day's turns are "
        "played under variant 1, with `save_action_points` when the roll may save them as activation "
        "points (umpires; nothing for players)"
    )
    actions_labels = serializers.SerializerMethodField(help_text="the actions in words, in their order")

    class Meta(ForceSerializer.Meta):
        fields = [*ForceSerializer.Meta.fields, "battlegroups", "actions", "actions_labels"]

    @extend_schema_field(serializers.ListField(child=serializers.ChoiceField(choices=FORCE_ACTION_CHOICES)))
    def get_actions(self, force: models.Force) -> list[str]:
        access = access_of(self)
        if not access.is_umpire:
            return []
        # The same for every force of the campaign: read once for the whole order of battle.
        if "force_actions" not in self.context:
            self.context["force_actions"] = force_rule_actions(access.campaign)
        actions: list[str] = self.context["force_actions"]
        return actions

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_actions_labels(self, force: models.Force) -> list[str]:
        words = dict(FORCE_ACTION_CHOICES)
        return [words[action] for action in self.get_actions(force)]


class OrderOfBattleSerializer(LabelledSerializer[Mapping[str, Any]]):
    forces = ForceTreeSerializer(many=True, read_only=True)
    cops_qualities = serializers.ListField(
        child=serializers.ChoiceField(choices=COPS_QUALITY_CHOICES),
        read_only=True,
        help_text="the qualities a C Ops may roll its action points at (a force's roll_cops_action_points)",
    )
    night_in_progress = serializers.BooleanField(read_only=True, help_text=NIGHT_IN_PROGRESS_HELP)


class SegmentSerializer(LabelledModelSerializer[models.DaySegmentRecord]):
    wind_text = serializers.SerializerMethodField(help_text=WIND_TEXT_HELP)

    class Meta:
        model = models.DaySegmentRecord
        fields = [
            "id",
            "segment",
            "order",
            "turns",
            "initiative_side",
            "wind_direction",
            "wind_velocity",
            "wind_text",
        ]

    def get_wind_text(self, segment: models.DaySegmentRecord) -> str:
        return wind_words(segment.wind_velocity, segment.wind_direction)


class DaySerializer(LabelledModelSerializer[models.CampaignDay]):
    segments = SegmentSerializer(many=True, read_only=True)

    class Meta:
        model = models.CampaignDay
        fields = ["id", "number", "date", "weather", "status", "segments"]


class BattleLullSerializer(LabelledSerializer[Mapping[str, Any]]):
    turn = serializers.IntegerField()
    length = serializers.ChoiceField(choices=enum_choices(LullLength), allow_null=True)
    text = serializers.CharField(help_text="the check's outcome as people read it")


class BattleSerializer(LabelledModelSerializer[models.Battle]):
    """A battle as its participants see it: enemy battalions, set-up rolls and report
    lines only as the enemy's fog of war reveals them."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)
    sector_name = serializers.CharField(source="sector.name", read_only=True)
    continues = serializers.UUIDField(
        source="continues_public_id",
        read_only=True,
        allow_null=True,
        help_text="the id of the battle on the same sector the day before",
    )
    feeds = serializers.SerializerMethodField(help_text="ids of the battles forces leave this one for")
    battalions = serializers.SerializerMethodField()
    setup = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    lulls = BattleLullSerializer(many=True, read_only=True)
    you_set_up = serializers.SerializerMethodField(
        help_text="you may roll its set-up while it is planned: an umpire, or a player of it rolling at "
        "the table the steps the club lets players roll (the campaign's table_dice)"
    )

    class Meta:
        model = models.Battle
        fields = [
            "id",
            "day",
            "sector",
            "sector_name",
            "battle_type",
            "status",
            "attacker",
            "defender",
            "winner",
            "continues",
            "feeds",
            "battalions",
            "setup",
            "lull_checks_from_turn",
            "lulls",
            "attacker_decided_by",
            "report",
            "you_set_up",
        ]

    def get_you_set_up(self, battle: models.Battle) -> bool:
        access = access_of(self)
        return access.is_umpire or (
            access_rules.battle_table_side(
                access.role, access.player_side_id, battle, access.campaign.table_dice
            )
            is not None
        )

    def get_feeds(self, battle: models.Battle) -> list[uuid.UUID]:
        return [fed.public_id for fed in battle.feeds.all()]

    def _visible_sides(self, battle: models.Battle) -> dict[str, int]:
        """Code → side of the battle's battalions the caller may see (prefetched by the selector)."""
        return {b.code: b.side_id for b in getattr(battle, "visible_battalions", [])}

    def get_battalions(self, battle: models.Battle) -> list[str]:
        return sorted(self._visible_sides(battle))

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_setup(self, battle: models.Battle) -> dict[str, Any]:
        return access_rules.battle_setup_shown(access_of(self), battle)

    @extend_schema_field({"type": "object", "nullable": True})
    def get_report(self, battle: models.Battle) -> dict[str, Any] | None:
        if battle.report is None:
            return None
        return access_rules.battle_report_shown(access_of(self), battle.report, self._visible_sides(battle))


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


class MapDocumentSerializer(LabelledSerializer[Any]):
    """One side's view of the campaign map (the umpire's: everything)."""

    sectors = MapSectorSerializer(many=True, read_only=True)
    links = MapLinkSerializer(many=True, read_only=True)
    forces = MapForceSerializer(many=True, read_only=True)
    battalions = MapBattalionSerializer(many=True, read_only=True)
    battles = MapBattleSerializer(many=True, read_only=True)
    supply = MapSupplySerializer(read_only=True)
    labels = MapLabelSerializer(many=True, read_only=True)


class APIKeySerializer(LabelledModelSerializer[models.CampaignAPIKey]):
    """A third-party key as its umpire sees it: never the key itself, which is shown once."""

    url = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)
    expired = serializers.BooleanField(source="has_expired", read_only=True)

    class Meta:
        model = models.CampaignAPIKey
        fields = [
            "prefix",
            "url",
            "name",
            "side",
            "can_write",
            "expiry_date",
            "expired",
            "revoked",
            "created",
            "created_by",
        ]

    def get_url(self, api_key: models.CampaignAPIKey) -> str:
        return reverse(
            "api:api-key-detail",
            kwargs={CAMPAIGN_KWARG: access_of(self).campaign.slug, "prefix": api_key.prefix},
            request=self.context.get("request"),
        )


class APIKeyCreatedSerializer(APIKeySerializer):
    # A replayed answer (api.idempotency) has no key: only its hash is kept.
    shown_once = ("key",)
    key = serializers.SerializerMethodField(
        help_text="send as `Authorization: Api-Key <key>`; shown this once, store it now "
        "(null when an Idempotency-Key replays this answer)"
    )

    class Meta(APIKeySerializer.Meta):
        fields = [*APIKeySerializer.Meta.fields, "key"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_key(self, api_key: models.CampaignAPIKey) -> str:
        return str(self.context["plain_key"])


class OperationSerializer(LabelledModelSerializer[models.Operation]):
    """A background operation's status; its progress, report and errors are the umpire's."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    url = serializers.SerializerMethodField()
    day = serializers.IntegerField(source="day.number", read_only=True)
    segment = serializers.ChoiceField(
        source="segment.segment", choices=DAY_SEGMENT_CHOICES, read_only=True, allow_null=True
    )
    steps_done = serializers.SerializerMethodField(help_text="null but for umpires")
    steps_total = serializers.SerializerMethodField(help_text="null but for umpires")

    class Meta:
        model = models.Operation
        fields = [
            "id",
            "url",
            "kind",
            "day",
            "segment",
            "status",
            "steps_done",
            "steps_total",
            "steps",
            "completed_steps",
            "attempts",
            "report",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        extra_kwargs = {name: {"allow_null": True} for name in access_rules.OPERATION_UMPIRE_ONLY}

    def get_url(self, operation: models.Operation) -> str:
        return reverse(
            "api:operation-detail",
            kwargs={CAMPAIGN_KWARG: access_of(self).campaign.slug, "pk": operation.public_id},
            request=self.context.get("request"),
        )

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_steps_done(self, operation: models.Operation) -> int:
        return len(operation.completed_steps)

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_steps_total(self, operation: models.Operation) -> int:
        return len(operation.steps)

    def to_representation(self, instance: models.Operation) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        data.update(dict.fromkeys(access_rules.operation_fields_hidden(access_of(self))))
        return data


def _counter(help_text: str) -> serializers.IntegerField:
    return serializers.IntegerField(required=False, help_text=help_text)


def _names(help_text: str) -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), required=False, help_text=help_text)


def _roll_lines() -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), help_text="each roll, as the umpire reads it")


class NightReportBattalionSerializer(LabelledSerializer[dict[str, Any]]):
    """A battalion's replacement rolls in its side's night report."""

    code = serializers.CharField()
    text = serializers.CharField(help_text="the outcome in words")
    lines = _roll_lines()


class ReportBodySerializer(LabelledSerializer[dict[str, Any]]):
    """A side's part of an operation's report, as its kind writes it (``api.schema`` closes its
    schema to these keys, so a body matches its own kind's only)."""


class NightReportDivisionSerializer(LabelledSerializer[dict[str, Any]]):
    """A division's own activation pool through the night (Malta's division pools)."""

    name = serializers.CharField(help_text="the division (force)")
    before = serializers.IntegerField(help_text="activation points before the night")
    carried = serializers.IntegerField(help_text="activation points carried to the next day")


class NightReportBodySerializer(ReportBodySerializer):
    """A side's part of a night phase (``campaign.services.night``): its own figures, each step's
    present when the night ran that step (0 when the step found nothing of the side's)."""

    day = serializers.IntegerField()
    side = serializers.CharField(help_text="the side's name")
    fups_moved = _counter("FUPs moved up to their COPs")
    suppressions_flipped = _counter("suppressed stands back in order")
    replacements_rolled = _counter("replacement rolls made")
    replacements_due = _counter("destroyed stands the replacement rolls were for")
    replacements_returned = _counter("of those, the stands returned")
    extra_stands_lost = _counter("stands isolated battalions lost besides")
    battalions = NightReportBattalionSerializer(many=True, required=False)
    moved_to_reserve = _names("battalions sent to reserve: withdrawn, or wiped out tonight")
    command_rolls = _names("Panzer Korps night command rolls, one line a force")
    forces_removed = _names("forces removed in the night: their command roll failed")
    barrage_rounds_before = _counter("barrage rounds before the night")
    barrage_rounds_replenished = _counter("barrage rounds the night added")
    barrage_rounds_after = _counter("barrage rounds after the night")
    templates_returned = _counter("barrage templates available again")
    activation_points_before = _counter("activation points before the night")
    activation_points_carried = _counter("activation points carried to the next day")
    activation_points_lost = _counter("activation points lost in the carry-over")
    divisions = NightReportDivisionSerializer(many=True, required=False)
    ammo_markers_rolled = _counter("battalions rolled for their low-ammunition markers")
    battalions_refuelled = _counter("vehicle battalions refuelled by the supply services (fuel supply)")
    battalions_set_inactive = _counter("battalions set inactive")
    forces_to_reroll_availability = _counter("forces to roll for availability again")
    battalions_isolated = _counter("battalions isolated from supply at nightfall")
    battalions_separated = _counter("battalions separated from their C Ops at nightfall")
    isolated_battalions = _names("battalions isolated from supply at nightfall")
    campaign_result = serializers.CharField(
        required=False, help_text="how the campaign ended, when this night ended it"
    )


@extend_schema_field({"type": "integer", "nullable": True})
class _ReserveTurnField(serializers.IntegerField):
    """A Malta-style reserve's turn count, null while it has none; absent for any other force
    (``allow_null`` would read an absent one as null)."""


class ArrivalReportEntrySerializer(LabelledSerializer[dict[str, Any]]):
    """A force's arrival rolls in a segment (``campaign.services.arrivals``)."""

    force = serializers.CharField(help_text="the force's name")
    arrival_status = serializers.ChoiceField(choices=ArrivalStatus.choices)
    zone = serializers.CharField(
        required=False, help_text="where it enters, as the scenario or its side chose"
    )
    deployment_zone = serializers.CharField(
        required=False, help_text="the deployment chart's zone, once it arrived"
    )
    arrival_attempts = serializers.IntegerField(required=False)
    turns_left = _ReserveTurnField(required=False, help_text="a Malta-style reserve: turns it still waits")
    enters_on_turn = _ReserveTurnField(
        required=False, help_text="a Malta-style reserve: the turn it enters on"
    )
    lines = _roll_lines()


class ArrivalReportBodySerializer(ReportBodySerializer):
    """A side's part of an arrival roll: its forces that rolled in the segment."""

    day = serializers.IntegerField()
    segment = serializers.CharField()
    side = serializers.CharField(help_text="the side's name")
    arrivals = ArrivalReportEntrySerializer(many=True, help_text="none when no force of the side rolled")


class NightReportSerializer(LabelledModelSerializer[models.NightReport]):
    """A side's report of a night phase or of an arrival roll (its kind)."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    operation = serializers.SlugRelatedField[models.Operation](
        slug_field="public_id", read_only=True, help_text="the id of the operation that wrote it"
    )
    BODIES: ClassVar[Mapping[str, type[ReportBodySerializer]]] = {
        OperationKind.NIGHT_PHASE: NightReportBodySerializer,
        OperationKind.ARRIVALS: ArrivalReportBodySerializer,
    }

    day = serializers.IntegerField(source="day.number", read_only=True)
    kind = serializers.ChoiceField(source="operation.kind", choices=OperationKind.choices, read_only=True)
    title = serializers.CharField(
        read_only=True, help_text='e.g. "Night of day 1", "Arrivals, day 2, morning"'
    )
    body = serializers.SerializerMethodField()

    class Meta:
        model = models.NightReport
        fields = ["id", "operation", "kind", "title", "side", "day", "body", "created_at"]

    @extend_schema_field(
        PolymorphicProxySerializer(
            component_name="ReportBody",
            serializers=[NightReportBodySerializer, ArrivalReportBodySerializer],
            resource_type_field_name=None,
        )
    )
    def get_body(self, report: models.NightReport) -> dict[str, Any]:
        """The side's part, as its kind's serializer reads it: the schema is what the services write."""
        body: dict[str, Any] = self.BODIES[report.operation.kind](report.body).data
        return body


class RuleReferenceSerializer(LabelledSerializer[Mapping[str, Any]]):
    system = serializers.CharField()
    seed_file = serializers.CharField()
    section = serializers.CharField()
    source_title = serializers.CharField(
        help_text='the seed file as people name it: "Great Battles of WWII charts"'
    )
    text = serializers.CharField(help_text='what people read: "Great Battles of WWII charts, Night Phase"')


class RollDieSerializer(LabelledSerializer[DiceRoll]):
    """One throw: the dice, the faces as thrown, and the total the rules read."""

    dice = serializers.CharField(source="kind.value", help_text='as people write them: "d10", "2d6", "½d6"')
    faces = serializers.ListField(child=serializers.IntegerField(), help_text="as thrown")
    total = serializers.IntegerField(help_text="what the rules read from the faces (a ½d6 of 5 reads 3)")
    text = serializers.CharField(help_text='the throw as people read it: "2d6 [5+1] = 6"')


class RollModifierSerializer(LabelledSerializer[Modifier]):
    """A modifier: on the dice total (a DRM) or on the score needed."""

    name = serializers.CharField()
    value = serializers.IntegerField()
    applies_to = serializers.ChoiceField(
        source="applies_to.value",
        choices=enum_choices(Applies),
        help_text="whether it changes the dice total or the score needed",
    )


class RollOutputSerializer(LabelledSerializer[RollOutput]):
    """One roll as shown (``rules_engine.presenters.RollOutput``): dice and faces, modifiers,
    score against threshold or the table cell, the outcome and the rule."""

    procedure = serializers.CharField(help_text="the procedure that read it")
    title = serializers.CharField()
    subject = serializers.CharField(help_text="whose roll, or what for; may be blank")
    rule = serializers.SerializerMethodField()
    dice = RollDieSerializer(many=True)
    natural = serializers.IntegerField(help_text="the dice total")
    modifiers = RollModifierSerializer(many=True)
    score = serializers.IntegerField(help_text="the dice total with the modifiers on the roll")
    threshold_base = serializers.IntegerField(allow_null=True, help_text="the number printed")
    threshold = serializers.IntegerField(
        allow_null=True, help_text="the number needed, with the modifiers on the threshold"
    )
    comparison = serializers.ChoiceField(
        source="comparison.value",
        choices=enum_choices(Comparison),
        allow_null=True,
        help_text="how the score is read against the threshold",
    )
    cell = serializers.CharField(allow_null=True, help_text="the table row or column read")
    outcome = serializers.JSONField(help_text="the outcome for machines")
    outcome_text = serializers.CharField(
        allow_null=True,
        help_text="the outcome as people read it; null when it quotes strengths hidden from you",
    )
    line = serializers.CharField(
        allow_null=True, help_text="the whole roll in one line; null when it quotes strengths hidden from you"
    )

    @extend_schema_field(RuleReferenceSerializer)
    def get_rule(self, output: RollOutput) -> dict[str, str]:
        return describe_rule(output.rule)


class RollProcedureSerializer(LabelledSerializer[str]):
    """A procedure the roll log holds, with the title people know it by (its filter's choices)."""

    procedure = serializers.CharField(source="*", read_only=True, help_text="rules catalog key")
    title = serializers.SerializerMethodField()

    def get_title(self, procedure: str) -> str:
        try:
            return catalog.get_procedure(procedure).title
        except CatalogError:  # a procedure since renamed: its key is all there is
            return procedure


class RollSerializer(LabelledModelSerializer[models.RollRecord]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    override_of = serializers.SlugRelatedField[models.RollRecord](
        slug_field="public_id", read_only=True, allow_null=True, help_text="the id of the roll it overrides"
    )
    line = serializers.CharField(
        read_only=True, allow_null=True, help_text="null when it quotes strengths hidden from the reader"
    )
    day = serializers.IntegerField(source="day.number", read_only=True, allow_null=True)
    segment = serializers.ChoiceField(
        source="segment.segment", choices=DAY_SEGMENT_CHOICES, read_only=True, allow_null=True
    )
    force = serializers.SlugRelatedField[models.Force](
        slug_field="public_id",
        read_only=True,
        allow_null=True,
        help_text="the id of the force it was rolled for",
    )
    battle = serializers.SlugRelatedField[models.Battle](
        slug_field="public_id",
        read_only=True,
        allow_null=True,
        help_text="the id of the battle it was rolled for",
    )
    battalion = serializers.CharField(source="battalion.code", read_only=True, allow_null=True)
    output = RollOutputSerializer(
        read_only=True, allow_null=True, help_text="the roll as shown; null for an umpire's override"
    )
    rule = serializers.SerializerMethodField(
        help_text='the rule the roll was read under, as people name it: "Great Battles of WWII charts, '
        'Night Phase" (output.rule has it in full)'
    )
    actor = serializers.CharField(source="actor.get_username", read_only=True, allow_null=True)
    table_roll = serializers.CharField(
        read_only=True,
        help_text='"rolled at the table by <member>" when its faces were rolled with physical dice and '
        "entered; empty when the campaign's seed rolled them",
    )
    change_choices = serializers.SerializerMethodField(
        help_text="for each coded value in `changes` (a side by its name): every code it may take, "
        "with its label"
    )

    class Meta:
        model = models.RollRecord
        fields = [
            "id",
            "day",
            "segment",
            "battle",
            "force",
            "battalion",
            "procedure",
            "stream",
            "inputs",
            "result",
            "output",
            "rule",
            "line",
            "changes",
            "change_choices",
            "override_of",
            "visibility",
            "side",
            "actor",
            "table_roll",
            "request_id",
            "created_at",
        ]

    @extend_schema_field(
        {
            "type": "object",
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}},
        }
    )
    def get_change_choices(self, roll: models.RollRecord) -> dict[str, dict[str, str]]:
        return roll_change_choices(roll.changes, (side.name for side in access_of(self).sides.values()))

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_rule(self, roll: models.RollRecord) -> str | None:
        return roll.output.rule.text() if roll.output else None

    def to_representation(self, instance: models.RollRecord) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = access_rules.roll_shown(access_of(self), instance, data["output"])
        data.update(inputs=shown.inputs, result=shown.result, line=shown.line, output=shown.output)
        return data


class EventSerializer(LabelledModelSerializer[models.Event]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    object_id = serializers.SerializerMethodField(
        help_text="the object's number, for an object named by one; null when it is named by object_public_id"
    )
    object_public_id = serializers.UUIDField(
        read_only=True, allow_null=True, help_text="the object's public id, for an object named by one"
    )
    day = serializers.IntegerField(source="day_number", read_only=True, allow_null=True)
    actor = serializers.CharField(source="actor.get_username", read_only=True, allow_null=True)

    class Meta:
        model = models.Event
        fields = [
            "id",
            "verb",
            "actor",
            "request_id",
            "day",
            "object_type",
            "object_id",
            "object_public_id",
            "object_repr",
            "message",
            "before",
            "after",
            "visibility",
            "side",
            "created_at",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_object_id(self, event: models.Event) -> int | None:
        # The row's number would count the rows of its table the reader does not see.
        return event.object_id if event.object_public_id is None else None


class EquipmentSerializer(LabelledModelSerializer[models.Equipment]):
    class Meta:
        model = models.Equipment
        fields = ["id", "key", "nation", "name", "category", "year_from", "year_to", "data", "source"]


class RuleInputSerializer(LabelledSerializer[Mapping[str, Any]]):
    name = serializers.CharField()
    type = serializers.CharField()
    choices = serializers.ListField(child=serializers.CharField(), required=False)
    default = serializers.JSONField(required=False, allow_null=True)

    def get_fields(self) -> dict[str, Any]:
        label = serializers.CharField(help_text="what a person reads for the input")
        return with_field(super().get_fields(), "label", label)


class RuleEntrySerializer(LabelledSerializer[Any]):
    """A table or procedure of the rules catalog (``rules_engine.catalog``)."""

    key = serializers.CharField()
    kind = serializers.ChoiceField(choices=[("procedure", "Procedure"), ("table", "Table")])
    title = serializers.CharField()
    rule = RuleReferenceSerializer()
    optional = serializers.BooleanField()
    rolls = serializers.BooleanField(required=False, help_text="procedures only: whether it rolls dice")
    inputs = RuleInputSerializer(many=True, required=False, help_text="procedures only")
    umpire_aid = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="procedures only: why no campaign service runs it (a battle-level aid); null when one does",
    )
    chart = serializers.JSONField(source="data", required=False, help_text="tables, in detail only")


class BattleLocation(db_models.TextChoices):
    RESERVE = "reserve", "In reserve"
    BATTLE = "battle", "In a battle today"
    UNCOMMITTED = "uncommitted", "On the table, in no battle"


class BattleRefSerializer(LabelledModelSerializer[models.Battle]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    sector_name = serializers.CharField(read_only=True)

    class Meta:
        model = models.Battle
        fields = ["id", "sector", "sector_name", "status"]


class StandCountsSerializer(LabelledSerializer[Mapping[str, int]]):
    ok = serializers.IntegerField()
    suppressed = serializers.IntegerField()
    destroyed = serializers.IntegerField()


class TallyCountsSerializer(StandCountsSerializer):
    in_action = serializers.IntegerField(
        allow_null=True,
        help_text="stands in action: ok or suppressed, of battalions on the table (not in reserve, "
        "their force arrived); null in a tally recorded before they were counted",
    )


class BattalionStatusSerializer(LabelledSerializer[BattalionStatus]):
    """A battalion's state: supply, fuel, location and stand counts."""

    # The fields document the shape; to_representation builds it by hand, as a division has a
    # hundred battalions and clients poll force status.

    STRENGTH: ClassVar[frozenset[str]] = frozenset({"stands"})
    IN_FULL_ONLY: ClassVar[tuple[str, ...]] = (
        "activation",
        "supply_situation",
        "fuel_state",
        "ammo_low_markers",
    )

    code = serializers.CharField()
    name = serializers.CharField()
    location = serializers.ChoiceField(choices=BattleLocation.choices, read_only=True)
    battle = BattleRefSerializer(allow_null=True)
    stands = StandCountsSerializer(allow_null=True, help_text="null when the enemy hides strengths")
    activation = serializers.ChoiceField(choices=ActivationState.choices, allow_null=True)
    supply_situation = serializers.ChoiceField(choices=enum_choices(SupplySituation), allow_null=True)
    fuel_state = serializers.ChoiceField(choices=FuelState.choices, allow_null=True)
    ammo_low_markers = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: BattalionStatus) -> dict[str, Any]:
        row = instance.battalion
        if row["in_reserve"]:
            location = BattleLocation.RESERVE
        else:
            location = BattleLocation.BATTLE if instance.battle is not None else BattleLocation.UNCOMMITTED
        battle = instance.battle
        data = {
            "code": row["code"],
            "name": row["name"],
            "location": location.value,
            "battle": add_labels(cast(BattleRefSerializer, self.fields["battle"]), dict(battle))
            if battle is not None
            else None,
            "stands": instance.stands,
            **{name: row[name] for name in self.IN_FULL_ONLY},
        }
        shown = access_rules.fields_shown(access_of(self), row["side_id"], frozenset(), self.STRENGTH)
        if shown is not None:
            data.update(
                dict.fromkeys(name for name in (*self.IN_FULL_ONLY, *self.STRENGTH) if name not in shown)
            )
        return add_labels(self, data)


StrengthField = serializers.DictField(
    child=serializers.DictField(child=serializers.IntegerField()),
    allow_null=True,
    help_text="stand type → status → count; null unless the caller sees the side in full",
)


class SidePoolsSerializer(LabelledModelSerializer[models.Side]):
    class Meta:
        model = models.Side
        fields = [
            "id",
            "name",
            "activation_points",
            "barrage_rounds",
            "barrage_templates",
            "barrage_templates_in_use",
        ]


class ForceStatusCampaignSerializer(LabelledModelSerializer[models.Campaign]):
    class Meta:
        model = models.Campaign
        fields = ["slug", "current_day", "current_segment"]


def stand_type_labels(strength: Mapping[str, Any] | None) -> dict[str, str] | None:
    """The labels of a strength table's stand types (its keys)."""
    return None if strength is None else {code: STAND_TYPE_LABELS.get(code, code) for code in strength}


StrengthLabelsField = serializers.DictField(
    child=serializers.CharField(), allow_null=True, help_text="stand type → its label, for strength's keys"
)


class ForceStatusSerializer(LabelledSerializer[ForceStatus]):
    """Everything a polling client needs about one force, in one response."""

    campaign = serializers.SerializerMethodField()
    force = serializers.SerializerMethodField()
    side = serializers.SerializerMethodField()
    strength = serializers.SerializerMethodField()
    strength_labels = serializers.SerializerMethodField()
    battalions = serializers.SerializerMethodField()
    latest_night_report = serializers.SerializerMethodField()
    cops_isolated_from_source = serializers.SerializerMethodField()
    night_in_progress = serializers.BooleanField(read_only=True, help_text=NIGHT_IN_PROGRESS_HELP)

    @extend_schema_field(ForceStatusCampaignSerializer)
    def get_campaign(self, status: ForceStatus) -> dict[str, Any]:
        return ForceStatusCampaignSerializer(status.force.campaign).data

    @extend_schema_field(ForceSerializer)
    def get_force(self, status: ForceStatus) -> dict[str, Any]:
        return ForceSerializer(status.force, context=self.context).data

    def _in_full(self, status: ForceStatus) -> bool:
        return access_of(self).sees_in_full(status.force.side_id)

    @extend_schema_field(SidePoolsSerializer(allow_null=True))
    def get_side(self, status: ForceStatus) -> dict[str, Any] | None:
        """The side's remaining activation points and barrage stock."""
        return SidePoolsSerializer(status.force.side).data if self._in_full(status) else None

    @extend_schema_field(StrengthField)
    def get_strength(self, status: ForceStatus) -> dict[str, dict[str, int]] | None:
        if not self._in_full(status):
            return None
        # Every stand type and status, zeros included, so clients need no defaults.
        return {
            stand_type: {s: status.strength.get(stand_type, {}).get(s, 0) for s in StandStatus.values}
            for stand_type in StandType.values
            if stand_type in status.strength
        }

    @extend_schema_field(StrengthLabelsField)
    def get_strength_labels(self, status: ForceStatus) -> dict[str, str] | None:
        return stand_type_labels(self.get_strength(status))

    @extend_schema_field(BattalionStatusSerializer(many=True))
    def get_battalions(self, status: ForceStatus) -> list[dict[str, Any]]:
        """The battalions the caller may see (the selector left out the others)."""
        battalion = BattalionStatusSerializer(context=self.context)
        return [battalion.to_representation(row) for row in status.battalions]

    @extend_schema_field(NightReportSerializer(allow_null=True))
    def get_latest_night_report(self, status: ForceStatus) -> dict[str, Any] | None:
        report = self.context.get("latest_night_report")
        return NightReportSerializer(report).data if report is not None and self._in_full(status) else None

    @extend_schema_field(
        serializers.BooleanField(
            allow_null=True,
            help_text="its C Ops is isolated from its source of supply as supply stands today, so its "
            "action-point roll (variant 1) takes the isolation penalty; null for a force of a side the "
            "caller does not see in full, a campaign without the variant, or during a night phase",
        )
    )
    def get_cops_isolated_from_source(self, status: ForceStatus) -> bool | None:
        isolated = self.context.get("cops_isolated_from_source")
        return isolated if isolated is not None and self._in_full(status) else None


class ActivationSpendSerializer(LabelledModelSerializer[models.ActivationSpend]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)
    battalions = serializers.SlugRelatedField[models.Battalion](
        many=True, read_only=True, slug_field="code", help_text="battalion codes activated"
    )

    class Meta:
        model = models.ActivationSpend
        fields = ["id", "side", "day", "turn", "column", "cost", "battalions", "created_at"]


class ArtilleryOrderSerializer(LabelledModelSerializer[models.ArtilleryOrder]):
    """A barrage template's mode for one day."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)

    class Meta:
        model = models.ArtilleryOrder
        fields = ["id", "side", "day", "template", "mode", "created_at"]


class SetupInputSerializer(RuleInputSerializer):
    value_type = serializers.ChoiceField(
        choices=[
            ("choice", "One of the choices"),
            ("integer", "A whole number"),
            ("boolean", "Yes or no"),
            ("text", "Text"),
        ]
    )
    needed = serializers.BooleanField(help_text="false: the procedure's default applies when left out")


class SetupQuestionSerializer(LabelledSerializer[Mapping[str, Any]]):
    """One set-up step and the inputs the umpire gives it (`inputs` of POST setup/, by `step`)."""

    step = serializers.CharField(help_text='the key of `inputs`: the procedure, or "procedure@Side name"')
    procedure = serializers.CharField()
    title = serializers.CharField()
    side = serializers.IntegerField(
        allow_null=True, help_text="the side that rolls it; null: rolled once for both"
    )
    inputs = SetupInputSerializer(many=True)
    at_table = serializers.BooleanField(
        help_text="you may roll it at the table: give its faces to `POST setup/` as `faces[step]` "
        "(the campaign's table_dice)"
    )


class NightOrderSerializer(LabelledModelSerializer[models.NightOrder]):
    """An order the umpire queued for a night phase, by the codes and labels the club uses."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)
    side = serializers.IntegerField(source="battalion.side_id", read_only=True)
    battalion = serializers.CharField(source="battalion.code", read_only=True)
    stand = serializers.CharField(source="stand.label", read_only=True, allow_null=True)
    target_battalion = serializers.CharField(source="target_battalion.code", read_only=True, allow_null=True)

    class Meta:
        model = models.NightOrder
        fields = [
            "id",
            "day",
            "side",
            "kind",
            "battalion",
            "stand",
            "target_battalion",
            "attachment_kind",
            "applied",
        ]


class SideOrderSerializer(LabelledModelSerializer[models.SideOrder]):
    """A side's sealed order: read by its side's players and the umpires only."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    side_name = serializers.CharField(source="side.name", read_only=True)
    day = serializers.IntegerField(source="day_number", read_only=True)
    payload = serializers.DictField(read_only=True)
    created_by = serializers.CharField(source="created_by.username", read_only=True, allow_null=True)
    decided_by = serializers.CharField(source="decided_by.username", read_only=True, allow_null=True)
    night_order = serializers.SlugRelatedField[models.NightOrder](
        slug_field="public_id",
        read_only=True,
        allow_null=True,
        help_text="the id of the night order it became",
    )
    words = serializers.SerializerMethodField(
        help_text='what the order says, in words: "G1 to move to Qrendi" (the sector by its name)'
    )

    class Meta:
        model = models.SideOrder
        fields = [
            "id",
            "label",
            "words",
            "side",
            "side_name",
            "day",
            "kind",
            "payload",
            "status",
            "reason",
            "night_order",
            "created_by",
            "created_at",
            "submitted_at",
            "decided_by",
            "decided_at",
        ]
        read_only_fields = fields

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        # Declared here: a serializer's own `label` attribute is its field label.
        fields["label"] = serializers.CharField(
            read_only=True,
            help_text='what to call it: its kind, what it names and its day ("Deploy G1, day 2")',
        )
        return fields

    def get_words(self, order: models.SideOrder) -> str:
        # The campaign's sector names once for a page of orders (the context is the list's).
        names = self.context.get("order_sector_names")
        if names is None:
            names = self.context["order_sector_names"] = order_sector_names(order.campaign_id)
        return order_words(order, names)


class SideOrdersDeadlineSerializer(LabelledSerializer[Mapping[str, Any]]):
    """When new orders close."""

    day = serializers.IntegerField(help_text="the campaign day new orders are for")
    deadline = serializers.DateTimeField(
        allow_null=True, help_text="null: they close when the night phase starts"
    )
    deadline_text = serializers.CharField(allow_null=True, help_text="the deadline in the club's time zone")


class RollOverrideSerializer(LabelledSerializer[Mapping[str, models.RollRecord]]):
    """An umpire's override next to the roll it overrides, which stays in the log."""

    original = RollSerializer(read_only=True)
    override = RollSerializer(read_only=True, help_text="its override_of names the original")


class ReinforcementSerializer(LabelledModelSerializer[models.Force]):
    """A force off the table: when and where it is due, and how its arrival rolls stand."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    actions = serializers.SerializerMethodField(
        help_text="what you may do with it now: `schedule` while it is off the table, `postpone` while "
        "it is scheduled or rolling for arrival (umpires; nothing for players)"
    )
    actions_labels = serializers.SerializerMethodField(help_text="the actions in words, in their order")

    class Meta:
        model = models.Force
        fields = [
            "id",
            "side",
            "name",
            "nation",
            "mobility",
            "arrival_status",
            "arrival_day",
            "arrival_zone",
            "deployment_zone",
            "availability",
            "arrival_attempts",
            "actions",
            "actions_labels",
        ]

    @extend_schema_field(
        serializers.ListField(child=serializers.ChoiceField(choices=REINFORCEMENT_ACTION_CHOICES))
    )
    def get_actions(self, force: models.Force) -> list[str]:
        return reinforcement_actions(force) if access_of(self).is_umpire else []

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_actions_labels(self, force: models.Force) -> list[str]:
        words = dict(REINFORCEMENT_ACTION_CHOICES)
        return [words[action] for action in self.get_actions(force)]


class DeploymentPreviewSerializer(LabelledSerializer[Any]):
    """One battalion leaving reserve, as the dawn would deploy it (campaign.services.days.DeploymentPlan)."""

    battalion = serializers.CharField(source="battalion.code", help_text="battalion code")
    battalion_name = serializers.CharField(source="battalion.name")
    range_inches = serializers.FloatField(source="order.range_inches", help_text="to the nearest enemy")
    friendly_intervening = serializers.BooleanField(source="order.friendly_intervening")
    side_order = serializers.UUIDField(
        source="order.side_order", allow_null=True, help_text="the id of the sealed order it comes from"
    )
    cell = serializers.CharField(help_text="the deployment chart's column read")
    destroyed = serializers.IntegerField(source="casualties.destroyed", help_text="stands destroyed")
    suppressed = serializers.IntegerField(source="casualties.suppressed", help_text="stands suppressed")
    retreat_inches = serializers.IntegerField(source="casualties.retreat_inches")
    stands_destroyed = serializers.SerializerMethodField(help_text="labels of the stands destroyed")
    stands_suppressed = serializers.SerializerMethodField(help_text="labels of the stands suppressed")
    text = serializers.CharField(help_text="the timeline's words for it")

    def get_stands_destroyed(self, plan: Any) -> list[str]:
        return [stand.label for stand in plan.destroyed]

    def get_stands_suppressed(self, plan: Any) -> list[str]:
        return [stand.label for stand in plan.suppressed]


class DawnPreviewSerializer(LabelledSerializer[Any]):
    day = serializers.IntegerField(help_text="the day that would dawn")
    rule = serializers.CharField(help_text="the deployment chart's rule reference")
    deployments = DeploymentPreviewSerializer(many=True)


class StatisticsSideSerializer(LabelledModelSerializer[models.Side]):
    class Meta:
        model = models.Side
        fields = ["id", "name", "is_axis"]


class SideTallySerializer(LabelledSerializer[models.SideDayTally]):
    """One side at one dawn: pools as the campaign summary shows them, strength only in full."""

    side = serializers.IntegerField(source="side_id")
    activation_points = serializers.IntegerField(allow_null=True)
    division_activation_points = serializers.DictField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text="division → its own activation pool at dawn (Malta); null unless the caller sees the side",
    )
    barrage_rounds = serializers.IntegerField(allow_null=True)
    strength = serializers.DictField(
        child=TallyCountsSerializer(),
        allow_null=True,
        help_text="stand type → status → count, and stands in action; null unless the caller sees "
        "the side in full",
    )
    strength_labels = serializers.SerializerMethodField()

    @extend_schema_field(StrengthLabelsField)
    def get_strength_labels(self, tally: models.SideDayTally) -> dict[str, str] | None:
        return stand_type_labels(tally.strength)

    def to_representation(self, instance: models.SideDayTally) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = SideSummarySerializer.shown_fields(access_of(self), instance.side_id)
        if shown is not None:
            data.update({name: None for name in ("activation_points", "barrage_rounds") if name not in shown})
            if "activation_points" not in shown:
                data["division_activation_points"] = None
            data["strength"] = data["strength_labels"] = None
        return data


class StatisticsDaySerializer(LabelledSerializer[DayTallies]):
    day = serializers.IntegerField(source="day.number")
    date = serializers.DateField(source="day.date")
    sides = SideTallySerializer(source="tallies", many=True)


class StatisticsSerializer(LabelledSerializer[Statistics]):
    """The charts' series: each side's strength and stocks at every dawn."""

    sides = StatisticsSideSerializer(many=True)
    days = StatisticsDaySerializer(many=True)


class WebhookSerializer(LabelledModelSerializer[models.WebhookSubscription]):
    """A subscription as its umpires see it: never with its secret."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    events = serializers.ListField(child=serializers.ChoiceField(choices=WEBHOOK_EVENT_CHOICES))
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)

    class Meta:
        model = models.WebhookSubscription
        fields = ["id", "url", "events", "active", "created_by", "created_at"]


class WebhookCreatedSerializer(WebhookSerializer):
    """The answer to a subscription: with the secret once, when the service made it."""

    shown_once = ("secret",)  # never copied into a replayed answer (api.idempotency)
    secret = serializers.SerializerMethodField(
        help_text="the secret the service made, shown this once; null when you sent your own "
        "(or when an Idempotency-Key replays this answer)"
    )

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_secret(self, subscription: models.WebhookSubscription) -> str | None:
        return subscription.secret if self.context.get("secret_made") else None


class WebhookDeliverySerializer(LabelledModelSerializer[models.WebhookDelivery]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    event = serializers.ChoiceField(
        source="payload.event", choices=WEBHOOK_DELIVERY_EVENT_CHOICES, read_only=True
    )

    class Meta:
        model = models.WebhookDelivery
        fields = [
            "id",
            "event",
            "status",
            "attempts",
            "response_status",
            "error",
            "created_at",
            "last_attempt_at",
            "delivered_at",
            "payload",
        ]


class MembershipSummaryField(serializers.DictField):
    """A membership as the session lists it: the campaign's slug, the role with its label, the side."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        membership: models.Membership = value
        return {
            "slug": membership.campaign.slug,
            "role": membership.role,
            "role_label": membership.get_role_display(),
            "side": membership.side_id,
        }


class SessionKeySerializer(LabelledSerializer[Any]):
    """The API key a request carries, as its holder may read it (never its secret)."""

    name = serializers.CharField()
    prefix = serializers.CharField()
    campaign = serializers.CharField(help_text="the one campaign it reads (its slug)")
    role = serializers.ChoiceField(choices=MemberRole.choices, help_text="whom it reads as")
    side = serializers.IntegerField(allow_null=True, help_text="the side it reads as; null: the public view")
    side_name = serializers.CharField(allow_null=True)
    can_write = serializers.BooleanField(help_text="granted writes (as the umpire, never membership or keys)")


class SessionSerializer(LabelledSerializer[Any]):
    """Who is asking: the signed-in person and the campaigns they are a member of, or the API key
    and the one campaign it reads."""

    authenticated = serializers.BooleanField()
    username = serializers.CharField(allow_null=True, help_text="null for a key or nobody")
    campaigns = serializers.ListField(
        child=MembershipSummaryField(), help_text="slug, role (with role_label) and side of each membership"
    )
    api_key = SessionKeySerializer(allow_null=True, help_text="the key the request carries; null: none")


# Supply lines -------------------------------------------------------------------

SECTOR_PATH_HELP = "sector ids from where it stands to its source of supply; null: no line"


class SupplyBattalionSerializer(LabelledSerializer[Any]):
    """One battalion of the proposal (``campaign.services.supply.ReviewedBattalion``)."""

    id = serializers.UUIDField(source="supply.battalion.public_id", help_text=PUBLIC_ID_HELP)
    code = serializers.CharField(source="supply.battalion.code")
    side = serializers.IntegerField(source="supply.battalion.side_id")
    sector = serializers.IntegerField(source="supply.battalion.sector_id")
    situation = serializers.ChoiceField(
        source="supply.battalion.situation", choices=SUPPLY_SITUATION_CHOICES, help_text="as it stands now"
    )
    proposed = serializers.ChoiceField(source="supply.proposed.value", choices=SUPPLY_SITUATION_CHOICES)
    reason = serializers.CharField(source="supply.reason", help_text="why the map proposes it")
    path = serializers.ListField(
        source="supply.path", child=serializers.IntegerField(), allow_null=True, help_text=SECTOR_PATH_HELP
    )
    line = serializers.CharField(
        help_text="the traced line in words: the sectors from where it stands to its source"
    )
    links_to_c_ops = serializers.IntegerField(
        source="supply.links_to_c_ops",
        allow_null=True,
        help_text="sectors from its C Ops over ground its side holds; null: no line",
    )
    reported = serializers.ChoiceField(
        source="reported.situation",
        choices=SUPPLY_SITUATION_CHOICES,
        allow_null=True,
        default=None,
        help_text="what the day's last confirmed battle report gave it; null: no report said",
    )
    reported_in = serializers.CharField(
        source="reported.battle", allow_null=True, default=None, help_text="the battle that report was of"
    )
    override = serializers.ChoiceField(
        choices=SUPPLY_SITUATION_CHOICES, allow_null=True, help_text="the umpire's choice today; null: none"
    )
    applies = serializers.ChoiceField(
        choices=SUPPLY_SITUATION_CHOICES,
        help_text="what the night applies: the override, else the report's, else the proposal's "
        "(rules notes MS-07)",
    )
    applies_because = serializers.CharField(help_text="which of the three that is, in words")


class SupplyForceSerializer(LabelledSerializer[Any]):
    id = serializers.UUIDField(source="force.public_id", help_text=PUBLIC_ID_HELP)
    name = serializers.CharField(source="force.name")
    side = serializers.IntegerField(source="force.side_id")
    sector = serializers.IntegerField(source="force.sector_id", help_text="where its C Ops stands")
    isolated_from_source = serializers.BooleanField(
        help_text="its C Ops has no line to a source: its action-point roll takes the isolation penalty"
    )
    path = serializers.ListField(
        child=serializers.IntegerField(), allow_null=True, help_text=SECTOR_PATH_HELP
    )


class SupplySourcesSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField()
    sectors = serializers.ListField(
        child=serializers.IntegerField(), help_text="its sources of supply it holds (the pack lists them)"
    )


class SupplyOverrideSerializer(LabelledSerializer[Any]):
    code = serializers.CharField(help_text="the battalion's code")
    situation = serializers.ChoiceField(choices=SUPPLY_SITUATION_CHOICES)


class SupplyReviewSerializer(LabelledSerializer[Any]):
    """The supply proposal the umpire confirms (``campaign.services.supply``)."""

    situations = serializers.ListField(
        child=serializers.ChoiceField(choices=MAP_SUPPLY_SITUATION_CHOICES),
        help_text="what an override may choose, with their labels",
    )
    actions = serializers.ListField(
        child=serializers.ChoiceField(choices=SUPPLY_ACTION_CHOICES),
        help_text="what you may do with it now: `confirm` while the day is fought, before its night",
    )
    warning = serializers.CharField(
        allow_null=True, help_text="said before the night starts while today's supply is unconfirmed"
    )

    day = serializers.IntegerField(source="day.number", allow_null=True, default=None)
    confirmed_at = serializers.DateTimeField(
        source="day.supply_confirmed_at", allow_null=True, default=None, help_text="null: not confirmed today"
    )
    overrides = SupplyOverrideSerializer(
        many=True, help_text="the situations the umpire confirmed today instead of the proposal's"
    )
    sources = SupplySourcesSerializer(many=True)
    forces = SupplyForceSerializer(source="proposal.forces", many=True)
    battalions = SupplyBattalionSerializer(many=True)


# The umpire's to-do -------------------------------------------------------------------


class TodoItemSerializer(LabelledSerializer[Any]):
    kind = serializers.ChoiceField(choices=TodoKind.choices)
    text = serializers.CharField(help_text="what waits, in words")
    link = serializers.CharField(help_text="the web app's page where it is done, from the site's root")
    count = serializers.IntegerField(help_text="how many (orders, segments, operations); 1 otherwise")


class TodoSerializer(LabelledSerializer[Any]):
    items = TodoItemSerializer(
        many=True, help_text="in the order the umpire meets them; empty: nothing waits"
    )


# Victory -------------------------------------------------------------------------------


class VictorySectorSerializer(LabelledSerializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    owner = serializers.IntegerField(source="owner_id", allow_null=True, help_text="null: contested")
    held = serializers.BooleanField(help_text="by the condition's side")


class VictoryConditionSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField(source="side_id")
    side_name = serializers.CharField()
    result = serializers.CharField(help_text="what the campaign's result reads when it is met")
    sectors = VictorySectorSerializer(many=True, help_text="the sectors its side must hold")
    victory_points = serializers.IntegerField(allow_null=True, help_text="the threshold; null: none")
    points_held = serializers.IntegerField(help_text="the victory points of the sectors its side holds")
    by_day = serializers.IntegerField(allow_null=True, help_text="met only at a night up to this day")
    met = serializers.BooleanField(
        help_text="as the map stands: tonight's night phase would end the campaign"
    )
    expired = serializers.BooleanField(help_text="its day is past")
    standing = serializers.CharField(help_text="where its side stands, in words")


class VictorySideSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField(source="side_id")
    name = serializers.CharField()
    sectors_held = serializers.IntegerField()
    victory_points = serializers.IntegerField(help_text="of the sectors it holds")


class VictorySerializer(LabelledSerializer[Any]):
    """The victory conditions and each side's standing (``campaign.selectors.victory_standing``)."""

    status = serializers.ChoiceField(source="campaign.status", choices=CampaignStatus.choices)
    summary = serializers.CharField(help_text="where the campaign stands, or how it ended, in words")
    winner = serializers.IntegerField(source="campaign.winner_id", allow_null=True, help_text="once finished")
    result = serializers.CharField(source="campaign.result", help_text="once finished; empty before")
    finished_day = serializers.IntegerField(source="campaign.finished_day", allow_null=True)
    conditions = VictoryConditionSerializer(many=True, help_text="in the order the night checks them")
    end_day = serializers.IntegerField(
        source="end.day", allow_null=True, default=None, help_text="the day whose night ends it at the latest"
    )
    end_text = serializers.CharField(allow_null=True, help_text="what ends it if no condition is met")
    sides = VictorySideSerializer(many=True)


# The club's administration: members, invitations, schedule, calendar -----------------

WEEKDAY_CHOICES = [(number, name) for number, name in enumerate(calendar.day_name)]


class MemberSerializer(LabelledModelSerializer[models.Membership]):
    username = serializers.CharField(source="user.get_username", read_only=True)
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)

    class Meta:
        model = models.Membership
        fields = ["id", "username", "role", "side", "side_name"]


class MemberCreatedSerializer(MemberSerializer):
    """A member whose account the umpire made: with its initial password, this once."""

    shown_once = ("initial_password",)  # never copied into a replayed answer (api.idempotency)
    initial_password = serializers.SerializerMethodField(
        help_text="hand it to the member, who signs in with it; shown this once "
        "(null when an Idempotency-Key replays this answer)"
    )

    class Meta(MemberSerializer.Meta):
        fields = [*MemberSerializer.Meta.fields, "initial_password"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_initial_password(self, membership: models.Membership) -> str:
        return str(self.context["initial_password"])


class InvitationSerializer(LabelledModelSerializer[models.Invitation]):
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)
    accepted_by = serializers.CharField(source="accepted_by.get_username", read_only=True, allow_null=True)
    expired = serializers.SerializerMethodField(help_text="past its expiry, unused")

    class Meta:
        model = models.Invitation
        fields = [
            "id",
            "role",
            "side",
            "side_name",
            "expires_at",
            "expired",
            "created_by",
            "created_at",
            "accepted_by",
            "accepted_at",
        ]

    def get_expired(self, invitation: models.Invitation) -> bool:
        return invitation.accepted_at is None and invitation.expires_at <= timezone.now()


class InvitationCreatedSerializer(InvitationSerializer):
    """An invitation with its link, this once: only the token's hash is kept."""

    shown_once = ("token", "link")
    token = serializers.SerializerMethodField(help_text="null when an Idempotency-Key replays this answer")
    link = serializers.SerializerMethodField(
        help_text="the web app's page that joins whoever opens it, signed in; null on a replay"
    )

    class Meta(InvitationSerializer.Meta):
        fields = [*InvitationSerializer.Meta.fields, "token", "link"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_token(self, invitation: models.Invitation) -> str:
        return str(self.context["token"])

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_link(self, invitation: models.Invitation) -> str:
        request = self.context["request"]
        return str(request.build_absolute_uri(f"/join/{self.context['token']}"))


class InvitationPreviewSerializer(LabelledModelSerializer[models.Invitation]):
    """What an invitation link offers, for the person about to accept it."""

    campaign = serializers.CharField(source="campaign.slug", read_only=True)
    campaign_name = serializers.CharField(source="campaign.name", read_only=True)
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)
    used = serializers.SerializerMethodField()
    expired = serializers.SerializerMethodField()

    class Meta:
        model = models.Invitation
        fields = ["campaign", "campaign_name", "role", "side_name", "expires_at", "used", "expired"]

    def get_used(self, invitation: models.Invitation) -> bool:
        return invitation.accepted_at is not None

    def get_expired(self, invitation: models.Invitation) -> bool:
        return invitation.expires_at <= timezone.now()


class ClubNightSerializer(LabelledModelSerializer[models.ClubNight]):
    class Meta:
        model = models.ClubNight
        fields = ["campaign_day", "play_date"]


class ScheduleSerializer(LabelledSerializer[Any]):
    """The club's schedule: the weekly night phase (in the club's time zone) and the club nights."""

    night_weekday = serializers.ChoiceField(
        source="campaign.night_weekday", choices=WEEKDAY_CHOICES, allow_null=True, read_only=True
    )
    # Text, not an RFC 3339 time (which would need an offset): a wall-clock time of the club's zone.
    night_time = serializers.CharField(
        source="campaign.night_time", allow_null=True, read_only=True, help_text="HH:MM:SS, in `time_zone`"
    )
    time_zone = serializers.SerializerMethodField(help_text="the club's time zone (IANA name)")
    next_night_phase = serializers.DateTimeField(
        allow_null=True, read_only=True, help_text="when the schedule next starts the night phase"
    )
    club_nights = ClubNightSerializer(many=True, read_only=True)
    orders_lead_hours = serializers.IntegerField(
        source="campaign.orders_lead_hours",
        read_only=True,
        help_text="how many hours before the night phase the sides' orders close",
    )

    def get_time_zone(self, schedule: Any) -> str:
        return str(timezone.get_default_timezone_name())


class CalendarLinkSerializer(LabelledSerializer[Any]):
    url = serializers.CharField(help_text="your own iCal feed of the club nights: keep it to yourself")


class NotificationSerializer(LabelledModelSerializer[models.Notification]):
    """One entry of a person's inbox."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    campaign = serializers.CharField(source="campaign.slug", read_only=True, help_text="the campaign's slug")
    campaign_name = serializers.CharField(source="campaign.name", read_only=True)
    link = serializers.CharField(
        read_only=True, help_text="the web app's page it is about, from the site's root"
    )
    read = serializers.SerializerMethodField()

    class Meta:
        model = models.Notification
        fields = [
            "id",
            "campaign",
            "campaign_name",
            "kind",
            "title",
            "body",
            "link",
            "read",
            "read_at",
            "email",
            "emailed_at",
            "created_at",
        ]

    def get_read(self, notification: models.Notification) -> bool:
        return notification.read_at is not None


class NotificationCountSerializer(LabelledSerializer[Any]):
    unread = serializers.IntegerField(help_text="your unread notifications (of the campaign asked, if any)")


class NotificationsReadSerializer(LabelledSerializer[Any]):
    marked = serializers.IntegerField(help_text="how many were unread and are read now")


class NotificationEmailsSerializer(LabelledSerializer[Any]):
    notification_emails = serializers.BooleanField(
        help_text="whether this campaign's notifications are e-mailed to you too (the inbox has them always)"
    )


# Battle drafts (rules notes C-20) --------------------------------------------


class DraftSerializer(LabelledSerializer[Any]):
    """A side's draft of a battle report, as its own players and the umpires read it."""

    side = serializers.IntegerField()
    side_name = serializers.CharField()
    status = serializers.ChoiceField(choices=DraftStatus.choices)
    author = serializers.CharField(allow_null=True, help_text="who saved it last")
    updated_at = serializers.DateTimeField()
    report = serializers.JSONField(help_text="as POST report/ takes it")


DRAFTED_FIELD_CHOICES = [
    ("destroyed", "stands destroyed"),
    ("suppressed", "stands suppressed"),
    *OWN_SIDE_FIELDS.items(),
]


class DraftableBattalionSerializer(LabelledSerializer[Any]):
    code = serializers.CharField()
    draftable = serializers.ListField(
        child=serializers.ChoiceField(choices=DRAFTED_FIELD_CHOICES),
        help_text="what your draft may give of it: the stands of every battalion (both sides saw "
        "the table); points, rounds, templates, supply, fuel and objectives of your own only",
    )


class OwnDraftSerializer(LabelledSerializer[Any]):
    """Your side's draft of the battle's report, whether the other side has filed one (never
    what it says), and what your side may draft of each battalion."""

    battle = serializers.UUIDField(help_text="the battle's id")
    side = serializers.IntegerField(help_text="your side: the draft is its own")
    draft = DraftSerializer(allow_null=True, help_text="null: your side has filed none")
    opponent_filed = serializers.BooleanField(help_text="the other side has filed its draft")
    battalions = DraftableBattalionSerializer(many=True)
    draftable = serializers.ListField(
        child=serializers.ChoiceField(choices=[(kind, DraftItemKind(kind).label) for kind in BATTLE_FIELDS]),
        help_text="what your draft may say of the battle itself (both sides saw it)",
    )


class DraftVersionSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField()
    side_name = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    text = serializers.CharField(help_text="the value in words")


class DraftItemSerializer(LabelledSerializer[Any]):
    key = serializers.CharField(help_text="what a confirmation's `choices` names a conflict by")
    kind = serializers.ChoiceField(choices=DraftItemKind.choices)
    battalion = serializers.CharField(allow_null=True)
    stand = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=DraftItemStatus.choices)
    value = serializers.JSONField(allow_null=True, help_text="the value proposed; null for a conflict")
    text = serializers.CharField(allow_null=True, help_text="the value proposed in words")
    versions = DraftVersionSerializer(many=True, help_text="each draft that entered it, side by side")
    stand_now = serializers.ChoiceField(
        choices=StandStatus.choices, allow_null=True, help_text="a stand's state in the order of battle now"
    )


class DraftComparisonSerializer(LabelledSerializer[Any]):
    """Both drafts of a battle compared for the umpire: the proposal is what they agree on and
    what one side alone entered; each conflict waits for the umpire's choice."""

    battle = serializers.UUIDField(help_text="the battle's id")
    revision = serializers.CharField(help_text="confirm with it: a draft changed since is refused")
    drafts = DraftSerializer(many=True)
    items = DraftItemSerializer(many=True)
    conflicts = serializers.IntegerField()
    proposal = serializers.JSONField(help_text="the report without the conflicts")


def _draft_data(draft: models.BattleDraft, sides: Mapping[int, models.Side]) -> dict[str, Any]:
    return {
        "side": draft.side_id,
        "side_name": sides[draft.side_id].name,
        "status": draft.status,
        "author": draft.author.get_username() if draft.author else None,
        "updated_at": draft.updated_at,
        "report": draft.report,
    }


def own_draft_data(own: OwnDraft, access: CampaignAccess) -> dict[str, Any]:
    return {
        "battle": own.battle.public_id,
        "side": own.side_id,
        "draft": _draft_data(own.draft, access.sides) if own.draft else None,
        "opponent_filed": own.opponent_filed,
        "battalions": [{"code": code, "draftable": list(fields)} for code, fields in own.fields.items()],
        "draftable": list(BATTLE_FIELDS),
    }


SUPPLY_LABELS = labels_of(SUPPLY_SITUATION_CHOICES)
STAND_LABELS = labels_of(StandStatus.choices)


def _value_text(kind: str, value: Any, sides: Mapping[int, models.Side]) -> str:
    if kind == DraftItemKind.STAND:
        return STAND_LABELS.get(str(value), str(value))
    if kind == DraftItemKind.SUPPLY_SITUATION:
        return "Unchanged" if value == UNCHANGED else SUPPLY_LABELS.get(str(value), str(value))
    if kind == DraftItemKind.OBJECTIVES:
        return "; ".join(f"{o['name']} ({o['activation_points']} AP)" for o in value) or "None"
    if kind in (DraftItemKind.WINNER, DraftItemKind.SECTOR_OWNER):
        side = sides.get(value) if isinstance(value, int) else None
        if side is not None:
            return side.name
        return "Nobody" if kind == DraftItemKind.WINNER else CONTESTED
    return str(value)


def draft_comparison_data(compared: DraftComparison, access: CampaignAccess) -> dict[str, Any]:
    sides = access.sides
    items = []
    for item in compared.comparison.items:
        items.append(
            {
                "key": item.key,
                "kind": item.kind,
                "battalion": item.battalion,
                "stand": item.stand,
                "status": item.status,
                "value": item.value,
                "text": None
                if item.status == DraftItemStatus.CONFLICT
                else _value_text(item.kind, item.value, sides),
                "versions": [
                    {
                        "side": side,
                        "side_name": sides[side].name,
                        "value": value,
                        "text": _value_text(item.kind, value, sides),
                    }
                    for side, value in item.versions.items()
                ],
                "stand_now": compared.stands_now.get((str(item.battalion), str(item.stand)))
                if item.kind == DraftItemKind.STAND
                else None,
            }
        )
    return {
        "battle": compared.battle.public_id,
        "revision": compared.comparison.revision,
        "drafts": [_draft_data(draft, sides) for draft in compared.drafts],
        "items": items,
        "conflicts": len(compared.comparison.conflicts),
        "proposal": compared.comparison.report(),
    }


# Provably fair dice (rules_engine.fairness; docs/api.md "Verifying the dice") --------------------

ALGORITHM_CHOICES = [(fairness.ALGORITHM, fairness.ALGORITHM_TEXT)]


class DiceDaySeedSerializer(LabelledModelSerializer[models.CampaignDay]):
    day = serializers.IntegerField(source="number", read_only=True)
    seed = serializers.CharField(source="dice_seed", read_only=True, help_text="the day's revealed seed")

    class Meta:
        model = models.CampaignDay
        fields = ["day", "seed"]


class DiceCommitmentFieldsSerializer(LabelledSerializer[Any]):
    """What a verifier needs besides the seeds: the commitment and how the chain is built."""

    commitment = serializers.CharField(
        source="campaign.dice_commitment",
        help_text="SHA-256 hash chain head published at the campaign's creation: day d's seed, "
        "hashed d times, gives it",
    )
    algorithm = serializers.ChoiceField(choices=ALGORITHM_CHOICES)
    chain_length = serializers.IntegerField(
        source="campaign.dice_chain_length", help_text="links of the chain: the days the campaign can roll"
    )


class DiceAudienceDaySeedSerializer(LabelledSerializer[Any]):
    day = serializers.IntegerField()
    seed = serializers.CharField(help_text="the audience's revealed seed of the day")


class DiceAudienceSerializer(LabelledSerializer[Any]):
    """An audience's own chain: its commitment, and the day seeds revealed to you."""

    audience = serializers.CharField(
        help_text="who reads its rolls besides the umpires: `side <name>`, `battle [<side>, <side>]` "
        "(a battle's two sides) or `umpire`; each roll names the audience whose seed rolled it"
    )
    commitment = serializers.CharField(
        help_text="the head of the audience's hash chain, fixed at the campaign's creation: day d's "
        "seed of the audience, hashed d times, gives it"
    )
    revealed = DiceAudienceDaySeedSerializer(
        source="seeds",
        many=True,
        help_text="its day seeds revealed to you: after each night to its readers, to every member "
        "once the campaign is over; empty for an audience you are not of",
    )


class DiceSummarySerializer(DiceCommitmentFieldsSerializer):
    rolling_day = serializers.IntegerField(
        help_text="the day whose seed rolls now (the first not revealed): set-up, day, night and the "
        "next dawn's rolls all belong to it"
    )
    revealed = DiceDaySeedSerializer(
        source="days", many=True, help_text="the public day seeds revealed so far (`commitment`'s chain)"
    )
    audiences = DiceAudienceSerializer(
        many=True, help_text="every other audience's chain: rolls only its readers read come from it"
    )


class DiceDayAudienceSerializer(LabelledSerializer[Any]):
    audience = serializers.CharField(help_text="an audience you are of (see the dice summary)")
    commitment = serializers.CharField(help_text="its chain's head: the seed hashed `day` times gives it")
    seed = serializers.CharField(help_text="its seed of the day")


class DiceRollSerializer(LabelledModelSerializer[models.RollRecord]):
    """One roll of the day as the verifier replays it."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    audience = serializers.CharField(
        source="dice_audience",
        read_only=True,
        help_text="whose seed rolled it: `public` (the document's `seed`), else one of `audiences`",
    )
    faces = serializers.SerializerMethodField(help_text="the faces of each die thrown, as recorded")
    override = serializers.SerializerMethodField(
        help_text="an umpire's recorded override of `override_of`: not replayed"
    )
    override_of = serializers.SlugRelatedField[models.RollRecord](
        slug_field="public_id", read_only=True, allow_null=True, help_text="the id of the roll it overrides"
    )
    hidden = serializers.SerializerMethodField(
        help_text="inputs or result hold strengths hidden from you, so you cannot replay it"
    )
    entered = serializers.CharField(
        source="table_roll",
        read_only=True,
        help_text='"rolled at the table by <member>": its faces were entered, not rolled from the seed; '
        "verify checks the result against them",
    )

    class Meta:
        model = models.RollRecord
        fields = [
            "id",
            "procedure",
            "stream",
            "audience",
            "inputs",
            "result",
            "faces",
            "override",
            "override_of",
            "hidden",
            "entered",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.ListField(child=serializers.IntegerField())))
    def get_faces(self, roll: models.RollRecord) -> list[list[int]]:
        return [list(thrown["faces"]) for thrown in roll.result.get("rolls", [])]

    def get_override(self, roll: models.RollRecord) -> bool:
        return roll.override_of_id is not None

    def get_hidden(self, roll: models.RollRecord) -> bool:
        return access_rules.roll_shown(access_of(self), roll).result is not roll.result

    def to_representation(self, instance: models.RollRecord) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = access_rules.roll_shown(access_of(self), instance)
        data.update(inputs=shown.inputs, result=shown.result)
        if data["hidden"]:
            data["faces"] = []
        return data


class DayDiceSerializer(DiceCommitmentFieldsSerializer):
    """A revealed day's verification document: read by ``python -m rules_engine verify``."""

    campaign = serializers.CharField(source="campaign.slug")
    day = serializers.IntegerField(source="day.number")
    seed = serializers.CharField(source="day.dice_seed", help_text="the day's revealed public seed")
    audiences = DiceDayAudienceSerializer(
        many=True,
        help_text="the day's seeds of the other audiences you are of (your side, your battles; all "
        "for umpires and once the campaign is over), each with its commitment",
    )
    rolls = DiceRollSerializer(many=True, help_text="the day's rolls you may read, in the order rolled")
