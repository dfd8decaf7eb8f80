"""Who sees what: the role matrix on every route of the router and on rows each role may or may not see."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.urls import resolve, reverse
from rest_framework.test import APIClient

from api.contract import declared_query_parameters
from api.pagination import PagePagination
from campaign import models
from campaign.choices import EventVerb, Visibility
from rules_engine.panzer_korps.wind import wind_words
from tests.api.test_papers import page_text
from tests.api.world import (
    ALLIED_ACTIVATION_POINTS,
    ALLIES_ONLY,
    AXIS_ONLY,
    OPEN_WRITES,
    PERSONAL,
    PLAYERS,
    READ,
    UNSAFE_METHODS,
    WRITE_REFUSED,
    Role,
    World,
    assert_statuses,
    matrix,
    router_methods,
    strings,
)
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db

# Roles whose reads are scanned for hidden rows and fields.
FOGGED = (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY)
EVERYTHING = {"page_size": 500}


def everything(url: str) -> dict[str, int]:
    """The largest page where ``url`` is a paged list; nothing elsewhere (an unknown parameter is a 400)."""
    match = resolve(urlsplit(url).path)
    key = (match.func.cls, getattr(match.func, "actions", {}).get("get"), "GET")  # type: ignore[attr-defined]
    return EVERYTHING if "page_size" in declared_query_parameters().get(key, ()) else {}


# The same for every caller, and real vehicles' names may look like battalion codes (the L3 tankette).
REFERENCE = {"equipment-list", "equipment-detail", "rule-list", "rule-detail"}
# PDFs, whose text tests/api/test_papers.py searches for hidden codes.
PAPERS = {"day-briefing", "battle-packet"}


def read_words(response: Any) -> set[str]:
    """Every string of a JSON answer; every word a reader reads on a web page (the chronicle)."""
    if response["Content-Type"].startswith("text/html"):
        return set(re.findall(r"\w+", page_text(response.content.decode())))
    return set(strings(response.json()))


def rows(world: World, role: Role, name: str) -> list[dict[str, Any]]:
    """All rows of a list endpoint, as ``role`` reads them."""
    response = world.client(role).get(world.url(name), EVERYTHING)
    assert response.status_code == 200, response.json()
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_the_matrix_has_a_row_for_every_route_the_router_serves(world):
    routes, served = matrix(world), router_methods()

    assert served.keys() - routes.keys() == set(), "routes the matrix does not check: add them"
    assert routes.keys() - served.keys() == set(), "the matrix names routes that are gone"
    readable = {name for name, methods in served.items() if "get" in methods}
    assert readable == {name for name, route in routes.items() if route.read is not None}


def test_every_route_answers_each_role_as_the_matrix_says(world):
    for name, route in matrix(world).items():
        if route.read is None:
            continue
        responses = assert_statuses(world, "get", route.url, route.read)
        if route.read[Role.ANONYMOUS] == 401:
            assert responses[Role.ANONYMOUS].json()["error"]["code"] == "not_authenticated", name
        if route.read.get(Role.OTHER_UMPIRE) == 404:
            assert responses[Role.OTHER_UMPIRE].json()["error"]["code"] == "not_found", name


def test_every_write_is_refused_to_all_but_the_umpire_and_changes_nothing(world):
    routes = matrix(world)
    for name, methods in router_methods().items():
        for method in sorted(methods & set(UNSAFE_METHODS)):
            expected = OPEN_WRITES.get(name, WRITE_REFUSED)
            assert_statuses(world, method, routes[name].url, expected, data={}, unchanged=True)


def test_the_campaign_list_holds_only_the_callers_campaigns(world):
    listed = world.client(Role.OTHER_UMPIRE).get(reverse("api:campaign-list")).json()["results"]

    assert [c["slug"] for c in listed] != []
    assert world.campaign.slug not in [c["slug"] for c in listed]
    assert world.client(Role.ANONYMOUS).get(reverse("api:campaign-list")).status_code == 401


@pytest.mark.parametrize("role", FOGGED)
def test_no_hidden_battalion_code_appears_anywhere_a_role_can_read(world, role):
    hidden = {
        Role.AXIS_PLAYER: world.codes("L") - {"L1"},
        Role.ALLIED_PLAYER: world.codes("A") - {"A1"},
        Role.OBSERVER: world.codes("A") | world.codes("L"),
        Role.ALLIED_KEY: world.codes("A") - {"A1"},
    }[role]
    client = world.client(role)
    force_ids = models.Force.objects.filter(campaign=world.campaign).values_list("public_id", flat=True)
    routes = matrix(world).items()
    urls = [route.url for name, route in routes if route.read is not None and name not in REFERENCE | PAPERS]
    urls += [world.url("force-force-status", pk=pk) for pk in force_ids]

    for url in urls:
        response = client.get(url, everything(url))
        assert response.status_code in (200, 403, 404), url
        leaked = hidden & read_words(response)
        assert not leaked, f"{role.value} reads {sorted(leaked)} at {url}"


def test_battalion_rows_own_side_in_full_and_identified_enemy_units_only(world):
    axis, allied = world.codes("A"), world.codes("L")

    assert {r["code"] for r in rows(world, Role.UMPIRE, "battalion-list")} == axis | allied
    assert {r["code"] for r in rows(world, Role.AXIS_PLAYER, "battalion-list")} == axis | {"L1"}
    assert {r["code"] for r in rows(world, Role.ALLIED_PLAYER, "battalion-list")} == allied | {"A1"}
    assert rows(world, Role.OBSERVER, "battalion-list") == []


def test_enemy_battalions_show_public_fields_and_strengths_only_when_revealed(world):
    seen_by_axis = {r["code"]: r for r in rows(world, Role.AXIS_PLAYER, "battalion-list")}
    seen_by_allies = {r["code"]: r for r in rows(world, Role.ALLIED_PLAYER, "battalion-list")}

    assert seen_by_axis["A2"]["quality"] == "Average"
    assert seen_by_axis["A2"]["supply_situation"] == "OK"
    l1 = seen_by_axis["L1"]
    assert l1["code"] == "L1"
    assert l1["side"] == world.allied.pk
    assert l1["force"] is not None
    assert l1["quality"] is None
    assert l1["supply_situation"] is None
    assert l1["in_reserve"] is None
    assert l1["stands_started"] is None  # the Allies hide strengths
    a1 = seen_by_allies["A1"]
    assert a1["stands_started"] == 4  # the Axis reveals strengths
    assert a1["quality"] is None
    assert a1["activation"] is None


def test_stands_of_the_enemy_only_where_it_reveals_strengths(world):
    by_axis = {r["battalion_code"] for r in rows(world, Role.AXIS_PLAYER, "stand-list")}
    by_allies = rows(world, Role.ALLIED_PLAYER, "stand-list")

    assert by_axis == world.codes("A")
    assert {r["battalion_code"] for r in by_allies} == world.codes("L") | {"A1"}
    enemy_stand = next(r for r in by_allies if r["battalion_code"] == "A1" and r["label"] == "2")
    assert enemy_stand["status"] == "destroyed"
    assert enemy_stand["stand_type"] == "infantry"
    assert enemy_stand["grade"] is None
    assert enemy_stand["attached"] is None
    assert rows(world, Role.OBSERVER, "stand-list") == []


def test_campaign_summary_shows_the_pools_of_the_sides_the_caller_sees_in_full(world):
    def pools(role: Role) -> dict[str, int | None]:
        summary = world.client(role).get(world.url("campaign-detail")).json()
        return {side["name"]: side["activation_points"] for side in summary["sides"]}

    axis_points = models.Side.objects.get(pk=world.axis.pk).activation_points
    allied_points = models.Side.objects.get(pk=world.allied.pk).activation_points
    assert allied_points == ALLIED_ACTIVATION_POINTS  # no night phase ran on day 2 yet
    assert pools(Role.UMPIRE) == {"Axis": axis_points, "Allied": allied_points}
    assert pools(Role.AXIS_PLAYER) == {"Axis": axis_points, "Allied": None}
    assert pools(Role.ALLIED_PLAYER) == {"Axis": None, "Allied": allied_points}
    assert pools(Role.OBSERVER) == {"Axis": None, "Allied": None}
    summary = world.client(Role.OBSERVER).get(world.url("campaign-detail")).json()
    assert summary["current_day"] == 2
    assert summary["weather"] in {"C", "D", "O", "F"}
    assert summary["current_segment"] == "early morning"
    assert summary["wind_velocity"]
    assert summary["wind_text"] == wind_words(summary["wind_velocity"], summary["wind_direction"])
    assert summary["role"] == "observer"
    assert summary["side"] is None


def test_battles_show_enemy_units_and_report_lines_as_the_enemy_reveals(world):
    fought_by = {
        role: next(b for b in rows(world, role, "battle-list") if b["id"] == str(world.fought.public_id))
        for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_PLAYER)
    }

    axis, allied = world.codes("A"), world.codes("L")
    assert set(fought_by[Role.UMPIRE]["battalions"]) == axis | allied
    assert set(fought_by[Role.AXIS_PLAYER]["battalions"]) == axis | {"L1"}
    assert set(fought_by[Role.ALLIED_PLAYER]["battalions"]) == allied | {"A1"}
    reported = {role: {e["code"] for e in b["report"]["battalions"]} for role, b in fought_by.items()}
    assert reported[Role.UMPIRE] == axis | allied
    assert reported[Role.AXIS_PLAYER] == axis | {"L1"}  # the Allies reveal battle results
    assert reported[Role.ALLIED_PLAYER] == allied  # the Axis does not, even for identified A1
    assert rows(world, Role.OBSERVER, "battle-list") == []


def test_night_reports_rolls_and_events_of_a_player_are_their_sides(world):
    assert {r["side"] for r in rows(world, Role.UMPIRE, "night-report-list")} == {
        world.axis.pk,
        world.allied.pk,
    }
    assert {r["side"] for r in rows(world, Role.AXIS_PLAYER, "night-report-list")} == {world.axis.pk}
    assert rows(world, Role.OBSERVER, "night-report-list") == []

    umpire_rolls = rows(world, Role.UMPIRE, "roll-list")
    axis_rolls = rows(world, Role.AXIS_PLAYER, "roll-list")
    # The early-morning start roll of a C-rated commander forcing battle is public too (C-15).
    public = {"gb.weather", "pk.wind", "pk.initiative", "pk.segment_turns"}
    assert {"gb.night_replacements", *public} <= {r["procedure"] for r in umpire_rolls}
    assert {r["procedure"] for r in axis_rolls} == {"gb.night_replacements", *public}
    assert {r["battalion"] for r in axis_rolls if r["battalion"]} == world.codes("A")
    assert {r["procedure"] for r in rows(world, Role.OBSERVER, "roll-list")} == public

    allied_events = rows(world, Role.ALLIED_PLAYER, "event-list")
    own = [e for e in allied_events if e["visibility"] != Visibility.PUBLIC]
    assert own
    assert all(e["object_type"] == "Side" and e["object_id"] == world.allied.pk for e in own)
    assert {e["verb"] for e in rows(world, Role.OBSERVER, "event-list")} == {
        EventVerb.DAY_DAWNED,
        EventVerb.SEGMENT_ADVANCED,
        EventVerb.NIGHT_PHASE_STARTED,
        EventVerb.NIGHT_PHASE_DONE,
    }


def test_operation_reports_are_the_umpires(world):
    by_umpire = rows(world, Role.UMPIRE, "operation-list")[0]
    by_player = rows(world, Role.AXIS_PLAYER, "operation-list")[0]

    assert by_umpire["report"]["sides"]
    assert by_umpire["steps_done"] == by_umpire["steps_total"] == 5
    assert by_player["report"] is None
    assert by_player["steps"] is None
    assert by_player["status"] == "done"
    # The campaign-wide count of steps and attempts is the umpire's too (rules notes C-14).
    assert by_player["steps_done"] is by_player["steps_total"] is by_player["attempts"] is None


def _read(body: Any) -> Any:
    """An answer without what its reader may do with each row (``actions``): a read-only key reads
    what its side's player reads, but may not write what the player may. A changes read's token
    (``next``) names a cursor of each read's own."""
    if isinstance(body, dict):
        skipped = ("actions", "actions_labels", *(("next",) if "complete" in body else ()))
        return {k: _read(v) for k, v in body.items() if k not in skipped}
    if isinstance(body, list):
        return [_read(item) for item in body]
    return body


