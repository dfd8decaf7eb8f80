"""The roll log: each roll, its dice, modifiers and rule references, and an umpire's override."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, access_of
from campaign import access as access_rules
from campaign import models
from campaign.choices import DAY_SEGMENT_CHOICES, enum_choices
from campaign.selectors import roll_change_choices
from rules_engine import catalog
from rules_engine.dice import DiceRoll
from rules_engine.presenters import describe_rule
from rules_engine.registry import CatalogError
from rules_engine.results import Applies, Comparison, Modifier, RollOutput


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


class RollOverrideSerializer(LabelledSerializer[Mapping[str, models.RollRecord]]):
    """An umpire's override next to the roll it overrides, which stays in the log."""

    original = RollSerializer(read_only=True)
    override = RollSerializer(read_only=True, help_text="its override_of names the original")
