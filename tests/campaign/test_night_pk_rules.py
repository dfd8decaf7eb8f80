"""Panzer Korps night rules in the night phase: the night segment command roll, the availability re-roll."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import ArrivalStatus
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from rules_engine.panzer_korps.arrival import ForceAvailability
from tests.campaign.night_setup import ACTOR, campaign_after_day_one

pytestmark = pytest.mark.django_db


def night_of(campaign: models.Campaign, capture) -> models.Operation:
    with capture(execute=False):
        operation = night_phase_start(campaign.pk, ACTOR)
    with capture(execute=False):
        return operation_run(operation.pk)


def pk_campaign(profile: str = "panzer-korps") -> tuple[models.Campaign, models.Force, models.Force]:
    """Both forces led by an Unreliable H (2 or less on a d10 +1): the Allied one is surrounded."""
    campaign = campaign_after_day_one(seed="pk-night")
    models.Campaign.objects.filter(pk=campaign.pk).update(profile=profile)
    campaign.forces.update(leader_rating="H")
    campaign.battalions.filter(side__name="Allied").update(supply_situation="isolated")
    no_show = models.Force.objects.create(
        side=campaign.sides.get(name="Axis"),
        campaign=campaign,
        name="Late division",
        nation="German",
        arrival_status=ArrivalStatus.WILL_NOT_ARRIVE,
        availability=ForceAvailability.DOES_NOT_ARRIVE.value,
        arrival_day=1,
        arrival_attempts=2,
    )
    turned_away = models.Force.objects.create(
        side=campaign.sides.get(name="Axis"),
        campaign=campaign,
        name="Stood-down division",
        nation="German",
        arrival_status=ArrivalStatus.WILL_NOT_ARRIVE,
        availability="",
    )
    campaign.refresh_from_db()
    return campaign, no_show, turned_away


def test_a_failed_night_command_removes_the_force_unless_surrounded(django_capture_on_commit_callbacks):
    campaign, _, _ = pk_campaign()

    operation = night_of(campaign, django_capture_on_commit_callbacks)

    rolls = {r.force.side.name: r for r in campaign.rolls.filter(procedure="pk.night_command")}
    assert set(rolls) == {"Axis", "Allied"}  # forces on the table only: not the two off it
    for record in rolls.values():
        assert roll_replay(record) == [record.result]
    axis_force, allied_force = rolls["Axis"].force, rolls["Allied"].force
    axis_force.refresh_from_db()
    allied_force.refresh_from_db()
    # Axis: this seed rolls a failure, and nothing holds the force on the table.
    assert rolls["Axis"].result["outcome"] == "failed, force removed"
    assert axis_force.arrival_status == ArrivalStatus.IN_RESERVE
    assert not campaign.battalions.filter(side__name="Axis", in_reserve=False).exists()
    assert rolls["Axis"].changes == {"arrival_status": ArrivalStatus.IN_RESERVE}
    # Allied: surrounded, so a failure keeps it where it is.
    assert rolls["Allied"].result["outcome"] == "failed"
    assert rolls["Allied"].result["inputs"]["surrounded"] is True
    assert allied_force.arrival_status == ArrivalStatus.ON_TABLE
    assert not campaign.battalions.filter(side__name="Allied", in_reserve=True).exists()
    reports = {r.side.name: r.body for r in models.NightReport.objects.filter(operation=operation)}
    assert reports["Axis"]["forces_removed"] == [axis_force.name]
    assert reports["Allied"]["forces_removed"] == []
    assert reports["Allied"]["command_rolls"] == [rolls["Allied"].line]


def test_a_force_that_will_not_arrive_rolls_again_the_next_day(django_capture_on_commit_callbacks):
    campaign, no_show, turned_away = pk_campaign()

    operation = night_of(campaign, django_capture_on_commit_callbacks)

    no_show.refresh_from_db()
    assert (no_show.arrival_status, no_show.arrival_day, no_show.availability, no_show.arrival_attempts) == (
        ArrivalStatus.SCHEDULED,
        2,
        "",
        0,
    )
    turned_away.refresh_from_db()
    assert turned_away.arrival_status == ArrivalStatus.WILL_NOT_ARRIVE  # not a chart result: the umpire's
    reports = {r.side_id: r.body for r in models.NightReport.objects.filter(operation=operation)}
    assert reports.pop(no_show.side_id)["forces_to_reroll_availability"] == 1  # each side counts its own
    assert [body["forces_to_reroll_availability"] for body in reports.values()] == [0]


def test_a_club_can_read_no_show_as_final(django_capture_on_commit_callbacks):
    campaign, no_show, _ = pk_campaign()
    models.Campaign.objects.filter(pk=campaign.pk).update(
        rule_settings={"pk.night_availability_reroll.reroll_on_a_second_day": False}
    )

    night_of(campaign, django_capture_on_commit_callbacks)

    no_show.refresh_from_db()
    assert no_show.arrival_status == ArrivalStatus.WILL_NOT_ARRIVE


@pytest.mark.parametrize("profile", ["great-battles", "club"])
def test_without_panzer_korps_the_night_has_no_night_segment(django_capture_on_commit_callbacks, profile):
    campaign, no_show, _ = pk_campaign(profile=profile)

    operation = night_of(campaign, django_capture_on_commit_callbacks)

    assert not campaign.rolls.filter(procedure="pk.night_command").exists()
    assert not campaign.forces.filter(arrival_status=ArrivalStatus.IN_RESERVE).exists()
    no_show.refresh_from_db()
    assert no_show.arrival_status == ArrivalStatus.WILL_NOT_ARRIVE
    reports = models.NightReport.objects.filter(operation=operation)
    assert not any("forces_to_reroll_availability" in report.body for report in reports)
