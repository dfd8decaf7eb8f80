"""Settings shared by every environment.  Everything variable comes from the
environment (12-factor); local/test add conveniences, production adds checks."""

from __future__ import annotations

import os
import re
from pathlib import Path

import dj_database_url
from kombu import Queue
from whitenoise.compress import Compressor  # type: ignore[import-untyped]

from config.settings.queues import queue_names

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise RuntimeError(f"environment variable {name} is required")
    return value


def env_bool(name: str, default: bool) -> bool:
    return env(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


SECRET_KEY = env("SECRET_KEY", "")
DEBUG = env_bool("DEBUG", False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI and Redoc as static files: no CDN in a club hall
    "rest_framework_api_key",
    "campaign",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "api.throttling.LoginThrottleMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "api.middleware.StorableTextMiddleware",
    # Last: it answers a warm force-status poll with a key itself, past every header the others set.
    "api.warm_polls.WarmPollMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/campaign"),
        conn_max_age=int(env("DATABASE_CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Collected static files are compressed (gzip and brotli) for browsers, except what browsers never
# fetch compressed: whitenoise's own list, and source maps, which only a developer's tools read
# (half the bytes the API documentation's assets bring, and half the collectstatic time).
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]

REDIS_URL = env("REDIS_URL", "redis://127.0.0.1:6379/0")
# Shared by every web process. Keys carry the campaign's version, so an entry is never
# stale; the timeout only bounds what unpolled entries hold. The broker shares this
# Redis database: never cache.clear() (it flushes the queues), delete by key.
CACHES = {
    "default": {
        "BACKEND": "campaign.cache.SharedClientRedisCache",
        "LOCATION": REDIS_URL,
        # Two services sharing one Redis database keep apart by prefix (the benchmarks do).
        "KEY_PREFIX": env("CACHE_KEY_PREFIX", "campaign-cache"),
        "TIMEOUT": 3600,
        # Redis down is a miss (campaign.cache): fail fast, then leave Redis alone for
        # retry_after seconds, so requests are served from the database meanwhile.
        "OPTIONS": {
            "socket_connect_timeout": float(env("CACHE_REDIS_CONNECT_TIMEOUT", "0.5")),
            "socket_timeout": float(env("CACHE_REDIS_TIMEOUT", "1.0")),
            "retry_after": float(env("CACHE_REDIS_RETRY_AFTER", "5")),
        },
    }
}
# Sessions are read from the cache and written through to the database: a polling client's
# request costs no session query, and logging out deletes both copies; with Redis down
# they are read from the database.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# The throttle first: it counts each login attempt before the password is hashed (api.throttling).
AUTHENTICATION_BACKENDS = ["api.throttling.LoginThrottleBackend", "api.auth_backends.ModelBackend"]
# An account's and the service's budgets are at least twice an address's: what one address
# spends of them leaves another address its whole budget (api.throttling).
# Requests per window for each kind of caller (api/rate_limits.py, docs/api.md "Rate limits"):
# a read-only API key, a key granted writes, a signed-in person (the web app polls), anybody else.
API_RATE_LIMITS = {
    "read_key": env("API_RATE_LIMIT_READ_KEY", "600/minute"),
    "write_key": env("API_RATE_LIMIT_WRITE_KEY", "300/minute"),
    "session": env("API_RATE_LIMIT_SESSION", "1200/minute"),
    "anonymous": env("API_RATE_LIMIT_ANONYMOUS", "120/minute"),
}
LOGIN_THROTTLE_RATES = {
    "address": env("LOGIN_THROTTLE_ADDRESS_RATE", "10/minute"),
    "account": env("LOGIN_THROTTLE_ACCOUNT_RATE", "20/minute"),
    "all": env("LOGIN_THROTTLE_SERVICE_RATE", "60/minute"),
}
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# The web app's build (`npm run build` in frontend/): assets under /static/,
# index.html served by api.spa. Listed only once built, so an unbuilt
# tree passes Django's checks.
FRONTEND_DIST = BASE_DIR / "frontend" / "dist"
STATICFILES_DIRS = [FRONTEND_DIST] if FRONTEND_DIST.is_dir() else []

# Files named after their content never change: browsers keep them for a year without asking
# again. Vite puts only such files under the web app's assets/ (<name>-<hash>.<ext>: index.html
# asks for these names, and each page's chunk asks for the chunks it imports); the manifest
# storage of production adds a <name>.<12 hex digits>.<ext> copy of every static file.
DJANGO_HASHED_NAME = re.compile(r"^.+\.[0-9a-f]{12}\.\w+$")


def static_file_is_immutable(path: str, url: str) -> bool:
    return url.startswith(f"/{STATIC_URL}assets/") or DJANGO_HASHED_NAME.match(url) is not None


WHITENOISE_IMMUTABLE_FILE_TEST = static_file_is_immutable

EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
# Where members open the web app: notification e-mails link to their page under it. Unset, the
# address `make run` serves: its PORT (8000 unless given).
WEB_APP_URL = env("WEB_APP_URL", f"http://localhost:{env('PORT', '8000')}")
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "umpire@campaign.local")

REST_FRAMEWORK = {
    # The key first: DRF takes a 401's WWW-Authenticate from the first class (sessions have
    # none, which would turn every refusal into a 403). A request without a key falls through
    # to the browser's session.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "api.authentication.CampaignAPIKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": [
        "django_filters.rest_framework.DjangoFilterBackend",
        "api.filters.CheckedOrderingFilter",
    ],
    # api.pagination.PagePagination caps ?page_size at its max_page_size.
    "DEFAULT_PAGINATION_CLASS": "api.pagination.PagePagination",
    "PAGE_SIZE": 50,
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # Reverse proxies in front of the service: the client address is read from
    # X-Forwarded-For only behind them (0: REMOTE_ADDR, which a client cannot forge).
    "NUM_PROXIES": int(env("NUM_PROXIES", "0")),
}

