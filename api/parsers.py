"""The API's JSON parser: bounded in size and depth, so a hostile body is a 4xx, never a crash.

DRF's parser reads the request stream itself, past Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` check; this one applies the same limit (413),
and refuses JSON nested deeper than any input of the API needs (400) before a
recursive walk (validation, the idempotency hash, storage) could exhaust the stack,
and refuses text PostgreSQL cannot store (:mod:`api.storable_text`) naming its field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO, Any

from django.conf import settings
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser
from rest_framework.utils import json

from api.storable_text import unstorable_path, unstorable_refused

# Scenario packs and battle reports nest 6 levels or so; 32 leaves room and no risk.
MAX_JSON_DEPTH = 32


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "The request body is too large."
    default_code = "payload_too_large"


def too_large() -> PayloadTooLarge:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return PayloadTooLarge(f"The request body is larger than {limit // 1024} KiB.")


def _depth_exceeded(value: Any) -> bool:
    """Whether ``value`` nests deeper than MAX_JSON_DEPTH (iteratively: no recursion)."""
    pending: list[tuple[Any, int]] = [(value, 1)]
    while pending:
        item, depth = pending.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        if children and depth >= MAX_JSON_DEPTH:
            return True
        pending.extend((child, depth + 1) for child in children)
    return False


class BoundedJSONParser(JSONParser):
    def parse(
        self, stream: IO[Any], media_type: str | None = None, parser_context: Mapping[str, Any] | None = None
    ) -> Any:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and declared.isdigit() and int(declared) > limit:
            raise too_large()
        body = stream.read(limit + 1)
        if len(body) > limit:
            raise too_large()
        try:
            data = json.loads(body)  # DRF's: NaN and Infinity refused
        except RecursionError:
            raise ParseError(f"The JSON is nested deeper than {MAX_JSON_DEPTH} levels.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
        if _depth_exceeded(data):
            raise ParseError(f"The JSON is nested deeper than {MAX_JSON_DEPTH} levels.")
        field = unstorable_path(data)
        if field is not None:
            raise unstorable_refused(field)
        return data
