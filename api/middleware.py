"""The API's check of a request before any view runs: text PostgreSQL cannot store
(:mod:`api.storable_text`), answered in the API's error shape.

Apart from :mod:`api.storable_text` because it answers with :mod:`api.errors`' body, and
api.errors imports DRF's views, which import the parsers, which import api.storable_text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse

from api.errors import API_PREFIX, validation_body
from api.storable_text import unstorable_input, unstorable_refused


class StorableTextMiddleware:
    """A 400 naming the path argument, query parameter or header whose text cannot be stored."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: dict[str, Any]
    ) -> HttpResponse | None:
        field = unstorable_input(request, kwargs)
        if field is None:
            return None
        body = validation_body(unstorable_refused(field))
        if request.path.startswith(API_PREFIX):
            return JsonResponse(body, status=400)
        return HttpResponseBadRequest(body["error"]["message"], content_type="text/plain; charset=utf-8")
