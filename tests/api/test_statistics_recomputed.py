"""Issue 32's acceptance: the demo played for two days through the services as the umpire would
(a battle each day at Gudja, changing hands twice; an activation bought; two night phases), then
every figure of the statistics recomputed from the recorded rolls, reports and map snapshots by
another road than the selector's, and compared; a battalion's service history likewise."""

from __future__ import annotations

import json
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import MapMoment
from campaign.selectors import FIGURE_WORDS
from campaign.services.activation import activation_spend
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.demo import demo_campaign_load, demo_users_ensure
from campaign.services.map_snapshots import map_snapshot_after_night
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.sectors import battalion_move
from tests.api.world import query_count
from tests.e2e.demo import gudja_battle

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], models.Campaign]:
    return two_days


@pytest.fixture
def campaign(shared_rows: models.Campaign) -> models.Campaign:
    return shared_rows


def two_days() -> models.Campaign:
    demo_users_ensure()
    campaign = demo_campaign_load()
    assert campaign is not None
    actor = Actor(user=get_user_model().objects.get(username="umpire"), request_id="statistics")
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    campaign_start(campaign.pk, actor)
    for day, (winner, g1_lost, w1_lost) in enumerate(((axis, 1, 2), (allied, 0, 1)), start=1):
        day_dawn(campaign.pk, actor)
        segment_advance(campaign.pk, actor)
        if day == 2:  # off the map and back, as the umpire corrects a slip
            moved = campaign.battalions.get(code="G1")
            battalion_move(campaign.pk, actor, moved.pk, sector_id=None)
            battalion_move(campaign.pk, actor, moved.pk, sector_id=moved.sector_id)
        if day == 1:
            activation_spend(
                campaign.pk, actor, side_id=axis.pk, column="1 Bn", turn=1, battalion_codes=["G2"]
            )
        battle = gudja_battle(campaign, actor)
        g1, w1 = (
            [
                s.label
                for s in campaign.battalions.get(code=code)
                .stands.exclude(status="destroyed")
                .order_by("label")
            ]
            for code in ("G1", "W1")
        )
        battle_report(
            campaign.pk,
            actor,
            battle.pk,
            {
                "battalions": [
                    {
                        "code": "G1",
                        "destroyed": g1[:g1_lost],
                        "suppressed": g1[g1_lost : g1_lost + 1],
                        "activation_points_spent": 1 if day == 1 else 0,
                        "barrage_rounds_spent": 2,
                        "objectives": [{"name": "Gudja crossroads", "activation_points": 1}]
                        if day == 1
                        else [],
                    },
                    {"code": "W1", "destroyed": w1[:w1_lost], "barrage_rounds_spent": 1},
                ],
                "winner": winner.pk,
                "sector_owner": winner.pk,
            },
        )
        night = operation_run(night_phase_start(campaign.pk, actor).pk)
        map_snapshot_after_night(night.pk)  # as its task does on a worker
    campaign.refresh_from_db()
    return campaign


def recomputed(campaign: models.Campaign) -> dict[tuple[int, str], dict[str, int]]:
    """Every figure by (day, side name), from the records themselves."""
    sides = dict(campaign.sides.values_list("pk", "name"))
    side_of = {code: sides[side] for code, side in campaign.battalions.values_list("code", "side_id")}
    figures: dict[tuple[int, str], Counter[str]] = defaultdict(Counter)
    for battle in campaign.battles.exclude(report=None).select_related("day"):
        assert battle.report is not None
        for line in battle.report["battalions"]:
            counts = figures[battle.day.number, side_of[line["code"]]]
            counts["stands_lost"] += len(line.get("destroyed", []))
            counts["stands_suppressed"] += len(line.get("suppressed", []))
            counts["activation_points_spent"] += line.get("activation_points_spent", 0)
            counts["barrage_rounds_fired"] += line.get("barrage_rounds_spent", 0)
            counts["activation_points_earned"] += sum(
                o["activation_points"] for o in line.get("objectives", [])
            )
    for spend in models.ActivationSpend.objects.filter(day__campaign=campaign).select_related("day"):
        figures[spend.day.number, sides[spend.side_id]]["activation_points_spent"] += spend.cost
    for event in campaign.events.filter(verb="objective.awarded"):
        assert event.day_number is not None
        assert event.object_id is not None
        assert event.after is not None
        figures[event.day_number, sides[event.object_id]]["activation_points_earned"] += event.after[
            "awarded"
        ]
    for report in models.NightReport.objects.filter(day__campaign=campaign).select_related("day"):
        counts = figures[report.day.number, sides[report.side_id]]
        counts["stands_lost"] += report.body.get("extra_stands_lost", 0)
        counts["activation_points_carried"] += report.body.get("activation_points_carried", 0)
        counts["barrage_rounds_replenished"] += report.body.get("barrage_rounds_replenished", 0)
    # The roll log, die by die: a stand is back when its replacement roll says so.
    for roll in campaign.rolls.filter(procedure="gb.night_replacements").select_related("day", "battalion"):
        if roll.result["outcome"].startswith("replaced"):
            figures[roll.day.number, side_of[roll.battalion.code]]["stands_replaced"] += 1
    points = dict(campaign.sectors.values_list("pk", "victory_points"))
    for snapshot in campaign.map_snapshots.filter(moment=MapMoment.NIGHT):
        for sector_id, owner in json.loads(zlib.decompress(bytes(snapshot.state)))["owners"]:
            if owner is not None:
                figures[snapshot.day_number, sides[owner]]["sectors_held"] += 1
                figures[snapshot.day_number, sides[owner]]["victory_points"] += points[sector_id]
    return {key: {name: counts[name] for name in FIGURE_WORDS} for key, counts in figures.items()}


