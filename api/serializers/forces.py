"""The order of battle: forces, battalions, stands and the reinforcements due."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, FogMaskedSerializer, access_of
from api.serializers.campaigns import NIGHT_IN_PROGRESS_HELP
from campaign import access as access_rules
from campaign import models
from campaign.choices import (
    COPS_QUALITY_CHOICES,
    FORCE_ACTION_CHOICES,
    REINFORCEMENT_ACTION_CHOICES,
    BattleStatus,
    enum_choices,
)
from campaign.selectors import BattalionHistory, BattleServed, NightServed
from campaign.services.battle_reports import fuel_reported
from campaign.services.day_rules import force_rule_actions
from campaign.services.night_orders import stand_may_be_ordered
from campaign.services.reinforcements import reinforcement_actions
from rules_engine.nineteen43.common import BattleType

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
    # Whether it may be ordered follows from its status alone, so it is as public as that.
    public_fields = frozenset(
        {"id", "battalion", "battalion_code", "label", "stand_type", "status", "may_be_ordered"}
    )

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
    may_be_ordered = serializers.SerializerMethodField(
        help_text="whether an order (attach, detach) may name it: a destroyed stand takes none"
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
            "may_be_ordered",
        ]

    def side_id_of(self, instance: models.Stand) -> int:
        return instance.battalion.side_id

    def get_may_be_ordered(self, instance: models.Stand) -> bool:
        return stand_may_be_ordered(instance)


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
    reports_fuel = serializers.SerializerMethodField(
        help_text="whether a battle's report gives its fuel at the end: the campaign plays fuel supply "
        "and it has vehicle companies"
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
            "reports_fuel",
            "sector",
            "sector_name",
        ]

    def side_id_of(self, instance: models.Battalion) -> int:
        return instance.side_id

    def get_reports_fuel(self, instance: models.Battalion) -> bool:
        return fuel_reported(access_of(self).campaign, instance.fuel_state)


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


class BattleServedSerializer(LabelledSerializer[BattleServed]):
    """A battle the battalion fought, with its line of the report as battle reports show it."""

    id = serializers.UUIDField(source="battle.public_id", help_text="the battle's id")
    day = serializers.IntegerField(source="battle.day.number")
    sector_name = serializers.CharField(source="battle.sector.name")
    battle_type = serializers.ChoiceField(source="battle.battle_type", choices=enum_choices(BattleType))
    status = serializers.ChoiceField(source="battle.status", choices=BattleStatus.choices)
    attacker_name = serializers.CharField(source="battle.attacker.name")
    defender_name = serializers.CharField(source="battle.defender.name")
    winner_name = serializers.CharField(
        source="battle.winner.name",
        allow_null=True,
        default=None,
        help_text="null: not reported, or nobody won",
    )
    stands_lost = serializers.IntegerField(
        allow_null=True, help_text="destroyed in it; null: not reported, or its line is hidden from you"
    )
    stands_suppressed = serializers.IntegerField(allow_null=True)
    activation_points_spent = serializers.IntegerField(allow_null=True)


class NightServedSerializer(LabelledSerializer[NightServed]):
    day = serializers.IntegerField(help_text="the day whose night it was")
    stands_replaced = serializers.IntegerField(help_text="destroyed stands its replacement rolls returned")
    lines = serializers.ListField(child=serializers.CharField(), help_text="the rolls, one a die, in words")


class MoveSerializer(LabelledModelSerializer[models.Event]):
    day = serializers.IntegerField(source="day_number", allow_null=True)
    message = serializers.CharField(help_text="from where to where, in words")
    at = serializers.DateTimeField(source="created_at")

    class Meta:
        model = models.Event
        fields = ["day", "message", "at"]


class BattalionHistorySerializer(LabelledSerializer[BattalionHistory]):
    """A battalion's service history (``campaign.selectors.battalion_history``)."""

    battalion = BattalionSerializer()
    battles_fought = serializers.SerializerMethodField(help_text="the battles of it you may read")
    stands_lost = serializers.IntegerField(
        allow_null=True, help_text="in those battles; null when no line of theirs is shown to you"
    )
    stands_replaced = serializers.IntegerField(
        allow_null=True, help_text="by its nights' replacement rolls; null unless you see its side in full"
    )
    moves_made = serializers.SerializerMethodField(help_text="the moves you may read")
    battles = BattleServedSerializer(many=True)
    nights = NightServedSerializer(many=True, help_text="the nights it rolled for replacements")
    moves = MoveSerializer(many=True)

    def get_battles_fought(self, history: BattalionHistory) -> int:
        return len(history.battles)

    def get_moves_made(self, history: BattalionHistory) -> int:
        return len(history.moves)
