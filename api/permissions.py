"""Who may see and change what in a campaign: roles from ``Membership``.

An umpire sees everything of their campaign and makes every write. A player
sees their own side in full and the enemy only as far as the enemy side's
``fog_of_war`` settings reveal. An observer sees the public summary. A
campaign the user is not a member of does not exist for them (404).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from campaign import models
from campaign.choices import MemberRole

CAMPAIGN_KWARG = "campaign_slug"


@dataclass(frozen=True)
class Fog:
    """What a side lets its enemies see (``Side.fog_of_war``); unset means nothing."""

    identified_units: frozenset[str]  # battalion codes the enemy has identified
    battle_results: bool  # the enemy sees this side's lines of battle reports
    strengths: bool  # the enemy sees stands and stand counts of identified battalions

    @classmethod
    def of(cls, side: models.Side) -> Fog:
        settings: Mapping[str, Any] = side.fog_of_war if isinstance(side.fog_of_war, Mapping) else {}
        return cls(
            identified_units=frozenset(str(code) for code in settings.get("identified_units") or ()),
            battle_results=settings.get("battle_results") is True,
            strengths=settings.get("strengths") is True,
        )


@dataclass(frozen=True)
class CampaignAccess:
    """One user's role in one campaign, with the campaign's sides (for fog of war)."""

    campaign: models.Campaign
    role: MemberRole
    side_id: int | None
    sides: Mapping[int, models.Side]

    @property
    def is_umpire(self) -> bool:
        return self.role == MemberRole.UMPIRE

    @property
    def player_side_id(self) -> int | None:
        """The caller's side when they are a player; None for umpires and observers."""
        return self.side_id if self.role == MemberRole.PLAYER else None

    @property
    def is_player(self) -> bool:
        return self.player_side_id is not None

    def sees_in_full(self, side_id: int) -> bool:
        return self.is_umpire or side_id == self.player_side_id

    def fog(self, side_id: int) -> Fog:
        return Fog.of(self.sides[side_id])

    @property
    def own_side(self) -> models.Side | None:
        """A player's side."""
        side_id = self.player_side_id
        return self.sides.get(side_id) if side_id is not None else None

    @property
    def enemy_fogs(self) -> dict[int, Fog]:
        """A player's enemy sides and what each reveals; nothing for other roles."""
        own = self.player_side_id
        if own is None:
            return {}
        return {side_id: Fog.of(side) for side_id, side in self.sides.items() if side_id != own}


def authenticated_user_id(request: Request) -> int:
    """The caller's user id; views reach this only behind ``IsAuthenticated``."""
    user_id = request.user.pk
    if not request.user.is_authenticated or user_id is None:
        raise NotAuthenticated()
    return int(user_id)


def campaign_access_resolve(
    user: AbstractBaseUser | AnonymousUser, campaign_slug: str
) -> CampaignAccess | None:
    """The user's access to the campaign, or None when they are not a member."""
    if not user.is_authenticated:
        return None
    membership = (
        models.Membership.objects.select_related("campaign")
        .filter(user_id=user.pk, campaign__slug=campaign_slug)
        .first()
    )
    if membership is None:
        return None
    return CampaignAccess(
        campaign=membership.campaign,
        role=MemberRole(membership.role),
        side_id=membership.side_id,
        sides={side.pk: side for side in membership.campaign.sides.order_by("pk")},
    )


class CampaignAccessMixin(APIView):
    """For views under ``/campaigns/{campaign_slug}/``: the caller's access, resolved once."""

    @cached_property
    def campaign_access(self) -> CampaignAccess:
        slug = self.kwargs[CAMPAIGN_KWARG]
        access = campaign_access_resolve(self.request.user, slug)
        if access is None:
            raise NotFound(f"No campaign {slug!r} that you are a member of.")
        return access


def _scoped(view: APIView) -> CampaignAccessMixin | None:
    if isinstance(view, CampaignAccessMixin) and CAMPAIGN_KWARG in view.kwargs:
        return view
    return None


class IsCampaignMember(BasePermission):
    """Members only; for anybody else the campaign and everything in it is 404."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        scoped = _scoped(view)
        if scoped is not None:
            scoped.campaign_access  # noqa: B018  (resolving raises NotFound for non-members)
        return True


class IsUmpireOrReadOnly(BasePermission):
    message = "Only an umpire of this campaign may change it."

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        scoped = _scoped(view)
        return scoped is not None and scoped.campaign_access.is_umpire
