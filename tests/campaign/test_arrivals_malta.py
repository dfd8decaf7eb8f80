"""Malta-style reserves in the arrival rolls: a delay in turns on two average dice, then a countdown."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import ArrivalStatus
from campaign.services.days import day_dawn, segment_advance
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from rules_engine.great_battles.campaign_pools import UNSPECIFIED_RESERVE
from tests.campaign.factories import campaign_with_sides
from tests.campaign.night_setup import ACTOR

pytestmark = pytest.mark.django_db


def reserve_campaign(seed: str) -> tuple[models.Campaign, models.Force]:
    campaign = campaign_with_sides()
    models.Campaign.objects.filter(pk=campaign.pk).update(rng_seed=seed)
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
    waited, segment = 0, first
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

    assert reserve.arrival_zone == "Marsaxlokk Bay"  # its side's chosen entry: no deployment chart
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
