"""`victory/`: the scenario's victory conditions and each side's standing against them, in words and
with labels, the same for every member (sectors and owners are public, rules notes C-17); the
campaign's end once finished (rules notes MS-06)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import CampaignStatus, MemberRole
from campaign.selectors import victory_standing
from campaign.services.audit import Actor
from campaign.services.scenario import scenario_import
from campaign.services.victory import victory_check
from tests.campaign.factories import malta_pack_without_supply_drop_zones

pytestmark = pytest.mark.django_db

ACTOR = Actor(request_id="victory-test")


@pytest.fixture
def malta() -> models.Campaign:
    return scenario_import(malta_pack_without_supply_drop_zones(), ACTOR)


def reader(campaign: models.Campaign, role: str, side: str | None = None) -> APIClient:
    user = get_user_model().objects.create(username=f"reader-{models.Membership.objects.count()}")
    models.Membership.objects.create(
        user=user, campaign=campaign, role=role, side=campaign.sides.get(name=side) if side else None
    )
    client = APIClient()
    client.force_authenticate(user)
    return client


def url(campaign: models.Campaign) -> str:
    return f"/api/v1/campaigns/{campaign.slug}/victory/"


def test_every_member_reads_the_conditions_and_where_each_side_stands(malta):
    malta.sectors.filter(key="grand-harbour").update(owner=malta.sides.get(name="Axis"))
    bodies = [
        reader(malta, MemberRole.PLAYER, side).get(url(malta)).json() for side in ("Axis", "Allied")
    ] + [reader(malta, MemberRole.OBSERVER).get(url(malta)).json()]

    assert bodies[0] == bodies[1] == bodies[2]  # public: nobody reads more or less
    body = bodies[0]
    assert (body["status"], body["status_label"]) == ("setup", "Setting up")
    assert body["summary"] == "No victory condition is met as the map stands: the campaign goes on."
    falls, points = body["conditions"]
    assert falls["side_name"] == "Axis"
    assert falls["result"] == "Malta falls: the Axis holds Valletta and the Grand Harbour"
    assert [(s["name"], s["held"]) for s in falls["sectors"]] == [
        ("Valletta", False),
        ("Grand Harbour", True),
    ]
    assert falls["standing"] == "Axis holds 1 of 2 sectors (Grand Harbour); not Valletta."
    assert not falls["met"]
    assert points["victory_points"] == 20
    assert points["standing"] == f"Axis holds {points['points_held']} of 20 victory points."
    assert body["end_day"] == 6
    assert body["end_text"] == (
        "If no condition is met by then, the night of day 6 ends the campaign: "
        "The garrison holds: Malta stays in the war (Allied wins)."
    )
    axis = next(side for side in body["sides"] if side["name"] == "Axis")
    assert axis["sectors_held"] == malta.sectors.filter(owner__name="Axis").count()


def test_a_condition_met_as_the_map_stands_says_so_and_the_night_reads_the_same(malta):
    malta.sectors.filter(key__in=["valletta", "grand-harbour"]).update(owner=malta.sides.get(name="Axis"))

    body = reader(malta, MemberRole.OBSERVER).get(url(malta)).json()

    falls = body["conditions"][0]
    assert falls["met"]
    assert falls["standing"].endswith("Met as the map stands: tonight's night phase would end the campaign.")
    assert body["summary"] == (
        "Axis meets a victory condition as the map stands: "
        "Malta falls: the Axis holds Valletta and the Grand Harbour."
    )
    result = victory_check(malta, 1)
    assert result is not None
    assert result.text == falls["result"]


def test_a_finished_campaign_says_how_it_ended(malta):
    models.Campaign.objects.filter(pk=malta.pk).update(
        status=CampaignStatus.FINISHED,
        winner=malta.sides.get(name="Allied"),
        result="The garrison holds: Malta stays in the war",
        finished_day=6,
    )

    body = reader(malta, MemberRole.PLAYER, "Axis").get(url(malta)).json()

    assert (body["status"], body["status_label"], body["finished_day"]) == ("finished", "Finished", 6)
    assert body["summary"] == (
        "The campaign ended on day 6. Allied victory: The garrison holds: Malta stays in the war"
    )


def test_a_scenario_without_conditions_says_the_umpire_decides(malta):
    models.Campaign.objects.filter(pk=malta.pk).update(victory={})
    malta.refresh_from_db()

    standing = victory_standing(malta)

    assert standing.conditions == []
    assert standing.end_text is None
    assert (
        standing.summary
        == "The scenario sets no victory conditions: the umpire decides how the campaign ends."
    )
