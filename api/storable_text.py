"""Text PostgreSQL cannot store, refused as a 400 naming the field wherever it comes in.

PostgreSQL's text and jsonb hold no NUL character, and an unpaired surrogate (JSON's
``"\\ud800"``) has no UTF-8 encoding: either would reach the database as an error, a 500.
The request's path arguments, query parameters and the headers the service stores are
checked by :class:`api.middleware.StorableTextMiddleware` before any view runs; JSON bodies by
``api.parsers.BoundedJSONParser`` as DRF reads them. Form fields need no check here: every
Django and DRF character field refuses both already.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
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


def unstorable_input(request: HttpRequest, view_kwargs: dict[str, Any]) -> str | None:
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
