"""The demo `make run` loads: the Malta 1942 campaign and its three logins."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.audit import SYSTEM, Actor
from campaign.services.scenario import campaign_create, scenario_import

# (username, password, staff) for the demo; passwords are printed by `make run`.
# The Malta pack makes umpire the umpire, axis and allied the players of their sides.
DEMO_USERS = (("umpire", "umpire", True), ("axis", "axis", False), ("allied", "allied", False))
# Each login has an address (a reserved domain, RFC 2606) so its night reports are sent:
# `make run`'s console mail backend shows them in the terminal.
DEMO_EMAIL_DOMAIN = "club.example"


def demo_pack(today: datetime.date | None = None) -> dict[str, Any]:
    """The Malta pack with its club nights moved to start from ``today`` (the club's date now).

    The pack lists its club nights as dates, a week apart; loaded on another date they would be
    past and every order refused. Day 1 moves to the first date on or after ``today`` on the
    weekday the pack plays it (Tuesday), the others keep their spacing, so the sides' deadlines
    (the weekly night phase after each club night, rules notes C-19) are all ahead.
    """
    pack: dict[str, Any] = pack_read(MALTA_PACK_PATH)
    nights = pack["campaign"].get("club_nights", [])
    if not nights:
        return pack
    today = today or timezone.localdate()
    dates = {night["campaign_day"]: datetime.date.fromisoformat(night["play_date"]) for night in nights}
    first = dates[min(dates)]
    start = today + datetime.timedelta(days=(first.weekday() - today.weekday()) % 7)
    shift = start - first
    pack["campaign"]["club_nights"] = [
        {**night, "play_date": (dates[night["campaign_day"]] + shift).isoformat()} for night in nights
    ]
    return pack


@transaction.atomic
def demo_users_ensure() -> list[str]:
    """Create the demo logins if missing, and give an address to one that has none; the names created."""
    user_model = get_user_model()
    created = []
    for username, password, staff in DEMO_USERS:
        email = f"{username}@{DEMO_EMAIL_DOMAIN}"
        user, was_created = user_model.objects.get_or_create(
            username=username, defaults={"is_staff": staff, "is_superuser": staff, "email": email}
        )
        if was_created:
            user.set_password(password)
            user.save(update_fields=["password"])
            created.append(username)
        elif not user.email:  # loaded before the demo logins had addresses
            user.email = email
            user.save(update_fields=["email"])
    return created


@transaction.atomic
def demo_campaign_load() -> models.Campaign | None:
    """Import the Malta demo unless a campaign with its slug exists; None when skipped.

    Run after :func:`demo_users_ensure`, so the pack's memberships find the
    logins instead of creating password-less users.
    """
    pack = demo_pack()
    if models.Campaign.objects.filter(slug=pack["campaign"]["slug"]).exists():
        return None
    return scenario_import(pack, SYSTEM)


def demo_campaign_create(
    actor: Actor, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """A new campaign from the Malta demo, its creator its umpire and only member."""
    return campaign_create(actor, demo_pack(), slug=slug, name=name)
