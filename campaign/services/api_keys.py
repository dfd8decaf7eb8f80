"""Third-party API keys of a campaign, made and revoked by its umpires.

The plain key is returned once, to its maker; the database keeps only its hash
and the timeline only its prefix. A write-granted key acts for the umpire and
sees the whole campaign, so it has no side: a side's key is always read-only.
"""

from __future__ import annotations

import datetime
from typing import Any, cast

from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock
from campaign.services.errors import ConflictError, DomainError, NotFoundError

NAME_LENGTH = cast(int, models.CampaignAPIKey._meta.get_field("name").max_length)


def _description(api_key: models.CampaignAPIKey) -> dict[str, Any]:
    """What the timeline records of a key: never its secret or hash."""
    return {
        "prefix": api_key.prefix,
        "name": api_key.name,
        "side": api_key.side.name if api_key.side else None,
        "can_write": api_key.can_write,
        "expiry_date": api_key.expiry_date.isoformat() if api_key.expiry_date else None,
        "revoked": api_key.revoked,
    }


@transaction.atomic
def api_key_create(
    campaign_id: int,
    actor: Actor,
    *,
    name: str,
    side_id: int | None = None,
    can_write: bool = False,
    expiry_date: datetime.datetime | None = None,
) -> tuple[models.CampaignAPIKey, str]:
    """A new key and its plain text, which nobody can see again."""
    campaign = campaign_lock(campaign_id, finished_ok=True)
    name = name.strip()
    if not name or len(name) > NAME_LENGTH:
        raise DomainError(
            f"name the key (1 to {NAME_LENGTH} characters): who uses it, for what", field="name"
        )
    side = None
    if side_id is not None:
        side = models.Side.objects.filter(campaign=campaign, pk=side_id).first()
        if side is None:
            raise DomainError(f"side {side_id} is not a side of {campaign.name}", field="side")
    if expiry_date is not None and expiry_date <= timezone.now():
        raise DomainError("the expiry date must be in the future", field="expiry_date")
    api_key, plain = models.CampaignAPIKey.objects.create_key(
        campaign=campaign,
        name=name,
        side=side,
        can_write=can_write,
        expiry_date=expiry_date,
        created_by_id=actor.user_id,
    )
    api_key = cast(models.CampaignAPIKey, api_key)
    access = "may write" if can_write else "read-only"
    event_record(
        campaign,
        EventVerb.API_KEY_CREATED,
        campaign,
        f"API key {api_key.prefix} ({name}) created: {side.name if side else 'public'}, {access}",
        actor,
        after=_description(api_key),
    )
    return api_key, plain


@transaction.atomic
def api_key_revoke(campaign_id: int, actor: Actor, prefix: str) -> models.CampaignAPIKey:
    """Revoke a key for good: its next request is refused."""
    campaign = campaign_lock(campaign_id, finished_ok=True)
    api_key: models.CampaignAPIKey | None = (
        models.CampaignAPIKey.objects.select_for_update(of=("self",))
        .select_related("side")
        .filter(campaign=campaign, prefix=prefix)
        .first()
    )
    if api_key is None:
        raise NotFoundError(f"no API key {prefix!r} in {campaign.name}", field="prefix")
    if api_key.revoked:
        raise ConflictError(f"API key {prefix} is already revoked", field="revoked", code="already_revoked")
    before = _description(api_key)
    api_key.revoked = True
    api_key.save(update_fields=["revoked"])
    # What the key subscribed stops sending: a revoked key's news stops with it.
    switched_off = api_key.webhooks.filter(active=True).update(active=False)
    event_record(
        campaign,
        EventVerb.API_KEY_REVOKED,
        campaign,
        f"API key {prefix} ({api_key.name}) revoked"
        + (f"; its {switched_off} webhook subscription(s) switched off" if switched_off else ""),
        actor,
        before=before,
        after=_description(api_key),
    )
    return api_key
