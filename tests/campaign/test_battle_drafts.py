"""Players' drafts of a battle report: compared, shown to the umpire, applied only once confirmed."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    BattleStatus,
    DraftItemStatus,
    DraftStatus,
    EventVerb,
    MemberRole,
    NotificationKind,
    StandStatus,
)
from campaign.selectors import battle_draft_comparison, battle_draft_own
from campaign.services.audit import Actor
from campaign.services.battle_drafts import battle_draft_confirm, battle_draft_save
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.errors import ConflictError, DomainError, ForbiddenError
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
UMPIRE = Actor(request_id="umpire-request")


@pytest.fixture
def campaign() -> models.Campaign:
    """Each side shows the other its battalions' stands: each drafts the other's losses too."""
    campaign = campaign_with_sides(battalions_per_side=2)
    for side, codes in (("Axis", ["A1", "A2"]), ("Allied", ["L1", "L2"])):
        campaign.sides.filter(name=side).update(fog_of_war={"identified_units": codes, "strengths": True})
    return campaign


def _member(campaign: models.Campaign, name: str, role: str, side: models.Side | None) -> Actor:
    user = get_user_model().objects.create_user(f"{name}-{campaign.slug}")
    models.Membership.objects.create(user=user, campaign=campaign, role=role, side=side)
    return Actor(user=user, request_id=f"{name}-request")


@pytest.fixture
def battle(campaign: models.Campaign) -> models.Battle:
    day_dawn(campaign.pk, UMPIRE)
    return battle_create(
        campaign.pk,
        UMPIRE,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=campaign.sides.get(name="Axis").pk,
        defender_id=campaign.sides.get(name="Allied").pk,
        battalion_codes=["A1", "L1"],
    )


@pytest.fixture
def players(campaign: models.Campaign) -> tuple[Actor, Actor]:
    return (
        _member(campaign, "axis", MemberRole.PLAYER, campaign.sides.get(name="Axis")),
        _member(campaign, "allied", MemberRole.PLAYER, campaign.sides.get(name="Allied")),
    )


# The Axis player says L1's stand 2 was destroyed, the Allied player that it was only
# suppressed; they agree on the rest, and only the Axis player enters the winner.
AXIS_DRAFT = {
    "battalions": [
        {"code": "A1", "destroyed": ["3"], "activation_points_spent": 2},
        {"code": "L1", "destroyed": ["2"], "suppressed": ["4"]},
    ],
    "winner": None,
}
ALLIED_DRAFT = {
    "battalions": [
        {"code": "L1", "suppressed": ["2", "4"]},
        {"code": "A1", "destroyed": ["3"]},
    ],
}


def _state(campaign: models.Campaign) -> tuple[object, ...]:
    """Everything a report changes, and the campaign's rolls and events other than the drafts'."""
    return (
        sorted(models.Stand.objects.filter(campaign=campaign).values_list("pk", "status")),
        sorted(
            campaign.sides.values_list(
                "pk", "activation_points", "barrage_rounds", "barrage_templates_in_use"
            )
        ),
        sorted(campaign.battalions.values_list("pk", "supply_situation")),
        sorted(campaign.battles.values_list("pk", "status", "report", "winner_id")),
        campaign.rolls.count(),
        sorted(
            campaign.events.exclude(
                verb__in=[EventVerb.BATTLE_DRAFT_SAVED, EventVerb.NOTIFICATIONS_SENT]
            ).values_list("pk", flat=True)
        ),
        models.Campaign.objects.get(pk=campaign.pk).version,
    )


def test_two_conflicting_drafts_propose_the_agreed_part_and_change_nothing_until_confirmed(
    campaign, battle, players
):
    axis_player, allied_player = players
    before = _state(campaign)

    battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)
    battle_draft_save(campaign.pk, allied_player, battle.pk, ALLIED_DRAFT)

    assert _state(campaign) == before
    umpire = CampaignAccess(campaign, MemberRole.UMPIRE, None)
    compared = battle_draft_comparison(umpire, battle)
    assert compared is not None
    comparison = compared.comparison
    axis, allied = battle.attacker_id, battle.defender_id
    # The conflict, with both versions side by side and the stand as the order of battle has it.
    (conflict,) = comparison.conflicts
    assert conflict.key == "battalions[L1].stands[2]"
    assert conflict.versions == {axis: "destroyed", allied: "suppressed"}
    assert compared.stands_now[("L1", "2")] == StandStatus.OK
    # The agreed part is proposed; the winner only the Axis player entered, and what only each
    # battalion's own side knows, as one side's word.
    counts = ("activation_points_spent", "barrage_rounds_spent", "barrage_templates_used")
    own_kinds = (*counts, "objectives", "supply_situation")
    own = {f"battalions[{code}].{kind}" for code in ("A1", "L1") for kind in own_kinds}
    assert {i.key for i in comparison.of_status(DraftItemStatus.ONE_SIDE)} == {"winner", *own}
    by_key = {item.key: item for item in comparison.items}
    assert by_key["battalions[A1].activation_points_spent"].versions == {axis: 2}
    assert by_key["battalions[L1].activation_points_spent"].versions == {allied: 0}
    assert comparison.report() == {
        "battalions": [
            {
                "code": "A1",
                "destroyed": ["3"],
                "activation_points_spent": 2,
                "barrage_rounds_spent": 0,
                "barrage_templates_used": 0,
                "objectives": [],
            },
            {
                "code": "L1",
                "suppressed": ["4"],
                "activation_points_spent": 0,
                "barrage_rounds_spent": 0,
                "barrage_templates_used": 0,
                "objectives": [],
            },
        ],
        "winner": None,
    }
    assert _state(campaign) == before

    with pytest.raises(DomainError) as unchosen:
        battle_draft_confirm(campaign.pk, UMPIRE, battle.pk, comparison.revision, {})
    assert unchosen.value.field == "choices.battalions[L1].stands[2]"
    assert _state(campaign) == before

    battle_draft_confirm(campaign.pk, UMPIRE, battle.pk, comparison.revision, {conflict.key: allied})

    battle.refresh_from_db()
    assert battle.status == BattleStatus.REPORTED
    assert dict(campaign.stands.filter(battalion__code="L1").values_list("label", "status")) == {
        "1": "ok",
        "2": "suppressed",
        "3": "ok",
        "4": "suppressed",
    }
    assert campaign.stands.get(battalion__code="A1", label="3").status == StandStatus.DESTROYED
    assert campaign.sides.get(pk=axis).activation_points == 6  # 8 - 2 spent
    assert set(battle.drafts.values_list("status", flat=True)) == {DraftStatus.CONFIRMED}
    assert campaign.events.filter(verb=EventVerb.BATTLE_DRAFTS_CONFIRMED).count() == 1
    assert campaign.events.filter(verb=EventVerb.BATTLE_REPORTED, object_type="Battle").count() == 1
    with pytest.raises(ConflictError):
        battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)


def test_a_draft_changed_after_the_umpire_read_them_is_not_confirmed_unseen(campaign, battle, players):
    axis_player, allied_player = players
    battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)
    battle_draft_save(campaign.pk, allied_player, battle.pk, ALLIED_DRAFT)
    umpire = CampaignAccess(campaign, MemberRole.UMPIRE, None)
    read = battle_draft_comparison(umpire, battle)
    assert read is not None
    battle_draft_save(
        campaign.pk, allied_player, battle.pk, {"battalions": [{"code": "L1", "destroyed": ["2"]}]}
    )

    with pytest.raises(ConflictError) as stale:
        battle_draft_confirm(
            campaign.pk,
            UMPIRE,
            battle.pk,
            read.comparison.revision,
            {"battalions[L1].stands[2]": battle.defender_id},
        )
    assert stale.value.field == "revision"
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PLANNED


def test_a_draft_is_checked_against_the_order_of_battle_with_the_field_named(campaign, battle, players):
    axis_player, _ = players
    with pytest.raises(DomainError) as refused:
        battle_draft_save(
            campaign.pk, axis_player, battle.pk, {"battalions": [{"code": "L1", "destroyed": ["9"]}]}
        )
    assert refused.value.field == "battalions[0].destroyed[0]"
    assert not battle.drafts.exists()


def test_one_real_disagreement_is_one_conflict_whatever_each_side_entered_of_its_own(
    campaign, battle, players
):
    """Issue 30: each side enters its own battalion's points, supply and objectives, which the
    other side cannot know; only the stands both saw are compared, so one disagreement is one
    conflict and each side's own fields are its proposal."""
    axis_player, allied_player = players
    axis, allied = battle.attacker_id, battle.defender_id
    own_a1 = {"activation_points_spent": 3, "barrage_rounds_spent": 1, "supply_situation": "OK"}
    own_l1 = {"activation_points_spent": 2, "supply_situation": "separated"}
    objectives = [{"name": "Hal Far airfield", "activation_points": 1}]
    battle_draft_save(
        campaign.pk,
        axis_player,
        battle.pk,
        {
            "battalions": [
                {"code": "A1", "destroyed": ["3"], **own_a1, "objectives": objectives},
                {"code": "L1", "destroyed": ["2"]},
            ]
        },
    )
    battle_draft_save(
        campaign.pk,
        allied_player,
        battle.pk,
        {"battalions": [{"code": "A1", "destroyed": ["3"]}, {"code": "L1", "suppressed": ["2"], **own_l1}]},
    )

    compared = battle_draft_comparison(CampaignAccess(campaign, MemberRole.UMPIRE, None), battle)
    assert compared is not None
    comparison = compared.comparison
    assert [item.key for item in comparison.conflicts] == ["battalions[L1].stands[2]"]
    by_key = {item.key: item for item in comparison.items}
    assert by_key["battalions[A1].supply_situation"].versions == {axis: "OK"}
    assert by_key["battalions[L1].supply_situation"].versions == {allied: "separated"}
    assert by_key["battalions[A1].stands[3]"].status == DraftItemStatus.AGREED
    proposal = {entry["code"]: entry for entry in comparison.report()["battalions"]}
    assert proposal["A1"] | own_a1 == proposal["A1"]
    assert proposal["A1"]["objectives"] == objectives
    assert proposal["L1"] | own_l1 == proposal["L1"]

    battle_draft_confirm(
        campaign.pk, UMPIRE, battle.pk, comparison.revision, {"battalions[L1].stands[2]": axis}
    )
    confirmed = campaign.events.get(verb=EventVerb.BATTLE_DRAFTS_CONFIRMED)
    assert "1 conflict chosen" in confirmed.message
    assert campaign.battalions.get(code="A1").supply_situation == "OK"
    assert campaign.battalions.get(code="L1").supply_situation == "separated"


