"""Campaign-level writes: locking, version bumps, start."""

from __future__ import annotations

from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from campaign import models
from campaign.choices import CampaignStatus, EventVerb
from campaign.polls import version_publish
from campaign.selectors import version_shown
from campaign.services.audit import Actor, event_record
from campaign.services.errors import ConflictError, NotFoundError


def campaign_lock(
    campaign_id: int, expected_version: int | None = None, *, finished_ok: bool = False
) -> models.Campaign:
    """The campaign row, locked for this transaction; optimistic version checked.

    Every state-changing service starts here, so two umpires acting at once are
    serialised and a client editing from a stale copy gets a 409. A finished campaign is
    read-only: refused here, once for every write, unless the write is about who reads it
    (``finished_ok``: API keys, webhook subscriptions), not about the campaign.
    """
    try:
        campaign = models.Campaign.objects.select_for_update().get(pk=campaign_id)
    except models.Campaign.DoesNotExist:
        raise NotFoundError(f"campaign {campaign_id} does not exist", field="campaign") from None
    if campaign_ended(campaign) and not finished_ok:
        raise campaign_finished(campaign)
    if expected_version is not None and campaign.version != expected_version:
        raise ConflictError(
            f"campaign changed since version {expected_version} (now {campaign.version}); reload and retry",
            field="version",
            code="stale_version",
        )
    return campaign


def campaign_save(campaign: models.Campaign, *fields: str) -> None:
    """Save ``fields``, bump the optimistic version and publish the version shown (for polls)."""
    campaign.version += 1
    campaign.save(update_fields=[*fields, "version", "updated_at"])
    version_publish(campaign.pk, version_shown(campaign))


def campaign_lock_save(campaign_id: int, **values: Any) -> models.Campaign:
    """:func:`campaign_lock` then :func:`campaign_save` of ``values`` in one statement, for a write
    that need not read the campaign first: the campaign as saved."""
    meta = models.Campaign._meta
    quote = connection.ops.quote_name
    concrete = {field.name: field for field in meta.concrete_fields}
    fields = [concrete[name] for name in values]
    assignments = "".join(f"{quote(field.column)} = %s, " for field in fields)
    params = [field.get_db_prep_save(values[field.name], connection) for field in fields]
    saved = models.Campaign.objects.raw(
        f"UPDATE {quote(meta.db_table)} SET {assignments}version = version + 1, updated_at = %s "
        "WHERE id = %s RETURNING *",  # column names come from the model; every value is a parameter
        [*params, timezone.now(), campaign_id],
    )
    campaign = next(iter(saved), None)
    if campaign is None:
        raise NotFoundError(f"campaign {campaign_id} does not exist", field="campaign")
    version_publish(campaign.pk, version_shown(campaign))
    return campaign


def campaign_ended(campaign: models.Campaign) -> bool:
    """Whether the campaign has finished (and is read-only: :func:`campaign_lock` refuses writes)."""
    return campaign.status == CampaignStatus.FINISHED


def campaign_finished(campaign: models.Campaign) -> ConflictError:
    """The refusal of any change to a finished campaign, saying how it ended."""
    ended = f" on day {campaign.finished_day}" if campaign.finished_day else ""
    result = f" ({campaign.result})" if campaign.result else ""
    return ConflictError(
        f"campaign {campaign.slug} finished{ended}{result}: it is read-only",
        field="status",
        code="campaign_finished",
    )


def campaign_status_refusal(campaign: models.Campaign, status: CampaignStatus) -> ConflictError | None:
    """Why a write needing ``status`` is refused now, or None when the campaign is in it."""
    if campaign.status != status:
        return ConflictError(
            f"campaign {campaign.slug} is {campaign.get_status_display().lower()}, "
            f"not {status.label.lower()}",
            field="status",
            code="wrong_status",
        )
    return None


def campaign_require_status(campaign: models.Campaign, status: CampaignStatus) -> None:
    refusal = campaign_status_refusal(campaign, status)
    if refusal is not None:
        raise refusal


def campaign_start_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why the campaign may not start now, or None (the umpire's ``start`` action)."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.SETUP)
    if refusal is None and campaign.sides.count() < 2:
        refusal = ConflictError("a campaign needs two sides to start", field="sides", code="too_few_sides")
    return refusal


@transaction.atomic
def campaign_start(campaign_id: int, actor: Actor, expected_version: int | None = None) -> models.Campaign:
    campaign = campaign_lock(campaign_id, expected_version)
    refusal = campaign_start_refusal(campaign)
    if refusal is not None:
        raise refusal
    campaign.status = CampaignStatus.ACTIVE
    campaign_save(campaign, "status")
    event_record(
        campaign,
        EventVerb.CAMPAIGN_STARTED,
        campaign,
        f"{campaign.name} started",
        actor,
        before={"status": CampaignStatus.SETUP},
        after={"status": CampaignStatus.ACTIVE},
    )
    return campaign
