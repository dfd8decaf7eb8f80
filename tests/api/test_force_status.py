"""Force status: one request for a force's state, cheap to poll with ETag / If-None-Match."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.services.battles import battle_report
from tests.api.world import ACTOR, Role, World, build_world

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> World:
    return build_world()


def status_url(world: World, side: models.Side) -> str:
    return world.url("force-force-status", pk=models.Force.objects.get(side=side).pk)


def destroyed(body: dict[str, Any], code: str) -> int:
    count: int = next(b for b in body["battalions"] if b["code"] == code)["stands"]["destroyed"]
    return count


def test_own_force_status_holds_strength_battalions_pools_and_the_night_report(world):
    body = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis)).json()

    side = models.Side.objects.get(pk=world.axis.pk)
    assert body["campaign"] == {
        "slug": world.campaign.slug,
        "current_day": 2,
        "current_segment": "early morning",
    }
    assert body["side"]["activation_points"] == side.activation_points
    assert body["side"]["barrage_rounds"] == side.barrage_rounds
    destroyed = models.Stand.objects.filter(battalion__side=side, status="destroyed").count()
    assert body["strength"]["infantry"]["destroyed"] == destroyed
    assert body["strength"]["hq"] == {"ok": 3, "suppressed": 0, "destroyed": 0}
    battalions = {b["code"]: b for b in body["battalions"]}
    assert set(battalions) == {"A1", "A2", "A3"}
    assert battalions["A1"]["location"] == "battle"
    assert battalions["A1"]["battle"]["sector"] == "Mdina"
    assert battalions["A2"]["location"] == "uncommitted"
    assert battalions["A2"]["battle"] is None
    assert battalions["A2"]["supply_situation"] == "OK"
    assert sum(battalions["A2"]["stands"].values()) == 4
    assert body["latest_night_report"]["side"] == world.axis.pk
    assert body["latest_night_report"]["day"] == 1


def test_an_identified_enemy_force_shows_identified_battalions_and_nothing_hidden(world):
    allied_view = world.client(Role.ALLIED_PLAYER).get(status_url(world, world.axis)).json()
    axis_view = world.client(Role.AXIS_PLAYER).get(status_url(world, world.allied)).json()

    for view in (allied_view, axis_view):
        assert view["side"] is None
        assert view["strength"] is None
        assert view["latest_night_report"] is None
        assert view["force"]["leader_rating"] is None
    assert [b["code"] for b in allied_view["battalions"]] == ["A1"]
    assert allied_view["battalions"][0]["stands"] is not None  # the Axis reveals strengths
    assert allied_view["battalions"][0]["supply_situation"] is None
    assert [b["code"] for b in axis_view["battalions"]] == ["L1"]
    assert axis_view["battalions"][0]["stands"] is None  # the Allies do not


def test_an_unchanged_status_answers_304_and_a_change_a_new_etag(world):
    client = world.client(Role.AXIS_PLAYER)
    url = status_url(world, world.axis)
    first = client.get(url)
    etag = first["ETag"]
    assert etag.startswith('W/"')
    assert "no-cache" in first["Cache-Control"]

    unchanged = client.get(url, headers={"If-None-Match": etag})
    strong_form = client.get(url, headers={"If-None-Match": etag.removeprefix("W/")})
    among_others = client.get(url, headers={"If-None-Match": f'"stale", {etag}'})

    assert unchanged.status_code == strong_form.status_code == among_others.status_code == 304
    assert unchanged.content == b""
    assert unchanged["ETag"] == etag
    battle_report(world.planned.pk, ACTOR, {"battalions": [{"code": "A1", "destroyed": ["3"]}]})
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert destroyed(changed.json(), "A1") == destroyed(first.json(), "A1") + 1


def test_each_viewer_has_its_own_etag(world):
    axis = world.client(Role.AXIS_PLAYER).get(status_url(world, world.axis))
    allies = world.client(Role.ALLIED_PLAYER).get(status_url(world, world.axis))

    assert axis["ETag"] != allies["ETag"]
    assert (
        world.client(Role.ALLIED_PLAYER)
        .get(status_url(world, world.axis), headers={"If-None-Match": axis["ETag"]})
        .status_code
        == 200
    )
