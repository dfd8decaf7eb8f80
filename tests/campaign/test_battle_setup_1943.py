"""The 1943 set-up page in full: air assets per side, and the combat lulls it times."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import EventVerb, MemberRole
from campaign.selectors import rolls as rolls_selector
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create, battle_lull_check
from campaign.services.days import day_dawn
from campaign.services.errors import ConflictError, DomainError
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-1943")
OPEN = {"n43.setup_proximity": {"terrain": "Open Terrain"}}


@pytest.fixture
def battle() -> models.Battle:
    campaign = campaign_with_sides(battalions_per_side=1)
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    day_dawn(campaign.pk, ACTOR)
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )


def test_each_side_reads_its_air_assets_row_from_nation_front_and_year(battle):
    battle_setup(battle.campaign_id, ACTOR, battle.pk, inputs=OPEN)

    battle.refresh_from_db()
    assert battle.setup["n43.air_assets@Axis"]["row"] == "German: North Africa & Med 1941-42"
    assert battle.setup["n43.air_assets@Allied"]["row"] == "Commonwealth: North Africa & The Med 1942-43"
    assert "Dive Bombing" in battle.setup["n43.air_assets@Axis"]["available"]
    assert "Dive Bombing" not in battle.setup["n43.air_assets@Allied"]["available"]
    # The web app and the papers print the sentence, never the marks.
    assert battle.setup["n43.air_assets@Allied"]["outcome_text"] == (
        "Strafing, Level Bombing, AT Cannon (Commonwealth: North Africa & The Med 1942-43)"
    )


def test_a_nation_without_a_printed_row_asks_the_umpire_for_one(battle):
    models.Side.objects.filter(campaign_id=battle.campaign_id, name="Axis").update(nations=["Italian"])

    with pytest.raises(DomainError) as refused:
        battle_setup(battle.campaign_id, ACTOR, battle.pk, inputs=OPEN)
    assert refused.value.field == "inputs.n43.air_assets@Axis.row"

    row = {"n43.air_assets@Axis": {"row": "German: North Africa & Med 1941-42"}}
    battle_setup(battle.campaign_id, ACTOR, battle.pk, inputs={**OPEN, **row})
    battle.refresh_from_db()
    assert battle.setup["n43.air_assets@Axis"]["row"] == "German: North Africa & Med 1941-42"


def test_the_proximity_die_starts_the_lull_checks_and_each_check_is_recorded(battle):
    with pytest.raises(ConflictError, match="not set up"):
        battle_lull_check(battle.campaign_id, ACTOR, battle.pk, turn=1)
    battle_setup(battle.campaign_id, ACTOR, battle.pk, inputs=OPEN)
    battle.refresh_from_db()
    start = battle.setup["n43.setup_proximity"]["outcome"]["lull_checks_from_turn"]
    assert battle.lull_checks_from_turn == start

    for turn in range(1, 11):
        battle_lull_check(battle.campaign_id, ACTOR, battle.pk, turn=turn)

    battle.refresh_from_db()
    assert [lull["turn"] for lull in battle.lulls] == list(range(1, 11))
    checks = battle.rolls.filter(procedure="n43.lull_check").order_by("pk")
    assert checks.count() == 10
    for lull, check in zip(battle.lulls, checks, strict=True):
        thrown = check.result["rolls"]
        if lull["turn"] < start:
            assert thrown == []  # no die before the checks start
            assert lull["length"] is None
        else:
            face = thrown[0]["faces"][0]
            expected = None if face != 6 else ("long" if lull["turn"] >= 7 else "short")
            assert lull["length"] == expected
        assert check.changes == {"lull": lull}
    assert (
        models.Event.objects.filter(
            campaign_id=battle.campaign_id, verb=EventVerb.BATTLE_LULL_CHECKED
        ).count()
        == 10
    )

    with pytest.raises(ConflictError, match="Turn 3 already"):
        battle_lull_check(battle.campaign_id, ACTOR, battle.pk, turn=3)


def test_both_sides_of_the_battle_read_the_lull_die(battle):
    battle_setup(battle.campaign_id, ACTOR, battle.pk, inputs=OPEN)
    battle_lull_check(battle.campaign_id, ACTOR, battle.pk, turn=6)
    campaign = battle.campaign
    for side in campaign.sides.all():
        access = CampaignAccess(campaign=campaign, role=MemberRole.PLAYER, side_id=side.pk)
        assert rolls_selector(access).filter(procedure="n43.lull_check").count() == 1
