"""The web app's pages the service links to (notifications, e-mails, the umpire's to-do, the
join link): one home for their paths, written in the router's own syntax (``:name`` for a
parameter), so a test can hold them against ``frontend/src/App.tsx`` and a page renamed on one
side only fails there, not in a club member's inbox."""

from __future__ import annotations

import re

from django.conf import settings

CAMPAIGN = "/campaigns/:slug"
PAGES = {
    "dashboard": CAMPAIGN,
    "day": f"{CAMPAIGN}/day",
    "battle": f"{CAMPAIGN}/battles/:battleId",
    "night": f"{CAMPAIGN}/night",
    "orders": f"{CAMPAIGN}/orders",
    "rolls": f"{CAMPAIGN}/rolls",
    "timeline": f"{CAMPAIGN}/timeline",
    "join": "/join/:token",
}
PARAMETER = re.compile(r":(\w+)")


def page_path(page: str, **parameters: object) -> str:
    """The path of the web app's ``page`` (a key of ``PAGES``) with its parameters filled in."""
    return PARAMETER.sub(lambda match: str(parameters[match.group(1)]), PAGES[page])


def campaign_page(slug: str, page: str = "dashboard") -> str:
    return page_path(page, slug=slug)


def battle_page(slug: str, battle_public_id: object) -> str:
    return page_path("battle", slug=slug, battleId=battle_public_id)


def web_app_url(path: str) -> str:
    """``path`` of the web app as an absolute address (``WEB_APP_URL``), for links that leave
    the site: e-mails."""
    return settings.WEB_APP_URL.rstrip("/") + path
