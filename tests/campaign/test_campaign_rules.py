"""The campaign applies the rules it says it applies (issue 13, points 2-4): activation spends
follow the activation chart's pool procedure, battle set-up counts what the 1943 page counts,
and an optional rule no service applies cannot be switched on."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign import models
from campaign.choices import EventVerb, StandStatus, StandType
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.activation import POOL_RULE, activation_spend
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.corrections import object_correct
from campaign.services.days import day_dawn
from campaign.services.errors import DomainError
from campaign.services.rules import APPLIED_OPTIONAL_RULES
from campaign.services.scenario import scenario_import
from rules_engine import catalog
from rules_engine.nineteen43.artillery import FIELD_STRENGTH_CLASSES
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="campaign-rules-test")
REPEAT_SETTING = "gb.activation_pool.allow_repeated_column"


@pytest.fixture
def campaign() -> models.Campaign:
    return campaign_with_sides(battalions_per_side=3)


def _axis(campaign: models.Campaign) -> models.Side:
    return campaign.sides.get(name="Axis")


def _spend(campaign: models.Campaign, column: str, turn: int, codes: list[str]) -> models.ActivationSpend:
    return activation_spend(
        campaign.pk, ACTOR, side_id=_axis(campaign).pk, column=column, turn=turn, battalion_codes=codes
    )


# Point 2: activation spends follow the activation chart (gb.activation_pool) --------------------


def test_the_same_column_twice_in_one_turn_is_refused_naming_the_turn(campaign):
    day_dawn(campaign.pk, ACTOR)
    _spend(campaign, "1 Bn", 2, ["A1"])

    with pytest.raises(DomainError) as refused:
        _spend(campaign, "1 Bn", 2, ["A2"])

    assert (refused.value.field, refused.value.code, refused.value.status) == (
        "turn",
        "turn_already_chosen",
        400,
    )
    assert "only 1 choice per turn" in refused.value.message
    assert refused.value.rule == POOL_RULE
    assert _axis(campaign).activation_points == 6  # 8 less one 1 Bn during the day, once
    assert models.ActivationSpend.objects.filter(side__campaign=campaign).count() == 1
    assert campaign.battalions.get(code="A2").activation == "inactive"


def test_the_club_setting_allows_the_same_column_again_but_never_another_column(campaign):
    models.Campaign.objects.filter(pk=campaign.pk).update(rule_settings={REPEAT_SETTING: True})
    day_dawn(campaign.pk, ACTOR)
    _spend(campaign, "1 Bn", 2, ["A1"])

    _spend(campaign, "1 Bn", 2, ["A2"])
    with pytest.raises(DomainError, match="only 1 column may be chosen per turn") as mixed:
        _spend(campaign, "1 Bg", 2, ["A3"])

    assert mixed.value.field == "turn"
    assert _axis(campaign).activation_points == 4
    assert list(_axis(campaign).battalions.order_by("code").values_list("activation", flat=True)) == [
        "activated",
        "activated",
        "inactive",
    ]


def test_the_day_is_booked_against_the_points_held_before_it(campaign):
    day_dawn(campaign.pk, ACTOR)
    _spend(campaign, "1 Bg", 0, ["A1", "A2"])  # 2 at dawn
    _spend(campaign, "1 Bg", 1, ["A1", "A2"])  # 4 during the day

    with pytest.raises(DomainError, match="below zero") as overspent:
        _spend(campaign, "1 Bg", 2, ["A3"])  # 4 more, only 2 left

    assert (overspent.value.field, overspent.value.code) == ("column", "pool_overspent")
    assert "only 2 of" in overspent.value.message
    _spend(campaign, "1 Bn", 2, ["A3"])
    assert _axis(campaign).activation_points == 0  # the pool may reach exactly 0 (GB-A-05)


def test_a_setting_the_pool_cannot_read_is_refused_when_it_is_stored(campaign):
    with pytest.raises(DomainError) as refused:
        object_correct(campaign, ACTOR, changes={"rule_settings": ({}, {REPEAT_SETTING: "sometimes"})})

    assert refused.value.field == f"rule_settings.{REPEAT_SETTING}"
    assert "'sometimes' is not true or false" in refused.value.message
    campaign.refresh_from_db()
    assert campaign.rule_settings == {}


# Point 3: set-up counts infantry and tank units only (N43-24) -----------------------------------


def _battle_with_mixed_stands(campaign: models.Campaign) -> models.Battle:
    """A1 (Axis) and L1 (Allied) each hold, besides their HQ and 3 infantry, one of each other
    kind of stand; one infantry stand of A1 is destroyed."""
    for code in ("A1", "L1"):
        battalion = campaign.battalions.get(code=code)
        models.Stand.objects.bulk_create(
            models.Stand(battalion=battalion, campaign=campaign, label=f"x{i}", stand_type=kind)
            for i, kind in enumerate(
                (
                    StandType.SMG,
                    StandType.ENGINEER,
                    StandType.RECCE,
                    StandType.ARMOUR,
                    StandType.AT_GUN,
                    StandType.FIELD_GUN,
                    StandType.HEAVY_WEAPONS,
                    StandType.TRANSPORT,
                )
            )
        )
    campaign.stands.filter(battalion__code="A1", label="2").update(status=StandStatus.DESTROYED)
    day_dawn(campaign.pk, ACTOR)
    axis, allied = _axis(campaign), campaign.sides.get(name="Allied")
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )


def _fire_units(battle: models.Battle) -> set[int]:
    return {
        record.inputs["total_units"]
        for record in battle.rolls.filter(procedure__in=["n43.planned_fire", "n43.support_fire"])
    }


def test_planned_and_support_fire_count_only_infantry_and_tank_units(campaign):
    battle = _battle_with_mixed_stands(campaign)

    battle_setup(
        battle.campaign_id, ACTOR, battle.pk, inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )

    battle.refresh_from_db()
    # Per battalion: 3 infantry (A1: 2 left), SMG, engineer, recce, armour; not the HQ,
    # AT gun, field gun, heavy weapons or transport.
    assert _fire_units(battle) == {13}
    assert battle.setup["n43.field_strength"]["units"] == 13
    assert battle.setup["n43.field_strength"]["stands"] == 23
    assert battle.rolls.filter(procedure="n43.field_strength").count() == 0  # a count, not a roll


def test_a_club_may_leave_recce_out_of_the_count(campaign):
    models.Campaign.objects.filter(pk=campaign.pk).update(
        rule_settings={"n43.field_strength.recce_counts": False}
    )
    battle = _battle_with_mixed_stands(campaign)

    battle_setup(
        battle.campaign_id, ACTOR, battle.pk, inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )

    battle.refresh_from_db()
    assert _fire_units(battle) == {11}


def test_every_kind_of_stand_has_a_field_strength_class():
    assert set(FIELD_STRENGTH_CLASSES) == set(StandType.values)


# Point 4: an optional rule no service applies cannot be switched on -----------------------------


@pytest.mark.parametrize("key", ["gb.variant.activation_delay", "gb.bad_going_suppression"])
@pytest.mark.usefixtures("equipment_reference")
def test_a_pack_switching_on_a_rule_no_service_applies_is_refused_naming_it(key):
    pack: dict[str, Any] = pack_read(MALTA_PACK_PATH)
    pack["campaign"]["optional_rules"] = ["gb.activation_carry_over", key]

    with pytest.raises(DomainError) as refused:
        scenario_import(pack, ACTOR)

    title = catalog.get_procedure(key).title
    assert refused.value.field == "campaign.optional_rules[1]"
    assert f"{title} ({key}) is not applied by the campaign service yet" in refused.value.message
    assert not models.Campaign.objects.exists()


def test_a_correction_cannot_switch_on_a_rule_no_service_applies(campaign):
    changes = {"optional_rules": ([], ["gb.reactivation", "gb.variant.activation_delay"])}
    with pytest.raises(DomainError) as refused:
        object_correct(campaign, ACTOR, changes=changes)

    assert (refused.value.field, refused.value.code) == ("optional_rules[1]", "rule_not_applied")
    title = catalog.get_procedure("gb.variant.activation_delay").title
    assert f"{title} (gb.variant.activation_delay) is not applied" in refused.value.message
    campaign.refresh_from_db()
    assert campaign.optional_rules == []


def test_the_admin_refuses_a_campaign_with_a_rule_no_service_applies(admin_client: Client):
    data = {
        "name": "Kursk",
        "slug": "kursk",
        "description": "",
        "profile": "great-battles",
        "optional_rules": '["gb.variant.activation_delay"]',
        "rule_settings": "{}",
        "theatre": "East",
        "year": "1943",
        "season": "summer",
        "start_date": "1943-07-05",
        "rng_seed": "kursk-seed",
    }
    for prefix in ("sides", "club_nights", "memberships"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}

    response = admin_client.post(reverse("admin:campaign_campaign_add"), data)

    assert response.status_code == 200
    title = catalog.get_procedure("gb.variant.activation_delay").title
    assert f"{title} (gb.variant.activation_delay) is not applied" in response.content.decode()
    assert not models.Campaign.objects.filter(slug="kursk").exists()


def test_the_applied_rules_are_optional_rules_of_the_catalogue():
    assert all(catalog.get_procedure(key).optional for key in APPLIED_OPTIONAL_RULES)
    assert set(pack_read(MALTA_PACK_PATH)["campaign"]["optional_rules"]) <= APPLIED_OPTIONAL_RULES


def test_the_dawn_turn_is_named_in_words_in_the_timeline_and_refusals(campaign):
    day_dawn(campaign.pk, ACTOR)
    spend = _spend(campaign, "1 Bn", 0, ["A1"])

    with pytest.raises(DomainError) as refused:
        _spend(campaign, "1 Bn", 0, ["A2"])

    message = campaign.events.get(verb=EventVerb.ACTIVATION_SPENT).message
    assert "at the dawn turn" in message
    assert "already chose for the dawn turn" in refused.value.message
    assert ", the dawn turn: " in str(spend)
    assert "turn D" not in message + refused.value.message + str(spend)
