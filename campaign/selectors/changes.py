"""What changed in a synced list since a client last read it (campaign.models.sync).

The changes are found through :class:`~campaign.models.ChangeRecord` rows after the last one the
client read (an index on the campaign and the record's id), never by reading every row; what the
reader sees of the list now is read as keys only, so a row that became hidden or visible is told
apart from one that did not change. Read inside :func:`~campaign.selectors.one_moment`, so the
last change and the rows seen are of the same moment.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
from django.contrib.postgres.aggregates import ArrayAgg
from django.db.models import Max, Q, QuerySet

from campaign import models
from campaign.access import CampaignAccess


@dataclass(frozen=True)
class Changes:
    """The last change recorded in the campaign, and the rows of one list changed after a point."""

    last: int  # the last ChangeRecord's id (the point itself when nothing changed)
    row_ids: frozenset[int]


def changes_since(campaign_id: int, after: int, kind: str) -> Changes:
    """In one statement: the campaign's last change after ``after``, and the keys of ``kind``'s
    rows changed since (inserted, updated, deleted, or with a stand or battalion under them)."""
    found = models.ChangeRecord.objects.filter(campaign_id=campaign_id, id__gt=after).aggregate(
        last=Max("id"), rows=ArrayAgg("row_id", distinct=True, filter=Q(kind=kind), default=[])
    )
    return Changes(last=found["last"] or after, row_ids=frozenset(found["rows"] or ()))


def change_last(campaign_id: int) -> int:
    """The campaign's last change recorded (0: none yet)."""
    found = models.ChangeRecord.objects.filter(campaign_id=campaign_id).aggregate(last=Max("id"))
    return int(found["last"] or 0)


def fog_digest(access: CampaignAccess) -> str:
    """A digest of every side's fog of war settings: when it changes, what a reader sees of each
    row may have changed without the row (an identified battalion, strengths revealed)."""
    settings = [[side_id, side.fog_of_war] for side_id, side in access.sides.items()]
    return hashlib.sha256(orjson.dumps(settings, option=orjson.OPT_SORT_KEYS)).hexdigest()


def rows_seen(rows: QuerySet[Any], signature: tuple[str, ...] = ()) -> dict[str, list[Any]]:
    """The rows a reader sees, in one statement of keys: {key: [public id, *signature]}, the
    signature being what the fog shows of a row beyond the row itself (annotations of the
    reader's selector, such as whether a force's place is seen)."""
    return {
        str(pk): [str(public_id), *seen]
        for pk, public_id, *seen in rows.order_by().values_list("pk", "public_id", *signature)
    }


def sync_cursor(cursor_id: Any) -> models.SyncCursor | None:
    """The cursor named ``cursor_id``, or None once it is let go (campaign.services.sync)."""
    return models.SyncCursor.objects.filter(pk=cursor_id).first()
