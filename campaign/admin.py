"""The umpire's back office.

Orders of battle are edited top-down (campaign → sides; force → battlegroups →
battalions → stands), each level linking to the next because the admin cannot
nest inlines.  Umpire operations are admin actions that call the same services
as the API; a refused operation becomes an error message naming the field.
Editing or deleting through a change form is the umpire's manual correction,
written by the corrections service: on the campaign lock, versioned and on the
timeline with before and after.  What only services write (roll records, events,
activation spends, night operations, reports and orders) is only ever viewed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from operator import attrgetter
from typing import Any, ClassVar, Generic, TypeVar
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Field, Model, Prefetch, QuerySet
from django.forms.models import InlineForeignKeyField
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from rest_framework_api_key.models import APIKey

from campaign import models
from campaign.choices import WEBHOOK_EVENT_CHOICES, StandStatus
from campaign.services.api_keys import api_key_revoke
from campaign.services.audit import Actor
from campaign.services.battles import battle_close, battle_setup
from campaign.services.campaigns import campaign_start
from campaign.services.corrections import SEED_FIELD, FieldChange, object_correct, objects_delete
from campaign.services.days import day_dawn, segment_advance
from campaign.services.errors import DomainError
from campaign.services.night import night_phase_start
from campaign.services.reinforcements import reinforcement_schedule
from campaign.services.rules import roll_replay, rule_switch_issues, table_dice_issues
from campaign.services.webhook_subscriptions import (
    webhook_subscribe,
    webhook_unsubscribe,
    webhook_update,
    webhook_validate,
)
from rules_engine.profiles import PROFILES

_M = TypeVar("_M", bound=Model)

EMPTY = "—"


def domain_error_text(subject: object, exc: DomainError) -> str:
    where = f" (field: {exc.field})" if exc.field else ""
    return f"{subject}: {exc.message}{where}"


def _pks(objects: Iterable[Any]) -> list[Any]:
    return sorted(getattr(obj, "pk", obj) for obj in objects)


def form_changes(form: forms.BaseForm, obj: Model) -> dict[str, FieldChange]:
    """The model fields ``form`` changed on ``obj``, as (loaded, submitted);
    every one of them when ``obj`` is new."""
    adding = obj._state.adding
    changes: dict[str, FieldChange] = {}
    for name, form_field in form.fields.items():
        if isinstance(form_field, InlineForeignKeyField):
            continue  # the parent of an inline row cannot change
        try:
            field = obj._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        if not isinstance(field, Field):
            continue
        loaded: Any
        submitted: Any
        if field.many_to_many:
            loaded = _pks(form.initial.get(name) or ())
            submitted = _pks(form.cleaned_data.get(name) or ())
        else:
            loaded, submitted = form.initial.get(name), field.value_from_object(obj)
        if adding or loaded != submitted:
            changes[name] = (loaded, submitted)
    return changes


def changelist_link(model: type[Model], label: str, **filters: object) -> SafeString:
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
    return format_html('<a href="{}?{}">{}</a>', url, urlencode(filters), label)


def pretty_json(value: Any) -> SafeString:
    text = json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, cls=DjangoJSONEncoder)
    return format_html("<pre>{}</pre>", text)


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)


class UmpireAdmin(admin.ModelAdmin, Generic[_M]):  # type: ignore[type-arg]  # Django's class is not subscriptable
    """List joins and prefetches apply to every queryset the admin builds,
    corrections are recorded, and services are run per selected object."""

    list_prefetch: ClassVar[tuple[str | Prefetch[Any], ...]] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet[_M]:
        queryset: QuerySet[_M] = super().get_queryset(request)
        if isinstance(self.list_select_related, (list, tuple)):
            queryset = queryset.select_related(*self.list_select_related)
        return queryset.prefetch_related(*self.list_prefetch)

    def save_model(self, request: HttpRequest, obj: _M, form: Any, change: Any) -> None:
        object_correct(obj, Actor.of_request(request), changes=form_changes(form, obj))

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: Any) -> None:
        # object_correct wrote the form's many-to-many fields with the others.
        for formset in formsets:
            self.save_formset(request, form, formset, change=change)

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: Any) -> None:
        actor = Actor.of_request(request)
        saved = {id(obj) for obj in formset.save(commit=False)}
        objects_delete(formset.deleted_objects, actor)
        for row in formset.forms:
            if id(row.instance) in saved:
                object_correct(row.instance, actor, changes=form_changes(row, row.instance))

    def delete_model(self, request: HttpRequest, obj: _M) -> None:
        objects_delete([obj], Actor.of_request(request))

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[_M]) -> None:
        objects_delete(queryset, Actor.of_request(request))

    def run_service(
        self, request: HttpRequest, queryset: QuerySet[_M], operation: Callable[[_M, Actor], str]
    ) -> None:
        """Run ``operation`` on each selected object; it returns what it did.

        Each service commits or rolls back on its own, so one refusal leaves
        the other objects' results in place.
        """
        actor = Actor.of_request(request)
        for obj in queryset:
            try:
                done = operation(obj, actor)
            except DomainError as exc:
                self.message_user(request, domain_error_text(obj, exc), messages.ERROR)
            else:
                self.message_user(request, f"{obj}: {done}", messages.SUCCESS)


class ReadOnlyAdmin(UmpireAdmin[_M]):
    """Written by services only (the audit trail, night work): seen, never
    added, changed or deleted by hand."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _M | None = None) -> bool:
        return False


