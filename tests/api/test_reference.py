"""Reference data: equipment and the rules catalog, for any logged-in user."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.renderers import JSONRenderer
from rest_framework.test import APIClient

from api.serializers.reference import RuleEntrySerializer
from rules_engine import catalog
from rules_engine.results import RuleSystem
from tests.api.world import AUTHENTICATE_CHALLENGE

pytestmark = pytest.mark.django_db


@pytest.fixture
def client() -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.create_user("reader"))
    return client


def test_reference_data_needs_a_login():
    for name in ("api:equipment-list", "api:rule-list"):
        response = APIClient().get(reverse(name))
        assert response.status_code == 401
        assert response["WWW-Authenticate"] == AUTHENTICATE_CHALLENGE
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


def test_every_catalog_entry_renders(client):
    keys = sorted({entry.key for entry in [*catalog.tables(), *catalog.procedures()]})
    for key in keys:
        response = client.get(reverse("api:rule-detail", kwargs={"key": key}))
        assert response.status_code == 200, (key, response.content[:300])
        assert response.json()["key"] == key
    # A table sharing its procedure's key is answered as the procedure: render its chart as the
    # detail view would.
    for table in catalog.tables():
        entry = RuleEntrySerializer(catalog.describe_table(table, with_data=True)).data
        assert json.loads(JSONRenderer().render(entry))["chart"] is not None, table.key


def test_fractions_in_a_chart_are_text_and_number(client):
    """Issue 13, point 13 (and issue 19): these two answered 500 (a Fraction is not JSON)."""
    drift = client.get(reverse("api:rule-detail", kwargs={"key": "gb.airborne.drift_factor"})).json()
    bases = client.get(reverse("api:rule-detail", kwargs={"key": "gb.unit_types"})).json()

    assert drift["chart"]["Low"] == {"fraction": "1/2", "value": 0.5}
    assert drift["chart"]["High"] == {"fraction": "2", "value": 2.0}
    assert bases["chart"]["Infantry"]["base_depth_inches"] == {"fraction": "3/2", "value": 1.5}


def test_a_bad_catalog_filter_is_a_field_error(client):
    response = client.get(reverse("api:rule-list"), {"system": "Chess"})

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["system"]


def test_kind_picks_the_table_when_a_procedure_shares_its_key(client):
    url = reverse("api:rule-detail", kwargs={"key": "gb.activation_cost"})

    either = client.get(url).json()
    table = client.get(url, {"kind": "table"}).json()
    no_table = client.get(reverse("api:rule-detail", kwargs={"key": "gb.weather"}), {"kind": "table"})
    bad = client.get(url, {"kind": "chart"})

    assert either["kind"] == "procedure"
    assert table["kind"] == "table"
    assert table["chart"]["1 Bg"] == {"Activated at Start of Day": 2, "Activated During Day": 4}
    assert no_table.status_code == 404
    assert (bad.status_code, list(bad.json()["error"]["fields"])) == (400, ["kind"])
