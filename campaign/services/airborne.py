"""Airborne drops at dawn: approach, drift and landing for each stand (004 § Drop Zone, 6.1-6.3).

A force whose pack plans a drop for a day lands at that day's dawn, before the first
segment (dawn step 5 of the charts). Every stand rolls in the charts' order; a stand
destroyed on the approach rolls nothing more. The effects are applied to the stands;
the drift is recorded for the umpire to place the stand (the campaign keeps no inches).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from campaign import models
from campaign.access import Owner
from campaign.choices import EventVerb, StandStatus, StandType
from campaign.scenarios.format import stand_keys
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.rules import optional_rule_on, procedure_run
from rules_engine.great_battles.airborne import AirborneSupply, DamageEffect, LandingTerrain
from rules_engine.nineteen43.common import ProximityTerrain

DRIFT_VARIANT = "gb.airborne.drift_variant"
AIRBORNE_SUPPLY = "gb.airborne.supply"
# GB-B-38: a sector's set-up terrain read as the landing chart's two columns.
LANDING_TERRAIN = {
    ProximityTerrain.CONSTRICTED.value: LandingTerrain.ROUGH,
    ProximityTerrain.OPEN.value: LandingTerrain.CLEAR,
    ProximityTerrain.WIDE_OPEN.value: LandingTerrain.CLEAR,
}
SEVERITY = {DamageEffect.NO_EFFECT: 0, DamageEffect.SUPPRESSED: 1, DamageEffect.DESTROYED: 2}
STATUS_OF = {
    DamageEffect.NO_EFFECT: None,
    DamageEffect.SUPPRESSED: StandStatus.SUPPRESSED,
    DamageEffect.DESTROYED: StandStatus.DESTROYED,
}


def _landing_terrain(drop: models.AirborneDrop) -> LandingTerrain:
    terrain = drop.drop_zone.terrain if drop.drop_zone else ""
    return LANDING_TERRAIN.get(terrain, LandingTerrain.ROUGH)


def _enemy_at_drop_zone(drop: models.AirborneDrop) -> bool:
    """GB-B-38: an enemy battalion on the drop zone's sector lands the drop within 6" of it."""
    if drop.drop_zone_id is None:
        return False
    return (
        models.Battalion.objects.filter(sector_id=drop.drop_zone_id, in_reserve=False)
        .exclude(side_id=drop.force.side_id)
        .exists()
    )


