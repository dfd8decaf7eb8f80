"""A battle's dice are named by its place in its campaign, not its row number (issue 28 point
7): the same campaign rolls the same set-up and lull dice whatever other campaigns the
database holds, and rolls recorded under the old names still replay."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create, battle_lull_check
from campaign.services.days import day_dawn
from campaign.services.dice import dice_commitment_fields
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-battle-streams")
SEED = "battle-streams"
OPEN = {"n43.setup_proximity": {"terrain": "Open Terrain"}}


def _battle(campaign: models.Campaign, sector: str) -> models.Battle:
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name=sector,
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )


def _fought_campaign() -> list[tuple[str, str, object]]:
    """A campaign of one seed fighting two battles: the procedure, stream and result of each
    of their rolls, in the order rolled."""
    campaign = campaign_with_sides()
    models.Campaign.objects.filter(pk=campaign.pk).update(**dice_commitment_fields(SEED))
    day_dawn(campaign.pk, ACTOR)
    for sector in ("Hal Far", "Mdina"):
        battle = _battle(campaign, sector)
        battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN)
        battle.refresh_from_db()
        battle_lull_check(campaign.pk, ACTOR, battle.pk, turn=battle.lull_checks_from_turn or 1)
    return list(
        campaign.rolls.filter(battle__isnull=False)
        .order_by("pk")
        .values_list("procedure", "stream", "result")
    )


def test_two_campaigns_of_one_seed_roll_the_same_battle_dice_whatever_else_the_database_holds():
    first = _fought_campaign()
    elsewhere = campaign_with_sides()  # battles of another campaign take the numbers in between
    day_dawn(elsewhere.pk, ACTOR)
    for sector in ("Luqa", "Zurrieq", "Rabat"):
        _battle(elsewhere, sector)

    second = _fought_campaign()

    assert first, "the battles rolled their set-up"
    assert {stream for _, stream, _ in first if "battle/2/" in stream}, "named by its place, not its row"
    assert second == first
