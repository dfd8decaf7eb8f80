"""Lists and the campaign detail carry an ETag of the campaign's version and the reader
(api.conditional.version_etag): a poll sending it back is answered 304 before a row is read,
in as few queries as it takes to know who asks; fog of war differs per reader, and so does
the ETag."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign.services.campaigns import campaign_save
from tests.api.world import Role

pytestmark = pytest.mark.django_db

LISTS = [
    "side-list",
    "force-list",
    "battalion-list",
    "stand-list",
    "sector-list",
    "battle-list",
    "roll-list",
    "event-list",
    "side-order-list",
    "night-report-list",
]


def _urls(world):
    yield world.url("campaign-detail")
    yield world.url("force-list") + f"?side={world.allied.pk}"
    for name in LISTS:
        yield world.url(name)


@pytest.mark.parametrize("role", [Role.ALLIED_KEY, Role.AXIS_PLAYER, Role.UMPIRE, Role.OBSERVER])
def test_a_304_reads_no_rows(world, role):
    """A member's 304 costs the session, the user and the campaign with its membership; a key's
    its key and campaign; never a row of what is listed, however long the list."""
    client = world.client(role)
    for url in _urls(world):
        first = client.get(url)
        assert first.status_code == 200, url
        etag = first["ETag"]
        with CaptureQueriesContext(connection) as captured:
            unchanged = client.get(url, headers={"If-None-Match": etag})
        count = len(captured)
        assert unchanged.status_code == 304, url
        assert unchanged["ETag"] == etag
        assert unchanged.content == b""
        assert count <= 3, (url, count)


def test_every_committed_change_turns_the_etag_of_every_list(world):
    client = world.client(Role.AXIS_PLAYER)
    etags = {url: client.get(url)["ETag"] for url in _urls(world)}
    campaign_save(world.campaign)
    for url, etag in etags.items():
        changed = client.get(url, headers={"If-None-Match": etag})
        assert changed.status_code == 200, url
        assert changed["ETag"] != etag


def test_readers_never_share_an_etag(world):
    """Fog of war: the same list reads differently per side, so an ETag of one reader never
    matches another's (a cache shared between them could not serve one the other's rows)."""
    url = world.url("battalion-list")
    readers = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.UMPIRE)
    etags = {role: world.client(role).get(url)["ETag"] for role in readers}
    assert len(set(etags.values())) == 3
    allied = world.client(Role.ALLIED_PLAYER)
    other = allied.get(url, headers={"If-None-Match": etags[Role.AXIS_PLAYER]})
    assert other.status_code == 200


def test_the_query_is_part_of_the_etag(world):
    client = world.client(Role.UMPIRE)
    url = world.url("force-list")
    allied = client.get(f"{url}?side={world.allied.pk}")["ETag"]
    axis = client.get(f"{url}?side={world.axis.pk}", headers={"If-None-Match": allied})
    assert axis.status_code == 200
    assert axis["ETag"] != allied