def test_stands_the_enemys_fog_hides_are_its_own_sides_word(campaign, battle, players):
    """The demo's fog hides each side's stands from the other: the Axis draft listed W1 with
    no stands (it saw none) and that silence read as "in order", a second conflict."""
    axis_player, allied_player = players
    campaign.sides.filter(name="Axis").update(fog_of_war={})  # the Allies see nothing of A1
    battle_draft_save(
        campaign.pk, axis_player, battle.pk, {"battalions": [{"code": "A1", "destroyed": ["3"]}]}
    )
    battle_draft_save(campaign.pk, allied_player, battle.pk, {"battalions": [{"code": "A1"}, {"code": "L1"}]})

    compared = battle_draft_comparison(CampaignAccess(campaign, MemberRole.UMPIRE, None), battle)
    assert compared is not None
    assert not compared.comparison.conflicts
    stand = next(i for i in compared.comparison.items if i.key == "battalions[A1].stands[3]")
    assert (stand.status, stand.versions) == (DraftItemStatus.ONE_SIDE, {battle.attacker_id: "destroyed"})
    allied = battle_draft_own(CampaignAccess(campaign, MemberRole.PLAYER, battle.defender_id), battle)
    assert allied is not None
    assert "A1" not in allied.fields  # nothing to draft of it, not even its code to read
    with pytest.raises(DomainError) as refused:
        battle_draft_save(
            campaign.pk, allied_player, battle.pk, {"battalions": [{"code": "A1", "suppressed": ["3"]}]}
        )
    assert refused.value.field == "battalions[0].suppressed"
    assert "fog of war hides its stands" in str(refused.value)


