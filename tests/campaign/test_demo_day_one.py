"""Issue acceptance: the Malta demo's first day through services only, fully audited."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import EventVerb, StandStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.scenario import scenario_import
from tests.campaign.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_malta_demo_plays_day_one_with_every_change_audited(django_capture_on_commit_callbacks):
    umpire = UserFactory(username="demo-umpire")
    actor = Actor(user=umpire, request_id="club-night-1")
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), actor)
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    pools_before = dict(campaign.sides.values_list("name", "activation_points"))

    with django_capture_on_commit_callbacks(execute=False):  # arrival rolls would go to a worker
        campaign_start(campaign.pk, actor)
        day = day_dawn(campaign.pk, actor)
        segment_advance(campaign.pk, actor)
        # The stands the landing at dawn left standing: which it hits is the dice's to say.
        g1, w1 = (
            list(
                campaign.stands.filter(battalion__code=code, status=StandStatus.OK)
                .order_by("pk")
                .values_list("label", flat=True)[:2]
            )
            for code in ("G1", "W1")
        )
        battle = battle_create(
            campaign.pk,
            actor,
            sector_name="Gudja",
            battle_type="Local Attack",
            attacker_id=axis.pk,
            defender_id=allied.pk,
            battalion_codes=["G1", "W1"],
        )
        battle_setup(
            battle.campaign_id,
            actor,
            battle.pk,
            inputs={"n43.setup_proximity": {"terrain": "Constricted Terrain"}},
        )
        battle_report(
            battle.campaign_id,
            actor,
            battle.pk,
            {
                "battalions": [
                    {
                        "code": "G1",
                        "destroyed": [g1[0]],
                        "suppressed": [g1[1]],
                        "activation_points_spent": 2,
                    },
                    {
                        "code": "W1",
                        "destroyed": w1,
                        "barrage_rounds_spent": 1,
                        "supply_situation": "separated",
                    },
                ]
            },
        )

    day.refresh_from_db()
    segments = list(day.segments.order_by("order"))
    assert [s.segment for s in segments] == ["early morning", "morning"]
    # Rolled values: each names the roll that set it.
    weather_roll = campaign.rolls.get(procedure="gb.weather")
    assert weather_roll.changes == {"weather": day.weather}
    for segment in segments:
        wind = segment.rolls.filter(procedure="pk.wind").first()
        assert wind is not None
        assert wind.changes["wind_velocity"] == segment.wind_velocity
        initiative = segment.rolls.filter(procedure="pk.initiative").first()
        assert initiative.changes == {"initiative_side": segment.initiative_side.name}
        turns = segment.rolls.filter(procedure="pk.segment_turns").first()
        if segment.turns:
            assert turns.changes == {"turns": segment.turns}
    setup_rolls = battle.rolls.all()
    assert setup_rolls.count() >= 8
    assert all(r.changes.get("setup") for r in setup_rolls)
    assert sum(1 for r in setup_rolls if r.result["rolls"]) >= 8  # a no-chance cell rolls no dice
    # Reported values: each named by an event of the acting umpire, with before and after.
    changed = {
        f"{stand.battalion.code}/{stand.label}"
        for stand in models.Stand.objects.filter(battalion__code__in=["G1", "W1"], campaign=campaign)
        .exclude(status=StandStatus.OK)
        .select_related("battalion")
    }
    reported = {f"G1/{g1[0]}", f"G1/{g1[1]}", *(f"W1/{label}" for label in w1)}
    assert len(reported) == 4
    assert reported <= changed
    # Any other stand hit was hit by the Fallschirmjäger's landing at dawn, and its roll says so.
    landed = campaign.rolls.filter(procedure__startswith="gb.airborne.").exclude(changes__status="ok")
    assert changed - reported <= {roll.changes["stand"] for roll in landed}
    report_events = campaign.events.filter(verb=EventVerb.BATTLE_REPORTED)
    assert {e.actor_id for e in report_events} == {umpire.pk}
    side_events = {e.object_repr: e for e in report_events.filter(object_type="Side")}
    assert side_events[axis.name].before["activation_points"] == pools_before[axis.name]
    assert side_events[axis.name].after["activation_points"] == pools_before[axis.name] - 2
    # Nothing happened without an actor or a request id behind it.
    assert campaign.events.exclude(actor=umpire).filter(request_id="").count() == 0
    assert campaign.rolls.filter(request_id="").count() == 0
    assert set(campaign.rolls.values_list("request_id", flat=True)) == {"club-night-1"}
