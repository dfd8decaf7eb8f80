"""What the reader may do with the campaign and its day now: each action is offered exactly when
the service that does it would accept it, because both ask the same refusal function."""

from __future__ import annotations

from collections.abc import Callable

from campaign import models
from campaign.access import CampaignAccess
from campaign.services.activation import activation_spend_refusal
from campaign.services.battles import battle_create_refusal
from campaign.services.campaigns import campaign_start_refusal
from campaign.services.days import dawn_refusal, segment_advance_refusal
from campaign.services.errors import ConflictError
from campaign.services.night import night_phase_refusal
from campaign.services.night_orders import night_order_refusal

Refusal = Callable[[models.Campaign], ConflictError | None]

# Each umpire's action with the refusal its service raises (campaign_start, day_dawn,
# segment_advance, activation_spend, battle_create, night_order_queue, night_phase_start).
UMPIRE_ACTIONS: dict[str, Refusal] = {
    "start": campaign_start_refusal,
    "dawn": dawn_refusal,
    "open_next_segment": segment_advance_refusal,
    "spend_activation_points": activation_spend_refusal,
    "create_battle": battle_create_refusal,
    "queue_night_order": night_order_refusal,
    "run_night": night_phase_refusal,
}


def campaign_actions(access: CampaignAccess) -> list[str]:
    """The campaign-wide writes ``access`` may make now, in the order of CAMPAIGN_ACTION_CHOICES:
    the umpire's that their services accept in the campaign's state; none for players, observers
    and API keys below umpire (those writes are the umpires')."""
    if not access.is_umpire:
        return []
    return [action for action, refusal in UMPIRE_ACTIONS.items() if refusal(access.campaign) is None]
