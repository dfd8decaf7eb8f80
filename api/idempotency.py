"""``Idempotency-Key``: a retried write returns the first response and changes nothing.

Runs inside the request's transaction (see :class:`api.viewsets.ApiViewSet`).
The key's row is inserted before the write, so a concurrent retry blocks on
the unique constraint until the first request commits, then replays it; when
the first request fails, its row rolls back with everything else and a retry
runs afresh. Only successful responses are stored, and never a secret shown once:
a serializer names those fields in ``shown_once``, and a replay answers them as null
(an API key's plain text is kept nowhere, only its hash).
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from api.models import IdempotencyKey
from api.permissions import authenticated_user_id, request_api_key
from campaign.services.errors import DomainError

HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
MAX_KEY_LENGTH = 255
KEPT_HEADERS = ("Location",)


class IdempotencyKeyReused(DomainError):
    """The key already names a different request (IETF httpapi-idempotency-key-header: 422)."""

    status = 422

    def __init__(self) -> None:
        super().__init__(
            f"this {HEADER} was already used for a different request; send a new key",
            field=HEADER,
            code="idempotency_key_reused",
        )


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, cls=DjangoJSONEncoder)
    return hashlib.sha256(f"{request.method} {request.path}\n{body}".encode()).hexdigest()


def _replay(stored: IdempotencyKey) -> Response:
    assert stored.response_status is not None  # rows in flight are locked until they commit
    return Response(
        stored.response_body,
        status=stored.response_status,
        headers={**stored.response_headers, REPLAYED_HEADER: "true"},
    )


def _stored(data: Any) -> Any:
    """The response body to replay: without the secrets its serializer shows only once."""
    shown_once = getattr(getattr(data, "serializer", None), "shown_once", ())
    return {**data, **dict.fromkeys(shown_once)} if shown_once else data


def _owner(request: Request, key: str) -> tuple[int, str]:
    """Who holds the key, and the key as stored. An API key has no user: its keys are held by
    its maker, apart from theirs (prefixed) and hashed so any client key fits the column."""
    api_key = request_api_key(request)
    if api_key is None:
        return authenticated_user_id(request), key
    if api_key.created_by_id is None:
        raise DomainError(f"this API key's maker is gone: ask for a new key to use {HEADER}", field=HEADER)
    return api_key.created_by_id, f"api-key:{api_key.prefix}:{hashlib.sha256(key.encode()).hexdigest()}"


def idempotent(request: Request, write: Callable[[], Response]) -> Response:
    """Run ``write`` once per (user, key); without a key, just run it."""
    key = request.headers.get(HEADER)
    if key is None:
        return write()
    if not key.strip() or len(key) > MAX_KEY_LENGTH:
        raise DomainError(f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters", field=HEADER)
    fingerprint = _fingerprint(request)
    user_id, key = _owner(request, key)
    try:
        with transaction.atomic():
            claimed = IdempotencyKey.objects.create(user_id=user_id, key=key, request_fingerprint=fingerprint)
    except IntegrityError:
        stored = IdempotencyKey.objects.get(user_id=user_id, key=key)
        if stored.request_fingerprint != fingerprint:
            raise IdempotencyKeyReused() from None
        return _replay(stored)
    response = write()
    claimed.response_status = response.status_code
    claimed.response_body = _stored(response.data)
    claimed.response_headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    claimed.save(update_fields=["response_status", "response_body", "response_headers"])
    return response


Handler = Callable[..., Response]


def idempotent_handler(handler: Handler) -> Handler:
    """``handler`` (a view's method handler, called with the request) run by :func:`idempotent`."""

    @functools.wraps(handler)
    def run(request: Request, *args: Any, **kwargs: Any) -> Response:
        return idempotent(request, lambda: handler(request, *args, **kwargs))

    return run
