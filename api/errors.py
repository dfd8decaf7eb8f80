"""One error body for every 4xx and 5xx the API answers.

``{"error": {"code", "message", "fields": {path: [messages]}, "rule"}}`` — the
code is stable for machines, the message is for people, ``fields`` names the
inputs at fault by dotted path (``battalions[0].code``) and ``rule`` the rule
reference a domain error was refused under.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from api.parsers import too_large
from campaign.services.errors import DomainError, as_sentence

logger = logging.getLogger(__name__)

NON_FIELD_ERRORS = "non_field_errors"
_PATH_PARTS = re.compile(r"\[\d+\]|[^.\[\]]+")
API_PREFIX = "/api/"


def error_body(
    code: str, message: str, fields: Mapping[str, list[str]] | None = None, rule: str | None = None
) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "fields": dict(fields or {}), "rule": rule}}


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def flatten_field_errors(detail: Any, prefix: str = "") -> dict[str, list[str]]:
    """DRF's nested validation errors as ``{dotted.path[index]: [messages]}``."""
    if isinstance(detail, Mapping):
        flat: dict[str, list[str]] = {}
        for key, value in detail.items():
            if key == NON_FIELD_ERRORS and prefix:
                path = prefix  # a nested serializer's or a list's own error is its field's
            elif isinstance(key, int):
                path = f"{prefix}[{key}]"  # ListField reports its children's errors by index
            else:
                path = _join(prefix, str(key))
            flat.update(flatten_field_errors(value, path))
        return flat
    if isinstance(detail, list):
        if all(isinstance(item, str) for item in detail):
            return {prefix or NON_FIELD_ERRORS: [str(item) for item in detail]} if detail else {}
        flat = {}
        for index, item in enumerate(detail):  # a list serializer: one entry per item, {} when valid
            flat.update(flatten_field_errors(item, f"{prefix}[{index}]"))
        return flat
    return {prefix or NON_FIELD_ERRORS: [str(detail)]}


def field_in_words(path: str) -> str:
    """A dotted input path as people say it: ``battalions[0].activation_points_spent`` →
    ``battalions, entry 1, activation points spent``."""
    words = []
    for part in _PATH_PARTS.findall(path):
        words.append(f"entry {int(part[1:-1]) + 1}" if part.startswith("[") else part.replace("_", " "))
    return ", ".join(words)


def validation_body(exc: exceptions.ValidationError) -> dict[str, Any]:
    fields = flatten_field_errors(exc.detail)
    first_path, first_messages = next(iter(fields.items()), (NON_FIELD_ERRORS, ["Invalid input."]))
    first = first_messages[0]
    if first_path != NON_FIELD_ERRORS:
        # "Battalions: this list may not be empty." names the field and stays one sentence.
        first = f"{field_in_words(first_path)}: {first[:1].lower()}{first[1:]}"
    return error_body("invalid", as_sentence(first), fields)


def _api_exception_code(exc: exceptions.APIException) -> str:
    codes = exc.get_codes()
    return codes if isinstance(codes, str) else exc.default_code


def exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: domain errors, DRF errors and crashes in one shape."""
    set_rollback()  # as DRF's own handler does, for deployments with ATOMIC_REQUESTS
    if isinstance(exc, DomainError):
        fields = exc.fields or ({exc.field: [exc.message]} if exc.field else {})
        return Response(error_body(exc.code, exc.message, fields, exc.rule), status=exc.status)
    if isinstance(exc, RequestDataTooBig):  # a form body Django read past its limit
        exc = too_large()
    elif isinstance(exc, TooManyFieldsSent):
        exc = exceptions.ParseError("The request has too many fields.")
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        return Response(validation_body(exc), status=exc.status_code)
    if isinstance(exc, exceptions.APIException):
        # APIView.handle_exception sets auth_header on 401s; throttles carry a wait.
        headers = {}
        if auth_header := getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = str(auth_header)
        if wait := getattr(exc, "wait", None):
            headers["Retry-After"] = str(int(wait))
        return Response(
            error_body(_api_exception_code(exc), str(exc.detail)), status=exc.status_code, headers=headers
        )
    logger.exception("unhandled error in %s", context.get("view").__class__.__name__, exc_info=exc)
    return Response(
        error_body("server_error", "Internal server error."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )


def not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: the API's error shape under /api/, Django's page elsewhere."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body("not_found", f"No endpoint at {request.path}."), status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500`` for errors outside DRF views (middleware, URL resolution)."""
    if request.path.startswith(API_PREFIX):
        return JsonResponse(error_body("server_error", "Internal server error."), status=500)
    return defaults.server_error(request)
