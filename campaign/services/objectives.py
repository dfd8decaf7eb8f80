"""Objectives: activation points awarded at once for taking a sector in battle (rules notes MS-05).

What a kind of sector is worth is the scenario's, as data (``Campaign.objective_awards``, from the
pack, each award with its source reference): Malta's is 2 activation points per port.
"""

from __future__ import annotations

from campaign import models
from campaign.choices import EventVerb
from campaign.services.audit import Actor, event_record


def objective_award(
    campaign: models.Campaign, actor: Actor, sector: models.Sector, side_id: int, battle: models.Battle
) -> int:
    """Award ``side_id`` the points ``sector``'s kind is worth for taking it in ``battle``, inside
    the caller's transaction (which holds the campaign lock): the side's pool grows at once, up to
    its cap, and the side's timeline says why. The points awarded (0: the kind is worth none)."""
    awards = [a for a in campaign.objective_awards if a.get("kind") == sector.kind]
    if not awards:
        return 0
    points = sum(int(award["activation_points"]) for award in awards)
    side = models.Side.objects.select_for_update().get(campaign=campaign, pk=side_id)
    before = side.activation_points
    side.activation_points = min(before + points, side.activation_cap)
    side.save(update_fields=["activation_points"])
    rules = "; ".join(str(award["rule"]) for award in awards)
    event_record(
        campaign,
        EventVerb.OBJECTIVE_AWARDED,
        side,
        f"{side.name} took {sector.name} ({sector.get_kind_display().lower()}) in battle: "
        f"{points} activation points awarded ({rules}), pool {before} → {side.activation_points}",
        actor,
        before={"activation_points": before},
        after={
            "activation_points": side.activation_points,
            "awarded": points,
            "sector": sector.key,
            "battle": battle.pk,
            "rule": rules,
        },
    )
    return points
