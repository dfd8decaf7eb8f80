"""A side's settings the umpire changes during the campaign: its fog of war."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from campaign import models
from campaign.access import Fog
from campaign.choices import EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import DomainError


@transaction.atomic
def side_fog_set(
    campaign_id: int,
    actor: Actor,
    side_id: int,
    *,
    identified_units: Sequence[str],
    strengths: bool,
    battle_results: bool,
) -> models.Side:
    """What ``side`` lets its enemies see (:class:`campaign.access.Fog`): the codes of its
    battalions they have identified, and whether they see those battalions' strengths and
    battle results. The whole setting is replaced, so the umpire's picker sends all of it."""
    campaign = campaign_lock(campaign_id)
    side = models.Side.objects.select_for_update().filter(campaign=campaign, pk=side_id).first()
    if side is None:
        raise DomainError(f"side {side_id} is not in this campaign", field="side")
    codes = list(identified_units)
    own = set(side.battalions.filter(code__in=codes).values_list("code", flat=True))
    for index, code in enumerate(codes):
        if code not in own:
            raise DomainError(
                f"battalion {code} is not a battalion of {side.name}", field=f"identified_units[{index}]"
            )
        if codes.index(code) != index:
            raise DomainError(f"battalion {code} is named twice", field=f"identified_units[{index}]")
    before = Fog.of(side)
    identified = sorted(codes)
    settings = {"identified_units": identified, "strengths": strengths, "battle_results": battle_results}
    # The map's contact rule (rules notes C-17) is set in the pack: the picker leaves it as it is.
    kept = {key: side.fog_of_war[key] for key in ("in_contact",) if key in side.fog_of_war}
    side.fog_of_war = {**settings, **kept}
    side.save(update_fields=["fog_of_war"])
    campaign_save(campaign)
    revealed = [what for what, on in (("strengths", strengths), ("battle results", battle_results)) if on]
    event_record(
        campaign,
        EventVerb.FOG_OF_WAR_SET,
        side,
        f"{side.name}'s units identified by the enemy: {', '.join(identified) or 'none'}; "
        + (
            f"revealing {' and '.join(revealed)}"
            if revealed
            else "revealing neither strengths nor battle results"
        ),
        actor,
        before={
            "identified_units": sorted(before.identified_units),
            "strengths": before.strengths,
            "battle_results": before.battle_results,
        },
        after=settings,
    )
    return side
