"""Arrival rolls in the Malta campaign: Malta-style reserves (a delay in turns on two average
dice, then a countdown), and the pack's seaborne forces keeping their landing zone."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import ArrivalStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.dice import dice_commitment_fields
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from campaign.services.scenario import scenario_import
from rules_engine.great_battles.campaign_pools import UNSPECIFIED_RESERVE
from rules_engine.panzer_korps.arrival import ForceAvailability
from rules_engine.vocab import PLAYED_DAY_SEGMENTS
from tests.campaign.factories import campaign_with_sides
from tests.campaign.night_setup import ACTOR

pytestmark = pytest.mark.django_db


def reserve_campaign(seed: str) -> tuple[models.Campaign, models.Force]:
    campaign = campaign_with_sides()
    models.Campaign.objects.filter(pk=campaign.pk).update(**dice_commitment_fields(seed))
    campaign.refresh_from_db()
    reserve = models.Force.objects.create(
        side=campaign.sides.get(name="Axis"),
        campaign=campaign,
        name="Fallschirmjäger reserve",
        nation="German",
        availability=UNSPECIFIED_RESERVE,
        arrival_status=ArrivalStatus.SCHEDULED,
        arrival_day=1,
        arrival_zone="Marsaxlokk Bay",
    )
    return campaign, reserve


def run_segment_arrivals(segment: models.DaySegmentRecord) -> models.Operation:
    operation = models.Operation.objects.get(segment=segment, kind="arrivals")
    return operation_run(operation.pk)


def test_a_reserve_rolls_its_delay_once_and_enters_when_the_turns_have_passed(
    django_capture_on_commit_callbacks,
):
    campaign, reserve = reserve_campaign("malta-reserve")
    with django_capture_on_commit_callbacks(execute=False):  # the arrival rolls run here, not on a worker
        day_dawn(campaign.pk, ACTOR)
    first = campaign.days.get(number=1).segments.get(order=0)
    run_segment_arrivals(first)

    delays = list(campaign.rolls.filter(procedure="gb.malta.reserve_delay", force=reserve))
    assert len(delays) == 1
    delay = delays[0]
    faces = [roll["faces"][0] for roll in delay.result["rolls"]]
    average = {1: 3, 2: 2, 3: 3, 4: 4, 5: 5, 6: 4}
    assert delay.result["outcome"] == sum(average[face] for face in faces)
    assert 4 <= delay.result["outcome"] <= 10
    assert delay.changes == {"arrival_turns_left": delay.result["outcome"]}

    # Walk the day: the reserve waits while the turns played are no more than its delay.
    waited, segment, segments = 0, first, 1
    expected_entry = None
    while True:
        reserve.refresh_from_db()
        if waited + (segment.turns or 0) > delay.result["outcome"]:
            expected_entry = (segment.segment, delay.result["outcome"] - waited + 1)
            assert reserve.arrival_status == ArrivalStatus.ARRIVED
            break
        waited += segment.turns or 0
        assert reserve.arrival_status == ArrivalStatus.ROLLING
        assert reserve.arrival_turns_left == delay.result["outcome"] - waited
        with django_capture_on_commit_callbacks(execute=False):
            segment = segment_advance(campaign.pk, ACTOR)
        run_segment_arrivals(segment)
        segments += 1

    assert reserve.arrival_zone == "Marsaxlokk Bay"  # its side's chosen entry: no deployment chart
    assert reserve.deployment_zone == ""
    assert reserve.arrival_attempts == segments  # each segment of the countdown, the entry one included
    assert campaign.rolls.filter(procedure="gb.malta.reserve_delay").count() == 1
    assert not campaign.rolls.filter(force=reserve).exclude(procedure="gb.malta.reserve_delay").exists()
    report = models.NightReport.objects.get(
        operation__segment__segment=expected_entry[0], operation__campaign=campaign, side__name="Axis"
    )
    (entry,) = report.body["arrivals"]
    assert entry["arrival_status"] == ArrivalStatus.ARRIVED
    assert entry["enters_on_turn"] == expected_entry[1]
    assert entry["turns_left"] == 0
    first_report = models.NightReport.objects.get(operation__segment=first, side__name="Axis")
    assert first_report.body["arrivals"][0]["lines"] == [delay.line]


def test_the_reserve_delay_replays_from_the_campaign_seed(django_capture_on_commit_callbacks):
    campaign, _reserve = reserve_campaign("malta-replay")
    with django_capture_on_commit_callbacks(execute=False):
        day_dawn(campaign.pk, ACTOR)
    run_segment_arrivals(campaign.days.get(number=1).segments.get(order=0))

    delay = campaign.rolls.get(procedure="gb.malta.reserve_delay")
    assert roll_replay(delay) == [delay.result]


def test_the_seaborne_forces_keep_their_landing_zone_and_count_their_attempts(
    django_capture_on_commit_callbacks,
):
    """Issue 13.5: the deployment chart's zone overwrote Marsaxlokk Bay; attempts stayed 0."""
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), ACTOR)
    seaborne = campaign.forces.filter(arrival_status=ArrivalStatus.SCHEDULED)
    assert set(seaborne.values_list("arrival_zone", flat=True)) == {"Marsaxlokk Bay"}
    # Due on day 1 rather than 2, so the test need not play a night first; led by A
    # leaders, so that (whatever the dice streams) they all but surely land that day.
    seaborne.update(arrival_day=1, leader_rating="A")
    forces = list(seaborne.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)
    segment = campaign.days.get(number=1).segments.get(order=0)
    entries = {}  # each force's entry in the arrival report of the segment it arrived in
    while True:
        operation = run_segment_arrivals(segment)
        for report in models.NightReport.objects.filter(operation=operation):
            entries |= {a["force"]: a for a in report.body["arrivals"] if a["arrival_status"] == "arrived"}
        rolling = campaign.forces.filter(arrival_status=ArrivalStatus.ROLLING).exists()
        if not rolling or segment.order == len(PLAYED_DAY_SEGMENTS) - 1:
            break
        with django_capture_on_commit_callbacks(execute=False):
            segment = segment_advance(campaign.pk, ACTOR)

    arrived = list(campaign.forces.filter(pk__in=forces, arrival_status=ArrivalStatus.ARRIVED))
    assert arrived
    bay = campaign.sectors.get(name="Marsaxlokk Bay")
    for force in arrived:
        assert force.arrival_zone == "Marsaxlokk Bay"
        # Issue 30: the map read "No force seen here" at Marsaxlokk Bay once the tanks had landed.
        assert force.sector == bay
        on_table = models.Battalion.objects.filter(battlegroup__force=force, in_reserve=False)
        assert set(on_table.values_list("sector", flat=True)) == {bay.pk}
        # Issue 29: landed, the tanks no longer read "supply Reserve" (the pack's off-table supply).
        assert "reserve" not in set(on_table.values_list("supply_situation", flat=True))
        deployment = campaign.rolls.filter(procedure="pk.deployment", force=force)  # a flank re-roll is a 2nd
        assert {roll.changes["deployment_zone"] for roll in deployment} == {force.deployment_zone} != {""}
        arrival_rolls = campaign.rolls.filter(procedure="pk.arrival", force=force).count()
        straight_in = force.availability in (
            ForceAvailability.AT_START.value,
            ForceAvailability.DEPLOYED_30_INCHES.value,
        )
        assert force.arrival_attempts == arrival_rolls + straight_in >= 1
        entry = entries[force.name]
        assert (entry["zone"], entry["deployment_zone"]) == ("Marsaxlokk Bay", force.deployment_zone)
        assert entry["arrival_attempts"] == force.arrival_attempts
