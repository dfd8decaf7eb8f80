"""Input serializers: the shape of each write. The rules are the services' to enforce."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from campaign.choices import OperationKind, enum_choices
from rules_engine.nineteen43.common import BattleType
from rules_engine.vocab import SupplySituation


class BattleCreateInput(serializers.Serializer[Mapping[str, Any]]):
    sector = serializers.CharField(max_length=100, help_text="table or sector name")
    battle_type = serializers.ChoiceField(choices=enum_choices(BattleType))
    attacker_id = serializers.IntegerField(help_text="side id")
    defender_id = serializers.IntegerField(help_text="side id")
    battalion_codes = serializers.ListField(child=serializers.CharField(max_length=20), allow_empty=False)
    continues_id = serializers.IntegerField(
        required=False, allow_null=True, help_text="the battle on the same sector the day before"
    )
    feeds_ids = serializers.ListField(
        child=serializers.IntegerField(), required=False, help_text="battles forces leave this one for"
    )


class BattleSetupInput(serializers.Serializer[Mapping[str, Any]]):
    inputs = serializers.DictField(
        child=serializers.DictField(),
        required=False,
        help_text='what the campaign cannot know, by procedure key or "key@Side name": {field: value}',
    )


class ObjectiveInput(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(max_length=200)
    activation_points = serializers.IntegerField(min_value=0, required=False)


class ReportedBattalionInput(serializers.Serializer[Mapping[str, Any]]):
    code = serializers.CharField(max_length=20)
    destroyed = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, help_text="stand labels"
    )
    suppressed = serializers.ListField(
        child=serializers.CharField(max_length=60), required=False, help_text="stand labels"
    )
    activation_points_spent = serializers.IntegerField(min_value=0, required=False)
    barrage_rounds_spent = serializers.IntegerField(min_value=0, required=False)
    objectives = ObjectiveInput(many=True, required=False)
    supply_situation = serializers.ChoiceField(
        choices=enum_choices(SupplySituation), required=False, help_text="at the end of the battle"
    )


class BattleReportInput(serializers.Serializer[Mapping[str, Any]]):
    battalions = ReportedBattalionInput(many=True, allow_empty=False)


class OperationStartInput(serializers.Serializer[Mapping[str, Any]]):
    kind = serializers.ChoiceField(
        choices=[(OperationKind.NIGHT_PHASE.value, OperationKind.NIGHT_PHASE.label)],
        help_text="arrival rolls start on their own when a segment opens",
    )