def api_figures(client: APIClient, campaign: models.Campaign) -> dict[tuple[int, str], dict[str, Any]]:
    data = client.get(f"/api/v1/campaigns/{campaign.slug}/statistics/").json()
    names = {side["id"]: side["name"] for side in data["sides"]}
    return {
        (day["day"], names[entry["side"]]): {name: entry[name] for name in FIGURE_WORDS}
        for day in data["days"]
        for entry in day["sides"]
    }


def signed_in(username: str) -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def test_the_statistics_of_two_days_equal_the_sums_of_the_recorded_rolls_and_reports(campaign):
    shown = api_figures(signed_in("umpire"), campaign)

    assert shown == recomputed(campaign)
    assert sorted(shown) == [(1, "Allied"), (1, "Axis"), (2, "Allied"), (2, "Axis")]
    # Figures that the days' play makes non-zero, so the comparison above compares something.
    assert shown[1, "Axis"]["stands_lost"] >= 1
    assert shown[1, "Allied"]["stands_lost"] >= 2
    assert shown[1, "Axis"]["stands_suppressed"] == 1
    assert shown[1, "Axis"]["activation_points_spent"] >= 2  # the activation and the battle
    assert shown[1, "Axis"]["barrage_rounds_fired"] == 2
    # Gudja changed hands on each day: each side held it at one day's end.
    gudja = campaign.sectors.get(name="Gudja")
    assert shown[1, "Axis"]["sectors_held"] == shown[2, "Axis"]["sectors_held"] + 1
    assert shown[1, "Axis"]["victory_points"] == shown[2, "Axis"]["victory_points"] + gudja.victory_points


def test_a_battalions_history_is_its_recorded_battles_rolls_and_moves(campaign):
    g1 = campaign.battalions.get(code="G1")
    url = f"/api/v1/campaigns/{campaign.slug}/battalions/{g1.public_id}/history/"

    history = signed_in("umpire").get(url).json()
    as_allied = signed_in("allied").get(url)

    assert [(b["day"], b["sector_name"], b["winner_name"]) for b in history["battles"]] == [
        (1, "Gudja", "Axis"),
        (2, "Gudja", "Allied"),
    ]
    assert history["battles_fought"] == 2
    assert history["stands_lost"] == sum(
        len(b.report["battalions"][0]["destroyed"]) for b in g1.battles.all()
    )
    replaced = campaign.rolls.filter(
        procedure="gb.night_replacements", battalion=g1, result__outcome__startswith="replaced"
    )
    assert history["stands_replaced"] == replaced.count()
    assert (
        sum(len(night["lines"]) for night in history["nights"])
        == campaign.rolls.filter(procedure="gb.night_replacements", battalion=g1).count()
    )
    # An enemy battalion it fought: the Allied player reads its battles, not its replacement rolls.
    assert [m["message"] for m in history["moves"]] == [
        "Battalion G1 moved from Drop zone north of Qrendi to off the map",
        "Battalion G1 moved from off the map to Drop zone north of Qrendi",
    ]
    assert (history["moves_made"], history["moves"][0]["day"]) == (2, 2)
    # The Allied player sees G1 (in contact) and the battles it fought them: its lines, as the Axis
    # reveals battle results; not its replacement rolls nor its moves, which are the Axis' own.
    enemy = as_allied.json()
    assert as_allied.status_code == 200
    assert [b["stands_lost"] for b in enemy["battles"]] == [b["stands_lost"] for b in history["battles"]]
    assert (enemy["nights"], enemy["stands_replaced"], enemy["moves"]) == ([], None, [])


def test_a_history_reads_as_many_statements_however_long_the_service(campaign):
    client = signed_in("umpire")
    counts = {}
    for code in ("G1", "G2"):  # two battles, two nights and two moves; none of them
        battalion = campaign.battalions.get(code=code)
        url = f"/api/v1/campaigns/{campaign.slug}/battalions/{battalion.public_id}/history/"
        counts[code], response = query_count(client, url)
        assert response.status_code == 200

    assert counts["G1"] == counts["G2"]