class UmpireInline(admin.TabularInline):  # type: ignore[type-arg]  # as UmpireAdmin
    extra = 0
    show_change_link = True


class ParentCopiesForm(forms.ModelForm):  # type: ignore[type-arg]  # as UmpireAdmin
    """Denormalised fields are copied from the parent, never typed, so the
    copies cannot disagree with it.  They stay (hidden) form fields so the
    model's constraints on them are validated before saving."""

    parent_field: ClassVar[str]
    copies: ClassVar[Mapping[str, str]]  # field → attribute path on the parent

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in self.copies.keys() & self.fields.keys():  # absent when viewing only
            self.fields[name].widget = forms.HiddenInput()
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        parent = cleaned.get(self.parent_field)
        if parent is not None:
            for name, path in self.copies.items():
                cleaned[name] = attrgetter(path)(parent)
        return cleaned


class ForceForm(ParentCopiesForm):
    parent_field = "side"
    copies = {"campaign": "campaign"}


class BattalionForm(ParentCopiesForm):
    parent_field = "battlegroup"
    copies = {"campaign": "force.campaign", "side": "force.side"}


class StandForm(ParentCopiesForm):
    parent_field = "battalion"
    copies = {"campaign": "campaign"}


# Campaign ------------------------------------------------------------------


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


@admin.register(models.Equipment)
class EquipmentAdmin(UmpireAdmin[models.Equipment]):
    list_display = ("name", "nation", "category", "year_from", "year_to", "key")
    list_filter = ("nation", "category")
    search_fields = ("name", "key", "category")


# The map: sectors and the links between adjacent ones ---------------------------


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


# Order of battle: force → battlegroup → battalion → stand -------------------


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


# Days and battles -----------------------------------------------------------


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


@admin.register(models.Invitation)
class InvitationAdmin(ReadOnlyAdmin[models.Invitation]):
    """Invitation links are made and taken up through the API (only the token's hash is kept)."""

    list_display = ("__str__", "campaign", "role", "side", "expires_at", "accepted_by", "accepted_at")
    list_filter = ("campaign", "role")
    list_select_related = ("campaign", "side", "accepted_by")


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


# Night work -------------------------------------------------------------------


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


# The audit trail ------------------------------------------------------------