def test_a_side_key_reads_exactly_what_its_sides_player_reads(world):
    for name, route in matrix(world).items():
        if route.read is None or name in PERSONAL | PAPERS:  # papers: tests/api/test_papers.py
            continue
        as_player = world.client(Role.ALLIED_PLAYER).get(route.url, everything(route.url))
        as_key = world.client(Role.ALLIED_KEY).get(route.url, everything(route.url))

        if as_player["Content-Type"].startswith("text/html"):  # a paper printed for its reader
            assert (as_key.status_code, as_key.content) == (as_player.status_code, as_player.content), name
            continue
        assert (as_key.status_code, _read(as_key.json())) == (
            as_player.status_code,
            _read(as_player.json()),
        ), name


def test_detail_rows_a_role_may_not_see_are_404(world):
    a1, a2, l1 = world.battalion("A1"), world.battalion("A2"), world.battalion("L1")
    allied_force = models.Force.objects.get(side=world.allied)
    weather = world.campaign.rolls.filter(procedure="gb.weather").first()
    a2_roll = world.campaign.rolls.filter(battalion=a2).first()
    dawn = world.campaign.events.filter(verb=EventVerb.DAY_DAWNED).first()
    allied_event = world.campaign.events.filter(object_type="Side", object_id=world.allied.pk).first()
    allied_report = models.NightReport.objects.get(side=world.allied)
    operation = world.campaign.operations.get()
    everybody, axis_only, allies_only, players = READ, AXIS_ONLY, ALLIES_ONLY, PLAYERS
    cases = [
        (world.url("battalion-detail", pk=a2.public_id), axis_only),
        (world.url("battalion-detail", pk=l1.public_id), players),
        (world.url("stand-detail", pk=l1.stands.first().public_id), allies_only),  # Allies hide strengths
        (world.url("stand-detail", pk=a1.stands.first().public_id), players),  # the Axis reveals them
        (world.url("stand-detail", pk=a2.stands.first().public_id), axis_only),
        (world.url("force-detail", pk=allied_force.public_id), players),
        (world.url("force-force-status", pk=allied_force.public_id), players),
        (world.url("battle-detail", pk=world.fought.public_id), players),
        (world.url("night-report-detail", pk=allied_report.public_id), allies_only),
        (world.url("roll-detail", pk=a2_roll.public_id), axis_only),
        (world.url("roll-detail", pk=weather.public_id), everybody),
        (world.url("event-detail", pk=dawn.public_id), everybody),
        (world.url("event-detail", pk=allied_event.public_id), allies_only),
        (world.url("day-detail", number=1), everybody),
        (world.url("side-detail", pk=world.allied.pk), everybody),
        (world.url("operation-detail", pk=operation.public_id), everybody),
    ]

    for url, expected in cases:
        assert_statuses(world, "get", url, expected)


