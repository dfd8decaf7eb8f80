"""The night phase, only ever viewed: operations, snapshots (the night's, the map's), night reports
and orders."""

from __future__ import annotations

from django.contrib import admin
from django.utils.safestring import SafeString

from campaign import models
from campaign.admin.base import ReadOnlyAdmin, pretty_json


@admin.register(models.Operation)
class OperationAdmin(ReadOnlyAdmin[models.Operation]):
    list_display = (
        "__str__",
        "campaign",
        "kind",
        "day",
        "segment",
        "status",
        "attempts",
        "started_at",
        "finished_at",
    )
    list_filter = ("campaign", "kind", "status")
    search_fields = ("error", "campaign__name")
    list_select_related = ("campaign", "day", "segment__day")


@admin.register(models.NightSnapshot)
class NightSnapshotAdmin(ReadOnlyAdmin[models.NightSnapshot]):
    """What force status and the order of battle show while a night is under way."""

    list_display = ("__str__", "operation", "rows_kept")
    list_select_related = ("operation__day", "operation__segment")
    exclude = ("values",)  # a row per stand: counted, not shown
    readonly_fields = ("rows_kept",)

    @admin.display(description="rows kept")
    def rows_kept(self, snapshot: models.NightSnapshot) -> str:
        return ", ".join(f"{name} {len(rows)}" for name, rows in snapshot.values.items())


@admin.register(models.MapSnapshot)
class MapSnapshotAdmin(ReadOnlyAdmin[models.MapSnapshot]):
    """The map kept at a dawn or after a night, for its replay (``GET map/?day=&moment=``)."""

    list_display = ("__str__", "campaign", "day_number", "moment", "size", "taken_at")
    list_filter = ("campaign", "moment")
    list_select_related = ("campaign",)
    exclude = ("state",)  # compressed: its size shown, its content replayed on the map
    readonly_fields = ("size",)

    @admin.display(description="size")
    def size(self, snapshot: models.MapSnapshot) -> str:
        return f"{len(snapshot.state):,} bytes"


@admin.register(models.NightReport)
class NightReportAdmin(ReadOnlyAdmin[models.NightReport]):
    list_display = ("__str__", "side", "day", "operation", "created_at")
    list_filter = ("side__campaign", "side", "operation__kind")
    list_select_related = ("side", "day", "operation__day", "operation__segment")
    readonly_fields = ("body_shown",)

    @admin.display(description="report")
    def body_shown(self, report: models.NightReport) -> SafeString:
        return pretty_json(report.body)


@admin.register(models.NightOrder)
class NightOrderAdmin(ReadOnlyAdmin[models.NightOrder]):
    list_display = (
        "__str__",
        "campaign",
        "day",
        "kind",
        "battalion",
        "stand",
        "target_battalion",
        "attachment_kind",
        "applied",
    )
    list_filter = ("campaign", "kind", "applied")
    search_fields = ("battalion__code", "target_battalion__code")
    list_select_related = ("campaign", "day", "battalion", "stand__battalion", "target_battalion")


@admin.register(models.SideOrder)
class SideOrderAdmin(ReadOnlyAdmin[models.SideOrder]):
    list_display = (
        "__str__",
        "campaign",
        "side",
        "day_number",
        "kind",
        "status",
        "submitted_at",
        "decided_at",
    )
    list_filter = ("campaign", "kind", "status")
    list_select_related = ("campaign", "side")
