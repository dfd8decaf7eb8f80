"""``Authorization: Api-Key <prefix>.<secret>``: third-party apps' campaign API keys.

A key authenticates as no user: ``request.user`` stays anonymous and
``request.auth`` is the :class:`~campaign.models.CampaignAPIKey`, from which
:mod:`api.permissions` resolves the campaign access it grants. Keys are stored
hashed with the library's SHA-512 key hasher, not a password hasher: a key is
40 random letters and digits, so a deliberately slow hash (PBKDF2: tens of
milliseconds) would buy no security and would make every request of a polling
client slow; one SHA-512 is microseconds.
"""

from __future__ import annotations

import re
from typing import cast

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework_api_key.permissions import KeyParser

from campaign.models import CampaignAPIKey

# What the library's generator makes (prefix "." secret, letters and digits); anything else
# is refused before it reaches the database.
KEY_SHAPE = re.compile(r"[A-Za-z0-9]{1,8}\.[A-Za-z0-9]{1,128}")


class CampaignAPIKeyAuthentication(BaseAuthentication):
    """Looks the key up by its prefix and checks its hash, revocation and expiry."""

    key_parser = KeyParser()

    def authenticate_header(self, request: Request) -> str:
        """The challenge of a 401. DRF asks only the first authentication class: this one, so
        missing or bad credentials answer 401 (a session's CSRF failure stays 403)."""
        return f'{self.key_parser.keyword} realm="api"'

    def authenticate(self, request: Request) -> tuple[AnonymousUser, CampaignAPIKey] | None:
        key = self.key_parser.get(request)
        if key is None:  # no Authorization header, or another scheme: not ours to judge
            return None
        key = key.strip()
        try:
            if not KEY_SHAPE.fullmatch(key):
                raise CampaignAPIKey.DoesNotExist
            api_key = cast(CampaignAPIKey, CampaignAPIKey.objects.get_from_key(key))  # unrevoked keys only
        except CampaignAPIKey.DoesNotExist:
            raise AuthenticationFailed("Unknown or revoked API key.", code="api_key_invalid") from None
        if api_key.has_expired:
            expired = timezone.localtime(api_key.expiry_date).isoformat(timespec="minutes")
            raise AuthenticationFailed(f"This API key expired at {expired}.", code="api_key_expired")
        return AnonymousUser(), api_key