def test_an_enemy_force_is_hidden_until_identified_and_never_seen_in_reserve(world):
    allied_force = models.Force.objects.get(side=world.allied)
    url = world.url("force-detail", pk=allied_force.public_id)
    assert world.client(Role.AXIS_PLAYER).get(url).status_code == 200

    models.Battalion.objects.filter(campaign=world.campaign, code="L1").update(in_reserve=True)
    assert world.client(Role.AXIS_PLAYER).get(url).status_code == 404

    models.Battalion.objects.filter(campaign=world.campaign, code="L1").update(in_reserve=False)
    models.Side.objects.filter(pk=world.allied.pk).update(fog_of_war={})
    assert world.client(Role.AXIS_PLAYER).get(url).status_code == 404
    assert {f["side"] for f in rows(world, Role.AXIS_PLAYER, "force-list")} == {world.axis.pk}
    assert world.client(Role.ALLIED_PLAYER).get(url).status_code == 200


def test_order_of_battle_trees_hold_what_each_role_may_see(world):
    def tree(role: Role) -> dict[str, int]:
        forces = world.client(role).get(world.url("campaign-oob")).json()["forces"]
        return {
            battalion["code"]: len(battalion["stands"])
            for force in forces
            for group in force["battlegroups"]
            for battalion in group["battalions"]
        }

    assert tree(Role.UMPIRE) == dict.fromkeys(world.codes("A") | world.codes("L"), 4)
    assert tree(Role.AXIS_PLAYER) == {**dict.fromkeys(world.codes("A"), 4), "L1": 0}
    assert tree(Role.ALLIED_PLAYER) == {**dict.fromkeys(world.codes("L"), 4), "A1": 4}
    assert tree(Role.OBSERVER) == {}


