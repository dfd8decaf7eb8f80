"""Text PostgreSQL cannot store, refused as a 400 naming the field wherever it comes in.

PostgreSQL's text and jsonb hold no NUL character, and an unpaired surrogate (JSON's
``"\\ud800"``) has no UTF-8 encoding: either would reach the database as an error, a 500.
The request's path arguments, query parameters and the headers the service stores are
checked by :class:`StorableTextMiddleware` before any view runs; JSON bodies by
``api.parsers.BoundedJSONParser`` as DRF reads them. Form fields need no check here: every
Django and DRF character field refuses both already.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from rest_framework.exceptions import ValidationError
from rest_framework.settings import api_settings

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MESSAGE = "contains a character that cannot be stored (a NUL or an unpaired surrogate); remove it"
# Headers the service keeps: the request id its events record, and the idempotency key.
STORED_HEADERS = ("X-Request-ID", "Idempotency-Key")


def unstorable_refused(field: str) -> ValidationError:
    return ValidationError({field: [MESSAGE]})


def _name(text: str) -> str:
    """A name as the error may repeat it: its unstorable characters marked, not echoed."""
    return UNSTORABLE.sub("\ufffd", text)


def unstorable_path(value: Any) -> str | None:
    """The dotted path (``payload.codes[1]``) of a string in a JSON value that cannot be stored,
    or of the object holding such a key; None when every string can. Iterative, like the
    parser's depth check, so nesting costs no stack."""
    pending: list[tuple[str, Any]] = [("", value)]
    while pending:
        path, item = pending.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                return path or api_settings.NON_FIELD_ERRORS_KEY
        elif isinstance(item, dict):
            for key, child in item.items():
                if UNSTORABLE.search(key):
                    return path or api_settings.NON_FIELD_ERRORS_KEY
                pending.append((f"{path}.{key}" if path else key, child))
        elif isinstance(item, list):
            pending.extend((f"{path}[{index}]", child) for index, child in enumerate(item))
    return None


def _unstorable_input(request: HttpRequest, view_kwargs: dict[str, Any]) -> str | None:
    """The name of the first path argument, query parameter or stored header that cannot be stored."""
    for name, value in view_kwargs.items():
        if isinstance(value, str) and UNSTORABLE.search(value):
            return name
    for name, values in request.GET.lists():
        if UNSTORABLE.search(name) or any(UNSTORABLE.search(value) for value in values):
            return _name(name)
    for header in STORED_HEADERS:
        if UNSTORABLE.search(request.headers.get(header, "")):
            return header
    return None


class StorableTextMiddleware:
    """A 400 naming the path argument, query parameter or header whose text cannot be stored."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        # api.errors imports DRF's views, which import the parsers, which import this module.
        from api.errors import API_PREFIX, validation_body

        field = _unstorable_input(request, kwargs)
        if field is None:
            return None
        body = validation_body(unstorable_refused(field))
        if request.path.startswith(API_PREFIX):
            return JsonResponse(body, status=400)
        return HttpResponseBadRequest(body["error"]["message"], content_type="text/plain; charset=utf-8")
