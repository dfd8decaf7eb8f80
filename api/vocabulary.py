"""``GET /api/v1/vocabulary/``: every enum the API takes or gives, with the words people read.

Outputs carry their labels beside their codes (``api.labels``); inputs need them before there is
anything to show, so the web app reads a select's or a radio's words here instead of spelling
them itself (like NetBox's ``{value, label}`` choices). The list is built from the enums' one home
(``campaign.choices``, the rules engine's vocabularies), never written out twice.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.db import models as db_models
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.conditional import etag_matches, not_modified, weak_etag
from api.contract import ApiContractMixin
from api.labels import with_field
from campaign import choices
from campaign.map_layout import ALLIED_COLOURS, AXIS_COLOUR
from campaign.services.memberships import ROLES_WITH_SIDE
from campaign.services.night_words import COUNTER_WORDS
from campaign.services.orders import PAYLOAD_FIELD_LABELS, PAYLOAD_FIELDS
from rules_engine import vocab
from rules_engine.nineteen43.common import BattleType

# The rules engine's enums the API takes or gives (campaign.choices offers the Django ones).
RULE_ENUMS: tuple[type[enum.Enum], ...] = (
    vocab.Nation,
    vocab.Front,
    vocab.Season,
    vocab.Weather,
    vocab.SupplyQuality,
    vocab.LeaderRating,
    BattleType,
)
# An order's payload field whose codes are one of the vocabulary's lists.
ORDER_FIELD_CHOICES = {"mode": "artillery_mode"}
_JSON_TYPES = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _terms(pairs: Iterable[tuple[Any, Any]]) -> list[dict[str, str]]:
    return [{"value": str(value), "label": str(label)} for value, label in pairs]


def domain_enums() -> dict[str, type[db_models.Choices]]:
    """The enums ``campaign.choices`` defines, by name."""
    return {
        name: value
        for name, value in vars(choices).items()
        if isinstance(value, type)
        and issubclass(value, db_models.Choices)
        and value.__module__ == choices.__name__
    }


def _lists() -> dict[str, list[dict[str, str]]]:
    """Every list of choices by name: ``FuelState`` as ``fuel_state``, ``REPORTED_FUEL_CHOICES``
    as ``reported_fuel``, the rules engine's ``Weather`` as ``weather``."""
    lists: dict[str, list[dict[str, str]]] = {}
    for name, enumeration in domain_enums().items():
        lists[_snake(name)] = _terms(enumeration.choices)
    for name, value in vars(choices).items():
        if name.endswith("_CHOICES") and isinstance(value, list):
            lists[name.removesuffix("_CHOICES").lower()] = _terms(value)
    for rule_enum in RULE_ENUMS:
        lists[_snake(rule_enum.__name__)] = _terms(choices.enum_choices(rule_enum))
    # The counters of a side's night report (its body's keys), in the order the report lists them.
    lists["night_counter"] = _terms(COUNTER_WORDS.items())
    return dict(sorted(lists.items()))


def _order_fields() -> dict[str, list[dict[str, Any]]]:
    """The payload fields each kind of sealed order takes, in the order the form asks for them."""
    return {
        str(kind): [
            {
                "name": name,
                "label": PAYLOAD_FIELD_LABELS[name],
                "type": _JSON_TYPES[field_type],
                "required": required,
                "choices": ORDER_FIELD_CHOICES.get(name),
            }
            for name, (field_type, required) in fields.items()
        ]
        for kind, fields in PAYLOAD_FIELDS.items()
    }


LISTS = _lists()
VOCABULARY: Mapping[str, Any] = {
    "lists": LISTS,
    "order_fields": _order_fields(),
    "roles_with_side": [str(role) for role in ROLES_WITH_SIDE],
    "roles_with_side_labels": [str(role.label) for role in ROLES_WITH_SIDE],
    "side_colours": {"axis": AXIS_COLOUR, "allied": list(ALLIED_COLOURS)},
}
ETAG = weak_etag(VOCABULARY)


class TermSerializer(serializers.Serializer[Mapping[str, str]]):
    value = serializers.CharField(help_text="the code the API takes and gives")

    def get_fields(self) -> dict[str, Any]:
        label = serializers.CharField(help_text="what a person reads for it")
        return with_field(super().get_fields(), "label", label)


class OrderFieldSerializer(serializers.Serializer[Mapping[str, Any]]):
    name = serializers.CharField(help_text="the key of the order's `payload`")
    type = serializers.CharField(help_text="its JSON type: string, integer, number or boolean")
    choices = serializers.CharField(
        allow_null=True, help_text="the name of the list in `lists` its codes come from; null: free"
    )

    def get_fields(self) -> dict[str, Any]:
        fields = with_field(super().get_fields(), "label", serializers.CharField())
        return with_field(fields, "required", serializers.BooleanField())


ListsSerializer = type(
    "VocabularyListsSerializer",
    (serializers.Serializer,),
    {name: TermSerializer(many=True) for name in LISTS},
)
OrderFieldsSerializer = type(
    "OrderFieldsSerializer",
    (serializers.Serializer,),
    {str(kind): OrderFieldSerializer(many=True) for kind in PAYLOAD_FIELDS},
)


class SideColoursSerializer(serializers.Serializer[Mapping[str, Any]]):
    axis = serializers.CharField(help_text="the Axis side's colour, as CSS")
    allied = serializers.ListField(
        child=serializers.CharField(),
        help_text="the other sides' colours, in order: the first side gets the first, and so on round",
    )


class VocabularySerializer(serializers.Serializer[Mapping[str, Any]]):
    lists = ListsSerializer(help_text="every enum by name: its codes and their labels, in order")
    order_fields = OrderFieldsSerializer(help_text="by sealed order kind: the fields its payload takes")
    roles_with_side = serializers.ListField(
        child=serializers.ChoiceField(choices=choices.MemberRole.choices),
        help_text="the members' roles that play a side: a member of one of them names it, of any other none",
    )
    roles_with_side_labels = serializers.ListField(
        child=serializers.CharField(), help_text="those roles in words, in their order"
    )
    side_colours = SideColoursSerializer(help_text="the sides' colours on the map and in the charts")


class VocabularyView(ApiContractMixin, APIView):
    """The words of every code the API takes or gives; the same for every reader."""

    permission_classes = [AllowAny]

    @extend_schema(
        tags=["reference"],
        summary="Vocabulary: every enum's codes and labels",
        description="Read once: it changes only with a new release. Send the ETag back in "
        "If-None-Match for a 304 with no body.",
        responses=VocabularySerializer,
    )
    def get(self, request: Request) -> Response:
        cache_control = "public, max-age=3600"
        if etag_matches(request, ETAG):
            return not_modified(ETAG, cache_control)
        return Response(VOCABULARY, headers={"ETag": ETAG, "Cache-Control": cache_control})
