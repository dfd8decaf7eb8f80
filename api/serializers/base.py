"""Shared by the output serializers: the reader's access, the public id's help, the fog of war's masking.

Which rows a caller sees is decided by the querysets of :mod:`campaign.selectors`;
the serializers show the fields of a visible row :mod:`campaign.access` lets them see. A row of
a side the caller does not see in full (an identified enemy battalion, say) keeps its public
fields, and its strength fields when that side's fog of war reveals strengths;
every other field is null. Inputs are in :mod:`api.inputs`.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from django.db import models as db_models
from rest_framework import serializers

from api.labels import LabelledModelSerializer, code_field_name, labels_of
from campaign import access as access_rules
from campaign.access import CampaignAccess
from campaign.choices import StandType

PUBLIC_ID_HELP = "what to name it by in URLs, cursors and after=: not in sequence, so it counts nothing"
# A segment's wind in words, on the campaign summary and on each segment of a day.
WIND_TEXT_HELP = (
    'the wind as people say it: "light breeze from the South-East", "no wind"; empty before it is rolled'
)
STAND_TYPE_LABELS = labels_of(StandType.choices)

_M = TypeVar("_M", bound=db_models.Model)


def access_of(serializer: serializers.BaseSerializer[Any]) -> CampaignAccess:
    access = serializer.context["access"]
    assert isinstance(access, CampaignAccess)
    return access


class FogMaskedSerializer(LabelledModelSerializer[_M]):
    """A row of one side: in full for its side and the umpires, else public fields only."""

    public_fields: ClassVar[frozenset[str]] = frozenset({"id"})
    strength_fields: ClassVar[frozenset[str]] = frozenset()

    def side_id_of(self, instance: _M) -> int:
        raise NotImplementedError

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = super().get_fields()
        for name, field in fields.items():
            if code_field_name(name) not in self.public_fields:
                field.allow_null = True  # masked for some callers: the schema says so
        return fields

    @classmethod
    def shown_fields(cls, access: CampaignAccess, side_id: int) -> frozenset[str] | None:
        """The fields ``access`` sees of a row of ``side_id``; None when it sees them all."""
        return access_rules.fields_shown(access, side_id, cls.public_fields, cls.strength_fields)

    def to_representation(self, instance: _M) -> dict[str, Any]:
        data: dict[str, Any] = super().to_representation(instance)
        shown = self.shown_fields(access_of(self), self.side_id_of(instance))
        if shown is None:
            return data
        return {name: value if code_field_name(name) in shown else None for name, value in data.items()}
