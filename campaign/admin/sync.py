"""The changes cursor's bookkeeping (issue 33), only ever viewed: triggers write the change
records, reads of ``changes/`` the cursors."""

from __future__ import annotations

from django.contrib import admin

from campaign import models
from campaign.admin.base import ReadOnlyAdmin


@admin.register(models.ChangeRecord)
class ChangeRecordAdmin(ReadOnlyAdmin[models.ChangeRecord]):
    list_display = ("__str__", "campaign_id", "kind", "row_id")
    list_filter = ("kind",)


@admin.register(models.SyncCursor)
class SyncCursorAdmin(ReadOnlyAdmin[models.SyncCursor]):
    list_display = ("__str__", "campaign", "kind", "reader", "change_id", "created_at")
    list_filter = ("campaign", "kind")
    list_select_related = ("campaign",)
    exclude = ("rows",)  # a key per row the reader saw: counted, not shown
    readonly_fields = ("rows_seen",)

    @admin.display(description="rows seen")
    def rows_seen(self, cursor: models.SyncCursor) -> int:
        return len(cursor.rows)