# The OpenAPI document, served at /api/v1/schema/ and written by the stock
# `manage.py spectacular`: one configuration for both. Hooks, the API key scheme and
# examples are in api/schema.py.
SPECTACULAR_SETTINGS = {
    "TITLE": "Campaign service API",
    "VERSION": "2.0.0",
    "DESCRIPTION": (
        "Campaigns, orders of battle, force status, battles, night phases and the roll log of a "
        "club's WWII miniature wargames campaign. Session authentication (send the `csrftoken` "
        "cookie's value as `X-CSRFToken` on writes), or a campaign's API key "
        "(`Authorization: Api-Key <key>`). Every error answers "
        '`{"error": {"code", "message", "fields", "rule"}}`. Quick start: docs/api.md.'
    ),
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["api.schema.exclude_schema_views"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.add_error_responses",
        "api.schema.add_response_headers",
        "api.schema.mark_deprecated",
    ],
    # Several models have a "status" (or "kind") with different choices: name each enum.
    "ENUM_NAME_OVERRIDES": {
        "CampaignStatusEnum": "campaign.choices.CampaignStatus",
        "BattleStatusEnum": "campaign.choices.BattleStatus",
        "StandStatusEnum": "campaign.choices.StandStatus",
        "DayStatusEnum": "campaign.choices.DayStatus",
        "OperationStatusEnum": "campaign.choices.OperationStatus",
        "OperationKindEnum": "campaign.choices.OperationKind",
        "AttachmentKindEnum": "campaign.choices.AttachmentKind",
        "NightOrderKindEnum": "campaign.choices.NightOrderKind",
        "SectorKindEnum": "campaign.choices.SectorKind",
        "GroupKindEnum": "campaign.choices.GroupKind",
        "DaySegmentEnum": "campaign.choices.DAY_SEGMENT_CHOICES",
        "DeliveryStatusEnum": "campaign.choices.DeliveryStatus",
        "WebhookKindEnum": "campaign.choices.WebhookKind",
        "WebhookAudienceEnum": "campaign.choices.WebhookAudience",
        "WebhookEventEnum": "campaign.choices.WEBHOOK_EVENT_CHOICES",
        "LinkKindEnum": "campaign.choices.LinkKind",
        "SupplySituationEnum": "campaign.choices.SUPPLY_SITUATION_CHOICES",
        "MapSupplySituationEnum": "campaign.choices.MAP_SUPPLY_SITUATION_CHOICES",
        "SupplyActionEnum": "campaign.choices.SUPPLY_ACTION_CHOICES",
        "QualityEnum": "campaign.choices.COPS_QUALITY_CHOICES",
        "ForceActionEnum": "campaign.choices.FORCE_ACTION_CHOICES",
        "SideOrderActionEnum": "campaign.choices.SIDE_ORDER_ACTION_CHOICES",
        "BattleActionEnum": "campaign.choices.BATTLE_ACTION_CHOICES",
        "DeliveryActionEnum": "campaign.choices.DELIVERY_ACTION_CHOICES",
        "RoleEnum": "campaign.choices.MemberRole",
        "TodoKindEnum": "campaign.choices.TodoKind",
        "FuelStateEnum": "campaign.choices.FuelState",
        "ReportedFuelStateEnum": "campaign.choices.REPORTED_FUEL_CHOICES",
    },
    # /api/v1/docs/ and /redoc/ load their JavaScript from our static files (the sidecar
    # package), and Swagger UI asks no online validator: both work without internet.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
}

