"""Reference data: equipment and the rules catalog, for any logged-in user."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from rules_engine import catalog
from rules_engine.results import RuleSystem

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.create_user("reader"))
    return client


def test_reference_data_needs_a_login():
    for name in ("api:equipment-list", "api:rule-list"):
        response = APIClient().get(reverse(name))
        assert response.status_code == 403
        assert response.json()["error"]["code"] == "not_authenticated"


def test_equipment_filters_by_nation_and_year(client):
    german = client.get(reverse("api:equipment-list"), {"nation": "German", "page_size": 500}).json()
    early = client.get(reverse("api:equipment-list"), {"year": 1939, "page_size": 500}).json()

    assert german["count"] > 0
    assert {row["nation"] for row in german["results"]} == {"German"}
    assert all(row["year_from"] is None or row["year_from"] <= 1939 for row in early["results"])
    assert early["count"] < client.get(reverse("api:equipment-list")).json()["count"]


def test_the_rules_catalog_lists_every_table_and_procedure(client):
    everything = client.get(reverse("api:rule-list"), {"page_size": 500}).json()
    tables = client.get(reverse("api:rule-list"), {"kind": "table", "system": "1943"}).json()

    assert everything["count"] == len(catalog.procedures()) + len(catalog.tables())
    assert tables["count"] == len(catalog.tables(RuleSystem.NINETEEN_43))
    assert {row["kind"] for row in tables["results"]} == {"table"}


def test_a_catalog_entry_shows_its_chart_or_inputs(client):
    weather = client.get(reverse("api:rule-detail", kwargs={"key": "gb.weather"})).json()
    table_key = catalog.tables()[0].key
    table = client.get(reverse("api:rule-detail", kwargs={"key": table_key})).json()
    missing = client.get(reverse("api:rule-detail", kwargs={"key": "no.such.rule"}))

    assert weather["kind"] == "procedure"
    assert weather["rule"]["system"] == "Great Battles of WWII"
    assert "inputs" in weather
    assert table["kind"] == "table"
    assert table["chart"] is not None
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "not_found"


def test_a_bad_catalog_filter_is_a_field_error(client):
    response = client.get(reverse("api:rule-list"), {"system": "Chess"})

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["system"]
