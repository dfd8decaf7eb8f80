"""No secret reaches a log line (issue 28): what the configured handlers write, captured while
requests and records carry calendar and invitation tokens and API keys."""

from __future__ import annotations

import io
import logging
import secrets
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from api.log_secrets import MASK, SecretsRedacted
from tests.api.world import Role, World, api_key_client, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def written() -> Iterator[Callable[[], str]]:
    """What the handlers of settings.LOGGING write (the root's console and the development
    server's request lines), from now on."""
    configured = [
        handler
        for logger in (logging.getLogger(), logging.getLogger("django.server"))
        for handler in logger.handlers
        if isinstance(handler, logging.StreamHandler)
        and any(isinstance(f, SecretsRedacted) for f in handler.filters)
    ]
    assert len(configured) == 2, "the root's console and the development server's handler"
    buffer = io.StringIO()
    streams = [handler.setStream(buffer) for handler in configured]
    yield buffer.getvalue
    for handler, stream in zip(configured, streams, strict=True):
        handler.setStream(stream)


def test_a_mistyped_or_renewed_calendar_url_is_logged_without_its_token(written):
    token = secrets.token_urlsafe(32)

    response = APIClient().get(f"/api/v1/calendar/{token}.ics")

    assert response.status_code == 404
    assert token not in written()
    assert f"Not Found: /api/v1/calendar/{MASK}" in written()


def test_an_unknown_invitation_link_is_logged_without_its_token(written):
    client = APIClient()
    client.force_login(get_user_model().objects.create_user("joiner"))
    token = secrets.token_urlsafe(32)

    responses = [
        client.get(f"/api/v1/invitations/{token}/"),
        client.post(f"/api/v1/invitations/{token}/accept/"),
    ]

    assert [response.status_code for response in responses] == [404, 404]
    assert token not in written()
    assert f"/api/v1/invitations/{MASK}/accept/" in written()


def test_the_development_servers_request_lines_hold_no_token(written):
    token = secrets.token_urlsafe(32)
    server = logging.getLogger("django.server")

    # As runserver's request handler logs each request.
    server.info('"%s" %s %s', f"GET /join/{token} HTTP/1.1", "200", "512")
    server.info('"%s" %s %s', f"GET /login?next=%2Fjoin%2F{token} HTTP/1.1", "200", "512")
    server.info('"%s" %s %s', f"GET /api/v1/calendar/{token}.ics HTTP/1.1", "200", "512")

    assert token not in written()
    assert written().count(MASK) == 3


def test_an_api_key_in_a_message_or_a_traceback_is_masked(written):
    world: World = build_world()
    plain = world.keys[Role.ALLIED_KEY]
    logger = logging.getLogger("campaign")

    assert api_key_client(plain).get(world.url("campaign-detail")).status_code == 200
    logger.warning("a client sent Authorization: Api-Key %s", plain)
    try:
        raise ValueError(f"refused {plain}")
    except ValueError:
        logger.exception("a key in an exception")

    assert plain not in written()
    assert plain.partition(".")[2] not in written()
    assert written().count(MASK) == 2
