from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaign.selectors import service_health


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when database, Redis and at least one worker answer; 503 otherwise."""
    components = service_health()
    healthy = all(c.ok for c in components.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        "components": {name: {"ok": c.ok, "detail": c.detail} for name, c in components.items()},
    }
    return JsonResponse(body, status=200 if healthy else 503)
