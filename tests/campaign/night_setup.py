"""A campaign at the end of day 1, with losses for the night phase to repair."""

from __future__ import annotations

from campaign import models
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.dice import dice_commitment_fields
from tests.campaign.factories import campaign_with_sides

ACTOR = Actor(request_id="night-test")


def campaign_after_day_one(
    battalions_per_side: int = 3, stands: int = 4, seed: str = "night"
) -> models.Campaign:
    """Day 1 fought: every battalion lost stands; A2 was wiped out; L1 ends isolated and A3 is suppressed."""
    campaign = campaign_with_sides(battalions_per_side=battalions_per_side, stands_per_battalion=stands)
    models.Campaign.objects.filter(pk=campaign.pk).update(**dice_commitment_fields(seed))
    for side in campaign.sides.all():  # natural keys, like the battalion codes, so two campaigns match
        side.forces.update(name=f"{side.name} division")
    models.Side.objects.filter(campaign=campaign).update(barrage_rounds_per_day=5, activation_points=8)
    day_dawn(campaign.pk, ACTOR)
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    codes = list(campaign.battalions.order_by("code").values_list("code", flat=True))
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=codes,
    )
    entries = []
    for code in codes:
        entry: dict[str, object] = {"code": code, "destroyed": ["2", "3"]}
        if code == "A2":
            entry["destroyed"] = [str(n) for n in range(1, stands + 1)]
        if code == "A3":
            entry = {"code": code, "destroyed": ["2"], "suppressed": ["3"]}
        if code == "L1":
            entry["supply_situation"] = "isolated"
        entries.append(entry)
    battle_report(battle.campaign_id, ACTOR, battle.pk, {"battalions": entries})
    campaign.refresh_from_db()
    return campaign


def state_of(campaign: models.Campaign) -> dict[str, object]:
    """What the night phase changes, by natural keys, for comparing two runs."""
    return {
        "stands": sorted(
            models.Stand.objects.filter(campaign=campaign).values_list(
                "battalion__code", "label", "status", "grade"
            )
        ),
        "battalions": sorted(
            campaign.battalions.values_list("code", "activation", "in_reserve", "wiped_out_day")
        ),
        "sides": sorted(campaign.sides.values_list("name", "activation_points", "barrage_rounds")),
        "faces": sorted(
            (r.stream, r.procedure, str(r.result["rolls"]), r.line)
            for r in campaign.rolls.filter(day__number=1)
        ),
        "reports": sorted(
            (r.side.name, str(r.body)) for r in models.NightReport.objects.filter(day__campaign=campaign)
        ),
    }