@pytest.mark.parametrize("field", ["activation_points_spent", "supply_situation", "objectives"])
def test_a_side_drafts_only_the_stands_of_the_enemys_battalions(campaign, battle, players, field):
    _, allied_player = players
    values = {"activation_points_spent": 1, "supply_situation": "OK", "objectives": [{"name": "Gudja"}]}
    with pytest.raises(DomainError) as refused:
        battle_draft_save(
            campaign.pk,
            allied_player,
            battle.pk,
            {"battalions": [{"code": "L1"}, {"code": "A1", "destroyed": ["3"], field: values[field]}]},
        )
    assert refused.value.field == f"battalions[1].{field}"
    assert "A1 is the enemy's battalion" in str(refused.value)
    assert not battle.drafts.exists()
    own = battle_draft_own(CampaignAccess(campaign, MemberRole.PLAYER, battle.defender_id), battle)
    assert own is not None
    assert own.fields["A1"] == ("destroyed", "suppressed")
    assert {"supply_situation", "activation_points_spent"} <= set(own.fields["L1"])


def test_only_a_player_of_a_side_in_the_battle_drafts_it(campaign, battle, players):
    third = campaign.sides.create(name="Italians", nations=["Italian"], is_axis=True)
    for actor in (
        _member(campaign, "observer", MemberRole.OBSERVER, None),
        _member(campaign, "italian", MemberRole.PLAYER, third),
        UMPIRE,
    ):
        with pytest.raises(ForbiddenError):
            battle_draft_save(campaign.pk, actor, battle.pk, AXIS_DRAFT)
    assert not battle.drafts.exists()


