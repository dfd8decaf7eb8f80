"""What the viewsets share: umpires-only permissions, public-id lookups, a signed-in user."""

from __future__ import annotations

from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from api.permissions import IsUmpire, request_api_key
from api.viewsets import CAMPAIGN_PERMISSIONS

# Umpires only, reads included: anybody else is 403, or 404 outside the campaign.
UMPIRE_PERMISSIONS = [*CAMPAIGN_PERMISSIONS, IsUmpire]


class PublicIdLookup:
    """Rows named by their public id (rules notes C-14): ids in sequence would count the rows
    a reader does not see."""

    lookup_field = "public_id"
    lookup_url_kwarg: str | None = "pk"
    lookup_value_regex = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


class IsSignedIn(IsAuthenticated):
    """A person signed in, never an API key: keys belong to one campaign and make none."""

    message = "Sign in to do this: an API key may not."

    def has_permission(self, request: Request, view: APIView) -> bool:
        return request_api_key(request) is None and super().has_permission(request, view)
