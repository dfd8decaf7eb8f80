"""A campaign's API keys."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.reverse import reverse

from api.labels import LabelledModelSerializer
from api.permissions import CAMPAIGN_KWARG
from api.serializers.base import access_of
from campaign import models


class APIKeySerializer(LabelledModelSerializer[models.CampaignAPIKey]):
    """A third-party key as its umpire sees it: never the key itself, which is shown once."""

    url = serializers.SerializerMethodField()
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)
    expired = serializers.BooleanField(source="has_expired", read_only=True)

    class Meta:
        model = models.CampaignAPIKey
        fields = [
            "prefix",
            "url",
            "name",
            "side",
            "can_write",
            "expiry_date",
            "expired",
            "revoked",
            "created",
            "created_by",
        ]

    def get_url(self, api_key: models.CampaignAPIKey) -> str:
        return reverse(
            "api:api-key-detail",
            kwargs={CAMPAIGN_KWARG: access_of(self).campaign.slug, "prefix": api_key.prefix},
            request=self.context.get("request"),
        )


class APIKeyCreatedSerializer(APIKeySerializer):
    # A replayed answer (api.idempotency) has no key: only its hash is kept.
    shown_once = ("key",)
    key = serializers.SerializerMethodField(
        help_text="send as `Authorization: Api-Key <key>`; shown this once, store it now "
        "(null when an Idempotency-Key replays this answer)"
    )

    class Meta(APIKeySerializer.Meta):
        fields = [*APIKeySerializer.Meta.fields, "key"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_key(self, api_key: models.CampaignAPIKey) -> str:
        return str(self.context["plain_key"])
