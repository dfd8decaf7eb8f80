"""The query parameters an operation reads are the ones its OpenAPI document declares, and no
other: an unknown one is a 400 naming it and the ones it takes (``events/?page=2`` on a
cursor-paged list, a misspelt filter), never ignored.

The document is the contract, so it is also the check: the parameters of each operation are read
once per process from the same generation ``manage.py spectacular`` runs (about a second), keyed
by view class, action and method: when a web process loads ``config/wsgi.py``, so no request waits
for it (elsewhere, as under the test server, at the first request that needs it). A view outside the document
(the schema's own pages) is not checked.
"""

from __future__ import annotations

import threading
from typing import Any

from drf_spectacular.generators import SchemaGenerator
from rest_framework.exceptions import AuthenticationFailed, NotAuthenticated, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from api import rate_limits

# Read by DRF itself on every view: ``?format=json`` picks the renderer (the browsable API's links).
ALWAYS_ACCEPTED = frozenset({api_settings.URL_FORMAT_OVERRIDE or "format"})

_Key = tuple[type, str | None, str]
_declared: dict[_Key, frozenset[str]] | None = None
_lock = threading.Lock()


def declared_query_parameters() -> dict[_Key, frozenset[str]]:
    """Every operation's query parameters, by (view class, action, method)."""
    global _declared
    if _declared is not None:
        return _declared
    with _lock:
        if _declared is None:
            generator = SchemaGenerator()  # type: ignore[no-untyped-call]
            schema = generator.get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
            paths = schema.get("paths", {})
            declared: dict[_Key, frozenset[str]] = {}
            # The views as the document was made from them, with their paths as it writes them.
            for path, _regex, method, view in generator._get_paths_and_endpoints():  # type: ignore[no-untyped-call]
                operation = paths.get(path, {}).get(method.lower())
                if operation is None:  # left out of the document (its own pages)
                    continue
                names = {p["name"] for p in operation.get("parameters", []) if p.get("in") == "query"}
                key = (type(view), getattr(view, "action", None), method.upper())
                declared[key] = declared.get(key, frozenset()) | names
            _declared = declared
    return _declared


def check_query_parameters(view: APIView, request: Request) -> None:
    """A 400 naming each query parameter the operation does not declare."""
    method = str(request.method).upper()
    if method == "HEAD":
        method = "GET"
    key = (type(view), getattr(view, "action", None), method)
    accepted = declared_query_parameters().get(key)
    if accepted is None:
        return
    unknown = sorted(set(request.query_params) - accepted - ALWAYS_ACCEPTED)
    if not unknown:
        return
    takes = f"it takes {', '.join(sorted(accepted))}" if accepted else "it takes none"
    raise ValidationError({name: [f"is not a query parameter of this request ({takes})"] for name in unknown})


class ApiContractMixin:
    """Every API view's side of the contract, in this order: who is asking (a bad key is counted
    as anybody at its address, then refused), their rate limit counted (429 when over), the
    permissions, and the query parameters checked (a caller who may not see the resource learns
    nothing of its parameters); every response then says where the caller stands in its limit."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        view: APIView = self  # type: ignore[assignment]
        try:
            view.perform_authentication(request)
        except (AuthenticationFailed, NotAuthenticated):
            rate_limits.admit(request)  # DRF left the request anonymous: counted by its address
            raise
        rate_limits.admit(request)
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        check_query_parameters(view, request)

    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        rate_limits.add_headers(request, response)
        answer: Response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        return answer
