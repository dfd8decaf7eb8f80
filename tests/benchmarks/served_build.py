"""Settings of the first-load benchmark's server: the test settings serving the web app as
production does (``manage.py collectstatic`` into ``BENCH_STATIC_ROOT`` with the manifest
storage, whose gzip and brotli copies whitenoise sends to browsers that accept them)."""

from __future__ import annotations

import os
from pathlib import Path

from config.settings.test import *  # noqa: F403

STATIC_ROOT = Path(os.environ["BENCH_STATIC_ROOT"])
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
