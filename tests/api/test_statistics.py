"""The charts' endpoint: each side's dawn tallies, masked per role, in constant queries;
and the next club night in the campaign summary."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest
from django.db.models import Count
from django.utils import timezone

from campaign import models
from campaign.choices import ArrivalStatus, StandStatus
from campaign.selectors import FIGURE_WORDS
from campaign.services.battle_reports import battle_report
from campaign.services.days import day_dawn
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from tests.api.world import (
    ACTOR,
    ALLIED_ACTIVATION_POINTS,
    Role,
    World,
    assert_statuses,
    build_world,
    query_count,
)

pytestmark = pytest.mark.django_db
HIDDEN = {
    "activation_points": None,
    "division_activation_points": None,
    "barrage_rounds": None,
    "strength": None,
    "strength_labels": None,
}
DAWN = tuple(HIDDEN)
FIGURES = tuple(FIGURE_WORDS)
POOLS = (
    "activation_points_earned",
    "activation_points_spent",
    "activation_points_carried",
    "barrage_rounds_fired",
    "barrage_rounds_replenished",
)
STRENGTHS = ("stands_lost", "stands_suppressed", "stands_replaced")


def statistics(world: World, role: Role) -> dict[str, Any]:
    response = world.client(role).get(world.url("campaign-statistics"))
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def strength_now(side: models.Side) -> dict[str, dict[str, int]]:
    strength: dict[str, dict[str, int]] = {}
    for row in side.battalions.values("stands__stand_type", "stands__status").annotate(n=Count("stands")):
        counts = strength.setdefault(
            row["stands__stand_type"], {**dict.fromkeys(StandStatus.values, 0), "in_action": 0}
        )
        counts[row["stands__status"]] = row["n"]
    on_table = models.Stand.objects.filter(
        battalion__side=side,
        battalion__in_reserve=False,
        battalion__battlegroup__force__arrival_status__in=[ArrivalStatus.ON_TABLE, ArrivalStatus.ARRIVED],
        status__in=[StandStatus.OK, StandStatus.SUPPRESSED],
    )
    for stand_type in strength:
        strength[stand_type]["in_action"] = on_table.filter(stand_type=stand_type).count()
    return strength


def another_day(world: World) -> None:
    day = world.campaign.days.order_by("-number").first()
    battles = world.campaign.battles.filter(day=day, report__isnull=True)
    for battle in battles:
        battle_report(battle.campaign_id, ACTOR, battle.pk, {"battalions": [{"code": "A1"}]})
    operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
    day_dawn(world.campaign.pk, ACTOR)


def by_side(day: dict[str, Any], keys: tuple[str, ...] = DAWN) -> dict[int, dict[str, Any]]:
    """Each side's entry of ``day``: its dawn tally, or the figures named by ``keys``."""
    return {entry["side"]: {k: entry[k] for k in keys} for entry in day["sides"]}


def test_the_umpire_sees_every_sides_tally_at_every_dawn(world):
    data = statistics(world, Role.UMPIRE)

    assert data["sides"] == [
        {"id": world.axis.pk, "name": "Axis", "is_axis": True},
        {"id": world.allied.pk, "name": "Allied", "is_axis": False},
    ]
    assert [(d["day"], d["date"]) for d in data["days"]] == [(1, "1942-07-10"), (2, "1942-07-11")]
    first = by_side(data["days"][0])
    fresh = {
        "hq": {"ok": 3, "suppressed": 0, "destroyed": 0, "in_action": 3},
        "infantry": {"ok": 9, "suppressed": 0, "destroyed": 0, "in_action": 9},
    }
    assert first[world.axis.pk] == {
        "activation_points": 8,
        "division_activation_points": {},  # no division pools in this campaign
        "barrage_rounds": 10,
        "strength": fresh,
        "strength_labels": {"hq": "HQ", "infantry": "Infantry"},
    }
    assert first[world.allied.pk]["activation_points"] == ALLIED_ACTIVATION_POINTS
    # Nothing has changed strengths since day 2 dawned: its tally is the table now.
    second = by_side(data["days"][1])
    assert second[world.axis.pk]["strength"] == strength_now(world.axis)
    assert second[world.allied.pk]["strength"] == strength_now(world.allied)


def test_a_player_sees_their_own_side_in_full_and_the_enemy_as_the_summary_does(world):
    data = statistics(world, Role.AXIS_PLAYER)
    summary = world.client(Role.AXIS_PLAYER).get(world.url("campaign-detail")).json()

    for day in data["days"]:
        sides = by_side(day)
        assert None not in sides[world.axis.pk].values()
        assert sides[world.allied.pk] == HIDDEN
    enemy_in_summary = next(s for s in summary["sides"] if s["id"] == world.allied.pk)
    assert enemy_in_summary["activation_points"] is None
    assert enemy_in_summary["barrage_rounds"] is None


