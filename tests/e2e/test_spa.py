"""Django serves the built web app on the API's port: index.html for the app's
routes, its assets as static files, and nothing of it under the server's own paths."""

from __future__ import annotations

import gzip
import json
import re
import urllib.request
from typing import Any

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import Client, RequestFactory, override_settings
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]

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


# What a club's phone downloads before the first page it opens shows: the dashboard's code.
FIRST_PAGE_GZIPPED_BYTES = 150 * 1024
RENDER = "src/render.tsx"


def chunks_loaded_for(manifest: dict[str, dict[str, Any]], *keys: str) -> set[str]:
    """Vite's manifest entries ``keys`` and every chunk they import statically, as Vite's
    loader fetches them (a page's dynamic imports are fetched when it opens)."""
    loaded: set[str] = set()
    waiting = list(keys)
    while waiting:
        key = waiting.pop()
        if key not in loaded:
            loaded.add(key)
            waiting.extend(manifest[key].get("imports", []))
    return loaded


def test_index_html_asks_for_react_dom_with_the_apps_scripts(client: Client):
    """The entry imports it later (after asking the API for the page's data): fetched from the
    start all the same."""
    manifest = json.loads((settings.FRONTEND_DIST / ".vite" / "manifest.json").read_text())
    html = client.get("/").content.decode()
    preloaded = set(re.findall(r'<link rel="modulepreload" crossorigin href="/static/([^"]+)"', html))

    render = {manifest[key]["file"] for key in chunks_loaded_for(manifest, RENDER) if key != "index.html"}
    assert render <= preloaded, render - preloaded


def test_the_dashboard_needs_at_most_150_kb_of_gzipped_javascript():
    manifest = json.loads((settings.FRONTEND_DIST / ".vite" / "manifest.json").read_text())
    entry = next(key for key, chunk in manifest.items() if chunk.get("isEntry"))
    dashboard = "src/pages/Dashboard.tsx"
    assert dashboard in manifest[entry]["dynamicImports"], "the pages are chunks of their own"

    # React DOM comes with src/render.tsx, imported by the entry once it has asked for the data.
    first_page = chunks_loaded_for(manifest, entry, RENDER, dashboard)
    files = {manifest[key]["file"] for key in first_page}
    gzipped = {name: len(gzip.compress((settings.FRONTEND_DIST / name).read_bytes())) for name in files}

    assert sum(gzipped.values()) <= FIRST_PAGE_GZIPPED_BYTES, gzipped
    charts = manifest["src/pages/Statistics.tsx"]["file"]
    assert charts not in files, "the charts' library is fetched only by the statistics page"


@override_settings(WHITENOISE_USE_FINDERS=True)  # whitenoise serves the build as it is, not collected
def test_every_chunk_of_the_app_is_cached_for_a_year():
    manifest = json.loads((settings.FRONTEND_DIST / ".vite" / "manifest.json").read_text())
    page = manifest["src/pages/Dashboard.tsx"]["file"]
    entry = next(chunk["file"] for chunk in manifest.values() if chunk.get("isEntry"))
    whitenoise = WhiteNoiseMiddleware(lambda request: HttpResponse(status=404))

    for name in (entry, page):
        response = whitenoise(RequestFactory().get(f"/static/{name}"))
        assert response.status_code == 200, name
        assert response["Cache-Control"] == "max-age=315360000, public, immutable", name