# Celery: JSON only; a task is acknowledged after it ran, and re-queued when its
# worker dies, so every task must be safe to run twice (they are status-guarded).
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
# The queue tasks wait in; two services sharing one Redis database keep apart by name (the benchmarks do).
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", "celery")
# Nights and arrival rolls, webhook deliveries and e-mails each on a queue of their own
# (config.settings.queues): a worker started without -Q consumes them all, the default one too.
CELERY_QUEUE_NAMES = queue_names(CELERY_TASK_DEFAULT_QUEUE)
CELERY_TASK_QUEUES = [Queue(name) for name in CELERY_QUEUE_NAMES.values()]
CELERY_TASK_ROUTES = {
    "campaign.tasks.operation_run_task": {"queue": CELERY_QUEUE_NAMES["operations"]},
    "campaign.tasks.webhook_deliver_task": {"queue": CELERY_QUEUE_NAMES["webhooks"]},
    "campaign.tasks.night_phase_follow_up_task": {"queue": CELERY_QUEUE_NAMES["after_night"]},
    "campaign.tasks.notification_mail_task": {"queue": CELERY_QUEUE_NAMES["mail"]},
}
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery's Django fixup closes every database connection before and after each task unless told
# to reuse them this many tasks: config.celery_app keeps them as Django keeps a request's instead.
CELERY_DB_REUSE_MAX = 1000
CELERY_TASK_SOFT_TIME_LIMIT = int(env("CELERY_TASK_SOFT_TIME_LIMIT", "300"))
CELERY_TASK_TIME_LIMIT = int(env("CELERY_TASK_TIME_LIMIT", "360"))
# An unacknowledged task is redelivered after this many seconds.  It must be
# longer than the longest task (the hard time limit) or a slow task would run
# twice in parallel; the night phase is also guarded in the database.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": int(env("CELERY_VISIBILITY_TIMEOUT", "3600")),
    # A worker takes from its queues in the order its -Q lists them, never round robin
    # (config.settings.queues.KINDS).
    "queue_order_strategy": "priority",
}
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Liveness of workers for /healthz: a control ping, answered within this many seconds.
HEALTH_WORKER_PING_TIMEOUT = float(env("HEALTH_WORKER_PING_TIMEOUT", "1.0"))

