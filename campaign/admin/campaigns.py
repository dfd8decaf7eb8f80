"""The campaign's pages: the campaign with its sides, club nights and members, and its map."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from campaign import models
from campaign.admin.base import UmpireAdmin, UmpireInline, changelist_link
from campaign.services.campaigns import campaign_start
from campaign.services.corrections import SEED_FIELD
from campaign.services.days import day_dawn, segment_advance
from campaign.services.night import night_phase_start
from campaign.services.rules import rule_switch_issues, table_dice_issues
from rules_engine.profiles import PROFILES


class SideInline(UmpireInline):
    model = models.Side
    fields = (
        "name",
        "is_axis",
        "nations",
        "activation_points",
        "activation_cap",
        "barrage_rounds",
        "supply_quality",
    )


class ClubNightInline(UmpireInline):
    model = models.ClubNight
    show_change_link = False


class MembershipInline(UmpireInline):
    model = models.Membership
    autocomplete_fields = ("user",)
    show_change_link = False


class CampaignForm(forms.ModelForm):  # type: ignore[type-arg]  # as UmpireAdmin
    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        instance = self.instance
        switches = {
            name: cleaned.get(name, getattr(instance, name)) for name in ("optional_rules", "rule_settings")
        }
        if not self.has_error("optional_rules") and not self.has_error("rule_settings"):
            for issue in rule_switch_issues(switches["optional_rules"], switches["rule_settings"]):
                self.add_error(issue.field.split("[")[0].split(".")[0], issue.message)
        if "table_dice" in cleaned and cleaned["table_dice"] is None:  # left empty: none at the table
            cleaned["table_dice"] = {}
        if not self.has_error("table_dice") and not self.has_error("profile"):
            profile, table_dice = (
                cleaned.get(name, getattr(instance, name)) for name in ("profile", "table_dice")
            )
            for issue in table_dice_issues(profile, table_dice):
                self.add_error("table_dice", issue.message)
        return cleaned


@admin.register(models.Campaign)
class CampaignAdmin(UmpireAdmin[models.Campaign]):
    form = CampaignForm
    list_display = (
        "name",
        "slug",
        "profile",
        "status",
        "current_day",
        "current_segment",
        "version",
        "records",
    )
    list_filter = ("status", "profile", "theatre", "season")
    search_fields = ("name", "slug", "description")
    prepopulated_fields = {"slug": ("name",)}
    # The secret seed is never shown, nor set here: a new campaign gets a fresh one
    # (corrections.object_correct); its published commitment is shown.
    exclude = (SEED_FIELD,)
    readonly_fields = (
        "status",
        "current_day",
        "current_segment",
        "version",
        "dice_commitment",
        "dice_chain_length",
        "dice_revealed_through",
        "created_at",
        "updated_at",
    )
    inlines = (SideInline, ClubNightInline, MembershipInline)
    actions = ("start", "dawn", "advance_segment", "start_night_phase")

    def formfield_for_dbfield(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> forms.Field | None:
        if db_field.name == "profile":
            return forms.ChoiceField(
                choices=[(p.key, p.name) for p in PROFILES.values()], help_text=db_field.help_text
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)

    @admin.display(description="records")
    def records(self, campaign: models.Campaign) -> SafeString:
        links = (
            changelist_link(model, str(model._meta.verbose_name_plural), campaign__id__exact=campaign.pk)
            for model in (
                models.Force,
                models.Battalion,
                models.Stand,
                models.CampaignDay,
                models.Battle,
                models.RollRecord,
                models.Event,
            )
        )
        return format_html_join(" · ", "{}", ((link,) for link in links))

    @admin.action(description="Start campaign", permissions=["change"])
    def start(self, request: HttpRequest, queryset: QuerySet[models.Campaign]) -> None:
        self.run_service(
            request, queryset, lambda c, actor: f"started ({campaign_start(c.pk, actor).status})"
        )

    @admin.action(description="Dawn the next day", permissions=["change"])
    def dawn(self, request: HttpRequest, queryset: QuerySet[models.Campaign]) -> None:
        self.run_service(request, queryset, lambda c, actor: f"{day_dawn(c.pk, actor)} dawns")

    @admin.action(description="Advance to the next segment", permissions=["change"])
    def advance_segment(self, request: HttpRequest, queryset: QuerySet[models.Campaign]) -> None:
        self.run_service(request, queryset, lambda c, actor: f"now in {segment_advance(c.pk, actor).segment}")

    @admin.action(description="Start the night phase", permissions=["change"])
    def start_night_phase(self, request: HttpRequest, queryset: QuerySet[models.Campaign]) -> None:
        self.run_service(
            request,
            queryset,
            lambda c, actor: f"night phase of day {night_phase_start(c.pk, actor).day.number} started",
        )


@admin.register(models.ClubNight)
class ClubNightAdmin(UmpireAdmin[models.ClubNight]):
    list_display = ("campaign", "campaign_day", "play_date")
    list_filter = ("campaign",)
    list_select_related = ("campaign",)
    date_hierarchy = "play_date"


@admin.register(models.Side)
class SideAdmin(UmpireAdmin[models.Side]):
    list_display = (
        "name",
        "campaign",
        "is_axis",
        "activation_points",
        "activation_cap",
        "barrage_rounds",
        "barrage_templates",
        "supply_quality",
        "command_system",
        "training",
        "forces",
    )
    list_filter = ("campaign", "is_axis", "supply_quality", "command_system", "training")
    search_fields = ("name", "campaign__name")
    list_select_related = ("campaign",)

    @admin.display(description="forces")
    def forces(self, side: models.Side) -> SafeString:
        return changelist_link(models.Force, "forces", side__id__exact=side.pk)


@admin.register(models.Membership)
class MembershipAdmin(UmpireAdmin[models.Membership]):
    list_display = ("user", "campaign", "role", "side")
    list_filter = ("campaign", "role", "side")
    search_fields = ("user__username", "campaign__name")
    list_select_related = ("user", "campaign", "side")
    autocomplete_fields = ("user",)


@admin.register(models.Sector)
class SectorAdmin(UmpireAdmin[models.Sector]):
    """Corrections to the ground; who holds a sector changes through the API or a battle report
    (its event and webhook), but the umpire may put a mistake right here."""

    list_display = ("name", "campaign", "kind", "terrain", "victory_points", "owner", "key")
    list_filter = ("campaign", "kind", "terrain")
    search_fields = ("name", "key", "campaign__name")
    list_select_related = ("campaign", "owner")


@admin.register(models.SectorLink)
class SectorLinkAdmin(UmpireAdmin[models.SectorLink]):
    list_display = ("__str__", "campaign", "kind")
    list_filter = ("campaign", "kind")
    search_fields = ("a__name", "b__name")
    list_select_related = ("campaign", "a", "b")
    autocomplete_fields = ("a", "b")
