"""The web app's ``index.html`` for ``/`` and every client-side route of the SPA.

Its assets are static files (``frontend/dist`` in ``STATICFILES_DIRS``, served
by whitenoise under ``/static/``); the page itself is read per request so a
rebuild needs no restart.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_safe

# Paths the SPA must never answer: the API, the admin, static files, the health check.
SERVER_PREFIXES = ("api", "admin", "static", "healthz")
SPA_ROUTE = r"^(?!(?:{})(?:/|$)).*$".format("|".join(SERVER_PREFIXES))


@require_safe
@ensure_csrf_cookie  # the app's first write (the sign-in) needs the cookie
def spa_index(request: HttpRequest) -> HttpResponse:
    try:
        html = (settings.FRONTEND_DIST / "index.html").read_text(encoding="utf-8")
    except FileNotFoundError:
        return HttpResponse(
            "The web app is not built: run `npm ci && npm run build` in frontend/ (`make run` does).",
            status=503,
            content_type="text/plain; charset=utf-8",
        )
    response = HttpResponse(html)
    response["Cache-Control"] = "no-cache"  # asset names change with every build
    return response
