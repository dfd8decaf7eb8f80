"""Campaign days and their segments, what the sides spend in them, and battles with their drafts."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from campaign import models
from campaign.admin.base import EMPTY, ReadOnlyAdmin, UmpireAdmin, UmpireInline, pretty_json
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_close


class DaySegmentRecordInline(UmpireInline):
    model = models.DaySegmentRecord


@admin.register(models.CampaignDay)
class CampaignDayAdmin(UmpireAdmin[models.CampaignDay]):
    list_display = ("__str__", "campaign", "number", "date", "weather", "status")
    list_filter = ("campaign", "status", "weather")
    list_select_related = ("campaign",)
    inlines = (DaySegmentRecordInline,)


@admin.register(models.DaySegmentRecord)
class DaySegmentRecordAdmin(UmpireAdmin[models.DaySegmentRecord]):
    list_display = (
        "__str__",
        "campaign",
        "segment",
        "order",
        "turns",
        "initiative_side",
        "wind_velocity",
        "wind_direction",
    )
    list_filter = ("day__campaign", "segment", "day__number")
    search_fields = ("segment", "day__campaign__name")
    list_select_related = ("day__campaign", "initiative_side")

    @admin.display(description="campaign", ordering="day__campaign__name")
    def campaign(self, record: models.DaySegmentRecord) -> str:
        return str(record.day.campaign)


@admin.register(models.ActivationSpend)
class ActivationSpendAdmin(ReadOnlyAdmin[models.ActivationSpend]):
    list_display = ("__str__", "side", "day", "turn", "column", "cost", "created_at")
    list_filter = ("side__campaign", "side", "column", "turn")
    list_select_related = ("side", "day")
    list_prefetch = ("battalions",)


@admin.register(models.ArtilleryOrder)
class ArtilleryOrderAdmin(ReadOnlyAdmin[models.ArtilleryOrder]):
    list_display = ("__str__", "side", "day", "template", "mode", "created_at")
    list_filter = ("side__campaign", "side", "mode")
    list_select_related = ("side", "day")


@admin.register(models.SideDayTally)
class SideDayTallyAdmin(ReadOnlyAdmin[models.SideDayTally]):
    list_display = ("__str__", "side", "day", "activation_points", "barrage_rounds", "created_at")
    list_filter = ("side__campaign", "side")
    list_select_related = ("side", "day")
    readonly_fields = ("strength_shown",)

    @admin.display(description="strength at dawn")
    def strength_shown(self, tally: models.SideDayTally) -> SafeString:
        return pretty_json(tally.strength)


@admin.register(models.Battle)
class BattleAdmin(UmpireAdmin[models.Battle]):
    list_display = (
        "sector",
        "campaign",
        "day",
        "battle_type",
        "attacker",
        "defender",
        "status",
        "battalion_codes",
    )
    list_filter = ("campaign", "status", "battle_type", "day__number")
    search_fields = ("sector__name", "campaign__name")
    list_select_related = ("campaign", "day", "sector", "attacker", "defender")
    list_prefetch = ("battalions",)
    autocomplete_fields = ("sector", "continues", "feeds", "battalions", "segments")
    readonly_fields = ("status", "setup_steps", "report_applied")
    exclude = ("setup", "report")
    actions = ("roll_setup", "close")

    @admin.display(description="battalions")
    def battalion_codes(self, battle: models.Battle) -> str:
        return ", ".join(b.code for b in battle.battalions.all()) or EMPTY

    @admin.display(description="set-up results")
    def setup_steps(self, battle: models.Battle) -> SafeString | str:
        return pretty_json(battle.setup) if battle.setup else EMPTY

    @admin.display(description="report as applied")
    def report_applied(self, battle: models.Battle) -> SafeString | str:
        return pretty_json(battle.report) if battle.report else EMPTY

    @admin.action(description="Roll battle set-up", permissions=["change"])
    def roll_setup(self, request: HttpRequest, queryset: QuerySet[models.Battle]) -> None:
        self.run_service(
            request,
            queryset,
            lambda b, actor: f"set up: {', '.join(battle_setup(b.campaign_id, actor, b.pk).setup)}",
        )

    @admin.action(description="Close battle", permissions=["change"])
    def close(self, request: HttpRequest, queryset: QuerySet[models.Battle]) -> None:
        self.run_service(
            request, queryset, lambda b, actor: f"closed ({battle_close(b.campaign_id, actor, b.pk).status})"
        )


@admin.register(models.BattleDraft)
class BattleDraftAdmin(ReadOnlyAdmin[models.BattleDraft]):
    list_display = ("__str__", "campaign", "battle", "side", "status", "author", "updated_at")
    list_filter = ("campaign", "status")
    list_select_related = ("campaign", "battle__sector", "battle__day", "side", "author")
    exclude = ("report",)
    readonly_fields = ("report_shown",)

    @admin.display(description="report")
    def report_shown(self, draft: models.BattleDraft) -> SafeString:
        return pretty_json(draft.report)
