"""Where a client syncing a list stopped reading (campaign.models.SyncCursor).

A cursor is the client's bookmark, not a change of the campaign: it bumps no version and goes on
no timeline (an event would itself be a change of the events list the client syncs). Cursors a
month old are let go: a client holding one starts again from a full read."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

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
