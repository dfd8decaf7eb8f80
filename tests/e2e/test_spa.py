"""Django serves the built web app on the API's port: index.html for the app's
routes, its assets as static files, and nothing of it under the server's own paths."""

from __future__ import annotations

import re
import urllib.request

import pytest
from django.test import Client

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("built_web_app")]


@pytest.mark.parametrize("path", ["/", "/login", "/campaigns/malta-1942/battles/12", "/campaigns/x/night"])
def test_the_app_routes_answer_index_html_with_a_csrf_cookie(client: Client, path: str):
    response = client.get(path)

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert b'<div id="root"></div>' in response.content
    assert response["Cache-Control"] == "no-cache"
    assert "csrftoken" in response.cookies


def test_the_assets_index_html_names_are_served_as_static_files(live_server, client: Client):
    html = client.get("/").content.decode()
    assets = re.findall(r'(?:src|href)="(/static/assets/[^"]+)"', html)

    assert {asset.rsplit(".", 1)[1] for asset in assets} == {"js", "css"}
    for asset in assets:
        with urllib.request.urlopen(live_server.url + asset) as response:
            assert response.status == 200
            assert b"<html" not in response.read(200)


@pytest.mark.parametrize("path", ["/api/v1/no-such-endpoint/", "/static/no-such-file.js", "/healthz/x"])
def test_the_servers_own_paths_never_answer_the_app(client: Client, path: str):
    response = client.get(path)

    assert response.status_code == 404
    assert b'<div id="root">' not in response.content


def test_the_admin_and_the_api_keep_their_own_pages(client: Client):
    assert client.get("/admin").status_code == 301  # APPEND_SLASH, not the app
    assert client.get("/admin/").status_code == 302  # to the admin's log-in
    assert client.get("/api/v1/campaigns/")["Content-Type"] == "application/json"


def test_the_app_page_is_read_only(client: Client):
    assert client.post("/campaigns/").status_code == 405
