"""Who plays in a campaign: invitations by link, accounts made by an umpire, removals,
and each member's calendar feed secret.

An invitation link carries a random token; only its SHA-256 is stored, so the link
is shown once, when it is made. It is single-use and expires. An account made by
an umpire gets a random initial password, returned once to be handed over.
"""

from __future__ import annotations

import datetime
import secrets
from typing import Any, cast

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field
from django.utils import timezone

from campaign import models
from campaign.choices import EventVerb, MemberRole
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock
from campaign.services.errors import ConflictError, DomainError, NotFoundError

INVITATION_DAYS_DEFAULT = 7
INVITATION_DAYS_MAX = 30
# 12 random bytes: 16 characters to type once and change.
INITIAL_PASSWORD_BYTES = 12


# The roles whose members play a side (and must name one); every other role plays none.
ROLES_WITH_SIDE = (MemberRole.PLAYER,)


def _role_side(campaign: models.Campaign, role: MemberRole, side_id: int | None) -> models.Side | None:
    """The side a member of ``role`` plays: players need one of the campaign's, others none."""
    if role not in ROLES_WITH_SIDE:
        if side_id is not None:
            raise DomainError(f"only players play a side, not an {role.label.lower()}", field="side")
        return None
    if side_id is None:
        raise DomainError("a player needs a side", field="side")
    side = campaign.sides.filter(pk=side_id).first()
    if side is None:
        raise DomainError(f"{campaign.name} has no side {side_id}", field="side")
    return side


def _role_words(role: MemberRole, side: models.Side | None) -> str:
    return f"{role.label.lower()} of {side.name}" if side is not None else role.label.lower()


@transaction.atomic
def invitation_create(
    campaign_id: int,
    actor: Actor,
    *,
    role: str,
    side_id: int | None = None,
    expires_in_days: int = INVITATION_DAYS_DEFAULT,
) -> tuple[models.Invitation, str]:
    """An invitation link's row and its token (the only time the token exists in clear)."""
    campaign = campaign_lock(campaign_id)
    member_role = MemberRole(role)
    side = _role_side(campaign, member_role, side_id)
    if not 1 <= expires_in_days <= INVITATION_DAYS_MAX:
        raise DomainError(
            f"an invitation lasts 1 to {INVITATION_DAYS_MAX} days, not {expires_in_days}",
            field="expires_in_days",
        )
    token = secrets.token_urlsafe(32)
    invitation = models.Invitation.objects.create(
        campaign=campaign,
        role=member_role,
        side=side,
        token_hash=models.Invitation.token_hash_of(token),
        expires_at=timezone.now() + datetime.timedelta(days=expires_in_days),
        created_by_id=actor.user_id,
    )
    event_record(
        campaign,
        EventVerb.MEMBER_INVITED,
        invitation,
        f"Invitation made: joins as {_role_words(member_role, side)}, "
        f"until {timezone.localtime(invitation.expires_at):%d %B %Y %H:%M}",
        actor,
        after={"role": member_role.value, "side": side.name if side else None},
    )
    return invitation, token


@transaction.atomic
def invitation_accept(token: str, actor: Actor) -> models.Membership:
    """The signed-in user who opened the link joins the campaign with the invitation's role."""
    user_id = actor.user_id
    if user_id is None:
        raise DomainError("sign in to accept an invitation", field="token", code="not_signed_in")
    invitation = (
        models.Invitation.objects.select_for_update(of=("self",))
        .filter(token_hash=models.Invitation.token_hash_of(token))
        .select_related("side")
        .first()
    )
    if invitation is None:
        raise NotFoundError("this invitation link is not valid: ask your umpire for a new one", field="token")
    if invitation.accepted_at is not None:
        raise ConflictError("this invitation was already used", field="token", code="invitation_used")
    if invitation.expires_at <= timezone.now():
        raise ConflictError(
            f"this invitation expired on {timezone.localtime(invitation.expires_at):%d %B %Y}: "
            "ask your umpire for a new one",
            field="token",
            code="invitation_expired",
        )
    campaign = campaign_lock(invitation.campaign_id)
    existing = campaign.memberships.filter(user_id=user_id).first()
    if existing is not None:
        raise ConflictError(
            f"you are already a member of {campaign.name}, as {existing.get_role_display().lower()}",
            field="token",
            code="already_member",
        )
    membership = models.Membership.objects.create(
        user_id=user_id, campaign=campaign, role=invitation.role, side=invitation.side
    )
    invitation.accepted_by_id, invitation.accepted_at = user_id, timezone.now()
    invitation.save(update_fields=["accepted_by", "accepted_at"])
    event_record(
        campaign,
        EventVerb.MEMBER_JOINED,
        membership,
        f"{membership.user} joined by invitation as "
        f"{_role_words(MemberRole(invitation.role), invitation.side)}",
        actor,
        after={"role": invitation.role, "side": invitation.side.name if invitation.side else None},
    )
    return membership


