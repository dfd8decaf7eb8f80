"""Input serializers: the shape of each write. The rules are the services' to enforce."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from campaign.choices import WEBHOOK_EVENT_CHOICES, OperationKind, enum_choices
from rules_engine.great_battles.activation import ActivationColumn
from rules_engine.nineteen43.common import BattleType
from rules_engine.results import RuleSystem
from rules_engine.vocab import SupplySituation

# Every number an input takes is bounded: ids by the database's bigint, counts by the
# small-integer columns they end in, so 10**40 is a 400 naming the field, never stored.
ID_MAX = 2**63 - 1
COUNT_MAX = 32767
LAST_TURN = 10
RANGE_MAX_INCHES = 1000.0


def id_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=1, max_value=ID_MAX, **kwargs)


def count_field(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(min_value=0, max_value=COUNT_MAX, **kwargs)


class BattleCreateInput(serializers.Serializer[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        required=False,
        allow_null=True,
        help_text="where it is fought: a sector id (GET sectors/); or give sector_name",
    )
    sector_name = serializers.CharField(
        max_length=100,
        required=False,
        help_text="a sector's name; a campaign without a map may name a new table here",
    )
    battle_type = serializers.ChoiceField(choices=enum_choices(BattleType))
    attacker_id = id_field(help_text="side id")
    defender_id = id_field(help_text="side id")
    battalion_codes = serializers.ListField(child=serializers.CharField(max_length=20), allow_empty=False)
    continues_id = id_field(
        required=False, allow_null=True, help_text="the battle on the same sector the day before"
    )
    feeds_ids = serializers.ListField(
        child=id_field(), required=False, help_text="battles forces leave this one for"
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("sector_id") is None and not attrs.get("sector_name"):
            raise serializers.ValidationError(
                {"sector": ["Give the sector's id, or its name as sector_name."]}
            )
        return attrs


class BattleSetupInput(serializers.Serializer[Mapping[str, Any]]):
    inputs = serializers.DictField(
        child=serializers.DictField(),
        required=False,
        help_text='what the campaign cannot know, by procedure key or "key@Side name": {field: value}',
    )


class BattleLullCheckInput(serializers.Serializer[Mapping[str, Any]]):
    turn = serializers.IntegerField(
        min_value=1, max_value=99, help_text="the battle turn starting its assault phase"
    )


class ObjectiveInput(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(max_length=200)
    activation_points = count_field(required=False)


class ReportedBattalionInput(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField(max_length=20)
    destroyed = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, help_text="stand labels"
    )
    suppressed = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, help_text="stand labels"
    )
    activation_points_spent = count_field(required=False)
    barrage_rounds_spent = count_field(required=False)
    objectives = ObjectiveInput(many=True, required=False)
    supply_situation = serializers.ChoiceField(
        choices=enum_choices(SupplySituation), required=False, help_text="at the end of the battle"
    )


class BattleReportInput(serializers.Serializer[Mapping[str, Any]]):
    battalions = ReportedBattalionInput(many=True, allow_empty=False)
    winner = id_field(
        required=False,
        allow_null=True,
        help_text="the side that won: the attacker's or defender's id; null: nobody",
    )
    sector_owner = id_field(
        required=False,
        allow_null=True,
        help_text="who holds the battle's sector now (a side of the battle; null: contested); "
        "leave out when control does not change",
    )


class ForceMoveInput(serializers.Serializer[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        allow_null=True,
        help_text="a sector next to where it stands (any sector from off the map); null: off the map",
    )
    forming_up_point = serializers.BooleanField(
        default=False, help_text="move its forming-up point instead of its C Ops"
    )


class BattalionMoveInput(serializers.Serializer[Mapping[str, Any]]):
    sector = id_field(
        source="sector_id",
        allow_null=True,
        help_text="a sector next to where it stands (any sector from off the map); null: off the map",
    )


class SectorControlInput(serializers.Serializer[Mapping[str, Any]]):
    owner = id_field(
        source="owner_id", allow_null=True, help_text="the side that holds it now; null: contested"
    )
    reason = serializers.CharField(max_length=500, help_text="why it changes hands (every member reads it)")


class APIKeyCreateInput(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(max_length=50, help_text="who uses the key, for what")
    side = id_field(
        source="side_id",
        required=False,
        allow_null=True,
        help_text="side id: the key sees as that side's player; empty: the public (observer) view",
    )
    can_write = serializers.BooleanField(
        default=False, help_text="the key may make the umpire's writes (and sees all); only without a side"
    )
    expiry_date = serializers.DateTimeField(required=False, allow_null=True, help_text="empty: never expires")


class OperationStartInput(serializers.Serializer[Mapping[str, Any]]):
    kind = serializers.ChoiceField(
        choices=OperationKind.choices,
        help_text="arrival rolls start on their own when a segment opens; start them here for forces "
        "that fell due later in the segment",
    )


class DeploymentInput(serializers.Serializer[Mapping[str, Any]]):
    battalion = serializers.CharField(max_length=20, help_text="code of a battalion in reserve")
    range_inches = serializers.FloatField(
        min_value=0, max_value=RANGE_MAX_INCHES, help_text="to the nearest enemy"
    )
    friendly_intervening = serializers.BooleanField(default=False)


class DayDawnInput(serializers.Serializer[Mapping[str, Any]]):
    deployments = DeploymentInput(many=True, required=False, help_text="battalions leaving reserve at dawn")


class ActivationSpendInput(serializers.Serializer[Mapping[str, Any]]):
    column = serializers.ChoiceField(
        choices=enum_choices(ActivationColumn), help_text="activation chart column"
    )
    turn = serializers.IntegerField(
        min_value=0, max_value=LAST_TURN, help_text="0 for the dawn turn, else 1..10"
    )
    battalion_codes = serializers.ListField(child=serializers.CharField(max_length=20), allow_empty=False)


class RollOverrideInput(serializers.Serializer[Mapping[str, Any]]):
    changes = serializers.DictField(allow_empty=False, help_text="value the roll set → the umpire's value")
    reason = serializers.CharField(max_length=500)


class ReinforcementScheduleInput(serializers.Serializer[Mapping[str, Any]]):
    force_id = id_field()
    day = serializers.IntegerField(min_value=1, max_value=COUNT_MAX, help_text="the campaign day it is due")
    zone = serializers.CharField(max_length=60, required=False, allow_blank=True, default="")


class WebhookInput(serializers.Serializer[Mapping[str, Any]]):
    """A subscription; a PATCH sends only what changes."""

    url = serializers.CharField(max_length=500, help_text="http:// or https:// URL that receives the POSTs")
    events = serializers.ListField(
        child=serializers.ChoiceField(choices=WEBHOOK_EVENT_CHOICES), allow_empty=False
    )
    secret = serializers.CharField(
        min_length=16,
        max_length=128,
        required=False,
        write_only=True,
        help_text="HMAC-SHA256 key of X-Campaign-Signature; omit it and the service makes one, "
        "returned once in the response",
    )
    active = serializers.BooleanField(required=False, help_text="inactive subscriptions receive nothing")


class RuleQuery(serializers.Serializer[dict[str, str]]):
    system = serializers.ChoiceField(choices=[s.value for s in RuleSystem], required=False)
    kind = serializers.ChoiceField(choices=["procedure", "table"], required=False)


class LoginInput(serializers.Serializer[dict[str, str]]):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=1024, style={"input_type": "password"})
