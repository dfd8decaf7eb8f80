"""Where a client syncing a list stopped reading (campaign.models.SyncCursor).

A cursor is the client's bookmark, not a change of the campaign: it bumps no version and goes on
no timeline (an event would itself be a change of the events list the client syncs). Cursors a
month old are let go: a client holding one starts again from a full read. Change records only
cursors read, so beat prunes those no live cursor will read again."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max, Min, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign import models

CURSOR_LIFETIME = timedelta(days=30)


def sync_cursor_create(
    campaign_id: int,
    *,
    kind: str,
    reader: str,
    query: str,
    change_id: int,
    fog: str,
    rows: dict[str, list[Any]],
) -> models.SyncCursor:
    """A new cursor at ``change_id`` with the ``rows`` the reader saw; the campaign's cursors
    older than :data:`CURSOR_LIFETIME` deleted."""
    models.SyncCursor.objects.filter(
        campaign_id=campaign_id, created_at__lt=timezone.now() - CURSOR_LIFETIME
    ).delete()
    return models.SyncCursor.objects.create(
        campaign_id=campaign_id,
        kind=kind,
        reader=reader,
        query=query,
        change_id=change_id,
        fog=fog,
        rows=rows,
    )


@transaction.atomic
def change_records_prune(now: datetime) -> int:
    """Beat's prune: cursors older than :data:`CURSOR_LIFETIME` let go, then every change record a
    live cursor will not read (a cursor reads those after its ``change_id``; a campaign without
    one, none yet recorded). Records written while it runs stay. How many records it deleted."""
    models.SyncCursor.objects.filter(created_at__lt=now - CURSOR_LIFETIME).delete()
    horizon = models.ChangeRecord.objects.aggregate(last=Max("id"))["last"]
    if horizon is None:
        return 0
    oldest_read = (
        models.SyncCursor.objects.filter(campaign_id=OuterRef("campaign_id"))
        .order_by()
        .values("campaign_id")
        .annotate(oldest=Min("change_id"))
        .values("oldest")
    )
    unread = models.ChangeRecord.objects.filter(id__lte=horizon)
    deleted, _ = unread.filter(id__lte=Coalesce(Subquery(oldest_read), horizon)).delete()
    return deleted
