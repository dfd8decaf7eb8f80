"""The web app's typed client is generated from the API: the committed files are current."""

from __future__ import annotations

import shutil

import pytest

from devstack import frontend_build


@pytest.mark.process
def test_the_committed_openapi_document_and_client_types_match_a_fresh_generation(tmp_path):
    if shutil.which("npx") is None:
        pytest.skip("Node.js is missing: the client's types are generated with openapi-typescript")
    schema, types = tmp_path / "openapi.json", tmp_path / "schema.d.ts"

    frontend_build.generate_client(schema, types)

    stale = "is out of date: run `make client` and commit the result"
    assert schema.read_text() == frontend_build.SCHEMA_FILE.read_text(), f"frontend/openapi.json {stale}"
    assert types.read_text() == frontend_build.TYPES_FILE.read_text(), f"frontend/src/api/schema.d.ts {stale}"
