"""The floor of the force-status poll over HTTP: a plain Django view returning the endpoint's
own bytes through the project's settings and middleware, at the endpoint's path.

Both the settings module (``DJANGO_SETTINGS_MODULE=tests.benchmarks.plain_view``: the test
settings with this module as the URLconf) and the URLconf. ``BENCH_BODY_FILE`` names the
file holding the body and ``BENCH_CONTENT_TYPE`` its type.
"""

from __future__ import annotations

import os
from pathlib import Path

from django.http import HttpRequest, HttpResponse
from django.urls import re_path

from config.settings.test import *  # noqa: F403  (the same middleware, and everything else)

ROOT_URLCONF = __name__
# The view stands for the status route's own: the middleware that answers a warm poll before any
# view would answer its requests (same path, same key) instead.
MIDDLEWARE = [name for name in MIDDLEWARE if name != "api.warm_polls.WarmPollMiddleware"]  # noqa: F405
BODY = Path(os.environ["BENCH_BODY_FILE"]).read_bytes()
CONTENT_TYPE = os.environ["BENCH_CONTENT_TYPE"]


def force_status(request: HttpRequest) -> HttpResponse:
    return HttpResponse(BODY, content_type=CONTENT_TYPE)


urlpatterns = [re_path(r"", force_status)]
