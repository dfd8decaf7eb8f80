"""Battles, their lulls and the questions their setup asks."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.actions import ActionsField, ActionsLabelsField
from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP, access_of
from api.serializers.papers import PaperLinkSerializer, paper_links
from api.serializers.reference import RuleInputSerializer
from campaign import access as access_rules
from campaign import models
from campaign.choices import BATTLE_ACTION_CHOICES, enum_choices
from campaign.paper import battle_papers
from campaign.services.battles import battle_actions
from rules_engine.nineteen43.lulls import LullLength


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
    papers = serializers.SerializerMethodField(
        help_text="its packets you may print now, as links in words: one for each side fighting it that "
        "you print for"
    )
    draft_side = serializers.SerializerMethodField(
        help_text="your side, whose draft of its report you write and read: null unless you are a player "
        "of a side fighting it"
    )
    actions = ActionsField(
        battle_actions,
        BATTLE_ACTION_CHOICES,
        help_text="what you may do with it now: `set_up` while it is planned (an umpire, or a player of "
        "it rolling at the table the steps the club lets players roll: the campaign's table_dice), "
        "`draft` your side's report (its players) and `report` it (umpires) until it is reported",
    )
    actions_labels = ActionsLabelsField(battle_actions, BATTLE_ACTION_CHOICES)

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
            "draft_side",
            "papers",
            "actions",
            "actions_labels",
        ]

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_draft_side(self, battle: models.Battle) -> int | None:
        return access_rules.battle_draft_reader_side(access_of(self), battle)

    @extend_schema_field(PaperLinkSerializer(many=True))
    def get_papers(self, battle: models.Battle) -> Any:
        access = access_of(self)
        context = {**self.context, "campaign": access.campaign, "battle": battle}
        return paper_links(battle_papers(access, battle), context)

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
