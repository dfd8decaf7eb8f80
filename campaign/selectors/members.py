"""Who belongs: memberships, invitations, notifications, API keys and webhooks, and the
campaigns a caller is a member of."""

from __future__ import annotations

from typing import Any

from django.db import connection
from django.db.models import BigIntegerField, OuterRef, Prefetch, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    DayStatus,
)


def memberships_of(user_id: int | None) -> QuerySet[models.Membership]:
    """A user's memberships with their campaigns, by campaign name; none for nobody (None)."""
    if user_id is None:
        return models.Membership.objects.none()
    return (
        models.Membership.objects.filter(user_id=user_id)
        .select_related("campaign")
        .order_by("campaign__name")
    )


def key_session(api_key: models.CampaignAPIKey) -> dict[str, Any]:
    """What ``session/`` tells a key's holder: the key (never its secret), and the one campaign it
    reads listed as a membership would be, in the role the key reads as."""
    role = access_rules.api_key_role(api_key)
    side = api_key.side if api_key.side_id is not None else None
    # Unsaved: the membership the key acts as, in the shape the session lists memberships in.
    acts_as = models.Membership(campaign=api_key.campaign, role=role, side=side)
    api_key.reads_as = role  # the key's role is no field of its own: the session shows it
    return {"authenticated": True, "username": None, "campaigns": [acts_as], "api_key": api_key}


def campaign_summaries(caller: int | models.CampaignAPIKey) -> QuerySet[models.Campaign]:
    """A user's campaigns (by user id), or an API key's one campaign, with today's weather,
    the segment's wind and turns, the dawn of a day under way, and the caller's role."""
    today = models.CampaignDay.objects.filter(campaign=OuterRef("pk"), number=OuterRef("current_day"))
    segment_now = models.DaySegmentRecord.objects.filter(
        day__campaign=OuterRef("pk"), day__number=OuterRef("current_day"), segment=OuterRef("current_segment")
    )
    if isinstance(caller, models.CampaignAPIKey):
        campaigns = models.Campaign.objects.filter(pk=caller.campaign_id)
        role: Subquery | Value = Value(access_rules.api_key_role(caller).value)
        side_id: Subquery | Value = Value(caller.side_id, output_field=BigIntegerField())
    else:
        mine = models.Membership.objects.filter(campaign=OuterRef("pk"), user_id=caller)
        campaigns = models.Campaign.objects.filter(memberships__user_id=caller)
        role, side_id = Subquery(mine.values("role")[:1]), Subquery(mine.values("side_id")[:1])
    club_nights_ahead = models.ClubNight.objects.filter(
        campaign=OuterRef("pk"), play_date__gte=timezone.localdate()
    ).order_by("play_date")
    # The turns of the day played in the segments before the one under way (turns count on
    # through the day's segments: rules_engine's day-end roll cuts them by the day's turn).
    segment_order = models.DaySegmentRecord.objects.filter(
        day=OuterRef("day"), segment=OuterRef(OuterRef("current_segment"))
    ).values("order")[:1]
    earlier_turns = (
        models.DaySegmentRecord.objects.filter(
            day__campaign=OuterRef("pk"),
            day__number=OuterRef("current_day"),
            order__lt=Subquery(segment_order),
        )
        .values("day")
        .annotate(total=Sum("turns"))
        .values("total")[:1]
    )
    return (
        campaigns.annotate(
            weather=Subquery(today.values("weather")[:1]),
            day_status=Subquery(today.values("status")[:1]),
            day_under_way_dawned_at=Subquery(today.filter(status=DayStatus.DAY).values("dawned_at")[:1]),
            turns=Subquery(segment_now.values("turns")[:1]),
            turns_before=Coalesce(Subquery(earlier_turns), 0),
            wind_direction=Subquery(segment_now.values("wind_direction")[:1]),
            wind_velocity=Subquery(segment_now.values("wind_velocity")[:1]),
            initiative_side_id=Subquery(segment_now.values("initiative_side_id")[:1]),
            my_role=role,
            my_side_id=side_id,
            next_club_night=Subquery(club_nights_ahead.values("play_date")[:1]),
        )
        .prefetch_related(Prefetch("sides", queryset=models.Side.objects.order_by("pk")))
        .order_by("name")
    )


