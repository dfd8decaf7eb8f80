"""The state a club umpire keeps between club nights.

Campaign → sides → forces (divisions) → battlegroups → battalions → stands;
campaign days and their segments; linked battles and their reports; and two
append-only audit trails: roll records (every die that changed state, with the
whole rules-engine result) and events (who did what, before and after).

A module per part of that state; Django finds a model by its app's ``models`` module, and
callers write ``models.<Model>``, so this package imports every model.
"""

from campaign.models.audit import Event, RollRecord
from campaign.models.battles import Battle, BattleDraft
from campaign.models.campaigns import Campaign, ClubNight, Side
from campaign.models.days import (
    ActivationSpend,
    ArtilleryOrder,
    CampaignDay,
    DaySegmentRecord,
    SideDayTally,
    activation_turn_name,
)
from campaign.models.forces import AirborneDrop, Battalion, Battlegroup, Equipment, Force, Stand
from campaign.models.map import MapSnapshot, Sector, SectorLink
from campaign.models.members import (
    NOTIFICATION_KEY_MAX,
    NOTIFICATION_LINK_MAX,
    NOTIFICATION_TITLE_MAX,
    CampaignAPIKey,
    CampaignAPIKeyManager,
    Invitation,
    Membership,
    Notification,
    calendar_token_new,
)
from campaign.models.night import NightOrder, NightReport, NightSnapshot, Operation, SideOrder
from campaign.models.sync import ChangeRecord, SyncCursor
from campaign.models.webhooks import WebhookDelivery, WebhookSubscription

__all__ = [
    "NOTIFICATION_KEY_MAX",
    "NOTIFICATION_LINK_MAX",
    "NOTIFICATION_TITLE_MAX",
    "ActivationSpend",
    "AirborneDrop",
    "ArtilleryOrder",
    "Battalion",
    "Battle",
    "BattleDraft",
    "Battlegroup",
    "Campaign",
    "CampaignAPIKey",
    "CampaignAPIKeyManager",
    "CampaignDay",
    "ChangeRecord",
    "ClubNight",
    "DaySegmentRecord",
    "Equipment",
    "Event",
    "Force",
    "Invitation",
    "MapSnapshot",
    "Membership",
    "NightOrder",
    "NightReport",
    "NightSnapshot",
    "Notification",
    "Operation",
    "RollRecord",
    "Sector",
    "SectorLink",
    "Side",
    "SideDayTally",
    "SideOrder",
    "Stand",
    "SyncCursor",
    "WebhookDelivery",
    "WebhookSubscription",
    "activation_turn_name",
    "calendar_token_new",
]
