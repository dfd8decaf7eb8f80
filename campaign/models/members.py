"""Who takes part: memberships, invitations, notifications and the campaign's API keys."""

from __future__ import annotations

import hashlib
import secrets
from typing import ClassVar

from django.conf import settings
from django.contrib.postgres.functions import RandomUUID
from django.db import models
from django.db.models import Q
from rest_framework_api_key.models import AbstractAPIKey, APIKeyManager

from campaign import choices
from campaign.models.campaigns import Campaign, Side


def calendar_token_new() -> str:
    """A member's calendar feed secret: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


class Membership(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=choices.MemberRole.choices)
    side = models.ForeignKey(Side, null=True, blank=True, on_delete=models.CASCADE, related_name="members")
    # Kept in clear, not hashed: the member reads their feed's URL again in the web app. It
    # opens the club nights' dates and nothing else, and renewing it shuts the old URL.
    calendar_token = models.CharField(
        max_length=64,
        unique=True,
        default=calendar_token_new,
        help_text="the secret of the member's iCal feed",
    )
    # The inbox always holds every notification; this only stops the e-mails.
    notification_emails = models.BooleanField(
        default=True, help_text="notifications are e-mailed too (they always reach the inbox)"
    )
    # What the API names it by: ids in sequence would count other campaigns' rows.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "campaign"], name="one_membership_per_user_and_campaign"),
            models.CheckConstraint(
                condition=Q(role="player", side__isnull=False) | ~Q(role="player"),
                name="players_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role} in {self.campaign}"


class Invitation(models.Model):
    """A single-use link that makes the signed-in user who opens it a member, with its role."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=choices.MemberRole.choices)
    side = models.ForeignKey(
        Side, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    # Only the token's hash: a leaked table invites nobody.
    token_hash = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the link's token")
    expires_at = models.DateTimeField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    accepted_at = models.DateTimeField(null=True, blank=True)
    # What the API names it by: ids in sequence would count other campaigns' rows.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role="player", side__isnull=False) | (~Q(role="player") & Q(side__isnull=True)),
                name="invited_players_have_a_side",
            ),
        ]

    def __str__(self) -> str:
        return f"invitation to {self.campaign} as {self.role}"

    @staticmethod
    def token_hash_of(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()


NOTIFICATION_TITLE_MAX, NOTIFICATION_LINK_MAX, NOTIFICATION_KEY_MAX = 200, 300, 100


class Notification(models.Model):
    """One member's inbox entry (and its e-mail): written by ``services.notifications``,
    carrying only what its recipient may read."""

    recipient = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(max_length=20, choices=choices.NotificationKind.choices)
    title = models.CharField(max_length=NOTIFICATION_TITLE_MAX)
    body = models.TextField(blank=True)
    link = models.CharField(
        max_length=NOTIFICATION_LINK_MAX, help_text="the web app's page it is about, from the site's root"
    )
    # A sweep sending the same reminder again finds it here (one per recipient, kind and key).
    dedupe_key = models.CharField(
        max_length=NOTIFICATION_KEY_MAX,
        blank=True,
        help_text="what it is about, e.g. operation:12; empty: never deduplicated",
    )
    email = models.CharField(
        max_length=10, choices=choices.NotificationEmail.choices, default=choices.NotificationEmail.PENDING
    )
    # The sweeper's lease: a pending e-mail is sent again once this is a lease old (its task lost).
    email_tried_at = models.DateTimeField(null=True, blank=True)
    # Each send counts an attempt; after WORK_MAX_ATTEMPTS refusals the e-mail is given up
    # (campaign.services.background's one retry policy), with the mail server's last answer.
    email_attempts = models.PositiveSmallIntegerField(default=0)
    email_error = models.CharField(max_length=500, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)
    read_at = models.DateTimeField(null=True, blank=True)
    # What the API names it by: ids in sequence would count other members' notifications.
    public_id = models.UUIDField(db_default=RandomUUID(), unique=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["recipient", "-id"]),
            # The unread count and the bell: a member's unread ones.
            models.Index(fields=["recipient"], condition=Q(read_at__isnull=True), name="notification_unread"),
            # The sweeper looks for e-mails whose task was lost.
            models.Index(
                fields=["email_tried_at"],
                condition=Q(email=choices.NotificationEmail.PENDING),
                name="notification_email_pending",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["recipient", "campaign", "kind", "dedupe_key"],
                condition=~Q(dedupe_key=""),
                name="one_notification_per_subject",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.title}"


class CampaignAPIKeyManager(APIKeyManager):
    def get_usable_keys(self) -> models.QuerySet[CampaignAPIKey]:
        # With the campaign: the query that authenticates a key also loads what it may reach.
        return super().get_usable_keys().select_related("campaign")


class CampaignAPIKey(AbstractAPIKey):
    """A third-party app's key: hashed, revocable, expiring, scoped to one campaign and
    either one side (that side's player view) or the public summary (no side)."""

    objects: ClassVar[CampaignAPIKeyManager] = CampaignAPIKeyManager()
    # Whom it reads as (a MemberRole): no column, access's to judge; the session sets it to show it.
    reads_as: str

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="api_keys")
    side = models.ForeignKey(
        Side,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
        help_text="empty: the public (observer) view",
    )
    can_write = models.BooleanField(default=False, help_text="read-only unless granted")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta(AbstractAPIKey.Meta):
        verbose_name = "campaign API key"
        db_table = "api_campaignapikey"  # made by the api app, which held the model before
