"""Enums travel with their labels: every choice an output serializer shows has a
``<field>_label`` sibling (``"weather": "D", "weather_label": "Drizzle"``).

Machines branch on the code; people read the label. Output serializers derive
from :class:`LabelledSerializer` or :class:`LabelledModelSerializer`, and each
``ChoiceField`` among their fields (a model field with choices is one) gets its
sibling; a list of choices gets ``<field>_labels``. The labels are the choices'
own (``campaign.choices``, the rules engine's enums): there is no other list.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from django.db import models as db_models
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

LABEL_SUFFIX = "_label"
LABELS_SUFFIX = "_labels"

_M = TypeVar("_M", bound=db_models.Model)
_T = TypeVar("_T")


def code_field_name(name: str) -> str:
    """The field a label field labels (``weather_label`` → ``weather``); other names unchanged."""
    for suffix in (LABELS_SUFFIX, LABEL_SUFFIX):
        if name.endswith(suffix):
            return name.removesuffix(suffix)
    return name


def labels_of(choices: Iterable[tuple[Any, Any]] | Mapping[Any, Any]) -> dict[str, str]:
    """``{code: label}`` of DRF or Django choices (flat)."""
    pairs = choices.items() if isinstance(choices, Mapping) else choices
    return {str(code): str(label) for code, label in pairs}


def label(labels: Mapping[str, str], code: Any) -> str | None:
    """The label of ``code``; None for None, and the blank code (no value) reads as blank."""
    if code is None:
        return None
    return labels.get(str(code), str(code))


@extend_schema_field(OpenApiTypes.STR)
class ChoiceLabelField(serializers.Field[Any, str, str, Any]):
    """The label of the code its sibling choice field shows (read from the same source)."""

    def __init__(self, code_field: serializers.ChoiceField, **kwargs: Any) -> None:
        self.labels = labels_of(code_field.choices)
        kwargs.update(read_only=True, allow_null=code_field.allow_null)
        kwargs.setdefault("help_text", "the label people read for the code beside it")
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> str:
        return label(self.labels, value) or ""


@extend_schema_field({"type": "array", "items": {"type": "string"}})
class ChoiceLabelsField(serializers.Field[Any, list[str], list[str], Any]):
    """The labels of the codes its sibling list of choices shows."""

    def __init__(self, code_field: serializers.ListField, **kwargs: Any) -> None:
        child = code_field.child
        assert isinstance(child, serializers.ChoiceField)
        self.labels = labels_of(child.choices)
        kwargs.update(read_only=True, allow_null=code_field.allow_null)
        kwargs.setdefault("help_text", "the labels people read for the codes beside it")
        super().__init__(**kwargs)

    def to_representation(self, value: Any) -> list[str]:
        return [label(self.labels, code) or "" for code in value]


def with_labels(fields: Mapping[str, serializers.Field[Any, Any, Any, Any]]) -> dict[str, Any]:
    """``fields`` with each choice field followed by its label field."""
    labelled: dict[str, Any] = {}
    for name, field in fields.items():
        labelled[name] = field
        if isinstance(field, serializers.ChoiceField) and not isinstance(
            field, serializers.MultipleChoiceField
        ):
            labelled[name + LABEL_SUFFIX] = ChoiceLabelField(field, source=field.source or name)
        elif isinstance(field, serializers.ListField) and isinstance(field.child, serializers.ChoiceField):
            labelled[name + LABELS_SUFFIX] = ChoiceLabelsField(field, source=field.source or name)
    return labelled


def add_labels(serializer: serializers.BaseSerializer[Any], data: dict[str, Any]) -> dict[str, Any]:
    """The labels of ``serializer``'s fields into ``data`` that a hot path built by hand, from its codes."""
    for name, field in serializer.fields.items():  # type: ignore[attr-defined]  # every Serializer has them
        if isinstance(field, ChoiceLabelField):
            data[name] = label(field.labels, data.get(code_field_name(name)))
    return data


class LabelledSerializer(serializers.Serializer[_T]):
    """An output serializer whose choices carry their labels."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return with_labels(super().get_fields())


class LabelledModelSerializer(serializers.ModelSerializer[_M]):
    """A model's output serializer whose choices (its model fields' and declared) carry their labels."""

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        return with_labels(super().get_fields())


def with_field(
    fields: dict[str, Any], name: str, field: serializers.Field[Any, Any, Any, Any]
) -> dict[str, Any]:
    """``fields`` with ``field`` under ``name``: for a name a serializer field has as an attribute
    ("label", "required"), which a class attribute of that name would shadow."""
    return {**fields, name: field}
