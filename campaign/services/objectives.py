"""Objectives: activation points awarded at once for taking a sector in battle (rules notes MS-05).

What a kind of sector is worth is the scenario's, as data (``Campaign.objective_awards``, from the
pack, each award with its source reference): Malta's is 2 activation points per port.
"""

from __future__ import annotations

from collections import Counter

from campaign import models
from campaign.choices import EventVerb
from campaign.services.activation import activation_pool_of
from campaign.services.audit import Actor, event_record


def _taking_division(battle: models.Battle, side_id: int) -> models.Force | None:
    """The division whose battalions took the sector: the side's most numerous in the battle
    (the first by code on a tie); None when none of the side's battalions fought it."""
    forces = Counter(
        battle.battalions.filter(side_id=side_id)
        .order_by("code")
        .values_list("battlegroup__force_id", flat=True)
    )
    if not forces:
        return None
    return models.Force.objects.get(pk=forces.most_common(1)[0][0])


def objective_award(
    campaign: models.Campaign,
    actor: Actor,
    sector: models.Sector,
    side_id: int,
    battle: models.Battle,
    turn: int,
) -> int:
    """Award ``side_id`` the points ``sector``'s kind is worth for taking it in ``battle`` at
    ``turn``, inside the caller's transaction (which holds the campaign lock): the pool that pays
    at that turn grows at once, up to the side's cap — the side's, or with division pools the
    taking division's (MS-05) — and the side's timeline says why. The points awarded (0: the
    kind is worth none)."""
    awards = [a for a in campaign.objective_awards if a.get("kind") == sector.kind]
    if not awards:
        return 0
    points = sum(int(award["activation_points"]) for award in awards)
    side = models.Side.objects.select_for_update().get(campaign=campaign, pk=side_id)
    pool = activation_pool_of(campaign, side, _taking_division(battle, side_id), battle.day.number, turn)
    if isinstance(pool, models.Force):
        pool = models.Force.objects.select_for_update().get(pk=pool.pk)
    before = pool.activation_points
    pool.activation_points = min(before + points, side.activation_cap)
    pool.save(update_fields=["activation_points"])
    rules = "; ".join(str(award["rule"]) for award in awards)
    event_record(
        campaign,
        EventVerb.OBJECTIVE_AWARDED,
        side,
        f"{side.name} took {sector.name} ({sector.get_kind_display().lower()}) in battle: "
        f"{points} activation points awarded ({rules}), {pool.name}'s pool {before} → "
        f"{pool.activation_points}",
        actor,
        before={"activation_points": before},
        after={
            "activation_points": pool.activation_points,
            "pool": pool.name,
            "awarded": points,
            "sector": sector.key,
            "battle": str(battle.public_id),
            "rule": rules,
        },
    )
    return points