@admin.register(models.RollRecord)
class RollRecordAdmin(ReadOnlyAdmin[models.RollRecord]):
    list_display = ("id", "created_at", "campaign", "day", "procedure", "line", "actor")
    list_filter = ("campaign", "procedure", "day__number", "visibility")
    search_fields = ("line", "procedure", "stream", "request_id")
    list_select_related = ("campaign", "day", "actor")
    fieldsets = (
        (None, {"fields": ("line", "dice", "modifiers", "score", "outcome", "rule", "replay")}),
        (
            "Where and who",
            {
                "fields": (
                    "campaign",
                    "day",
                    "segment",
                    "battle",
                    "force",
                    "battalion",
                    "procedure",
                    "stream",
                    "actor",
                    "request_id",
                    "created_at",
                    "override_of",
                    "visibility",
                    "side",
                )
            },
        ),
        ("Data", {"fields": ("inputs_shown", "changes_shown", "result_shown")}),
    )
    readonly_fields = (
        "dice",
        "modifiers",
        "score",
        "outcome",
        "rule",
        "replay",
        "inputs_shown",
        "changes_shown",
        "result_shown",
    )

    @admin.display(description="dice")
    def dice(self, record: models.RollRecord) -> str:
        output = record.output
        return ", ".join(thrown.text() for thrown in output.dice) if output and output.dice else EMPTY

    @admin.display(description="modifiers")
    def modifiers(self, record: models.RollRecord) -> str:
        output = record.output
        if not output or not output.modifiers:
            return EMPTY
        return "; ".join(f"{m.text()} (on the {m.applies_to.value})" for m in output.modifiers)

    @admin.display(description="score")
    def score(self, record: models.RollRecord) -> str:
        output = record.output
        if output is None:
            return EMPTY
        text = f"{output.score} (natural {output.natural})"
        if output.comparison and output.threshold is not None:
            text += f" {output.comparison.value} {output.threshold} (base {output.threshold_base})"
        return text + (f" [{output.cell}]" if output.cell else "")

    @admin.display(description="outcome")
    def outcome(self, record: models.RollRecord) -> str:
        return (record.output.outcome_text if record.output else "") or EMPTY

    @admin.display(description="rule")
    def rule(self, record: models.RollRecord) -> str:
        return record.output.rule.text() if record.output else EMPTY

    @admin.display(description="replay from the seed")
    def replay(self, record: models.RollRecord) -> str:
        if record.override_of_id is not None:
            return f"an umpire's override: replay roll {record.override_of_id} instead"
        try:
            replayed = roll_replay(record)
        except Exception as exc:  # an unreplayable record is a finding to show, not a page to break
            return f"✘ cannot replay: {type(exc).__name__}: {exc}"
        if record.result in replayed:
            return "✔ matches the stored result"
        return "✘ differs from the stored result; the seed gives: " + "; ".join(r["line"] for r in replayed)

    @admin.display(description="inputs")
    def inputs_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.inputs)

    @admin.display(description="changes")
    def changes_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.changes)

    @admin.display(description="whole result")
    def result_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.result)


@admin.register(models.Event)
class EventAdmin(ReadOnlyAdmin[models.Event]):
    list_display = ("id", "created_at", "campaign", "day_number", "verb", "object_repr", "message", "actor")
    list_filter = ("campaign", "verb", "object_type", "day_number", "visibility")
    search_fields = ("message", "object_repr", "request_id")
    list_select_related = ("campaign", "actor")
    fields = (
        "created_at",
        "campaign",
        "day_number",
        "verb",
        "message",
        "before_after",
        "object_type",
        "object_id",
        "object_repr",
        "actor",
        "request_id",
        "visibility",
        "side",
    )
    readonly_fields = ("before_after",)

    @admin.display(description="before → after")
    def before_after(self, event: models.Event) -> SafeString | str:
        before, after = event.before or {}, event.after or {}
        if not isinstance(before, dict) or not isinstance(after, dict):
            return pretty_json({"before": event.before, "after": event.after})
        names = list(dict.fromkeys([*before, *after]))
        if not names:
            return EMPTY
        rows = format_html_join(
            "",
            "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            ((name, _compact(before.get(name, EMPTY)), _compact(after.get(name, EMPTY))) for name in names),
        )
        return format_html(
            "<table><thead><tr><th>field</th><th>before</th><th>after</th></tr></thead><tbody>{}</tbody></table>",
            rows,
        )


# Webhooks -------------------------------------------------------------------


class WebhookSubscriptionForm(forms.ModelForm):  # type: ignore[type-arg]  # as UmpireAdmin
    """The secret is write-only: blank keeps it, and a new subscription gets one made."""

    url = forms.URLField(max_length=500, assume_scheme="https")
    events = forms.MultipleChoiceField(choices=WEBHOOK_EVENT_CHOICES, widget=forms.CheckboxSelectMultiple)
    secret = forms.CharField(
        required=False,
        widget=forms.PasswordInput,
        help_text="blank: keep the secret (a new subscription gets one, shown once after saving)",
    )

    class Meta:
        model = models.WebhookSubscription
        fields = ["campaign", "url", "events", "active"]

    def clean(self) -> dict[str, Any]:
        cleaned: dict[str, Any] = super().clean() or {}
        if "url" in cleaned and "events" in cleaned:
            try:
                webhook_validate(cleaned["url"], cleaned["events"], cleaned.get("secret") or None)
            except DomainError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, exc.message)
        return cleaned