def test_a_player_reads_their_own_draft_and_only_whether_the_other_side_filed(campaign, battle, players):
    axis_player, _ = players
    axis, allied = battle.attacker_id, battle.defender_id
    axis_access = CampaignAccess(campaign, MemberRole.PLAYER, axis)
    allied_access = CampaignAccess(campaign, MemberRole.PLAYER, allied)
    battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)

    own = battle_draft_own(axis_access, battle)
    assert own is not None
    assert own.draft is not None
    assert own.draft.report == AXIS_DRAFT
    assert own.opponent_filed is False
    theirs = battle_draft_own(allied_access, battle)
    assert theirs is not None
    assert theirs.draft is None
    assert theirs.opponent_filed is True
    assert battle_draft_comparison(allied_access, battle) is None
    assert battle_draft_own(CampaignAccess(campaign, MemberRole.UMPIRE, None), battle) is None
    # The draft's event is its side's: the other side's timeline does not carry it.
    saved = campaign.events.get(verb=EventVerb.BATTLE_DRAFT_SAVED)
    assert (saved.visibility, saved.side_id) == ("side", axis)


def test_the_umpire_still_reports_a_battle_directly_and_drafts_are_then_refused(campaign, battle, players):
    axis_player, _ = players
    battle_report(campaign.pk, UMPIRE, battle.pk, {"battalions": [{"code": "A1"}]})
    with pytest.raises(ConflictError) as refused:
        battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)
    assert refused.value.field == "status"


def test_the_first_draft_tells_the_opponents_players_theirs_is_awaited_and_nothing_of_it(
    campaign, battle, players
):
    axis_player, allied_player = players

    battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)
    battle_draft_save(campaign.pk, axis_player, battle.pk, AXIS_DRAFT)  # changed: nobody told again
    battle_draft_save(campaign.pk, allied_player, battle.pk, ALLIED_DRAFT)  # both in: nobody waits

    (waiting,) = models.Notification.objects.filter(campaign=campaign, kind=NotificationKind.DRAFT_WAITING)
    assert waiting.recipient_id == allied_player.user_id
    # Issue 30: "Report the battle at Hal Far" stayed new after the Allies filed: it is done.
    assert waiting.read_at is not None
    reconcile = models.Notification.objects.filter(campaign=campaign, kind=NotificationKind.DRAFT_FILED)
    assert reconcile.filter(read_at__isnull=True).exists()  # the umpire's work is still to do
    assert waiting.link == f"/campaigns/{campaign.slug}/battles/{battle.public_id}"
    assert "Axis has filed its draft report of the battle at Hal Far" in waiting.body
    assert "destroyed" not in waiting.body

    compared = battle_draft_comparison(CampaignAccess(campaign, MemberRole.UMPIRE, None), battle)
    assert compared is not None
    choices = {item.key: battle.attacker_id for item in compared.comparison.conflicts}
    battle_draft_confirm(campaign.pk, UMPIRE, battle.pk, compared.comparison.revision, choices)
    assert not reconcile.filter(read_at__isnull=True).exists()  # reported: nothing to reconcile
