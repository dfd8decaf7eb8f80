"""Sealed orders: the night orders and each side's orders for the day."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from api.actions import ActionsField, ActionsLabelsField
from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign import models
from campaign.choices import SIDE_ORDER_ACTION_CHOICES
from campaign.services.night_orders import night_order_words
from campaign.services.orders import order_sector_names, order_words, side_order_actions


class NightOrderSerializer(LabelledModelSerializer[models.NightOrder]):
    """An order the umpire queued for a night phase, by the codes and labels the club uses."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    day = serializers.IntegerField(source="day.number", read_only=True)
    side = serializers.IntegerField(source="battalion.side_id", read_only=True)
    battalion = serializers.CharField(source="battalion.code", read_only=True)
    stand = serializers.CharField(source="stand.label", read_only=True, allow_null=True)
    target_battalion = serializers.CharField(source="target_battalion.code", read_only=True, allow_null=True)
    words = serializers.SerializerMethodField(
        help_text='what the order says, in words: "A2 to withdraw to reserve"'
    )

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
            "words",
        ]

    def get_words(self, order: models.NightOrder) -> str:
        return night_order_words(order)


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
    actions = ActionsField(
        side_order_actions,
        SIDE_ORDER_ACTION_CHOICES,
        help_text="what you may do with it now: its side's players `edit` and `submit` a draft or an "
        "order sent back and `withdraw` it until decided; umpires `approve`, `send_back` or `amend` a "
        "submitted one",
    )
    actions_labels = ActionsLabelsField(side_order_actions, SIDE_ORDER_ACTION_CHOICES)
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
            "actions",
            "actions_labels",
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
