"""The Panzer Korps segment simulator gets every input the campaign knows (rules notes C-15)."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.services.audit import Actor
from campaign.services.days import day_dawn, segment_advance
from campaign.services.dice import dice_commitment_fields
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-simulator")


def _prepared(**rule_settings: object) -> models.Campaign:
    campaign = campaign_with_sides(battalions_per_side=2)
    campaign.rule_settings = dict(rule_settings)
    campaign.save(update_fields=["rule_settings"])
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    models.Side.objects.filter(pk=axis.pk).update(air_cover_priority="Top")
    models.Side.objects.filter(pk=allied.pk).update(air_cover_priority="Modest")
    # Axis: raw troops, both battalions cut off; Allied: the opposite. Equal commanders, so the
    # initiative goes by the dice.
    models.Battalion.objects.filter(side=axis).update(quality="Raw", supply_situation="isolated")
    models.Force.objects.filter(campaign=campaign).update(leader_rating="B")
    return campaign


def _turns_inputs(campaign: models.Campaign, segment: str) -> tuple[str, dict[str, object]]:
    record = models.DaySegmentRecord.objects.get(day__campaign=campaign, segment=segment)
    # The forcing roll and the turns roll (when both are thrown) share their inputs.
    roll = campaign.rolls.filter(procedure="pk.segment_turns", segment=record).first()
    assert roll is not None
    assert record.initiative_side is not None
    return record.initiative_side.name, roll.inputs


# Seeds under which each side wins the early-morning initiative (checked in the test).
@pytest.mark.parametrize(("seed", "first_roller"), [("one", "Axis"), ("four", "Allied")])
def test_the_rolling_side_brings_air_supply_morale_and_its_commander(seed, first_roller):
    campaign = _prepared()
    models.Campaign.objects.filter(pk=campaign.pk).update(**dice_commitment_fields(f"simulator-{seed}"))
    day_dawn(campaign.pk, ACTOR)
    segment_advance(campaign.pk, ACTOR)

    assert _turns_inputs(campaign, "early morning")[0] == first_roller
    for segment in ("early morning", "morning"):
        roller, inputs = _turns_inputs(campaign, segment)
        axis_rolls = roller == "Axis"
        assert inputs["air_superiority"] is axis_rolls
        assert inputs["out_of_supply"] is axis_rolls
        assert inputs["reservist_or_worse_percent"] == (100 if axis_rolls else 0)
        # Only the early-morning start can be forced, and only by an A-C commander.
        expected = "B" if segment == "early morning" else None
        assert inputs["forcing_commander"] == expected


def test_a_club_setting_pins_an_input_the_service_would_derive():
    campaign = _prepared(**{"pk.segment_turns.reservist_or_worse_percent": 0})
    models.Battalion.objects.filter(campaign=campaign).update(quality="Raw")
    day_dawn(campaign.pk, ACTOR)

    _, inputs = _turns_inputs(campaign, "early morning")
    assert inputs["reservist_or_worse_percent"] == 0


def test_destroyed_stands_and_reserves_do_not_count_towards_the_force():
    campaign = _prepared()
    axis = campaign.sides.get(name="Axis")
    first, second = models.Battalion.objects.filter(side=axis).order_by("code")
    models.Battalion.objects.filter(pk=first.pk).update(quality="Average", supply_situation="ok")
    models.Battalion.objects.filter(pk=second.pk).update(in_reserve=True)
    models.Stand.objects.filter(battalion=first).exclude(label="1").update(status="destroyed")
    models.Side.objects.filter(campaign=campaign).update(air_cover_priority="High")
    models.Force.objects.filter(campaign=campaign).update(leader_rating="C")
    day_dawn(campaign.pk, ACTOR)

    _, inputs = _turns_inputs(campaign, "early morning")
    assert inputs["air_superiority"] is False  # equal priorities: nobody rules the air
    assert inputs["out_of_supply"] is False
    assert inputs["reservist_or_worse_percent"] == 0
    assert inputs["forcing_commander"] == "C"
