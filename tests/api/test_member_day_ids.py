"""Members, invitations, days, their segments and the campaign summary say no row number (issue
28 point 7): every campaign's rows share one sequence, so an umpire reading members 3 and 9, or
anybody reading day 1's id 40 and the campaign's id 7, counted other campaigns' rows.

The world is built after every sequence jumps to 7,100,001 (tests/api/row_numbers.py), so a row
number among the reads stands out: no such integer, nor a text with one, may appear in anything
read."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.test import APIClient

from campaign import models
from tests.api.row_numbers import SEQUENCES_FROM, row_numbers, world_after_every_sequence_jumps
from tests.api.world import MEMBERS, Role, World

pytestmark = pytest.mark.django_db

NUMBERED_TABLES = (
    models.Membership,
    models.Invitation,
    models.CampaignDay,
    models.DaySegmentRecord,
    models.Campaign,
)


@pytest.fixture(scope="module")
def module_rows_build() -> Callable[[], World]:
    return world_after_every_sequence_jumps


def _club_business(world: World) -> None:
    """What the umpire does with members: an account made, an invitation made and taken up, a
    member removed, each with its event."""
    umpire = world.client(Role.UMPIRE)
    made = umpire.post(world.url("member-list"), {"username": "newcomer", "role": "observer"}, format="json")
    assert made.status_code == 201, made.content
    invited = umpire.post(world.url("invitation-list"), {"role": "observer"}, format="json")
    assert invited.status_code == 201, invited.content
    joining = APIClient()
    joining.force_login(get_user_model().objects.create_user("joining", password="x"))
    accepted = joining.post(reverse("api:invitation-link-accept", kwargs={"token": invited.json()["token"]}))
    assert accepted.status_code == 201, accepted.content
    removed = umpire.delete(world.url("member-detail", pk=made.json()["id"]))
    assert removed.status_code == 204, removed.content


def test_the_sequences_jumped_so_that_a_number_would_stand_out(world: World):
    _club_business(world)
    for model in NUMBERED_TABLES:
        assert model.objects.filter(pk__gte=SEQUENCES_FROM).exists(), model.__name__


@pytest.mark.parametrize("role", MEMBERS, ids=lambda role: role.name.lower())
def test_no_read_of_members_invitations_days_or_the_campaign_says_a_row_number(world: World, role: Role):
    _club_business(world)
    reads = [
        world.url("campaign-detail"),
        reverse("api:campaign-list"),
        world.url("day-list"),
        world.url("day-detail", number=1),
        world.url("campaign-timeline"),
        world.url("event-list") + "?page_size=500",
        reverse("api:session"),
    ]
    if role is Role.UMPIRE:
        reads += [world.url("member-list"), world.url("invitation-list")]
    client = world.client(role)
    for url in reads:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        numbers = row_numbers(response.json(), url)
        assert not numbers, numbers


def test_members_invitations_days_segments_and_the_campaign_are_named_by_public_ids(world: World):
    _club_business(world)
    umpire = world.client(Role.UMPIRE)
    campaign = models.Campaign.objects.get(pk=world.campaign.pk)
    assert umpire.get(world.url("campaign-detail")).json()["id"] == str(campaign.public_id)
    day = umpire.get(world.url("day-detail", number=1)).json()
    stored = campaign.days.get(number=1)
    assert day["id"] == str(stored.public_id)
    assert [segment["id"] for segment in day["segments"]] == [str(s.public_id) for s in stored.segments.all()]
    members = umpire.get(world.url("member-list")).json()
    assert {member["id"] for member in members} == {str(m.public_id) for m in campaign.memberships.all()}
    invitations = umpire.get(world.url("invitation-list")).json()["results"]
    assert [invitation["id"] for invitation in invitations] == [
        str(i.public_id) for i in campaign.invitations.all()
    ]
    # A member's number is no name: its URL answers 404.
    numbered = models.Membership.objects.filter(campaign=campaign).first()
    assert numbered is not None
    assert umpire.delete(f"{world.url('member-list')}{numbered.pk}/").status_code == 404
    # Events about them name them by public id.
    about = models.Event.objects.filter(
        campaign=campaign, object_type__in=[model.__name__ for model in NUMBERED_TABLES]
    )
    assert about.exists()
    assert all(isinstance(event.object_public_id, uuid.UUID) for event in about), [
        (event.object_type, event.message) for event in about if event.object_public_id is None
    ]
