"""Project configuration: settings, URLs, the Celery app and the embedded runner."""

from config.celery_app import app as celery_app

__all__ = ["celery_app"]
