"""Supply lines: each battalion's line to its source, and the umpire's review."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.labels import LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign.choices import MAP_SUPPLY_SITUATION_CHOICES, SUPPLY_ACTION_CHOICES, SUPPLY_SITUATION_CHOICES

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
