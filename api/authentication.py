"""``Authorization: Api-Key <prefix>.<secret>``: third-party apps' campaign API keys.

A key authenticates as no user: ``request.user`` stays anonymous and
``request.auth`` is the :class:`~campaign.models.CampaignAPIKey`, from which
:mod:`api.permissions` resolves the campaign access it grants. Keys are stored
hashed with the library's SHA-512 key hasher, not a password hasher: a key is
40 random letters and digits, so a deliberately slow hash (PBKDF2: tens of
milliseconds) would buy no security and would make every request of a polling
client slow; one SHA-512 is microseconds.

A force status poll (:mod:`api.warm_polls` before its URL is resolved, else a view action with
``polled_from_grant``) first asks Redis, in the one round
trip that also reads the status (:mod:`campaign.polls`), for the key's *grant*: what the key
may read (its campaign and scope) and its hash, stored by the first poll that authenticated
from the database; past the hash's check, the same round trip counts the poll in the key's rate
limit (:mod:`api.rate_limits`). Any change to a key (its revocation first) overwrites its grant with a
tombstone that no poll can replace, so a revoked key is refused from its next request; grants and
tombstones go after ``GRANT_TIMEOUT_SECONDS``, which bounds how long a tombstone Redis failed to
take (it was unreachable from the revoking process alone) leaves a key usable.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from typing import Any, cast

import orjson
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.db.models import Model
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from rest_framework.authentication import BaseAuthentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request
from rest_framework_api_key.permissions import KeyParser

from campaign import models, polls
from campaign.models import CampaignAPIKey

GRANT_KEY = polls.KEY_PREFIX + "api-key-grant:{prefix}"
GRANT_TIMEOUT_SECONDS = 60
GRANT_FORGOTTEN = b"forgotten"  # a tombstone: the grant is read from the database
# The key's fields a grant keeps, to authenticate a poll with no query.
GRANT_FIELDS = ("id", "prefix", "name", "hashed_key", "campaign_id", "side_id", "can_write", "expiry_date")
GRANTED_ATTRIBUTE = "api_key_granted"
_NOT_ASKED = object()

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
        context = request.parser_context or {}
        if getattr(context.get("view"), "polled_from_grant", False):
            from api.permissions import CAMPAIGN_KWARG  # imports DRF's views, which import this module

            kwargs = context.get("kwargs", {})
            granted = warm_poll(request._request, key, kwargs.get(CAMPAIGN_KWARG), kwargs["pk"])
            if granted is not None:
                return AnonymousUser(), granted.api_key()
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


@dataclass(frozen=True)
class WarmPoll:
    """A poll its key's grant lets in, with the status it reads from the cache."""

    grant: dict[str, Any]
    expiry: datetime.datetime | None
    status: polls.CachedForceStatus

    def api_key(self) -> CampaignAPIKey:
        """The key as the grant keeps it, with what the permissions read of its campaign."""
        grant = self.grant
        api_key = CampaignAPIKey.from_db(
            None,
            [*GRANT_FIELDS, "revoked"],
            [*(grant[name] for name in GRANT_FIELDS[:-1]), self.expiry, False],
        )
        # Anything else of the campaign would be loaded when read.
        api_key.campaign = models.Campaign.from_db(
            None, ["id", "slug"], [grant["campaign_id"], grant["slug"]]
        )
        return api_key


def warm_poll(request: HttpRequest, key: str, campaign_slug: str | None, force_id: str) -> WarmPoll | None:
    """A poll of ``force_id``'s status in ``campaign_slug`` with ``key``, let in by the key's grant
    with the status found, the poll counted in its rate limit (on ``request``); None: the
    database answers (with the reason, when it refuses). One round trip a request, however often
    this is called: :mod:`api.warm_polls` asks before the URL is resolved, this class after."""
    granted = getattr(request, GRANTED_ATTRIBUTE, _NOT_ASKED)
    if granted is _NOT_ASKED:
        granted = _granted(request, key, campaign_slug, force_id) if KEY_SHAPE.fullmatch(key) else None
        setattr(request, GRANTED_ATTRIBUTE, granted)
    return cast(WarmPoll | None, granted)


def warm_status(request: HttpRequest | Request) -> polls.CachedForceStatus | None:
    """The status the request's key's grant read (:func:`warm_poll`), if it did."""
    granted = getattr(request, GRANTED_ATTRIBUTE, None)
    return granted.status if isinstance(granted, WarmPoll) else None


def _granted(request: HttpRequest, key: str, campaign_slug: str | None, force_id: str) -> WarmPoll | None:
    # Imports DRF's views, which import this module.
    from api import rate_limits

    prefix = key.partition(".")[0]
    # The script counts the poll in the window of the key's kind, which its grant says.
    windows = {writes: rate_limits.window(rate_limits.key_kind(writes), prefix) for writes in (False, True)}
    hashed_key = CampaignAPIKey.objects.key_generator.hash(key)
    found = polls.force_status_granted(
        _grant_key(prefix),
        hashed_key,
        (
            polls.RateCounter(windows[False].counter, windows[False].lifetime),
            polls.RateCounter(windows[True].counter, windows[True].lifetime),
        ),
        force_id,
        request.headers.get("If-None-Match", ""),
    )
    if found is None:
        return None
    grant = orjson.loads(found.grant)
    # Counted once, whoever answers: the key's whole hash matched its grant's.
    rate_limits.counted(request, windows[grant["can_write"]].standing(found.count))
    expiry = grant["expiry_date"] and datetime.datetime.fromisoformat(grant["expiry_date"])
    if (
        grant["slug"] != campaign_slug
        or (expiry and expiry <= timezone.now())
        or not constant_time_compare(hashed_key, grant["hashed_key"])
    ):
        return None  # the database answers, with the reason
    if found.status is None:
        return None  # the database answers: the status is rendered, and cached for the next poll
    return WarmPoll(grant, expiry or None, found.status)


def _grant_key(prefix: str) -> str:
    return cache.make_key(GRANT_KEY.format(prefix=prefix))


def grant_store(api_key: CampaignAPIKey, campaign_slug: str, scope: str) -> None:
    """Keep what ``api_key`` (authenticated from the database) reads, for its next polls; never
    over a tombstone, nor for a hash the polls could not check."""
    if not CampaignAPIKey.objects.key_generator.using_preferred_hasher(api_key.hashed_key):
        return
    fields = {name: getattr(api_key, name) for name in GRANT_FIELDS}
    grant = orjson.dumps({**fields, "slug": campaign_slug, "scope": scope})
    key = _grant_key(api_key.prefix)
    polls.redis_call(lambda client: client.set(key, grant, ex=GRANT_TIMEOUT_SECONDS, nx=True), None, [key])


def grant_forget(prefix: str) -> None:
    """Tombstone the key's grant: its polls authenticate from the database again."""
    key = _grant_key(prefix)
    polls.redis_call(lambda client: client.set(key, GRANT_FORGOTTEN, ex=GRANT_TIMEOUT_SECONDS), None, [key])


def grant_forget_on_change(sender: type[Model], instance: CampaignAPIKey, **kwargs: Any) -> None:
    """Every change to a key, however it is made (the service, the admin, a cascade): written
    before the change commits, so no poll stores the grant of before it afterwards."""
    if not kwargs.get("created"):
        grant_forget(instance.prefix)
