"""The campaign's actions (campaign.services.campaign_actions) are exactly the writes its services
accept: in every state a day goes through, each action is offered if and only if its service,
tried and rolled back, raises no ConflictError (the refusal of the state; inputs are valid)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import transaction

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import CAMPAIGN_ACTION_CHOICES, CampaignStatus, MemberRole
from campaign.services.activation import activation_spend
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.campaign_actions import UMPIRE_ACTIONS, campaign_actions
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_start
from campaign.services.night_orders import night_order_queue
from campaign.services.operations import operation_run
from rules_engine.vocab import PLAYED_DAY_SEGMENTS
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-actions")


class Rollback(Exception):
    """Raised to undo a service tried only to see whether it accepts."""


def side(campaign: models.Campaign, name: str) -> models.Side:
    return campaign.sides.get(name=name)


def writes(campaign: models.Campaign) -> dict[str, Callable[[], object]]:
    """Each action's write with inputs the campaign's rows make valid."""
    pk = campaign.pk
    # A campaign being set up may have one side only: it then fights itself, refused elsewhere.
    sides = list(campaign.sides.order_by("-is_axis"))
    axis, allied = sides[0], sides[-1]
    return {
        "start": lambda: campaign_start(pk, ACTOR),
        "dawn": lambda: day_dawn(pk, ACTOR),
        "open_next_segment": lambda: segment_advance(pk, ACTOR),
        # The dawn turn: a turn of every day, whichever segment is under way.
        "spend_activation_points": lambda: activation_spend(
            pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=0, battalion_codes=["A1"]
        ),
        "create_battle": lambda: battle_create(
            pk,
            ACTOR,
            sector_name="Mdina",
            battle_type="Local Attack",
            attacker_id=axis.pk,
            defender_id=allied.pk,
            battalion_codes=["A1", "L1"],
        ),
        "queue_night_order": lambda: night_order_queue(pk, ACTOR, kind="withdraw", battalion_code="A1"),
        "run_night": lambda: night_phase_start(pk, ACTOR),
    }


def accepted(campaign: models.Campaign) -> list[str]:
    """The actions whose write the campaign accepts now, each tried and rolled back."""
    taken = []
    for action, write in writes(campaign).items():
        try:
            with transaction.atomic():
                write()
                raise Rollback
        except Rollback:
            taken.append(action)
        except ConflictError:
            pass
    return taken


def offered(campaign: models.Campaign, role: MemberRole = MemberRole.UMPIRE) -> list[str]:
    fresh = models.Campaign.objects.get(pk=campaign.pk)
    side_id = side(campaign, "Axis").pk if role == MemberRole.PLAYER else None
    return campaign_actions(CampaignAccess(campaign=fresh, role=role, side_id=side_id))


def assert_agree(campaign: models.Campaign, expected: list[str]) -> None:
    assert offered(campaign) == expected
    assert accepted(campaign) == expected


@pytest.fixture
def campaign() -> models.Campaign:
    campaign = campaign_with_sides(battalions_per_side=2)
    models.Side.objects.filter(campaign=campaign).update(activation_points=100)
    return campaign


DAY_UNDER_WAY = [
    "open_next_segment",
    "spend_activation_points",
    "create_battle",
    "queue_night_order",
    "run_night",
]


def test_the_actions_are_named_in_the_vocabulary_in_their_order():
    assert list(UMPIRE_ACTIONS) == [action for action, _ in CAMPAIGN_ACTION_CHOICES]


def test_a_campaign_being_set_up_offers_its_start_once_it_has_two_sides(campaign):
    models.Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.SETUP)
    assert_agree(campaign, ["start"])

    side(campaign, "Allied").delete()
    assert_agree(campaign, [])


def test_a_day_offers_its_segments_until_the_last_then_its_night_then_the_next_dawn(campaign):
    assert_agree(campaign, ["dawn"])

    day_dawn(campaign.pk, ACTOR)
    for _ in PLAYED_DAY_SEGMENTS[1:]:
        assert_agree(campaign, DAY_UNDER_WAY)
        segment_advance(campaign.pk, ACTOR)
    # The day's last segment is open: the night phase comes next, no segment.
    assert_agree(campaign, [a for a in DAY_UNDER_WAY if a != "open_next_segment"])

    operation = night_phase_start(campaign.pk, ACTOR)
    assert_agree(campaign, [])
    operation_run(operation.pk)
    assert_agree(campaign, ["dawn"])


def test_an_unreported_battle_holds_the_night_back(campaign):
    day_dawn(campaign.pk, ACTOR)
    battle = writes(campaign)["create_battle"]()
    assert isinstance(battle, models.Battle)
    assert_agree(campaign, [a for a in DAY_UNDER_WAY if a != "run_night"])

    battle_report(campaign.pk, ACTOR, battle.pk, {"battalions": [{"code": "A1"}, {"code": "L1"}]})
    assert_agree(campaign, DAY_UNDER_WAY)


def test_a_day_ended_by_the_day_end_roll_opens_no_segment(campaign):
    day_dawn(campaign.pk, ACTOR)
    models.CampaignDay.objects.filter(campaign=campaign, number=1).update(ended_after_turn=0)
    assert "open_next_segment" not in offered(campaign)
    with pytest.raises(ConflictError, match="day-end roll"):
        segment_advance(campaign.pk, ACTOR)


def test_a_finished_campaign_offers_nothing(campaign):
    models.Campaign.objects.filter(pk=campaign.pk).update(status=CampaignStatus.FINISHED)
    assert_agree(campaign, [])


@pytest.mark.parametrize("role", [MemberRole.PLAYER, MemberRole.OBSERVER])
def test_players_and_observers_are_offered_none_of_the_umpires_writes(campaign, role):
    day_dawn(campaign.pk, ACTOR)
    assert offered(campaign) == DAY_UNDER_WAY
    assert offered(campaign, role) == []
