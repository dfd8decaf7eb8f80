"""The demo `make run` loads: the Malta 1942 campaign and its three logins."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

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
    pack = pack_read(MALTA_PACK_PATH)
    if models.Campaign.objects.filter(slug=pack["campaign"]["slug"]).exists():
        return None
    return scenario_import(pack, SYSTEM)


def demo_campaign_create(
    actor: Actor, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """A new campaign from the Malta demo, its creator its umpire and only member."""
    return campaign_create(actor, pack_read(MALTA_PACK_PATH), slug=slug, name=name)
