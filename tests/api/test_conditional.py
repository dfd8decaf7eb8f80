"""Every read carries an ETag and answers 304 to it while it is current (api.conditional):
a side's app polls the campaign and its forces without reading them again."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from api.conditional import conditional
from campaign.services.campaigns import campaign_save
from tests.api.world import Role

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("role", [Role.ALLIED_KEY, Role.AXIS_PLAYER, Role.UMPIRE])
def test_the_campaign_and_its_forces_answer_304_to_their_etag_until_they_change(world, role):
    client = world.client(role)
    for url in (world.url("campaign-detail"), world.url("force-list") + f"?side={world.allied.pk}"):
        first = client.get(url)
        assert first.status_code == 200
        assert first["Cache-Control"] == "private, no-cache"
        etag = first["ETag"]
        assert etag.startswith('W/"')

        unchanged = client.get(url, headers={"If-None-Match": etag})
        assert unchanged.status_code == 304, url
        assert unchanged.content == b""
        assert unchanged["ETag"] == etag

    detail = world.url("campaign-detail")
    etag = client.get(detail)["ETag"]
    campaign_save(world.campaign)  # a committed change bumps the campaign's version
    changed = client.get(detail, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag


def test_a_refused_read_carries_no_etag(world):
    umpire = world.client(Role.UMPIRE)
    missing = umpire.get(world.url("force-list") + "?side=x")
    assert missing.status_code == 400
    assert not missing.has_header("ETag")


def test_a_304_keeps_the_cache_lifetime_its_answer_sets():
    """RFC 9110 § 15.4.5: a 304 carries the Cache-Control the 200 would have, so a cache
    renews an answer's own lifetime (not the API's default) when it revalidates."""

    def answer() -> HttpResponse:
        response = HttpResponse(b"BEGIN:VCALENDAR")
        response["Cache-Control"] = "private, max-age=300"
        return response

    etag = conditional(Request(APIRequestFactory().get("/feed")), answer())["ETag"]
    revalidated = conditional(Request(APIRequestFactory().get("/feed", HTTP_IF_NONE_MATCH=etag)), answer())
    assert revalidated.status_code == 304
    assert revalidated["Cache-Control"] == "private, max-age=300"
    assert revalidated["ETag"] == etag
