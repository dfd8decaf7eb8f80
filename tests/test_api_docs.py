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