def test_an_observer_sees_the_days_and_sides_but_no_values(world):
    data = statistics(world, Role.OBSERVER)

    assert [d["day"] for d in data["days"]] == [1, 2]
    assert len(data["sides"]) == 2
    assert all(by_side(day)[side["id"]] == HIDDEN for day in data["days"] for side in data["sides"])


def test_outsiders_get_404_and_the_anonymous_401(world):
    responses = assert_statuses(
        world, "get", world.url("campaign-statistics"), {Role.ANONYMOUS: 401, Role.OTHER_UMPIRE: 404}
    )

    assert responses[Role.OTHER_UMPIRE].json()["error"]["code"] == "not_found"


@pytest.mark.parametrize("role", [Role.UMPIRE, Role.AXIS_PLAYER, Role.OBSERVER])
def test_queries_do_not_grow_with_days_or_battalions(role):
    small = build_world(battalions_per_side=1)
    large = build_world(battalions_per_side=6)
    another_day(large)

    small_count, small_response = query_count(small.client(role), small.url("campaign-statistics"))
    large_count, large_response = query_count(large.client(role), large.url("campaign-statistics"))

    assert (len(small_response.json()["days"]), len(large_response.json()["days"])) == (2, 3)
    assert small_count == large_count


def test_the_summary_names_the_next_club_night_today_included(world):
    today = timezone.localdate()
    url = world.url("campaign-detail")
    client = world.client(Role.OBSERVER)
    none_yet = client.get(url).json()["next_club_night"]
    for day, offset in ((1, -7), (2, 0), (3, 7)):
        models.ClubNight.objects.create(
            campaign=world.campaign, campaign_day=day, play_date=today + datetime.timedelta(days=offset)
        )

    assert none_yet is None
    assert client.get(url).json()["next_club_night"] == today.isoformat()
    assert client.get("/api/v1/campaigns/").json()["results"][0]["next_club_night"] == today.isoformat()


def test_each_figure_is_shown_to_a_player_as_the_enemys_fog_of_war_allows(world):
    """The Allied side reveals no strengths: the Axis player sees who holds the sectors, never its
    stands lost, suppressed or replaced, nor its pools. The Axis reveals strengths: the Allied
    player sees those three, and still not its pools."""
    umpire = statistics(world, Role.UMPIRE)
    as_axis = statistics(world, Role.AXIS_PLAYER)
    as_allied = statistics(world, Role.ALLIED_PLAYER)

    for full, axis_day, allied_day in zip(umpire["days"], as_axis["days"], as_allied["days"], strict=True):
        everything = by_side(full, FIGURES)
        assert by_side(axis_day, FIGURES)[world.axis.pk] == everything[world.axis.pk]
        assert by_side(axis_day, FIGURES)[world.allied.pk] == {
            **everything[world.allied.pk],
            **dict.fromkeys(STRENGTHS + POOLS, None),
        }
        assert by_side(allied_day, FIGURES)[world.axis.pk] == {
            **everything[world.axis.pk],
            **dict.fromkeys(POOLS, None),
        }
    # Day 1's battle destroyed stand "2" of every battalion: three a side.
    first = by_side(umpire["days"][0], FIGURES)
    assert first[world.axis.pk]["stands_lost"] >= 3
    assert first[world.allied.pk]["stands_lost"] >= 3
    assert [figure["key"] for figure in umpire["figures"]] == list(FIGURES)


def test_the_csv_has_the_same_figures_as_the_json_for_each_reader(world):
    for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.OBSERVER):
        data = statistics(world, role)
        response = world.client(role).get(data["links"]["csv"])

        assert response.status_code == 200
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert (
            response["Content-Disposition"] == f'attachment; filename="{world.campaign.slug}-statistics.csv"'
        )
        assert response.has_header("ETag")
        header, *rows = list(csv.reader(io.StringIO(response.content.decode())))
        assert header[:5] == ["Day", "Date", "Side", "Activation points at dawn", "Barrage rounds at dawn"]
        assert header[5:] == [figure["title"] for figure in data["figures"]]
        names = {side["id"]: side["name"] for side in data["sides"]}
        expected = [
            [
                str(day["day"]),
                day["date"],
                names[entry["side"]],
                *("" if entry[k] is None else str(entry[k]) for k in ("activation_points", "barrage_rounds")),
                *("" if entry[k] is None else str(entry[k]) for k in FIGURES),
            ]
            for day in data["days"]
            for entry in day["sides"]
        ]
        assert rows == expected
    assert world.client(Role.ANONYMOUS).get(data["links"]["csv"]).status_code == 401
