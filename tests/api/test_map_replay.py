"""The map replayed (issue 32): a snapshot kept at each dawn and after each night, answered by
``map/?day=N&moment=dawn|night`` as the reader's side saw it then, in one snapshot read."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import MapMoment, MemberRole
from campaign.scenarios.generator import synthetic_pack
from campaign.selectors import map_state
from campaign.services.audit import Actor
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn
from campaign.services.map_snapshots import map_snapshot_take
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.scenario import scenario_import
from tests.api.test_map import MAP_DOCUMENT_QUERIES
from tests.campaign.factories import malta_pack_without_supply_drop_zones

pytestmark = pytest.mark.django_db

ACTOR = Actor(request_id="replay-test")


@pytest.fixture
def malta() -> models.Campaign:
    campaign = scenario_import(malta_pack_without_supply_drop_zones(), ACTOR)
    users = get_user_model().objects
    for name, role, side in (
        ("umpire", MemberRole.UMPIRE, None),
        ("axis", MemberRole.PLAYER, campaign.sides.get(name="Axis")),
        ("allied", MemberRole.PLAYER, campaign.sides.get(name="Allied")),
        ("observer", MemberRole.OBSERVER, None),
    ):
        models.Membership.objects.create(
            user=users.create(username=f"replay-{name}"), campaign=campaign, role=role, side=side
        )
    campaign_start(campaign.pk, ACTOR)
    return campaign


def _client(name: str) -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.get(username=f"replay-{name}"))
    return client


def _map(campaign: models.Campaign, name: str, **query: Any) -> Any:
    url = reverse("api:campaign-map", kwargs={"campaign_slug": campaign.slug})
    return _client(name).get(url, query)


def _codes(document: dict[str, Any]) -> set[str]:
    return {battalion["code"] for battalion in document["battalions"]}


def _night(campaign: models.Campaign, django_capture_on_commit_callbacks: Any) -> None:
    operation = night_phase_start(campaign.pk, ACTOR)
    with django_capture_on_commit_callbacks(execute=False):
        operation_run(operation.pk)


def test_each_dawn_and_night_is_kept_and_replays_as_it_was(malta, django_capture_on_commit_callbacks):
    day_dawn(malta.pk, ACTOR)
    live = _map(malta, "umpire").json()
    assert live["day"] is None
    assert live["moment"] is None
    assert live["moments"] == [
        {"day": 1, "moment": "dawn", "moment_label": "At dawn", "title": "Day 1, at dawn"}
    ]

    # The map changes after dawn: a sector changes hands and a battalion leaves the map.
    sector = malta.sectors.exclude(owner=None).order_by("pk").first()
    models.Sector.objects.filter(pk=sector.pk).update(owner=None)
    moved = malta.battalions.exclude(sector=None).order_by("code").first()
    models.Battalion.objects.filter(pk=moved.pk).update(sector=None, in_reserve=True)

    replay = _map(malta, "umpire", day=1, moment="dawn").json()
    assert (replay["day"], replay["moment"], replay["moment_label"]) == (1, "dawn", "At dawn")
    # The same document as at dawn, kept then, not recomputed from today's state.
    for part in ("sectors", "links", "forces", "battalions", "battles", "supply", "labels"):
        assert replay[part] == live[part], part
    now = _map(malta, "umpire").json()
    assert next(s for s in now["sectors"] if s["id"] == sector.pk)["owner"] is None
    assert next(s for s in replay["sectors"] if s["id"] == sector.pk)["owner"] == sector.owner_id

    _night(malta, django_capture_on_commit_callbacks)
    day_dawn(malta.pk, ACTOR)
    moments = [(m["day"], m["moment"]) for m in _map(malta, "axis").json()["moments"]]
    assert moments == [(1, "dawn"), (1, "night"), (2, "dawn")]
    assert _map(malta, "allied", day=1, moment="night").status_code == 200


def test_a_side_replays_the_enemy_as_it_saw_it_then(malta):
    allied = malta.sides.get(name="Allied")
    models.Side.objects.filter(pk=allied.pk).update(fog_of_war={"identified_units": [], "in_contact": False})
    day_dawn(malta.pk, ACTOR)
    axis_then = _map(malta, "axis", day=1, moment="dawn").json()
    enemy = set(malta.battalions.filter(side=allied).values_list("code", flat=True))
    assert not _codes(axis_then) & enemy
    assert _codes(_map(malta, "umpire", day=1, moment="dawn").json()) >= enemy - set(
        malta.battalions.filter(side=allied, sector=None).values_list("code", flat=True)
    )

    # The Axis identifies two Allied battalions since: today's map shows them, the past's does not.
    spotted = sorted(
        malta.battalions.filter(side=allied).exclude(sector=None).values_list("code", flat=True)
    )[:2]
    models.Side.objects.filter(pk=allied.pk).update(
        fog_of_war={"identified_units": spotted, "in_contact": False}
    )
    assert set(spotted) <= _codes(_map(malta, "axis").json())
    assert _codes(_map(malta, "axis", day=1, moment="dawn").json()) == _codes(axis_then)
    # An observer sees no unit, then as now.
    observer = _map(malta, "observer", day=1, moment="dawn").json()
    assert observer["battalions"] == []
    assert observer["forces"] == []


def test_the_replay_reads_one_snapshot_in_as_many_statements_as_todays_map(malta):
    day_dawn(malta.pk, ACTOR)
    for name in ("umpire", "axis"):
        client = _client(name)
        url = reverse("api:campaign-map", kwargs={"campaign_slug": malta.slug})
        client.get(url)  # the session and the campaign's caches warm
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url, {"day": 1, "moment": "dawn"})
        assert response.status_code == 200
        statements = [query["sql"] for query in queries.captured_queries]
        snapshot_reads = [sql for sql in statements if '"campaign_mapsnapshot"."state"' in sql]
        assert len(snapshot_reads) == 1, snapshot_reads
        # The ground (sectors, their sources, links, the sides' names), the moments kept and the
        # snapshot: no read of forces, battalions or battles, whatever the campaign's size.
        assert not [sql for sql in statements if 'FROM "campaign_battalion"' in sql]
        assert len(statements) <= MAP_DOCUMENT_QUERIES, statements


def test_a_snapshot_reads_the_sides_once_for_every_audience_and_caches_nothing_on_the_campaign(malta):
    day_dawn(malta.pk, ACTOR)
    with CaptureQueriesContext(connection) as queries:
        map_state(malta)
    statements = [query["sql"] for query in queries.captured_queries]
    # The ground's read of the sides each sector supplies aside: 5 before (their ids, then one
    # read for each audience's reader).
    side_reads = [
        sql for sql in statements if 'FROM "campaign_side"' in sql and "supply_source_for" not in sql
    ]
    assert len(side_reads) == 1, side_reads
    # The caller's campaign (a dawn's, which writes on after its snapshot) keeps no list of sides.
    assert not getattr(malta, "_prefetched_objects_cache", None)


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"day": "two", "moment": "dawn"}, "day"),
        ({"day": 0, "moment": "dawn"}, "day"),
        ({"day": 1, "moment": "noon"}, "moment"),
        ({"day": 1}, "moment"),
        ({"moment": "night"}, "day"),
    ],
)
def test_a_bad_moment_is_refused_naming_its_field(malta, query, field):
    day_dawn(malta.pk, ACTOR)
    response = _map(malta, "axis", **query)
    assert response.status_code == 400
    assert field in str(response.json()), response.json()


def test_a_moment_not_kept_yet_is_not_found(malta):
    day_dawn(malta.pk, ACTOR)
    assert _map(malta, "axis", day=1, moment="night").status_code == 404
    assert _map(malta, "axis", day=2, moment="dawn").status_code == 404


def test_a_snapshot_stays_well_under_a_kilobyte_a_stand_a_day():
    pack = synthetic_pack(400, seed="replay-size", stands_per_battalion=10, sectors=100)
    pack["campaign"]["slug"] = "replay-size"
    campaign = scenario_import(pack, ACTOR)
    stands = models.Stand.objects.filter(campaign=campaign).count()
    day = sum(
        len(map_snapshot_take(campaign, 1, moment).state) for moment in (MapMoment.DAWN, MapMoment.NIGHT)
    )
    per_stand = day / stands
    print(f"map snapshots: {day} bytes a day for {stands} stands, {per_stand:.1f} bytes a stand a day")
    assert per_stand < 100  # the target is under 1,024
