"""What every admin page of the back office shares: the umpire's change forms that write through
the corrections service, the read-only pages, and their small helpers."""

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
from django.utils.html import format_html
from django.utils.safestring import SafeString

from campaign.services.audit import Actor
from campaign.services.corrections import FieldChange, object_correct, objects_delete
from campaign.services.errors import DomainError

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
