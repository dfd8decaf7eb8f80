"""Victory: the scenario's conditions checked at each night; once one is met the campaign ends with
its result and becomes read-only (rules notes MS-06).

The conditions are the pack's (``Campaign.victory``; docs/scenario-format.md): checked in order at
the night of day d, a condition is met when d is at most its ``by_day`` (none: any day), its side
holds every sector it lists, and the victory points of the sectors the side holds reach its
``victory_points`` (none: no threshold). Failing all, the night of the ``end`` day finishes the
campaign with the end's side (none: drawn).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign import models
from campaign.choices import CampaignStatus, EventVerb
from campaign.selectors import victory_standing
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock_save


@dataclass(frozen=True)
class Result:
    winner_id: int | None  # None: drawn
    text: str


def victory_planned(campaign: models.Campaign) -> bool:
    victory: Mapping[str, Any] = campaign.victory or {}
    return bool(victory.get("conditions") or victory.get("end"))


def victory_check(campaign: models.Campaign, day_number: int) -> Result | None:
    """The result the scenario gives at the night of ``day_number``, or None while the campaign
    goes on: the first condition met (:func:`campaign.selectors.victory_standing`, two queries),
    else the end's on its day."""
    standing = victory_standing(campaign, day_number)
    for condition in standing.conditions:
        if condition.met:
            return Result(condition.side_id, condition.result)
    end = standing.end
    if end and day_number >= end["day"]:
        winner = end.get("side")
        sides = {side.name: side.side_id for side in standing.sides}
        return Result(sides[winner] if winner else None, end.get("result") or f"{winner or 'Nobody'} wins")
    return None


def victory_night(operation: models.Operation, actor: Actor) -> dict[str, Any]:
    """The night's victory step, its last: when the scenario's result is reached, the campaign
    finishes (status, winner, result, day), every side's report says how, and the public
    ``campaign.finished`` event goes to the webhooks. From then on every write is refused
    (:func:`campaign.services.campaigns.campaign_lock`)."""
    day = operation.day
    result = victory_check(operation.campaign, day.number)
    if result is None:
        return {}
    campaign = campaign_lock_save(
        operation.campaign_id,
        status=CampaignStatus.FINISHED,
        result=result.text,
        winner=result.winner_id,
        finished_day=day.number,
    )
    sides = dict(campaign.sides.values_list("pk", "name"))
    heading = f"{sides[result.winner_id]} victory" if result.winner_id is not None else "Drawn"
    event_record(
        campaign,
        EventVerb.CAMPAIGN_FINISHED,
        campaign,
        f"{campaign.name} finished on day {day.number}. {heading}: {result.text}",
        actor,
        before={"status": CampaignStatus.ACTIVE},
        after={
            "status": CampaignStatus.FINISHED,
            "winner": sides.get(result.winner_id) if result.winner_id is not None else None,
            "result": result.text,
            "day": day.number,
        },
    )
    return {"sides": {str(pk): {"campaign_result": f"{heading}: {result.text}"} for pk in sides}}
