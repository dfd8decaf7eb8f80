"""A force's status: its battalions' stands, strength and where each stands today."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, cast

from django.db import models as db_models
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer, add_labels
from api.serializers.base import PUBLIC_ID_HELP, STAND_TYPE_LABELS, access_of
from api.serializers.campaigns import NIGHT_IN_PROGRESS_HELP
from api.serializers.forces import ForceSerializer
from api.serializers.night import NightReportSerializer
from campaign import access as access_rules
from campaign import models
from campaign.choices import ActivationState, FuelState, StandStatus, StandType, enum_choices
from campaign.selectors import BattalionStatus, ForceStatus
from campaign.services.battle_reports import fuel_reported
from rules_engine.vocab import SupplySituation


class BattleLocation(db_models.TextChoices):
    RESERVE = "reserve", "In reserve"
    NOT_ARRIVED = "not_arrived", "Not on the table: its force has not arrived"
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


RESERVE_SUPPLY = SupplySituation.RESERVE.value


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
    supply_situation = serializers.ChoiceField(
        choices=enum_choices(SupplySituation),
        allow_null=True,
        help_text="null when the enemy hides it, or for a battalion in reserve: its location says it",
    )
    fuel_state = serializers.ChoiceField(choices=FuelState.choices, allow_null=True)
    reports_fuel = serializers.BooleanField(
        allow_null=True,
        help_text="whether it has fuel to speak of: the campaign plays fuel supply and it has vehicle "
        "companies (a battle's report gives their fuel)",
    )
    ammo_low_markers = serializers.IntegerField(allow_null=True)

    def to_representation(self, instance: BattalionStatus) -> dict[str, Any]:
        row = instance.battalion
        if row["in_reserve"]:
            location = BattleLocation.RESERVE
        elif not self.context.get("force_present", True):
            location = BattleLocation.NOT_ARRIVED
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
            # "In reserve · supply Reserve" would say it twice.
            **({"supply_situation": None} if row["supply_situation"] == RESERVE_SUPPLY else {}),
            # It follows from the fuel state, so it is hidden with it.
            "reports_fuel": fuel_reported(access_of(self).campaign, row["fuel_state"]),
        }
        shown = access_rules.fields_shown(access_of(self), row["side_id"], frozenset(), self.STRENGTH)
        if shown is not None:
            data.update(
                dict.fromkeys(
                    name for name in (*self.IN_FULL_ONLY, "reports_fuel", *self.STRENGTH) if name not in shown
                )
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
        present = status.force.arrival_status in access_rules.PRESENT
        battalion = BattalionStatusSerializer(context={**self.context, "force_present": present})
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
