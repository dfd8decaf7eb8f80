"""Orders of battle, edited top-down: force → battlegroups → battalions → stands, and equipment
and airborne drops."""

from __future__ import annotations

from django.contrib import admin
from django.db.models import Prefetch, QuerySet
from django.http import HttpRequest
from django.utils.safestring import SafeString

from campaign import models
from campaign.admin.base import ParentCopiesForm, UmpireAdmin, UmpireInline, changelist_link
from campaign.choices import StandStatus
from campaign.services.audit import Actor
from campaign.services.reinforcements import reinforcement_schedule


class ForceForm(ParentCopiesForm):
    parent_field = "side"
    copies = {"campaign": "campaign"}


class BattalionForm(ParentCopiesForm):
    parent_field = "battlegroup"
    copies = {"campaign": "force.campaign", "side": "force.side"}


class StandForm(ParentCopiesForm):
    parent_field = "battalion"
    copies = {"campaign": "campaign"}


@admin.register(models.Equipment)
class EquipmentAdmin(UmpireAdmin[models.Equipment]):
    list_display = ("name", "nation", "category", "year_from", "year_to", "key")
    list_filter = ("nation", "category")
    search_fields = ("name", "key", "category")


@admin.register(models.AirborneDrop)
class AirborneDropAdmin(UmpireAdmin[models.AirborneDrop]):
    """A planned landing: corrected here before its dawn; once dropped, its rolls are in the log."""

    list_display = ("force", "day", "drop_zone", "delivery", "height", "anti_aircraft", "time", "dropped")
    list_filter = ("force__campaign", "dropped")
    list_select_related = ("force", "drop_zone")
    autocomplete_fields = ("drop_zone",)


class BattlegroupInline(UmpireInline):
    model = models.Battlegroup


@admin.register(models.Force)
class ForceAdmin(UmpireAdmin[models.Force]):
    form = ForceForm
    list_display = (
        "name",
        "campaign",
        "side",
        "nation",
        "leader_name",
        "leader_rating",
        "mobility",
        "arrival_status",
        "arrival_day",
        "arrival_zone",
        "battlegroups",
    )
    list_filter = ("campaign", "side", "arrival_status", "nation", "mobility", "leader_rating")
    search_fields = ("name", "leader_name")
    list_select_related = ("campaign", "side")
    list_prefetch = ("battlegroups",)
    autocomplete_fields = ("sector", "fup_sector")
    inlines = (BattlegroupInline,)
    actions = ("schedule_reinforcement",)

    @admin.display(description="battlegroups")
    def battlegroups(self, force: models.Force) -> SafeString:
        count = len(force.battlegroups.all())
        return changelist_link(models.Battlegroup, f"{count} battlegroups", force__id__exact=force.pk)

    @admin.action(description="Schedule as reinforcement for the next day", permissions=["change"])
    def schedule_reinforcement(self, request: HttpRequest, queryset: QuerySet[models.Force]) -> None:
        def schedule(force: models.Force, actor: Actor) -> str:
            day = force.campaign.current_day + 1
            reinforcement_schedule(
                force.campaign_id, actor, force_id=force.pk, day=day, zone=force.arrival_zone
            )
            return f"due on day {day}"

        self.run_service(request, queryset, schedule)


# Editable battalion fields; campaign and side are hidden copies of the battlegroup's.
BATTALION_FIELDS = (
    "code",
    "name",
    "quality",
    "stands_started",
    "activation",
    "in_reserve",
    "supply_situation",
    "ammo_low_markers",
    "fuel_state",
    "sector",
    "campaign",
    "side",
)


class BattalionInline(UmpireInline):
    model = models.Battalion
    form = BattalionForm
    fields = BATTALION_FIELDS


@admin.register(models.Battlegroup)
class BattlegroupAdmin(UmpireAdmin[models.Battlegroup]):
    list_display = ("name", "force", "side", "campaign", "kind", "has_hq", "battalions")
    list_filter = ("force__campaign", "force__side", "kind", "has_hq")
    search_fields = ("name", "force__name")
    list_select_related = ("force__campaign", "force__side")
    list_prefetch = ("battalions",)
    inlines = (BattalionInline,)

    @admin.display(description="side", ordering="force__side__name")
    def side(self, battlegroup: models.Battlegroup) -> str:
        return str(battlegroup.force.side)

    @admin.display(description="campaign", ordering="force__campaign__name")
    def campaign(self, battlegroup: models.Battlegroup) -> str:
        return str(battlegroup.force.campaign)

    @admin.display(description="battalions")
    def battalions(self, battlegroup: models.Battlegroup) -> SafeString:
        count = len(battlegroup.battalions.all())
        return changelist_link(models.Battalion, f"{count} battalions", battlegroup__id__exact=battlegroup.pk)


class StandInline(UmpireInline):
    model = models.Stand
    form = StandForm
    fields = (
        "label",
        "stand_type",
        "equipment",
        "status",
        "attached",
        "attachment_kind",
        "grade",
        "campaign",
    )
    autocomplete_fields = ("equipment",)


@admin.register(models.Battalion)
class BattalionAdmin(UmpireAdmin[models.Battalion]):
    form = BattalionForm
    fields = ("battlegroup", *BATTALION_FIELDS)
    list_display = (
        "code",
        "name",
        "battlegroup",
        "force",
        "side",
        "campaign",
        "quality",
        "activation",
        "in_reserve",
        "supply_situation",
        "ammo_low_markers",
        "fuel_state",
        "stands",
    )
    list_filter = ("campaign", "side", "activation", "supply_situation", "in_reserve", "fuel_state")
    search_fields = ("code", "name", "battlegroup__name", "battlegroup__force__name")
    list_select_related = ("campaign", "side", "battlegroup__force")
    list_prefetch = (Prefetch("stands", queryset=models.Stand.objects.only("battalion_id", "status")),)
    autocomplete_fields = ("battlegroup",)
    inlines = (StandInline,)

    @admin.display(description="force", ordering="battlegroup__force__name")
    def force(self, battalion: models.Battalion) -> str:
        return str(battalion.battlegroup.force)

    @admin.display(description="stands (intact/all)")
    def stands(self, battalion: models.Battalion) -> SafeString:
        stands = battalion.stands.all()
        intact = sum(1 for stand in stands if stand.status != StandStatus.DESTROYED)
        return changelist_link(models.Stand, f"{intact}/{len(stands)}", battalion__id__exact=battalion.pk)


@admin.register(models.Stand)
class StandAdmin(UmpireAdmin[models.Stand]):
    form = StandForm
    fields = (
        "battalion",
        "label",
        "stand_type",
        "equipment",
        "status",
        "attached",
        "attachment_kind",
        "grade",
        "campaign",
    )
    list_display = (
        "__str__",
        "battalion",
        "side",
        "campaign",
        "stand_type",
        "equipment",
        "status",
        "attached",
        "attachment_kind",
        "grade",
    )
    list_filter = ("campaign", "battalion__side", "stand_type", "status", "attached", "attachment_kind")
    search_fields = ("label", "battalion__code", "equipment__name")
    list_select_related = ("battalion__side", "campaign", "equipment")
    autocomplete_fields = ("battalion", "equipment")

    @admin.display(description="side", ordering="battalion__side__name")
    def side(self, stand: models.Stand) -> str:
        return str(stand.battalion.side)
