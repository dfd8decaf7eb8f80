"""Discord channels: a subscription of kind Discord posts Discord's own message (``content``
and ``embeds``, in words) to a channel's webhook URL, each embed linking to the web app.

The message is made from the audience's payload (``webhooks.webhook_payload``, already as fog
allows), so a side's channel reads what its players read, and kept within Discord's documented
limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits),
cut at a word.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings

from campaign.choices import WEBHOOK_PING, EventVerb
from campaign.links import battle_page, campaign_page, web_app_url

DISCORD_HOSTS = ("discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com")
DISCORD_PATH = "/api/webhooks/"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")

# Discord's documented limits, in characters.
CONTENT_MAX = 2000
TITLE_MAX = 256
DESCRIPTION_MAX = 4096
FIELDS_MAX = 25
FIELD_NAME_MAX = 256
FIELD_VALUE_MAX = 1024
FOOTER_MAX = 2048
AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
EMBEDS_MAX = 10
ELLIPSIS = "…"

TITLES: Mapping[str, str] = {
    EventVerb.DAY_DAWNED: "Day {day} dawns",
    EventVerb.NIGHT_PHASE_DONE: "Night report of day {day} ready",
    EventVerb.ARRIVALS_RESOLVED: "Arrivals of day {day}",
    EventVerb.BATTLE_CREATED: "Battle created: {repr}",
    EventVerb.BATTLE_REPORTED: "Battle reported: {repr}",
    EventVerb.SECTOR_CONTROL_CHANGED: "{repr} changed hands",
    EventVerb.CAMPAIGN_FINISHED: "The campaign is over",
    EventVerb.ORDERS_SUBMITTED: "Orders submitted for day {day}",
    EventVerb.ORDERS_DUE: "Orders due",
}


def discord_url_refusal(url: str) -> str | None:
    """Why ``url`` is no Discord channel's webhook URL, or None (``WEBHOOK_ALLOW_LOOPBACK``
    lets a local receiver stand in for Discord, in development and tests)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if settings.WEBHOOK_ALLOW_LOOPBACK and host in LOOPBACK_HOSTS:
        return None
    if parts.scheme != "https" or host not in DISCORD_HOSTS or not parts.path.startswith(DISCORD_PATH):
        return "a Discord channel's webhook URL starts with https://discord.com/api/webhooks/"
    return None


def words_cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, cut at the last word that fits, with an ellipsis."""
    if len(text) <= limit:
        return text
    cut = text[: limit - len(ELLIPSIS)]
    if " " in cut.strip():
        cut = cut.rsplit(maxsplit=1)[0] if not text[len(cut)].isspace() else cut
    return cut.rstrip(" ,;:.-—\n") + ELLIPSIS


def _page(payload: Mapping[str, Any]) -> str:
    """The web app's page the news is about, as an absolute address."""
    slug, event = payload["campaign"], payload["event"]
    obj = payload.get("object") or {}
    if event in (EventVerb.BATTLE_CREATED, EventVerb.BATTLE_REPORTED) and obj.get("id"):
        return web_app_url(battle_page(slug, obj["id"]))
    if event == EventVerb.NIGHT_PHASE_DONE:
        return web_app_url(campaign_page(slug, "night"))
    if event in (EventVerb.ORDERS_SUBMITTED, EventVerb.ORDERS_DUE):
        return web_app_url(campaign_page(slug, "orders"))
    if event in (EventVerb.DAY_DAWNED, EventVerb.ARRIVALS_RESOLVED):
        return web_app_url(campaign_page(slug, "day"))
    return web_app_url(campaign_page(slug))


def _embed_size(embed: Mapping[str, Any]) -> int:
    """What Discord counts towards an embed's 6000 characters."""
    fields = embed.get("fields", [])
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", ""))
        + len(embed.get("footer", {}).get("text", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in fields)
    )


def discord_message(
    payload: Mapping[str, Any], details: list[tuple[str, str]] | None = None
) -> dict[str, Any]:
    """Discord's message for one delivery's ``payload``: a line of content and one embed in
    words linking to the web app; ``details`` are its fields (a side's night-report figures)."""
    if payload["event"] == WEBHOOK_PING:
        return {"content": words_cut(f"Test message from campaign {payload['campaign']}", CONTENT_MAX)}
    obj = payload.get("object") or {}
    title = TITLES.get(payload["event"], "{repr}").format(day=payload.get("day"), repr=obj.get("repr", ""))
    fields = [
        {
            "name": words_cut(name, FIELD_NAME_MAX),
            "value": words_cut(value or "-", FIELD_VALUE_MAX),
            "inline": False,
        }
        for name, value in (details or [])[:FIELDS_MAX]
    ]
    embed: dict[str, Any] = {
        "title": words_cut(title, TITLE_MAX),
        "description": words_cut(payload["message"], DESCRIPTION_MAX),
        "url": _page(payload),
        "fields": fields,
        "footer": {
            "text": words_cut(f"Campaign {payload['campaign']}, day {payload.get('day')}", FOOTER_MAX)
        },
    }
    # Within the 6000 characters of all embeds: drop the last fields, then cut the description.
    while _embed_size(embed) > EMBED_TOTAL_MAX and embed["fields"]:
        embed["fields"].pop()
    if _embed_size(embed) > EMBED_TOTAL_MAX:
        room = EMBED_TOTAL_MAX - (_embed_size(embed) - len(embed["description"]))
        embed["description"] = words_cut(embed["description"], max(room, 1))
    return {
        "content": words_cut(f"{title}: {embed['url']}", CONTENT_MAX),
        "embeds": [embed][:EMBEDS_MAX],
        "allowed_mentions": {"parse": []},  # never pings a channel's members
    }
