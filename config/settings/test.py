"""Test run: fast hashing, mail kept in memory, short broker redelivery, and a Redis database for
each pytest-xdist worker."""

import os
from urllib.parse import urlsplit


def _xdist_worker_redis_url() -> None:
    """pytest-xdist runs the tests in several processes: worker ``gwN`` takes the Redis database N
    after ``REDIS_URL``'s, so that its Celery queues, cache keys and counted commands (MONITOR,
    per database) never meet another worker's. The processes a test starts inherit the moved URL
    and keep it (``XDIST_REDIS_URL_MOVED``)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not worker.startswith("gw") or os.environ.get("XDIST_REDIS_URL_MOVED"):
        return
    url = urlsplit(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    database = int(url.path.strip("/") or 0) + int(worker[2:])
    os.environ["REDIS_URL"] = url._replace(path=f"/{database}").geturl()
    os.environ["XDIST_REDIS_URL_MOVED"] = "1"


_xdist_worker_redis_url()

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import CELERY_BROKER_TRANSPORT_OPTIONS, DATABASES, env  # noqa: E402

SECRET_KEY = "test-key-not-for-production"
# A test's commit need not wait for the disk: losing the last commits of a test database to a
# machine crash costs nothing, and the suite commits thousands of times (flushes, workers' steps).
DATABASES["default"].setdefault("OPTIONS", {})["options"] = "-c synchronous_commit=off"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Every test client logs in from 127.0.0.1: the throttle tests set their own rates.
LOGIN_THROTTLE_RATES = {"address": "100000/minute", "account": "100000/minute", "all": "100000/minute"}
# The suite never trips a rate limit: tests/api/test_rate_limits.py sets its own.
API_RATE_LIMITS = dict.fromkeys(("read_key", "write_key", "session", "anonymous"), "1000000/minute")
# Mail kept in memory; a test's own worker process writes it to files the test reads instead.
EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.locmem.EmailBackend")
EMAIL_FILE_PATH = env("EMAIL_FILE_PATH", "")
# Tests kill workers on purpose; redelivery must come within the test's patience.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    **CELERY_BROKER_TRANSPORT_OPTIONS,
    "visibility_timeout": int(env("CELERY_VISIBILITY_TIMEOUT", "20")),
}
# Retries within a test's patience: 0.05 s, 0.1 s, 0.2 s, ...
WORK_BACKOFF_SECONDS = float(env("WORK_BACKOFF_SECONDS", "0.025"))
WEBHOOK_ALLOW_LOOPBACK = True  # tests' receivers listen on 127.0.0.1 (tests/webhook_receiver.py)
