"""Who may see and change what in a campaign: roles from ``Membership``, or from an API key.

An umpire sees everything of their campaign and makes every write. A player
sees their own side in full and the enemy only as far as the enemy side's
``fog_of_war`` settings reveal. An observer sees the public summary. A
campaign the user is not a member of does not exist for them (404).

A third-party app's :class:`~api.models.CampaignAPIKey` (no user) gets the role
of :func:`api_key_role` in its one campaign; every other campaign is 404 to it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from operator import attrgetter
from typing import Any

from django.db import connection
from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from api.models import CampaignAPIKey
from campaign import models
from campaign.access import Reader
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

    @cached_property
    def sides(self) -> Mapping[int, models.Side]:
        """By id, loaded when first needed (a cached force status needs none), or prefetched."""
        return {side.pk: side for side in sorted(self.campaign.sides.all(), key=attrgetter("pk"))}

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

    @property
    def reader(self) -> Reader:
        """Who reads, for the roll log's and the timeline's visibility (``campaign.access``)."""
        return Reader(umpire=self.is_umpire, side_id=self.player_side_id)

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


def request_api_key(request: Request) -> CampaignAPIKey | None:
    """The API key the request authenticated with (:mod:`api.authentication`), if any."""
    return request.auth if isinstance(request.auth, CampaignAPIKey) else None


def api_key_role(api_key: CampaignAPIKey) -> MemberRole:
    """A write-granted key acts for the umpire; a side's key sees as its player; else an observer."""
    if api_key.can_write:
        return MemberRole.UMPIRE
    return MemberRole.PLAYER if api_key.side_id is not None else MemberRole.OBSERVER


def authenticated_user_id(request: Request) -> int:
    """The caller's user id; views reach this only behind ``IsAuthenticated``."""
    user_id = request.user.pk
    if not request.user.is_authenticated or user_id is None:
        raise NotAuthenticated()
    return int(user_id)


def _api_key_access(api_key: CampaignAPIKey, campaign_slug: str) -> CampaignAccess | None:
    campaign = api_key.campaign  # loaded with the key when it authenticated the request
    if campaign.slug != campaign_slug:
        return None
    role = api_key_role(api_key)
    side_id = api_key.side_id if role == MemberRole.PLAYER else None
    return CampaignAccess(campaign=campaign, role=role, side_id=side_id)


def _member_campaign(user_id: int, campaign_slug: str) -> models.Campaign | None:
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


def campaign_access_resolve(request: Request, campaign_slug: str) -> CampaignAccess | None:
    """The caller's access to the campaign, or None when it is not theirs (nor their key's)."""
    api_key = request_api_key(request)
    if api_key is not None:
        return _api_key_access(api_key, campaign_slug)
    user = request.user
    if not user.is_authenticated:
        return None
    campaign = _member_campaign(int(user.pk), campaign_slug)
    if campaign is None:
        return None
    return CampaignAccess(
        campaign=campaign,
        role=MemberRole(getattr(campaign, "member_role")),  # noqa: B009  (columns of the query)
        side_id=getattr(campaign, "member_side_id"),  # noqa: B009
    )


class CampaignAccessMixin(APIView):
    """For views under ``/campaigns/{campaign_slug}/``: the caller's access, resolved once."""

    @cached_property
    def campaign_access(self) -> CampaignAccess:
        slug = self.kwargs[CAMPAIGN_KWARG]
        access = campaign_access_resolve(self.request, slug)
        if access is None:
            raise NotFound(f"No campaign {slug!r} that you are a member of.")
        return access


def _scoped(view: APIView) -> CampaignAccessMixin | None:
    if isinstance(view, CampaignAccessMixin) and CAMPAIGN_KWARG in view.kwargs:
        return view
    return None


class IsAuthenticatedOrAPIKey(BasePermission):
    """A logged-in user or a valid campaign API key (which authenticates as no user)."""

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is not None or bool(request.user and request.user.is_authenticated)


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


class IsUmpire(BasePermission):
    """Reads too: what only umpires may see at all (webhook subscriptions and their deliveries)."""

    message = "Only an umpire of this campaign may see or change this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        scoped = _scoped(view)
        return scoped is not None and scoped.campaign_access.is_umpire


class IsUmpireInPerson(IsUmpire):
    """The umpire logged in, never a key: a write-granted key that could make keys
    would outlive its own revocation."""

    message = "Only an umpire of this campaign, logged in, may manage its API keys."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is None and super().has_permission(request, view)
