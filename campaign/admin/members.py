"""Who reaches the campaign from outside: invitations, notifications, webhooks and API keys."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from rest_framework_api_key.models import APIKey

from campaign import models
from campaign.admin.base import ReadOnlyAdmin, UmpireAdmin
from campaign.choices import WEBHOOK_EVENT_CHOICES
from campaign.services.api_keys import api_key_revoke
from campaign.services.audit import Actor
from campaign.services.errors import DomainError
from campaign.services.webhook_subscriptions import (
    webhook_subscribe,
    webhook_unsubscribe,
    webhook_update,
    webhook_validate,
)


@admin.register(models.Invitation)
class InvitationAdmin(ReadOnlyAdmin[models.Invitation]):
    """Invitation links are made and taken up through the API (only the token's hash is kept)."""

    list_display = ("__str__", "campaign", "role", "side", "expires_at", "accepted_by", "accepted_at")
    list_filter = ("campaign", "role")
    list_select_related = ("campaign", "side", "accepted_by")


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
