"""docs/api.md against the code it describes: a third-party developer reads only the docs."""

from __future__ import annotations

import re
from pathlib import Path

from campaign.choices import WEBHOOK_EVENTS

API_DOCS = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_the_webhook_table_lists_every_event_a_subscription_may_ask_for():
    webhooks = API_DOCS.read_text(encoding="utf-8").split("## Webhooks", 1)[1].split("\n### ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_.]+)` \|", webhooks, flags=re.MULTILINE))
    assert listed == {verb.value for verb in WEBHOOK_EVENTS}


def test_the_changelog_starts_at_the_schemas_version():
    """docs/api-changelog.md's newest entry is the version the schema says it is."""
    from django.conf import settings

    changelog = (API_DOCS.parent / "api-changelog.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## (\d+\.\d+\.\d+)$", changelog, flags=re.MULTILINE)
    assert versions[0] == settings.SPECTACULAR_SETTINGS["VERSION"]
    assert versions[-1] == "1.0.0"
    assert "## Versions, changes and deprecation" in API_DOCS.read_text(encoding="utf-8")


def test_an_operation_marked_deprecated_is_flagged_in_the_schema(monkeypatch):
    from api import schema

    document = {
        "paths": {
            "/a/": {"get": {"operationId": "a_list", "description": "Reads a."}},
            "/b/": {"get": {"operationId": "b_list"}},
        }
    }
    monkeypatch.setitem(schema.DEPRECATED, "a_list", "use b_list; goes on 2027-06-01")

    marked = schema.mark_deprecated(document)

    assert marked["paths"]["/a/"]["get"]["deprecated"] is True
    assert marked["paths"]["/a/"]["get"]["description"].startswith(
        "**Deprecated**: use b_list; goes on 2027-06-01"
    )
    assert "deprecated" not in marked["paths"]["/b/"]["get"]