@transaction.atomic
def member_account_create(
    campaign_id: int, actor: Actor, *, username: str, role: str, side_id: int | None = None
) -> tuple[models.Membership, str]:
    """A new login, member of the campaign, and its initial password (returned this once)."""
    campaign = campaign_lock(campaign_id)
    member_role = MemberRole(role)
    side = _role_side(campaign, member_role, side_id)
    user_model = get_user_model()
    name_field = cast("Field[Any, Any]", user_model._meta.get_field(user_model.USERNAME_FIELD))
    username = username.strip()
    try:
        name_field.run_validators(username)
    except ValidationError as exc:
        raise DomainError(" ".join(exc.messages), field="username") from None
    if user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__iexact": username}).exists():
        raise ConflictError(
            f"the username {username!r} is taken: invite that person by link instead",
            field="username",
            code="username_taken",
        )
    password = secrets.token_urlsafe(INITIAL_PASSWORD_BYTES)
    user = user_model(**{user_model.USERNAME_FIELD: username})
    user.set_password(password)
    user.save()
    membership = models.Membership.objects.create(user=user, campaign=campaign, role=member_role, side=side)
    event_record(
        campaign,
        EventVerb.MEMBER_ACCOUNT_CREATED,
        membership,
        f"Account {username} created as {_role_words(member_role, side)}",
        actor,
        after={"username": username, "role": member_role.value, "side": side.name if side else None},
    )
    return membership, password


@transaction.atomic
def member_remove(campaign_id: int, actor: Actor, membership_id: int) -> None:
    """Remove a member (their login stays); never the campaign's last umpire."""
    campaign = campaign_lock(campaign_id)
    membership = (
        campaign.memberships.select_for_update(of=("self",))
        .select_related("user", "side")
        .filter(pk=membership_id)
        .first()
    )
    if membership is None:
        raise NotFoundError(f"{campaign.name} has no such member", field="member")
    if (
        membership.role == MemberRole.UMPIRE
        and not campaign.memberships.filter(role=MemberRole.UMPIRE).exclude(pk=membership.pk).exists()
    ):
        raise ConflictError(
            f"{membership.user} is the last umpire of {campaign.name}: make another umpire first",
            field="member",
            code="last_umpire",
        )
    event_record(
        campaign,
        EventVerb.MEMBER_REMOVED,
        membership,
        f"{membership.user} removed ({_role_words(MemberRole(membership.role), membership.side)})",
        actor,
        before={"username": membership.user.get_username(), "role": membership.role},
    )
    membership.delete()


@transaction.atomic
def membership_calendar_renew(campaign_id: int, actor: Actor) -> models.Membership:
    """A new secret for the caller's own calendar feed: the old URL answers 404 from now on."""
    user_id = actor.user_id
    campaign = campaign_lock(campaign_id)
    membership = (
        None if user_id is None else campaign.memberships.select_for_update().filter(user_id=user_id).first()
    )
    if membership is None:
        raise NotFoundError(f"you are not a member of {campaign.name}", field="campaign")
    membership.calendar_token = models.calendar_token_new()
    membership.save(update_fields=["calendar_token"])
    # The message never holds the secret: umpires read the timeline.
    event_record(
        campaign,
        EventVerb.CALENDAR_RENEWED,
        membership,
        f"{membership.user} renewed their calendar link",
        actor,
    )
    return membership


@transaction.atomic
def membership_notification_emails_set(campaign_id: int, actor: Actor, *, enabled: bool) -> models.Membership:
    """Turn the caller's notification e-mails in a campaign on or off (the inbox always has them)."""
    user_id = actor.user_id
    campaign = campaign_lock(campaign_id)
    membership = (
        None if user_id is None else campaign.memberships.select_for_update().filter(user_id=user_id).first()
    )
    if membership is None:
        raise NotFoundError(f"you are not a member of {campaign.name}", field="campaign")
    before = membership.notification_emails
    membership.notification_emails = enabled
    membership.save(update_fields=["notification_emails"])
    event_record(
        campaign,
        EventVerb.NOTIFICATION_EMAIL_SET,
        membership,
        f"{membership.user} turned notification e-mails {'on' if enabled else 'off'}",
        actor,
        before={"notification_emails": before},
        after={"notification_emails": enabled},
    )
    return membership
