"""The reference endpoints: equipment and the rules catalogue."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer, with_field
from api.serializers.rolls import RuleReferenceSerializer
from campaign import models


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
