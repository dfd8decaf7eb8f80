"""Rate limits per kind of caller: a read-only API key, a key granted writes, a signed-in person,
and anybody else (by client address). Each is a number of requests per window
(``API_RATE_LIMITS``, settings-driven), counted in the shared Redis in a fixed window: one
round trip (a script's ``INCR``, and ``EXPIRE`` on a new window) per request, none of its own for a
warm poll with a key (counted in the script that reads its status: ``api.authentication``).

Every response of an API operation says where its caller stands, in the IETF draft's headers
(draft-ietf-httpapi-ratelimit-headers): ``RateLimit-Limit``, ``RateLimit-Remaining``,
``RateLimit-Reset`` (seconds until the window ends) and ``RateLimit-Policy``; a request over the
limit is refused with 429 and ``Retry-After`` before any work is done.

Not DRF's ``SimpleRateThrottle``: it keeps every request's time in one cache entry that each
request reads and writes back whole (a payload growing with the limit, and two concurrent
requests can each write their own history over the other's, losing a count). Not
django-ratelimit: it counts the same way as here but decorates Django views, so the DRF views would
need it wrapped for the caller's kind and the headers anyway. An ``INCR`` per window is atomic
and constant in size.

While Redis is down requests are admitted uncounted and carry no headers (reads degrade to the
database, as the login throttle does: docs/security.md). The calendar feed and ``/healthz`` are
plain Django views, no API operations: exempt, and documented so (docs/api.md, Rate limits).
"""

from __future__ import annotations

import hashlib
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponseBase
from redis.commands.core import Script
from rest_framework.exceptions import Throttled
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from api.permissions import request_api_key
from campaign import polls

KEY_PREFIX = "rate-limit"
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}
# The kinds of caller, in the words the docs and the 429 use.
KINDS = {
    "read_key": "a read-only API key",
    "write_key": "an API key granted writes",
    "session": "a signed-in person",
    "anonymous": "a caller without a login or key",
}
HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")
_ATTRIBUTE = "_rate_limit"


class RateLimited(Throttled):
    default_code = "rate_limited"


@dataclass(frozen=True)
class Standing:
    """Where a caller stands in its window after this request."""

    kind: str
    limit: int
    period: int
    count: int
    reset: int  # seconds until the window ends

    @property
    def remaining(self) -> int:
        return max(0, self.limit - self.count)

    @property
    def over(self) -> bool:
        return self.count > self.limit

    def headers(self) -> dict[str, str]:
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset),
            "RateLimit-Policy": f"{self.limit};w={self.period}",
        }


def rate(kind: str) -> tuple[int, int]:
    """``API_RATE_LIMITS[kind]``, ``"600/minute"``, as (600, 60)."""
    count, _, period = str(settings.API_RATE_LIMITS[kind]).partition("/")
    return int(count), PERIODS[period]


def key_kind(can_write: bool) -> str:
    """The kind of caller an API key is."""
    return "write_key" if can_write else "read_key"


def caller(request: Request) -> tuple[str, str]:
    """The caller's kind and who it is within it: the key's prefix, the user, or the address."""
    api_key = request_api_key(request)
    if api_key is not None:
        return key_kind(api_key.can_write), api_key.prefix
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return "session", str(user.pk)
    # REMOTE_ADDR, or X-Forwarded-For behind NUM_PROXIES proxies; a bare WSGI call is one unknown.
    return "anonymous", BaseThrottle().get_ident(request) or ""


@dataclass(frozen=True)
class Window:
    """A caller's current window: its counter (a full cache key) and its kind's limit."""

    kind: str
    counter: str
    limit: int
    period: int
    reset: int  # seconds until it ends

    @property
    def lifetime(self) -> int:
        return self.period + 1  # the counter outlives its window, never the reverse

    def standing(self, count: int) -> Standing:
        return Standing(self.kind, self.limit, self.period, count, self.reset)


def window(kind: str, ident: str) -> Window:
    """The window ``ident`` (a caller of ``kind``, :func:`caller`) is counted in now."""
    limit, period = rate(kind)
    now = time.time()
    index = int(now // period)
    digest = hashlib.sha256(ident.encode()).hexdigest()[:32]  # no addresses or names in Redis keys
    counter = cache.make_and_validate_key(f"{KEY_PREFIX}:{kind}:{period}:{digest}:{index}")
    return Window(kind, counter, limit, period, reset=max(1, math.ceil((index + 1) * period - now)))


# KEYS[1]: the window's counter; ARGV[1]: its lifetime. The count after this request, in one
# command and one round trip (the counter expires with its window).
_COUNT = Script(
    None,  # type: ignore[arg-type]
    b"local n = redis.call('INCR', KEYS[1]) "
    b"if n == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end return n",
)


def _count(current: Window) -> int | None:
    """The window's count after this request; None while Redis is down (``campaign.cache``)."""
    count = polls.redis_call(
        lambda client: _COUNT(keys=[current.counter], args=[current.lifetime], client=client),
        None,
        [current.counter],
    )
    return None if count is None else int(count)


def counted(request: HttpRequest | Request, standing: Standing) -> None:
    """The request was counted already, with the status read of a warm poll (api.authentication):
    :func:`admit` judges it without counting it again."""
    setattr(request, _ATTRIBUTE, standing)


def admit(request: Request) -> None:
    """Count this request against its caller's budget, unless :func:`counted`; :class:`RateLimited`
    when it is over."""
    standing: Standing | None = getattr(request, _ATTRIBUTE, None)
    if standing is None:
        current = window(*caller(request))
        count = _count(current)
        if count is None:  # admitted uncounted while Redis is down
            return
        standing = current.standing(count)
        setattr(request, _ATTRIBUTE, standing)
    if standing.over:
        raise RateLimited(
            detail=f"Too many requests from {KINDS[standing.kind]}: {standing.limit} per "
            f"{standing.period} seconds. Try again in {standing.reset} seconds.",
            wait=standing.reset,
        )


def within_limit(request: HttpRequest | Request) -> bool:
    """Whether the request, :func:`counted` already, is within its caller's limit."""
    standing: Standing | None = getattr(request, _ATTRIBUTE, None)
    return standing is not None and not standing.over


def add_headers(request: HttpRequest | Request, response: HttpResponseBase) -> None:
    """The caller's standing on its response (none when the request was not counted)."""
    standing: Standing | None = getattr(request, _ATTRIBUTE, None)
    if standing is None:
        return
    for name, value in standing.headers().items():
        response[name] = value
