"""The session: who is signed in, their memberships and the key a request carries."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from campaign import models
from campaign.choices import MemberRole


class MembershipSummaryField(serializers.DictField):
    """A membership as the session lists it: the campaign's slug, the role with its label, the side."""

    def to_representation(self, value: Any) -> dict[str, Any]:
        membership: models.Membership = value
        return {
            "slug": membership.campaign.slug,
            "role": membership.role,
            "role_label": membership.get_role_display(),
            "side": membership.side_id,
        }


class SessionKeySerializer(LabelledModelSerializer[models.CampaignAPIKey]):
    """The API key a request carries, as its holder may read it (never its secret): its side is
    the model's field, named as the key list names it."""

    campaign = serializers.CharField(source="campaign.slug", help_text="the one campaign it reads (its slug)")
    campaign_name = serializers.CharField(source="campaign.name", help_text="that campaign's name")
    role = serializers.ChoiceField(
        source="reads_as", choices=MemberRole.choices, help_text="whom it reads as"
    )
    side_name = serializers.CharField(source="side.name", allow_null=True, read_only=True)

    class Meta:
        model = models.CampaignAPIKey
        fields = ["name", "prefix", "campaign", "campaign_name", "role", "side", "side_name", "can_write"]
        read_only_fields = fields
        extra_kwargs = {
            "side": {"help_text": "the side it reads as; null: the public view"},
            "can_write": {"help_text": "granted writes (as the umpire, never membership or keys)"},
        }


class SessionSerializer(LabelledSerializer[Any]):
    """Who is asking: the signed-in person and the campaigns they are a member of, or the API key
    and the one campaign it reads."""

    authenticated = serializers.BooleanField()
    username = serializers.CharField(allow_null=True, help_text="null for a key or nobody")
    campaigns = serializers.ListField(
        child=MembershipSummaryField(), help_text="slug, role (with role_label) and side of each membership"
    )
    api_key = SessionKeySerializer(allow_null=True, help_text="the key the request carries; null: none")