def member_campaign(user_id: int, campaign_slug: str) -> models.Campaign | None:
    """The campaign with the user's ``member_role`` and ``member_side_id``, if they are a member.

    Every request of a user under a campaign asks this: in SQL, as the ORM would take
    longer to build the query than PostgreSQL takes to answer it."""
    campaigns = connection.ops.quote_name(models.Campaign._meta.db_table)
    memberships = connection.ops.quote_name(models.Membership._meta.db_table)
    query = (
        f"SELECT c.*, m.role AS member_role, m.side_id AS member_side_id FROM {campaigns} c "
        f"JOIN {memberships} m ON m.campaign_id = c.id WHERE c.slug = %s AND m.user_id = %s"
    )  # table names come from the models; every value is a parameter
    return next(iter(models.Campaign.objects.raw(query, [campaign_slug, user_id])), None)


def api_keys(access: CampaignAccess) -> QuerySet[models.CampaignAPIKey]:
    """The campaign's API keys, for its umpires."""
    queryset = models.CampaignAPIKey.objects.filter(campaign=access.campaign)
    if not access.is_umpire:
        return queryset.none()
    return queryset.select_related("side", "created_by").order_by("-created", "prefix")


def webhooks(access: CampaignAccess, side_key_writes: bool = False) -> QuerySet[models.WebhookSubscription]:
    """Where the campaign's events go is the umpires' to know; a side's write-granted key
    (``side_key_writes``) knows its own side's subscriptions (``access.webhooks_managed``)."""
    return models.WebhookSubscription.objects.filter(
        access_rules.webhooks_managed(access, side_key_writes), campaign=access.campaign
    ).select_related("created_by")


def webhook_deliveries(subscription: models.WebhookSubscription) -> QuerySet[models.WebhookDelivery]:
    """A subscription's delivery log, newest first."""
    # With its subscription: whether it may be sent again depends on it being switched on.
    return models.WebhookDelivery.objects.filter(subscription=subscription).select_related(
        "event", "subscription"
    )


def members(access: CampaignAccess) -> QuerySet[models.Membership]:
    """The campaign's members, for its umpires: umpires first, then players by side, then observers."""
    if not access.is_umpire:
        return models.Membership.objects.none()
    return (
        models.Membership.objects.filter(campaign=access.campaign)
        .select_related("user", "side")
        .order_by("role", "side__name", "user__username")
    )


def invitations(access: CampaignAccess) -> QuerySet[models.Invitation]:
    """The campaign's invitation links (never their tokens), newest first, for its umpires."""
    if not access.is_umpire:
        return models.Invitation.objects.none()
    return models.Invitation.objects.filter(campaign=access.campaign).select_related(
        "side", "created_by", "accepted_by"
    )


def invitation_by_token(token: str) -> models.Invitation | None:
    """The invitation a link's token opens, with its campaign and side."""
    return (
        models.Invitation.objects.filter(token_hash=models.Invitation.token_hash_of(token))
        .select_related("campaign", "side")
        .first()
    )


def notifications(user_id: int) -> QuerySet[models.Notification]:
    """A person's inbox across their campaigns, newest first, each with its campaign."""
    return (
        models.Notification.objects.filter(access_rules.notifications_readable(user_id))
        .select_related("campaign")
        .order_by("-id")
    )


def notifications_unread(user_id: int, campaign_slug: str | None = None) -> int:
    unread = notifications(user_id).filter(read_at__isnull=True)
    if campaign_slug is not None:
        unread = unread.filter(campaign__slug=campaign_slug)
    return unread.count()


def member_campaign_id(user_id: int, campaign_slug: str) -> int | None:
    """The id of the campaign of ``campaign_slug`` when the person is its member."""
    return (
        models.Membership.objects.filter(user_id=user_id, campaign__slug=campaign_slug)
        .values_list("campaign_id", flat=True)
        .first()
    )


def membership_of(user_id: int, campaign_id: int) -> models.Membership | None:
    return models.Membership.objects.filter(user_id=user_id, campaign_id=campaign_id).first()
