"""A warm force-status poll with an API key, answered before its URL is resolved and before DRF.

Third-party apps poll a force's status every few seconds with a key. Once a poll has been
answered from the database, the next ones are answered from Redis alone (the key's grant, its
rate limit and the rendered status, in one round trip: :func:`api.authentication.warm_poll`),
and then resolving the URL among every route and DRF's dispatch (its request, negotiation,
permissions and response) cost more than the answer itself. This middleware, the last, gives
that answer itself when it is certain to be the view's: a GET of the status route with no query,
asking for JSON, whose key's grant found the status and whose count is within the key's limit.
Its body, ETag and 304 are the view's own (:func:`api.force_statuses.status_response`), its
rate-limit headers :mod:`api.rate_limits`', and the headers DRF adds are read off the route's view.

Anything else goes on to the view, with the grant's answer kept on the request so that the round
trip (which counted the poll) is not made twice: a key over its limit gets the view's 429, a
status not cached yet is rendered there, a revoked or unknown key refused there.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import NoReverseMatch, get_script_prefix, reverse
from rest_framework_api_key.permissions import KeyParser

from api import rate_limits
from api.authentication import warm_poll
from api.force_statuses import status_response
from api.permissions import CAMPAIGN_KWARG

STATUS_ROUTE_NAME = "force-force-status"
# What DRF's negotiation answers with JSON's plain media type, as the view's cached answer needs.
JSON_ACCEPTED = frozenset({"", "*/*", "application/json"})


@functools.cache
def _status_route(urlconf: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The status route's path in ``urlconf`` (the router's pattern under the API's root) and
    the headers DRF sets on each of its answers (``Allow``, ``Vary``); None without the API."""
    from api.urls import router  # the URLconf imports every view: not before the first request

    try:
        api_root = "/" + reverse("api:api-root", urlconf=urlconf).removeprefix(get_script_prefix())
    except NoReverseMatch:
        return None
    route = next(url for url in router.urls if getattr(url, "name", None) == STATUS_ROUTE_NAME)
    path = re.compile(re.escape(api_root) + route.pattern.regex.pattern.removeprefix("^"))
    # The view as DRF's viewset function binds it for a request: its actions as its methods.
    view_function: Any = route.callback
    view = view_function.cls(**view_function.initkwargs)
    actions = {"head": view_function.actions["get"], **view_function.actions}
    for method, action in actions.items():
        setattr(view, method, getattr(view, action))
    return path, dict(view.default_response_headers)


class WarmPollMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        self.key_parser = KeyParser()

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.warm_answer(request) or self.get_response(request)

    def warm_answer(self, request: HttpRequest) -> HttpResponseBase | None:
        if request.method != "GET" or request.META.get("QUERY_STRING"):
            return None
        if request.headers.get("Accept", "").strip() not in JSON_ACCEPTED:
            return None
        status_route = _status_route(getattr(request, "urlconf", None) or settings.ROOT_URLCONF)
        if status_route is None:
            return None
        path, view_headers = status_route
        route = path.fullmatch(request.path_info)
        key = self.key_parser.get(request) if route is not None else None
        if route is None or key is None:
            return None
        granted = warm_poll(request, key.strip(), route[CAMPAIGN_KWARG], route["pk"])
        if granted is None or not rate_limits.within_limit(request):
            return None
        response = status_response(granted.status)
        rate_limits.add_headers(request, response)
        for name, value in view_headers.items():
            response[name] = value
        return response
