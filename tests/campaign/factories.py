"""factory_boy factories for the campaign models, and a whole-campaign builder."""

from __future__ import annotations

import datetime
from typing import Any

import factory
from django.contrib.auth import get_user_model

from campaign import models
from campaign.choices import CampaignStatus, MemberRole, StandType
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.dice import dice_commitment_fields


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("password")


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    slug = factory.Sequence(lambda n: f"campaign-{n}")
    profile = "club"
    theatre = "Mediterranean"
    year = 1942
    season = "summer"
    start_date = datetime.date(1942, 7, 10)
    rng_seed = factory.Sequence(lambda n: f"seed-{n}")
    dice_commitment = factory.LazyAttribute(lambda c: dice_commitment_fields(c.rng_seed)["dice_commitment"])


class SideFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Side

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Side {n}")
    nations = factory.LazyFunction(lambda: ["German"])
    activation_points = 8
    barrage_rounds = 10


class ForceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Force

    side = factory.SubFactory(SideFactory)
    campaign = factory.SelfAttribute("side.campaign")
    name = factory.Sequence(lambda n: f"Division {n}")
    nation = "German"
    leader_rating = "C"


class BattlegroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Battlegroup

    force = factory.SubFactory(ForceFactory)
    name = factory.Sequence(lambda n: f"Regiment {n}")


class BattalionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Battalion

    battlegroup = factory.SubFactory(BattlegroupFactory)
    campaign = factory.SelfAttribute("battlegroup.force.campaign")
    side = factory.SelfAttribute("battlegroup.force.side")
    code = factory.Sequence(lambda n: f"B{n}")
    quality = "Average"
    stands_started = 4


class StandFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = models.Stand

    battalion = factory.SubFactory(BattalionFactory)
    campaign = factory.SelfAttribute("battalion.campaign")
    label = factory.Sequence(lambda n: f"S{n}")
    stand_type = StandType.INFANTRY


def campaign_with_sides(battalions_per_side: int = 1, stands_per_battalion: int = 4) -> models.Campaign:
    """An active club-profile campaign: Axis and Allied sides, one force each,
    ``battalions_per_side`` battalions of ``stands_per_battalion`` stands, bulk-created."""
    campaign = CampaignFactory(status=CampaignStatus.ACTIVE)
    for prefix, name, nation, axis in (("A", "Axis", "German", True), ("L", "Allied", "British", False)):
        side = SideFactory(campaign=campaign, name=name, nations=[nation], is_axis=axis)
        group = BattlegroupFactory(force=ForceFactory(side=side, campaign=campaign, nation=nation))
        battalions = models.Battalion.objects.bulk_create(
            models.Battalion(
                battlegroup=group,
                campaign=campaign,
                side=side,
                code=f"{prefix}{i + 1}",
                quality="Average",
                stands_started=stands_per_battalion,
            )
            for i in range(battalions_per_side)
        )
        models.Stand.objects.bulk_create(
            models.Stand(
                battalion=b,
                campaign=campaign,
                label=f"{j + 1}",
                stand_type=StandType.HQ if j == 0 else StandType.INFANTRY,
            )
            for b in battalions
            for j in range(stands_per_battalion)
        )
    umpire = UserFactory(username=f"umpire-{campaign.slug}")
    models.Membership.objects.create(user=umpire, campaign=campaign, role=MemberRole.UMPIRE)
    return campaign


def malta_pack_without_supply_drop_zones() -> dict[str, Any]:
    """The Malta pack with its drop zones supplying nobody: the paratroops are cut off until a
    beach or a port is theirs (a club that plays without supply by air)."""
    pack = pack_read(MALTA_PACK_PATH)
    for sector in pack["map"]["sectors"]:
        if sector["kind"] == "drop_zone":
            sector["supply_source_for"] = []
    return pack
