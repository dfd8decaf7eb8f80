"""The browsable API's own pages: DRF's log-in form and the links to it."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

LOGIN = "/api/v1/auth/login/"


def test_the_login_page_answers_anybody_with_its_form():
    response = APIClient().get(LOGIN)

    assert response.status_code == 200
    assert b'name="username"' in response.content
    assert b'name="password"' in response.content


def test_the_login_form_signs_in_and_the_browsable_api_links_to_log_out():
    get_user_model().objects.create_user("reader", password="a long enough password")
    client = APIClient(enforce_csrf_checks=True)
    csrf = client.get(LOGIN).cookies["csrftoken"].value

    signed_in = client.post(
        LOGIN,
        {
            "username": "reader",
            "password": "a long enough password",
            "next": "/api/v1/",
            "csrfmiddlewaretoken": csrf,
        },
    )
    page = client.get("/api/v1/equipment/", HTTP_ACCEPT="text/html")

    assert (signed_in.status_code, signed_in["Location"]) == (302, "/api/v1/")
    assert page.status_code == 200
    assert b"/api/v1/auth/logout/" in page.content
