"""A page's chunk that cannot be fetched: the page says so and offers a reload."""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import Tab, step

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_page_whose_chunk_is_gone_offers_a_reload_that_brings_it(live_server, tab: Tab):
    """A tab opened before a deploy asks for a chunk of the old build, which is gone."""
    page = tab.page
    gone = re.compile(r"/static/assets/SignIn-[^/]+\.js$")
    page.route(gone, lambda route: route.fulfill(status=404))
    page.goto(f"{live_server.url}/login")

    page.get_by_role("alert").filter(has_text="This page could not be loaded.").wait_for()
    step(tab, "chunk-gone")
    page.unroute(gone)
    page.get_by_role("button", name="Reload").click()

    page.get_by_role("button", name="Sign in").wait_for()
    step(tab, "chunk-fetched")
