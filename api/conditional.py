"""Conditional reads: every successful GET of the API carries a weak ETag of what it answers,
and a request sending that ETag back in ``If-None-Match`` gets 304 with no body while it is
still current. One home for the ETag, the match and the headers (the base viewset applies them
to every read; the force status, whose ETag is cached with its body, uses the same helpers)."""

from __future__ import annotations

import hashlib
import time
from typing import Any

import orjson
from django.http import HttpResponseBase
from django.utils.http import parse_etags
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.utils import encoders, json

from api.permissions import request_api_key
from campaign.access import CampaignAccess
from campaign.selectors.force_status import version_shown

# Private: an answer depends on who asks; no-cache: a cache must ask again before it reuses one.
CACHE_CONTROL = "private, no-cache"


def weak_etag(data: Any) -> str:
    """An ETag of the response's content, whatever format it is rendered in (hence weak).

    orjson refuses integers beyond 64 bits, which a JSON value read back from PostgreSQL may hold
    (jsonb keeps 1e308 as a 309-digit number): those are hashed as DRF's encoder renders them."""
    try:
        content = orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        content = json.dumps(data, cls=encoders.JSONEncoder, sort_keys=True).encode()
    return _etag_of(content)


def version_etag(request: Request, access: CampaignAccess, *, clock: bool = False) -> str:
    """An ETag computed before any row is read: of the campaign's version shown (every committed
    change bumps it; during a night the one reads show), the reader (role, side, person or key:
    fog of war differs per reader), the path with its query, and what the answer is rendered as.
    ``clock``: the answer also reads the clock (the next night phase's moment), so the ETag turns
    every minute too."""
    user = request.user
    api_key = request_api_key(request)
    reader = [
        access.role,
        access.side_id,
        access.in_person,
        user.pk if user is not None and user.is_authenticated else None,
        api_key.prefix if api_key is not None else None,
    ]
    parts = [
        "version",
        version_shown(access.campaign),
        reader,
        request.get_full_path(),
        request.headers.get("Accept", ""),
        request.headers.get("Accept-Language", ""),
        int(time.time() // 60) if clock else None,
    ]
    return _etag_of(orjson.dumps(parts, default=str))


def _etag_of(content: bytes) -> str:
    return f'W/"{hashlib.sha256(content).hexdigest()[:40]}"'


def etag_matches(request: Request, etag: str) -> bool:
    """If-None-Match by weak comparison (RFC 9110 § 13.1.2)."""
    sent = parse_etags(request.headers.get("If-None-Match", ""))
    return "*" in sent or etag.removeprefix("W/") in {tag.removeprefix("W/") for tag in sent}


def not_modified(etag: str, cache_control: str = CACHE_CONTROL) -> Response:
    """304 with the headers the full answer would carry (RFC 9110 § 15.4.5): its ETag and its
    Cache-Control, so a paper's lifetime is renewed as its 200 would have set it."""
    headers = {"ETag": etag, "Cache-Control": cache_control}
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)


def conditional(request: Request, response: HttpResponseBase) -> HttpResponseBase:
    """``response`` to a read with its ETag, or 304 when the caller holds it already; anything
    else (a write, an error, an answer that set its own ETag, a stream) as it is."""
    if request.method not in ("GET", "HEAD") or response.status_code != status.HTTP_200_OK:
        return response
    if response.has_header("ETag") or getattr(response, "streaming", False):
        return response
    # A Response is not rendered yet: its data; another answer (a paper, a file) its bytes.
    etag = weak_etag(response.data) if isinstance(response, Response) else _etag_of(response.content)  # type: ignore[attr-defined]
    if not response.has_header("Cache-Control"):
        response["Cache-Control"] = CACHE_CONTROL
    if etag_matches(request, etag):
        return not_modified(etag, response["Cache-Control"])
    response["ETag"] = etag
    return response
