"""The club's administration: members, invitations, the schedule and the calendar."""

from __future__ import annotations

import calendar
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign import models
from campaign.links import page_path

WEEKDAY_CHOICES = [(number, name) for number, name in enumerate(calendar.day_name)]


class MemberSerializer(LabelledModelSerializer[models.Membership]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    username = serializers.CharField(source="user.get_username", read_only=True)
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)

    class Meta:
        model = models.Membership
        fields = ["id", "username", "role", "side", "side_name"]


class MemberCreatedSerializer(MemberSerializer):
    """A member whose account the umpire made: with its initial password, this once."""

    shown_once = ("initial_password",)  # never copied into a replayed answer (api.idempotency)
    initial_password = serializers.SerializerMethodField(
        help_text="hand it to the member, who signs in with it; shown this once "
        "(null when an Idempotency-Key replays this answer)"
    )

    class Meta(MemberSerializer.Meta):
        fields = [*MemberSerializer.Meta.fields, "initial_password"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_initial_password(self, membership: models.Membership) -> str:
        return str(self.context["initial_password"])


class InvitationSerializer(LabelledModelSerializer[models.Invitation]):
    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)
    created_by = serializers.CharField(source="created_by.get_username", read_only=True, allow_null=True)
    accepted_by = serializers.CharField(source="accepted_by.get_username", read_only=True, allow_null=True)
    expired = serializers.SerializerMethodField(help_text="past its expiry, unused")

    class Meta:
        model = models.Invitation
        fields = [
            "id",
            "role",
            "side",
            "side_name",
            "expires_at",
            "expired",
            "created_by",
            "created_at",
            "accepted_by",
            "accepted_at",
        ]

    def get_expired(self, invitation: models.Invitation) -> bool:
        return invitation.accepted_at is None and invitation.expires_at <= timezone.now()


class InvitationCreatedSerializer(InvitationSerializer):
    """An invitation with its link, this once: only the token's hash is kept."""

    shown_once = ("token", "link")
    token = serializers.SerializerMethodField(help_text="null when an Idempotency-Key replays this answer")
    link = serializers.SerializerMethodField(
        help_text="the web app's page that joins whoever opens it, signed in; null on a replay"
    )

    class Meta(InvitationSerializer.Meta):
        fields = [*InvitationSerializer.Meta.fields, "token", "link"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_token(self, invitation: models.Invitation) -> str:
        return str(self.context["token"])

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_link(self, invitation: models.Invitation) -> str:
        request = self.context["request"]
        return str(request.build_absolute_uri(page_path("join", token=self.context["token"])))


class InvitationPreviewSerializer(LabelledModelSerializer[models.Invitation]):
    """What an invitation link offers, for the person about to accept it."""

    campaign = serializers.CharField(source="campaign.slug", read_only=True)
    campaign_name = serializers.CharField(source="campaign.name", read_only=True)
    side_name = serializers.CharField(source="side.name", read_only=True, allow_null=True)
    used = serializers.SerializerMethodField()
    expired = serializers.SerializerMethodField()

    class Meta:
        model = models.Invitation
        fields = ["campaign", "campaign_name", "role", "side_name", "expires_at", "used", "expired"]

    def get_used(self, invitation: models.Invitation) -> bool:
        return invitation.accepted_at is not None

    def get_expired(self, invitation: models.Invitation) -> bool:
        return invitation.expires_at <= timezone.now()


class ClubNightSerializer(LabelledModelSerializer[models.ClubNight]):
    class Meta:
        model = models.ClubNight
        fields = ["campaign_day", "play_date"]


class ScheduleSerializer(LabelledSerializer[Any]):
    """The club's schedule: the weekly night phase (in the club's time zone) and the club nights."""

    night_weekday = serializers.ChoiceField(
        source="campaign.night_weekday", choices=WEEKDAY_CHOICES, allow_null=True, read_only=True
    )
    # Text, not an RFC 3339 time (which would need an offset): a wall-clock time of the club's zone.
    night_time = serializers.CharField(
        source="campaign.night_time", allow_null=True, read_only=True, help_text="HH:MM:SS, in `time_zone`"
    )
    time_zone = serializers.SerializerMethodField(help_text="the club's time zone (IANA name)")
    next_night_phase = serializers.DateTimeField(
        allow_null=True, read_only=True, help_text="when the schedule next starts the night phase"
    )
    club_nights = ClubNightSerializer(many=True, read_only=True)
    orders_lead_hours = serializers.IntegerField(
        source="campaign.orders_lead_hours",
        read_only=True,
        help_text="how many hours before the night phase the sides' orders close",
    )

    def get_time_zone(self, schedule: Any) -> str:
        return str(timezone.get_default_timezone_name())


class CalendarLinkSerializer(LabelledSerializer[Any]):
    url = serializers.CharField(help_text="your own iCal feed of the club nights: keep it to yourself")
