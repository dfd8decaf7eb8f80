"""Celery tasks: ids in, one service call, safe to run twice."""
