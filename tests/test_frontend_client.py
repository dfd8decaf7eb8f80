"""The web app's typed client is generated from the API: the committed files are current."""

from __future__ import annotations

import shutil

import pytest

from devstack import frontend_build
from tests.conftest import StockSchema


def test_the_committed_openapi_document_and_client_types_match_a_fresh_generation(
    stock_schema: StockSchema, tmp_path
):
    """The document as `make client` writes it (the stock command), and the types from it."""
    if shutil.which("npx") is None:
        pytest.skip("Node.js is missing: the client's types are generated with openapi-typescript")
    assert stock_schema.command.returncode == 0, stock_schema.command.stderr
    types = tmp_path / "schema.d.ts"

    frontend_build.generate_types(stock_schema.document, types)

    stale = "is out of date: run `make client` and commit the result"
    document = stock_schema.document.read_text()
    assert document == frontend_build.SCHEMA_FILE.read_text(), f"frontend/openapi.json {stale}"
    assert types.read_text() == frontend_build.TYPES_FILE.read_text(), f"frontend/src/api/schema.d.ts {stale}"
