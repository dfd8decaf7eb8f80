"""Third-party API keys in the umpire's back office: seen, and revoked through the service.

Keys are made through the API (``POST /api/v1/campaigns/{slug}/api-keys/``), which
shows the plain key once; here nothing about a key can be typed or changed.
"""

from __future__ import annotations

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from rest_framework_api_key.models import APIKey

from api.models import CampaignAPIKey
from campaign.admin import ReadOnlyAdmin
from campaign.services.api_keys import api_key_revoke
from campaign.services.audit import Actor

# The library's own admin lists its stock APIKey model, which this service never uses: one
# "API keys" section, ours, which revokes through the service.
admin.site.unregister(APIKey)


@admin.register(CampaignAPIKey)
class CampaignAPIKeyAdmin(ReadOnlyAdmin[CampaignAPIKey]):
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
    def revoke(self, request: HttpRequest, queryset: QuerySet[CampaignAPIKey]) -> None:
        def revoke_one(api_key: CampaignAPIKey, actor: Actor) -> str:
            api_key_revoke(api_key.campaign_id, actor, api_key.prefix)
            return "revoked"

        self.run_service(request, queryset, revoke_one)