def test_filters_narrow_the_visible_rows_only(world):
    response = world.client(Role.AXIS_PLAYER).get(world.url("battalion-list"), {"side": world.allied.pk})
    assert [r["code"] for r in response.json()["results"]] == ["L1"]

    rolls = world.client(Role.UMPIRE).get(world.url("roll-list"), {"procedure": "gb.weather", "day": 2})
    assert [(r["procedure"], r["day"]) for r in rolls.json()["results"]] == [("gb.weather", 2)]

    events = world.client(Role.UMPIRE).get(world.url("event-list"), {"battle": world.fought.public_id}).json()
    assert events["results"]
    assert {e["object_public_id"] for e in events["results"]} == {str(world.fought.public_id)}


def test_page_size_is_the_clients_from_one_to_the_maximum():
    campaign = campaign_with_sides(battalions_per_side=70, stands_per_battalion=4)
    client = APIClient()
    client.force_login(models.Membership.objects.get(campaign=campaign).user)
    url = reverse("api:stand-list", kwargs={"campaign_slug": campaign.slug})

    small = client.get(url, {"page_size": 5}).json()
    largest = client.get(url, {"page_size": 500}).json()
    too_large = client.get(url, {"page_size": 501})

    assert len(small["results"]) == 5
    assert small["count"] == 560
    assert small["next"]
    assert len(largest["results"]) == PagePagination.max_page_size == 500
    assert too_large.status_code == 400
    assert too_large.json()["error"]["fields"] == {
        "page_size": ["must be a whole number from 1 to 500, not '501'"]
    }
