from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaign.selectors import service_health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 "ok" when database, Redis and at least one worker answer. 200 "degraded" when only
    Redis is down: the API still answers from the database (cache and sessions), only the
    background operations wait for the broker, and a 503 would have a load balancer or
    compose take a web process that still serves out of rotation. 503 "unavailable" when the
    database is down, or when no worker answers although the broker does."""
    components = service_health()
    if all(c.ok for c in components.values()):
        status = "ok"
    elif components["database"].ok and not components["redis"].ok:
        status = "degraded"  # the worker cannot answer without its broker: not a fault of its own
    else:
        status = "unavailable"
    body = {
        "status": status,
        "components": {name: {"ok": c.ok, "detail": c.detail} for name, c in components.items()},
    }
    return JsonResponse(body, status=503 if status == "unavailable" else 200)
