"""A member's notifications and their e-mail settings."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.labels import LabelledModelSerializer, LabelledSerializer
from api.serializers.base import PUBLIC_ID_HELP
from campaign import models


class NotificationSerializer(LabelledModelSerializer[models.Notification]):
    """One entry of a person's inbox."""

    id = serializers.UUIDField(source="public_id", read_only=True, help_text=PUBLIC_ID_HELP)
    campaign = serializers.CharField(source="campaign.slug", read_only=True, help_text="the campaign's slug")
    campaign_name = serializers.CharField(source="campaign.name", read_only=True)
    link = serializers.CharField(
        read_only=True, help_text="the web app's page it is about, from the site's root"
    )
    read = serializers.SerializerMethodField()

    class Meta:
        model = models.Notification
        fields = [
            "id",
            "campaign",
            "campaign_name",
            "kind",
            "title",
            "body",
            "link",
            "read",
            "read_at",
            "email",
            "emailed_at",
            "created_at",
        ]

    def get_read(self, notification: models.Notification) -> bool:
        return notification.read_at is not None


class NotificationCountSerializer(LabelledSerializer[Any]):
    unread = serializers.IntegerField(help_text="your unread notifications (of the campaign asked, if any)")


class NotificationsReadSerializer(LabelledSerializer[Any]):
    marked = serializers.IntegerField(help_text="how many were unread and are read now")


class NotificationEmailsSerializer(LabelledSerializer[Any]):
    notification_emails = serializers.BooleanField(
        help_text="whether this campaign's notifications are e-mailed to you too (the inbox has them always)"
    )