# Every handler masks secrets (api/log_secrets.py): tokens in paths, API keys. Django's loggers
# lose the handlers of its default configuration, which would print without the filter: its
# warnings reach the root's console, and the development server's request lines a handler
# configured as Django's, filtered.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"secrets_redacted": {"()": "api.log_secrets.SecretsRedacted"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["secrets_redacted"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["secrets_redacted"],
        },
    },
    "loggers": {
        "django": {"handlers": []},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}
# Seconds to wait after each committed step of a background operation: 0 in
# production; crash drills (and the tests that kill workers) set it higher.
OPERATION_STEP_PAUSE = float(env("OPERATION_STEP_PAUSE", "0"))
# The one retry policy of background work that counts its attempts (operations, webhook
# deliveries; campaign/services/background.py): attempts before it is marked failed, and the
# wait after a failed attempt in seconds, this times 2 to the attempts made.
WORK_MAX_ATTEMPTS = int(env("WORK_MAX_ATTEMPTS", "6"))
WORK_BACKOFF_SECONDS = float(env("WORK_BACKOFF_SECONDS", "30"))
# How long one webhook POST may take.
WEBHOOK_TIMEOUT_SECONDS = float(env("WEBHOOK_TIMEOUT_SECONDS", "5"))
# Webhooks never reach loopback, private or other non-public addresses; the local and test
# settings let loopback through for a receiver on the same machine (never in production).
WEBHOOK_ALLOW_LOOPBACK = False
# Work is committed as rows (operations, webhook deliveries) before its task is sent. A run
# renews its operation's lease at each commit; every WORK_SWEEP_INTERVAL seconds the sweeper
# sends again an unfinished operation whose lease ran out (its worker died, or the broker was
# down when it was sent) and a pending webhook delivery whose next attempt is that overdue.
# The lease must outlast OPERATION_STEP_PAUSE, or a live run gets a duplicate (harmless, but
# it counts as an attempt).
WORK_LEASE_SECONDS = float(env("WORK_LEASE_SECONDS", "30"))
WORK_SWEEP_INTERVAL = float(env("WORK_SWEEP_INTERVAL", "10"))
CELERY_BEAT_SCHEDULE = {
    "club-schedule": {
        "task": "campaign.tasks.club_schedule_task",
        "schedule": float(env("CLUB_SCHEDULE_INTERVAL", "300")),
    },
    # Reminders (orders due before a deadline): idempotent per member and subject, so a late or
    # doubled sweep tells nobody twice.
    "notification-reminders": {
        "task": "campaign.tasks.notification_reminders_task",
        "schedule": float(env("NOTIFICATION_REMINDER_INTERVAL", "300")),
        "options": {"expires": float(env("NOTIFICATION_REMINDER_INTERVAL", "300"))},
    },
    "work-sweep": {
        "task": "campaign.tasks.work_sweep_task",
        "schedule": WORK_SWEEP_INTERVAL,
        # A sweep stuck behind a backlog is dropped: the next one is fresher.
        "options": {"expires": WORK_SWEEP_INTERVAL},
    },
    # Change records no changes cursor will read again (campaign.services.sync).
    "change-records-prune": {
        "task": "campaign.tasks.change_records_prune_task",
        "schedule": float(env("CHANGE_PRUNE_INTERVAL", "3600")),
        "options": {"expires": float(env("CHANGE_PRUNE_INTERVAL", "3600"))},
    },
}

# How long a renewed webhook secret's old one keeps signing beside the new (docs/api.md).
WEBHOOK_SECRET_OVERLAP_HOURS = int(env("WEBHOOK_SECRET_OVERLAP_HOURS", "24"))
# How long before a side's orders deadline its players are reminded (once per campaign day).
ORDERS_REMINDER_HOURS = int(env("ORDERS_REMINDER_HOURS", "24"))