def _land(
    campaign: models.Campaign, day: models.CampaignDay, drop: models.AirborneDrop, actor: Actor
) -> dict[str, int]:
    force = drop.force
    near_enemy = _enemy_at_drop_zone(drop)
    terrain = _landing_terrain(drop)
    plan: dict[str, Any] = {"height": drop.height, "delivery": drop.delivery}
    stands = list(
        models.Stand.objects.filter(battalion__battlegroup__force=force)
        .exclude(status=StandStatus.DESTROYED)
        .select_related("battalion")
        .order_by("battalion__code", "label", "pk")
    )
    drift_variant = optional_rule_on(campaign, DRIFT_VARIANT)
    rolls: list[models.RollRecord] = []
    changed: dict[StandStatus, list[int]] = {StandStatus.SUPPRESSED: [], StandStatus.DESTROYED: []}
    # Streams named by the stands' natural keys, so the landing rolls the same wherever the
    # campaign is loaded (database ids differ between an import and its export).
    by_battalion: dict[str, list[models.Stand]] = {}
    for stand in stands:
        by_battalion.setdefault(stand.battalion.code, []).append(stand)
    keys = {
        stand.pk: key
        for code, own in by_battalion.items()
        for key, stand in zip(stand_keys(code, [s.label for s in own]), own, strict=True)
    }
    for stand in stands:
        name = keys[stand.pk]
        # The log joins a stream's labels with "/": a label holds none.
        stream = ("day", day.number, "airborne", name.replace("/", " "))
        context = RollContext(
            day=day, force=force, battalion=stand.battalion, owner=Owner.side(force.side_id)
        )
        runs = []
        approach = procedure_run(
            campaign,
            "gb.airborne.approach",
            {**plan, "anti_aircraft": drop.anti_aircraft, "stand": name},
            (*stream, "approach"),
            context=context,
        )
        worst = DamageEffect.NO_EFFECT
        if approach.outcome is not None:  # no AA over the drop: nothing to roll (GB-B-20)
            runs.append(approach)
            worst = approach.outcome.outcome
        if worst is not DamageEffect.DESTROYED:
            runs.append(
                # Bill Owen's d8/d6 drift when the campaign plays it (GB-B-39), else the charts'.
                procedure_run(
                    campaign,
                    DRIFT_VARIANT,
                    {**plan, "heavy_weapons": stand.stand_type == StandType.HEAVY_WEAPONS, "stand": name},
                    (*stream, "drift"),
                    context=context,
                )
                if drift_variant
                else procedure_run(
                    campaign,
                    "gb.airborne.drift",
                    {**plan, "theatre": drop.drift_theatre, "stand": name},
                    (*stream, "drift"),
                    context=context,
                )
            )
            landing = procedure_run(
                campaign,
                "gb.airborne.landing",
                {
                    "time": drop.time,
                    "delivery": drop.delivery,
                    "terrain": terrain,
                    "within_6_inches_of_enemy": near_enemy,
                    "stand": name,
                },
                (*stream, "landing"),
                context=context,
            )
            runs.append(landing)
            worst = max(worst, landing.outcome.outcome, key=SEVERITY.__getitem__)
        status = STATUS_OF[worst]
        if status is not None:
            changed[status].append(stand.pk)
        effect = {"stand": name, "status": status or stand.status}
        for run in runs:
            rolls += run.records(campaign, actor, context, effect)
    for status, stand_ids in changed.items():
        models.Stand.objects.filter(pk__in=stand_ids).update(status=status)
    models.RollRecord.objects.bulk_create(rolls)
    drop.dropped = True
    drop.save(update_fields=["dropped"])
    counts = {
        "stands": len(stands),
        "destroyed": len(changed[StandStatus.DESTROYED]),
        "suppressed": len(changed[StandStatus.SUPPRESSED]),
    }
    zone = drop.drop_zone.name if drop.drop_zone else "its drop zone"
    event_record(
        campaign,
        EventVerb.AIRBORNE_LANDED,
        force,
        f"{force.name} lands on {zone}: {counts['destroyed']} stands destroyed, "
        f"{counts['suppressed']} suppressed of {counts['stands']}",
        actor,
        after={"drop_zone": zone, **counts},
    )
    return counts


def airborne_drops_land(campaign: models.Campaign, day: models.CampaignDay, actor: Actor) -> int:
    """Land every drop planned for ``day`` (inside the dawn's transaction); how many landed."""
    drops = list(
        models.AirborneDrop.objects.filter(force__campaign=campaign, day=day.number, dropped=False)
        .select_related("force", "drop_zone")
        .order_by("force__name")
    )
    for drop in drops:
        _land(campaign, day, drop, actor)
    return len(drops)


def airborne_spared_extra_loss(campaign: models.Campaign, isolated: Iterable[int]) -> frozenset[int]:
    """Of the ``isolated`` battalions, those of a force that dropped whose airborne supply reading
    (``gb.airborne.supply``, Airborne Supply item 2: GB-B-37) spares them the isolated row's extra
    stand lost at night. One query, no dice: the night reads it before its rolls."""
    rows = models.Battalion.objects.filter(
        pk__in=list(isolated), battlegroup__force__airborne_drop__dropped=True
    ).values_list("pk", "battlegroup__force__sector_id", "battlegroup__force__fup_sector_id")
    spared = set()
    for pk, *headquarters in rows:
        # Isolated: no line to a supply drop zone, so no road trace to read (MS-03).
        on_table = any(sector is not None for sector in headquarters)  # its C Ops or its FUP
        reading: AirborneSupply = procedure_run(
            campaign, AIRBORNE_SUPPLY, {"c_ops_or_fup_on_table": on_table}, ()
        ).outcome
        if not reading.loses_extra_stand:
            spared.add(pk)
    return frozenset(spared)
