"""The OpenAPI document: valid, warning-free, and documenting the error shape everywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from api.idempotency import HEADER
from tests.conftest import StockSchema

ROOT = Path(__file__).resolve().parents[2]


def test_the_stock_command_validates_without_a_single_warning(stock_schema: StockSchema):
    assert stock_schema.command.returncode == 0, stock_schema.command.stderr
    assert "Warning" not in stock_schema.command.stderr
    document = json.loads(stock_schema.document.read_text())
    assert document["info"]["title"] == "Campaign service API"
    assert "/api/v1/campaigns/{campaign_slug}/forces/{id}/status/" in document["paths"]


def test_the_served_schema_is_the_stock_commands(stock_schema: StockSchema):
    assert stock_schema.command.returncode == 0, stock_schema.command.stderr

    served = APIClient().get(reverse("api:schema"), {"format": "json"})

    assert served.json() == json.loads(stock_schema.document.read_text())


@pytest.fixture
def schema() -> dict[str, Any]:
    response = APIClient().get(reverse("api:schema"), {"format": "json"})
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def test_the_served_schema_is_openapi_3_and_public(schema):
    assert schema["openapi"].startswith("3.")
    assert not [path for path in schema["paths"] if path.startswith("/api/v1/schema/")]


def test_every_operation_documents_the_error_shape(schema):
    error = {"$ref": "#/components/schemas/Error"}
    assert set(schema["components"]["schemas"]["Error"]["properties"]["error"]["required"]) == {
        "code",
        "message",
        "fields",
        "rule",
    }
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            for status in ("401", "403", "500"):
                content = operation["responses"][status]["content"]["application/json"]
                assert content["schema"] == error, (method, path, status)
                assert content["examples"], (method, path, status)
            assert "WWW-Authenticate" in operation["responses"]["401"]["headers"], (method, path)
            if method == "post":
                assert {"400", "409"} <= set(operation["responses"]), (method, path)


def test_filters_are_typed_as_they_are_read_and_orderings_are_enums(schema):
    """A filter on ids or numbers is an integer (it refuses 0.5), and ``ordering`` lists the keys
    each list takes (issue 33)."""
    orderings = 0
    for path, operations in schema["paths"].items():
        for parameter in operations.get("get", {}).get("parameters", []):
            if parameter["name"] in ("side", "day", "battle"):
                assert parameter["schema"]["type"] in ("integer", "string"), (path, parameter)
                assert parameter["schema"]["type"] != "number", (path, parameter)
            if parameter["name"] == "ordering":
                orderings += 1
                keys = parameter["schema"]["enum"]
                assert keys, path
                assert {f"-{key}" for key in keys if not key.startswith("-")} <= set(keys), path
    assert orderings > 10


def test_the_headers_a_client_reads_are_declared_where_they_are_sent(schema):
    paths = schema["paths"]
    battles = paths["/api/v1/campaigns/{campaign_slug}/battles/"]["post"]["responses"]["201"]["headers"]
    assert {"Location", "Idempotent-Replayed"} <= set(battles)
    for conditional in (
        "/api/v1/campaigns/{campaign_slug}/map/",
        "/api/v1/campaigns/{campaign_slug}/forces/{id}/status/",
    ):
        responses = paths[conditional]["get"]["responses"]
        assert "ETag" in responses["200"]["headers"], conditional
        assert "ETag" in responses["304"]["headers"], conditional
    for path, operations in paths.items():
        for method, operation in operations.items():
            for code, response in operation["responses"].items():
                if code == "202":
                    assert "Location" in response["headers"], (method, path)


def test_retryable_writes_document_the_idempotency_key_and_examples(schema):
    campaign = "/api/v1/campaigns/{campaign_slug}"
    for path in (f"{campaign}/battles/{{id}}/report/", f"{campaign}/operations/"):
        operation = schema["paths"][path]["post"]
        assert HEADER in [p["name"] for p in operation["parameters"] if p["in"] == "header"]
        assert "422" in operation["responses"]
        assert operation["requestBody"]["content"]["application/json"]["examples"]
    status = schema["paths"][f"{campaign}/forces/{{id}}/status/"]["get"]
    assert "304" in status["responses"]
    assert status["responses"]["200"]["content"]["application/json"]["examples"]


# As config.settings.production names them: collected, with hashed names (its whitenoise storage
# is this one that also compresses, 13 of this test's 14 s; a client asking for no encoding, as
# this one, is served the same bytes).
PRODUCTION_NAMES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
}
ASSET_REFERENCE = re.compile(r"""(?:src|href)=["']([^"']+)["']""")


def test_documentation_pages_load_everything_from_this_server(settings, tmp_path):
    """Issue 13, point 16: a club hall has no internet, so no CDN, fonts or online validator."""
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = PRODUCTION_NAMES
    call_command("collectstatic", "--noinput", "-v", "0")
    browser = Client()  # after the settings: whitenoise indexes STATIC_ROOT as it starts

    for name in ("api:swagger-ui", "api:redoc"):
        page = browser.get(reverse(name))
        html = page.content.decode()
        assets = ASSET_REFERENCE.findall(html)

        assert page.status_code == 200, name
        assert reverse("api:schema") in html
        assert not re.search(r"https?:|//[a-z]", html, re.IGNORECASE), f"{name} names another host"
        assert any(asset.endswith(".js") for asset in assets), name
        for asset in assets:
            assert asset.startswith("/static/drf_spectacular_sidecar/"), asset
            served = browser.get(asset)
            assert served.status_code == 200, asset
            assert b"".join(served.streaming_content), asset
    assert '"validatorUrl": null' in browser.get(reverse("api:swagger-ui")).content.decode()
