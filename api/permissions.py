"""DRF's side of access: the caller's :class:`~campaign.access.CampaignAccess`, from their
``Membership`` or their API key, and the permission classes that ask it.

Who sees what is :mod:`campaign.access`'s to say. A campaign the caller is not a
member of (nor their key's) does not exist for them (404).
"""

from __future__ import annotations

from functools import cached_property

from rest_framework.exceptions import NotAuthenticated, NotFound
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.views import APIView

from campaign import selectors
from campaign.access import CampaignAccess
from campaign.choices import MemberRole
from campaign.models import CampaignAPIKey

CAMPAIGN_KWARG = "campaign_slug"


def request_api_key(request: Request) -> CampaignAPIKey | None:
    """The API key the request authenticated with (:mod:`api.authentication`), if any."""
    return request.auth if isinstance(request.auth, CampaignAPIKey) else None


def authenticated_user_id(request: Request) -> int:
    """The caller's user id; views reach this only behind ``IsAuthenticated``."""
    user_id = request.user.pk
    if not request.user.is_authenticated or user_id is None:
        raise NotAuthenticated()
    return int(user_id)


def campaign_access_resolve(request: Request, campaign_slug: str) -> CampaignAccess | None:
    """The caller's access to the campaign, or None when it is not theirs (nor their key's)."""
    api_key = request_api_key(request)
    if api_key is not None:
        # The key's campaign is loaded with the key when it authenticated the request.
        return CampaignAccess.of_api_key(api_key) if api_key.campaign.slug == campaign_slug else None
    user = request.user
    if not user.is_authenticated:
        return None
    campaign = selectors.member_campaign(int(user.pk), campaign_slug)
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
    """Reads too: what only umpires may see at all (the night orders they queue, say)."""

    message = "Only an umpire of this campaign may see or change this."

    def has_permission(self, request: Request, view: APIView) -> bool:
        scoped = _scoped(view)
        return scoped is not None and scoped.campaign_access.is_umpire


class IsUmpireInPerson(IsUmpire):
    """The umpire signed in, never a key, for who may act in the campaign or receive its news:
    its members, invitations, API keys and webhooks. A write-granted key that could make an
    account, an invitation, a key or a subscription would outlive its own revocation through them."""

    message = (
        "Only an umpire of this campaign, signed in, may manage its members, invitations, API keys "
        "and webhooks."
    )

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is None and super().has_permission(request, view)


class IsUmpireInPersonOrSideWriteKey(IsUmpireInPerson):
    """Webhooks: the umpire signed in, or a side's write-granted key for its own side's
    subscriptions (the view scopes them; revoking the key switches them off)."""

    message = (
        "Only an umpire of this campaign, signed in, or a side's API key with write permission "
        "(for its own side) may manage webhooks."
    )

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request_api_key(request) is not None:
            return side_key_writes(request) and _scoped(view) is not None
        return super().has_permission(request, view)


def side_key_writes(request: Request) -> bool:
    """Whether the request comes with a side's write-granted API key (which manages its side's
    webhook subscriptions, nothing else)."""
    api_key = request_api_key(request)
    return api_key is not None and api_key.can_write and api_key.side_id is not None


class IsSidePlayerInPerson(BasePermission):
    """A player of the campaign, logged in: a side's read-only key reads as its player but never
    writes its orders."""

    message = "Only a player of a side, logged in, may write that side's orders."

    def has_permission(self, request: Request, view: APIView) -> bool:
        scoped = _scoped(view)
        return request_api_key(request) is None and scoped is not None and scoped.campaign_access.is_player
