"""Login throttling: per account, per client address, and for the whole service.

Every password check costs a deliberately slow hash, so each login attempt is
counted before it: :class:`LoginThrottleBackend` comes first in
``AUTHENTICATION_BACKENDS``, so every login form (the API's session, the admin,
the browsable API) passes it, and a refused attempt computes no hash. Counters
are fixed windows in the shared Redis cache (``LOGIN_THROTTLE_RATES``): the
address limit stops one client guessing, the account limit stops many clients
guessing one password, and the service-wide limit bounds the hashing work, so
logins cannot starve other requests.

The budgets are spent in that order, each only by an attempt the ones before it
admitted: an attempt refused for its address spends nothing of the account's or the
service's. So one address spends at most its own limit of any other budget, and with
the account and service limits at least twice the address limit (the defaults), a
flood from one address leaves another address's sign-in as it was. The price: while
an account is attacked from many addresses, its owner waits too (docs/security.md,
Hostile input).
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from redis import RedisError
from rest_framework.exceptions import Throttled
from rest_framework.throttling import BaseThrottle

from api.errors import API_PREFIX, error_body

logger = logging.getLogger(__name__)
KEY_PREFIX = "login-throttle"
PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


class LoginThrottled(Throttled):
    default_detail = "Too many login attempts."
    default_code = "login_throttled"


def _rate(text: str) -> tuple[int, int]:
    """``"10/minute"`` → (10, 60)."""
    count, _, period = text.partition("/")
    return int(count), PERIODS[period]


def _wait(scope: str, ident: str, rate: str, now: float) -> float | None:
    """Count one attempt; the seconds until the window ends when it is one too many."""
    limit, period = _rate(rate)
    window = int(now // period)
    digest = hashlib.sha256(ident.encode()).hexdigest()[:32]  # no user names in Redis keys
    key = f"{KEY_PREFIX}:{scope}:{period}:{digest}:{window}"
    try:
        cache.add(key, 0, timeout=period + 1)
        count = cache.incr(key)
    except (RedisError, ValueError) as exc:  # ValueError: the add was dropped, Redis being down
        # Logins must work while Redis is down (reads degrade to the database): the attempt is
        # admitted uncounted, a window the outage opens (docs/security.md, Hostile input).
        logger.warning("login attempt not counted, the throttle's cache is unavailable: %s", exc)
        return None
    if count <= limit:
        return None
    return (window + 1) * period - now


def login_attempt_admit(request: HttpRequest, username: str) -> None:
    """Count a login attempt against each budget in turn; :class:`LoginThrottled` at the
    first it is over, leaving the budgets after it unspent."""
    rates = settings.LOGIN_THROTTLE_RATES
    now = time.time()
    # REMOTE_ADDR, or NUM_PROXIES; none at all (a bare WSGI call) counts as one unknown client.
    address = BaseThrottle().get_ident(request) or ""  # type: ignore[arg-type]
    for scope, ident in (("address", address), ("account", username.strip().lower()), ("all", "")):
        if (wait := _wait(scope, ident, rates[scope], now)) is not None:
            raise LoginThrottled(wait=wait)


class LoginThrottleBackend:
    """Admits no one: it counts the attempt, and raises :class:`LoginThrottled` (which
    ``authenticate()`` lets through) before a later backend hashes the password. It has no
    ``get_user`` (unlike BaseBackend), so no session is ever tied to it."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, **kwargs: Any) -> None:
        if request is not None:  # None: not an HTTP login (a test client's, a shell's)
            login_attempt_admit(request, username or "")
        return None


class LoginThrottleMiddleware:
    """Answers a throttled login outside DRF (the admin's form) with 429 and Retry-After;
    DRF's views answer it through :func:`api.errors.exception_handler`."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, LoginThrottled):
            return None
        message = str(exception.detail)
        response: HttpResponse = (
            JsonResponse(error_body(LoginThrottled.default_code, message), status=429)
            if request.path.startswith(API_PREFIX)
            else HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        )
        response["Retry-After"] = str(math.ceil(getattr(exception, "wait", None) or 1))
        return response
