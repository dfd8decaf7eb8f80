"""Enums travel with their labels; rule references, equipment and errors read as words."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import FieldDoesNotExist
from django.db import models as db_models
from django.urls import reverse
from rest_framework import serializers
from rest_framework.test import APIClient

from api import serializers as output_package
from api.labels import LABEL_SUFFIX, LABELS_SUFFIX, LabelledModelSerializer, LabelledSerializer
from campaign import models
from campaign.choices import StandType
from campaign.services.audit import Actor
from campaign.services.overrides import roll_override
from tests.api.world import Role

pytestmark = pytest.mark.django_db

SCHEMA_REF = "#/components/schemas/"


@pytest.fixture
def schema() -> dict[str, Any]:
    document: dict[str, Any] = APIClient().get(reverse("api:schema"), {"format": "json"}).json()
    return document


def _is_enum(prop: dict[str, Any], components: dict[str, Any]) -> bool:
    """An enum property: inline, by reference, or one of (enum, blank, null)."""
    if "enum" in prop:
        return prop.get("type") != "null" and prop["enum"] not in ([""], [None])
    if "$ref" in prop:
        return _is_enum(components[prop["$ref"].removeprefix(SCHEMA_REF)], components)
    return any(_is_enum(option, components) for option in prop.get("oneOf", []) + prop.get("allOf", []))


def _output_schemas(components: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for name, component in components.items():
        if name.endswith("Request") or name.startswith("Patched") or "properties" not in component:
            continue  # inputs (COMPONENT_SPLIT_REQUEST) send codes only
        yield name, component["properties"]


def test_every_enum_an_answer_shows_has_its_label_beside_it(schema):
    components = schema["components"]["schemas"]
    missing = []
    enums = 0
    for name, properties in _output_schemas(components):
        for field, prop in properties.items():
            if _is_enum(prop, components):
                enums += 1
                sibling = properties.get(field + LABEL_SUFFIX, {})
                if sibling.get("type") != "string":
                    missing.append(f"{name}.{field}{LABEL_SUFFIX}")
            elif prop.get("type") == "array" and _is_enum(prop.get("items", {}), components):
                enums += 1
                if properties.get(field + LABELS_SUFFIX, {}).get("type") != "array":
                    missing.append(f"{name}.{field}{LABELS_SUFFIX}")
    assert enums > 40  # the walk sees the answers' enums (weather, segment, stand type, statuses...)
    assert missing == []


def _output_serializers() -> list[type[serializers.BaseSerializer[Any]]]:
    modules = [
        importlib.import_module(f"{output_package.__name__}.{info.name}")
        for info in pkgutil.iter_modules(output_package.__path__)
    ]
    return [
        kind
        for module in modules
        for _, kind in inspect.getmembers(module, inspect.isclass)
        if issubclass(kind, serializers.BaseSerializer) and kind.__module__ == module.__name__
    ]


def _model_field(model: type[db_models.Model], source: str) -> db_models.Field[Any, Any] | None:
    """The model field a dotted serializer source ends on, if it is one."""
    *path, last = source.split(".")
    for name in path:
        try:
            related = model._meta.get_field(name).related_model
        except FieldDoesNotExist:
            return None
        if not isinstance(related, type):
            return None
        model = related
    try:
        field = model._meta.get_field(last)
    except FieldDoesNotExist:
        return None
    return field if isinstance(field, db_models.Field) else None


def test_output_serializers_label_their_choices_and_show_model_choices_as_enums():
    unlabelled, untyped = [], []
    for kind in _output_serializers():
        if not issubclass(kind, (LabelledSerializer, LabelledModelSerializer)):
            unlabelled.append(kind.__name__)
            continue
        if not issubclass(kind, serializers.ModelSerializer) or not hasattr(kind, "Meta"):
            continue  # the fog-masking base has no model of its own
        model = kind.Meta.model
        for name, field in kind().fields.items():
            if isinstance(field, serializers.ChoiceField) or not isinstance(field, serializers.CharField):
                continue
            model_field = _model_field(model, field.source)
            if model_field is not None and model_field.choices:
                untyped.append(f"{kind.__name__}.{name}")  # a code shown without its enum, so no label
    assert unlabelled == []
    assert untyped == []


def test_the_campaign_summary_days_and_stands_carry_labels(world):
    client = world.client(Role.UMPIRE)
    day = world.campaign.days.get(number=2)
    weather_label = {"C": "Clear", "D": "Drizzle", "O": "Overcast", "F": "Fog"}[day.weather]
    equipment = models.Equipment.objects.order_by("pk").first()
    assert equipment is not None
    stand = models.Stand.objects.filter(battalion__campaign=world.campaign).order_by("pk").first()
    assert stand is not None
    models.Stand.objects.filter(pk=stand.pk).update(stand_type=StandType.AT_GUN, equipment=equipment)

    summary = client.get(world.url("campaign-detail")).json()
    days = client.get(world.url("day-list")).json()["results"]
    shown = client.get(world.url("stand-detail", pk=stand.public_id)).json()

    assert (summary["weather"], summary["weather_label"]) == (day.weather, weather_label)
    assert (summary["current_segment"], summary["current_segment_label"]) == (
        "early morning",
        "Early morning",
    )
    assert (summary["day_status"], summary["day_status_label"]) == ("day", "Under way")
    assert (summary["status_label"], summary["role_label"]) == ("Active", "Umpire")
    assert [d["weather_label"] for d in days if d["number"] == 2] == [weather_label]
    assert days[0]["segments"][0]["segment_label"] == "Early morning"
    assert (shown["stand_type"], shown["stand_type_label"]) == ("at_gun", "AT gun")
    assert (shown["equipment"], shown["equipment_name"]) == (equipment.key, equipment.name)


def test_force_status_labels_follow_the_fog_of_war(world):
    own = models.Force.objects.get(side=world.axis)
    enemy = models.Force.objects.get(side=world.allied)
    client = world.client(Role.AXIS_PLAYER)

    body = client.get(world.url("force-force-status", pk=own.public_id)).json()
    hidden = client.get(world.url("force-force-status", pk=enemy.public_id)).json()

    battalion = body["battalions"][0]
    assert (battalion["supply_situation"], battalion["supply_situation_label"]) == ("OK", "OK")
    assert (battalion["activation_label"], battalion["fuel_state_label"]) == (
        "Inactive",
        "Not a vehicle company",
    )
    assert battalion["location_label"] in {"In reserve", "In a battle today", "On the table, in no battle"}
    assert body["strength_labels"] == {code: StandType(code).label for code in body["strength"]}
    assert body["force"]["arrival_status_label"] == "On table"
    assert [b["supply_situation_label"] for b in hidden["battalions"]] == [None] * len(hidden["battalions"])
    assert hidden["strength_labels"] is None


def test_a_roll_and_the_rules_catalog_name_their_rule_in_words(world):
    client = world.client(Role.UMPIRE)

    weather = client.get(world.url("roll-list"), {"procedure": "gb.weather"}).json()["results"][0]
    entry = client.get(reverse("api:rule-detail", kwargs={"key": "gb.weather"})).json()

    section = weather["result"]["rule"]["section"]
    assert weather["rule"] == f"Great Battles of WWII charts, {section}"
    assert weather["result"]["rule"]["seed_file"] == "004_44df3cc44dc4327c.txt"  # the machine form stays
    assert entry["rule"]["source_title"] == "Great Battles of WWII charts"
    assert entry["rule"]["text"] == f"Great Battles of WWII charts, {section}"
    assert entry["kind_label"] == "Procedure"


def test_an_empty_list_is_refused_in_a_sentence_naming_the_list(world):
    response = world.client(Role.UMPIRE).post(
        world.url("battle-report", pk=world.planned.public_id), {"battalions": []}, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["message"] == "Battalions: this list may not be empty."
    assert response.json()["error"]["fields"] == {"battalions": ["This list may not be empty."]}


def test_a_nested_field_error_names_the_field_in_words(world):
    bad = {"battalions": [{"code": "A1", "activation_points_spent": -1}]}

    response = world.client(Role.UMPIRE).post(
        world.url("battle-report", pk=world.planned.public_id), bad, format="json"
    )

    assert response.status_code == 400
    assert response.json()["error"]["message"] == (
        "Battalions, entry 1, activation points spent: ensure this value is greater than or equal to 0."
    )
    assert list(response.json()["error"]["fields"]) == ["battalions[0].activation_points_spent"]


def test_a_roll_answers_what_it_shows_typed_and_an_override_shows_none(world):
    roll = world.campaign.rolls.get(procedure="gb.weather", day__number=2, override_of=None)
    umpire = Actor(user=world.users[Role.UMPIRE], request_id="api-test")
    weather = next(w for w in "CDOF" if w != roll.day.weather)
    roll_override(
        roll.campaign_id, umpire, roll.pk, changes={"weather": weather}, reason="the forecast was wrong"
    )

    body = world.client(Role.UMPIRE).get(world.url("roll-list"), {"page_size": 500}).json()
    rolls = body["results"]

    shown = [r for r in rolls if r["output"] is not None]
    assert body["next"] is None
    assert world.campaign.rolls.count() == len(rolls) == len(shown) + 1
    assert [r["output"] for r in rolls if "override" in r["result"]] == [None]
    for r in shown:
        output, result = r["output"], r["result"]
        # Each throw as recorded, and in words ("2d6 [5+1] = 6").
        assert [{k: v for k, v in die.items() if k != "text"} for die in output["dice"]] == result["rolls"]
        assert all(die["text"].endswith(f"= {die['total']}") for die in output["dice"])
        assert output["modifiers"] == [
            {**m, "applies_to_label": m["applies_to"].capitalize()} for m in result["modifiers"]
        ]
        same = ("procedure", "title", "subject", "natural", "score", "threshold_base", "threshold", "cell")
        assert {k: output[k] for k in same} == {k: result[k] for k in same}
        assert (output["comparison"], output["outcome"], output["outcome_text"], output["line"]) == (
            result["comparison"],
            result["outcome"],
            result["outcome_text"],
            r["line"],
        )
        assert output["rule"]["text"] == r["rule"]
        assert {k: output["rule"][k] for k in ("system", "seed_file", "section")} == result["rule"]
        assert output["comparison_label"] == {"≤": "at most", "≥": "at least"}.get(result["comparison"])
    assert any(r["output"]["modifiers"] for r in shown)
    assert any(r["output"]["comparison"] for r in shown)
