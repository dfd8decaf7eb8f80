"""A worker process loads, before its first task, what that task would otherwise load; a web
process, before its first request, the API contract's table."""

from __future__ import annotations

import importlib
import sys

import pytest
from celery.signals import worker_process_init
from django.urls import clear_url_caches, get_resolver

from api import contract
from campaign import models
from config.celery_app import app
from rules_engine import inputs

pytestmark = pytest.mark.django_db  # it connects to the database


def test_a_worker_process_is_warmed_up_by_the_signal_of_its_start() -> None:
    clear_url_caches()
    inputs._shape.cache_clear()
    app._after_fork()  # type: ignore[attr-defined]  # as a pool process starts: no producer, no broker connection
    models.Battalion._meta._expire_cache()  # type: ignore[attr-defined]

    worker_process_init.send(sender=None)  # as Celery sends it in each pool process it starts

    resolver = get_resolver()
    assert "url_patterns" in resolver.__dict__  # the URLconf and every view module imported
    assert resolver.__dict__["_populated"]  # the reverse table webhook links are made from
    assert inputs._shape.cache_info().currsize > 0  # the rules' input shapes
    assert "concrete_fields" in models.Battalion._meta.__dict__  # the models' field caches
    assert app.finalized  # type: ignore[attr-defined]
    assert "send_task_message" in app.amqp.__dict__  # the sender a task sent on commit uses
    with app.producer_or_acquire() as producer:  # the pool's producer, already connected
        assert producer.connection.connected


def test_a_web_process_builds_the_api_contract_as_it_loads_the_wsgi_application(monkeypatch) -> None:
    """Not in its first request (about a second of the OpenAPI document's generation)."""
    monkeypatch.setattr(contract, "_declared", None)
    monkeypatch.delitem(sys.modules, "config.wsgi", raising=False)

    importlib.import_module("config.wsgi")

    assert contract._declared  # every operation's query parameters, read
