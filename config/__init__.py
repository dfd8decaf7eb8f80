"""Project configuration: settings, URLs, the Celery app and its queues, WSGI and ASGI, and nothing else."""

from config.celery_app import app as celery_app

__all__ = ["celery_app"]