@admin.register(models.WebhookSubscription)
class WebhookSubscriptionAdmin(UmpireAdmin[models.WebhookSubscription]):
    """Saved and deleted by the webhook services: never through corrections, which
    would write the secret into the timeline."""

    form = WebhookSubscriptionForm
    list_display = ("url", "campaign", "events", "active", "created_by", "created_at")
    list_filter = ("campaign", "active")
    search_fields = ("url",)
    list_select_related = ("campaign", "created_by")

    def get_readonly_fields(
        self, request: HttpRequest, obj: models.WebhookSubscription | None = None
    ) -> tuple[str, ...]:
        return ("campaign",) if obj is not None else ()

    def save_model(
        self, request: HttpRequest, obj: models.WebhookSubscription, form: Any, change: Any
    ) -> None:
        data = {name: form.cleaned_data[name] for name in ("url", "events", "active")}
        secret = form.cleaned_data.get("secret") or None
        actor = Actor.of_request(request)
        if change:
            webhook_update(obj.campaign_id, actor, obj.pk, secret=secret, **data)
            return
        made = webhook_subscribe(form.cleaned_data["campaign"].pk, actor, secret=secret, **data)
        obj.pk = made.pk  # the admin's log entry and redirect need it
        if secret is None:
            self.message_user(request, f"Secret of {made}, shown this once: {made.secret}", messages.WARNING)

    def delete_model(self, request: HttpRequest, obj: models.WebhookSubscription) -> None:
        webhook_unsubscribe(obj.campaign_id, Actor.of_request(request), obj.pk)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[models.WebhookSubscription]) -> None:
        actor = Actor.of_request(request)
        for subscription in queryset:
            webhook_unsubscribe(subscription.campaign_id, actor, subscription.pk)


@admin.register(models.Notification)
class NotificationAdmin(ReadOnlyAdmin[models.Notification]):
    list_display = ("__str__", "recipient", "campaign", "kind", "email", "read_at", "created_at")
    list_filter = ("campaign", "kind", "email")
    search_fields = ("title", "recipient__username")
    list_select_related = ("recipient", "campaign")


@admin.register(models.WebhookDelivery)
class WebhookDeliveryAdmin(ReadOnlyAdmin[models.WebhookDelivery]):
    list_display = (
        "id",
        "__str__",
        "status",
        "attempts",
        "response_status",
        "created_at",
        "last_attempt_at",
        "delivered_at",
    )
    list_filter = ("status", "subscription__campaign", "event__verb")
    search_fields = ("subscription__url", "error")
    list_select_related = ("subscription", "event")


# The library's own admin lists its stock APIKey model, which this service never uses: one
# "API keys" section, ours, which revokes through the service.
admin.site.unregister(APIKey)


@admin.register(models.CampaignAPIKey)
class CampaignAPIKeyAdmin(ReadOnlyAdmin[models.CampaignAPIKey]):
    list_display = (
        "prefix",
        "name",
        "campaign",
        "side",
        "can_write",
        "created",
        "created_by",
        "expiry_date",
        "_has_expired",
        "revoked",
    )
    list_filter = ("campaign", "revoked", "can_write")
    list_select_related = ("campaign", "side", "created_by")
    search_fields = ("name", "prefix", "campaign__name")
    # The hash is left out: it is of no use to a person.
    fields = (
        "prefix",
        "name",
        "campaign",
        "side",
        "can_write",
        "expiry_date",
        "revoked",
        "created",
        "created_by",
    )
    actions = ("revoke",)

    @admin.action(description="Revoke the selected API keys (cannot be undone)")
    def revoke(self, request: HttpRequest, queryset: QuerySet[models.CampaignAPIKey]) -> None:
        def revoke_one(api_key: models.CampaignAPIKey, actor: Actor) -> str:
            api_key_revoke(api_key.campaign_id, actor, api_key.prefix)
            return "revoked"

        self.run_service(request, queryset, revoke_one)
