"""The Malta demo brought to the middle of day 1 through the services, as the umpire would."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.days import day_dawn, segment_advance
from campaign.services.demo import demo_campaign_load, demo_users_ensure
from rules_engine.nineteen43.common import BattleType

SECTOR = "Gudja"


def gudja_battle(campaign: models.Campaign, actor: Actor) -> models.Battle:
    """G1 attacks W1 at Gudja: planned, not set up."""
    return battle_create(
        campaign.pk,
        actor,
        sector_name=SECTOR,
        battle_type=BattleType.LOCAL_ATTACK.value,
        attacker_id=campaign.sides.get(is_axis=True).pk,
        defender_id=campaign.sides.get(is_axis=False).pk,
        battalion_codes=["G1", "W1"],
    )


def malta_day_one(battle: bool = True) -> models.Campaign:
    """Started, dawned, one segment on; with ``battle``, G1 attacks W1 at Gudja, set up."""
    demo_users_ensure()
    campaign = demo_campaign_load()
    assert campaign is not None
    umpire = get_user_model().objects.get(username="umpire")
    actor = Actor(user=umpire, request_id="e2e-setup")
    campaign_start(campaign.pk, actor)
    day_dawn(campaign.pk, actor)
    segment_advance(campaign.pk, actor)
    if battle:
        created = gudja_battle(campaign, actor)
        battle_setup(
            created.campaign_id,
            actor,
            created.pk,
            inputs={"n43.setup_proximity": {"terrain": "Constricted Terrain"}},
        )
    campaign.refresh_from_db()
    return campaign
