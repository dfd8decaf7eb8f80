"""A worker process loads, before its first task, what that task would otherwise load; a web
process, before its first request, the API contract's table."""

from __future__ import annotations

import importlib
import sys

import pytest
from celery.signals import worker_process_init
from django.urls import clear_url_caches, get_resolver

from api import contract
from rules_engine import inputs

pytestmark = pytest.mark.django_db  # it connects to the database


def test_a_worker_process_is_warmed_up_by_the_signal_of_its_start() -> None:
    clear_url_caches()
    inputs._shape.cache_clear()

    worker_process_init.send(sender=None)  # as Celery sends it in each pool process it starts

    resolver = get_resolver()
    assert "url_patterns" in resolver.__dict__  # the URLconf and every view module imported
    assert resolver.__dict__["_populated"]  # the reverse table webhook links are made from
    assert inputs._shape.cache_info().currsize > 0  # the rules' input shapes


def test_a_web_process_builds_the_api_contract_as_it_loads_the_wsgi_application(monkeypatch) -> None:
    """Not in its first request (about a second of the OpenAPI document's generation)."""
    monkeypatch.setattr(contract, "_declared", None)
    monkeypatch.delitem(sys.modules, "config.wsgi", raising=False)

    importlib.import_module("config.wsgi")

    assert contract._declared  # every operation's query parameters, read
