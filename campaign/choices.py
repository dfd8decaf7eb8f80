"""Vocabularies of the campaign domain.

Rule vocabularies (nations, weather, supply, leader ratings, segments...) are
the rules engine's enums, offered to Django through :func:`enum_choices`, so
there is one list of each and the two can never drift apart. Every choice has a
label for people (the API serves it next to the code: docs/api.md).
"""

from __future__ import annotations

import enum

from django.db import models

from rules_engine.great_battles.common import Quality
from rules_engine.vocab import DaySegment, SupplySituation, label_of


def enum_choices(enumeration: type[enum.Enum]) -> list[tuple[str, str]]:
    return [(str(member.value), label_of(member)) for member in enumeration]


# The segments a roll can be filed under, the night's included (the roll log's filter).
DAY_SEGMENT_CHOICES = enum_choices(DaySegment)
# A battalion's supply situation; on the map (what the umpire confirms) it is never "reserve".
SUPPLY_SITUATION_CHOICES = enum_choices(SupplySituation)
MAP_SUPPLY_SITUATION_CHOICES = [c for c in SUPPLY_SITUATION_CHOICES if c[0] != SupplySituation.RESERVE.value]
# What the umpire may do with the day's supply proposal (campaign.services.supply.SupplyReview.actions).
SUPPLY_ACTION_CHOICES = [("confirm", "Confirm the supply")]
# What the umpire may do with a force off the table (campaign.services.reinforcements.reinforcement_actions).
REINFORCEMENT_ACTION_CHOICES = [("schedule", "Schedule its arrival"), ("postpone", "Postpone its arrival")]
# What a reader may do with a sealed order now (campaign.services.orders.side_order_actions).
SIDE_ORDER_ACTION_CHOICES = [
    ("edit", "Edit the order"),
    ("submit", "Submit the order"),
    ("withdraw", "Withdraw the order"),
    ("approve", "Approve the order"),
    ("send_back", "Send the order back"),
    ("amend", "Amend the order"),
]
# What a reader may do with a battle now (campaign.services.battles.battle_actions).
BATTLE_ACTION_CHOICES = [
    ("set_up", "Roll its set-up"),
    ("draft", "Draft your side's report"),
    ("report", "Report it"),
]
# What the umpire may do with a webhook delivery now (campaign.services.webhooks.delivery_actions).
DELIVERY_ACTION_CHOICES = [("retry", "Send again"), ("publish", "Publish"), ("discard", "Discard")]
# The qualities the umpire gives a C Ops rolling its action points (variant 1).
COPS_QUALITY_CHOICES = enum_choices(Quality)
# What the umpire may do with the campaign and its day now (campaign.services.campaign_actions), in
# the order a day plays them.
CAMPAIGN_ACTION_CHOICES = [
    ("start", "Start the campaign"),
    ("dawn", "Dawn the next day"),
    ("open_next_segment", "Open the next segment"),
    ("spend_activation_points", "Spend activation points"),
    ("create_battle", "Create a battle"),
    ("queue_night_order", "Queue a night order"),
    ("run_night", "Start the night phase"),
]
# What a reader may do with a day of the timeline now (campaign.services.journal.day_actions).
DAY_ACTION_CHOICES = [("write_journal", "Write the day's journal")]
# What the umpire may do with a division's C Ops now (campaign.services.day_rules.force_rule_actions).
FORCE_ACTION_CHOICES = [
    ("roll_cops_action_points", "Roll the C Ops' action points"),
    ("save_action_points", "Save them as the division's activation points"),
]


class PaperFormat(models.TextChoices):
    """How a printable paper is served: laid out for A4, or as the web page it is laid out from."""

    PDF = "pdf", "PDF, laid out for A4 paper"
    HTML = "html", "Web page, to read on a screen or print from the browser"


class CampaignStatus(models.TextChoices):
    SETUP = "setup", "Setting up"
    ACTIVE = "active", "Active"
    FINISHED = "finished", "Finished"


class MemberRole(models.TextChoices):
    UMPIRE = "umpire", "Umpire"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


class Mobility(models.TextChoices):
    MECHANISED = "mechanised", "Mechanised"
    MOTORISED = "motorised", "Motorised"
    FOOT = "foot", "Foot"


class ArrivalStatus(models.TextChoices):
    ON_TABLE = "on_table", "On table"
    IN_RESERVE = "in_reserve", "In reserve"
    SCHEDULED = "scheduled", "Scheduled"
    ROLLING = "rolling", "Rolling for arrival"
    ARRIVED = "arrived", "Arrived"
    WILL_NOT_ARRIVE = "will_not_arrive", "Will not arrive"


class GroupKind(models.TextChoices):
    REGIMENT = "regiment", "Regiment"
    BRIGADE = "brigade", "Brigade"  # Commonwealth battlegroups


class ActivationState(models.TextChoices):
    INACTIVE = "inactive", "Inactive"
    ACTIVATED = "activated", "Activated"
    GONE_TO_GROUND = "gone_to_ground", "Gone to ground"
    DEACTIVATED = "deactivated", "Deactivated (for the defensive benefit)"


class ArtilleryMode(models.TextChoices):
    PRE_PLANNED = "pre-planned", "Pre-planned"
    REGISTERED = "registered", "Pre-registered"
    ON_CALL = "on-call", "On call"


class FuelState(models.TextChoices):
    NOT_APPLICABLE = "n/a", "Not a vehicle company"
    FULL = "full", "Full"
    LOW = "low", "Low"
    EMPTY = "empty", "Empty"


# What a battle report may say of a vehicle battalion's fuel at the end of the battle.
REPORTED_FUEL_CHOICES = [
    (state.value, state.label) for state in (FuelState.FULL, FuelState.LOW, FuelState.EMPTY)
]


class StandType(models.TextChoices):
    INFANTRY = "infantry", "Infantry"
    SMG = "smg", "SMG"
    ENGINEER = "engineer", "Engineer"
    RECCE = "recce", "Recce"
    ARMOUR = "armour", "Armour"
    AT_GUN = "at_gun", "AT gun"
    FIELD_GUN = "field_gun", "Field gun"
    HEAVY_WEAPONS = "heavy_weapons", "Heavy weapons"
    HQ = "hq", "HQ"
    TRANSPORT = "transport", "Transport"


class StandStatus(models.TextChoices):
    OK = "ok", "OK"
    SUPPRESSED = "suppressed", "Suppressed"
    DESTROYED = "destroyed", "Destroyed"


class AttachmentKind(models.TextChoices):
    """Kinds that count against a battalion's attachment limit (1 HQ + 1 heavy + 2 others)."""

    HQ = "hq", "HQ"
    HEAVY_WEAPONS = "heavy_weapons", "Heavy weapons"
    OTHER = "other", "Other"


class DayStatus(models.TextChoices):
    # Labels read in a sentence: "day 3 is in its night phase".
    DAWN = "dawn", "Dawning"
    DAY = "day", "Under way"
    NIGHT = "night", "In its night phase"
    DONE = "done", "Over"


class MapMoment(models.TextChoices):
    """When the map is kept for its replay (``campaign.models.MapSnapshot``)."""

    DAWN = "dawn", "At dawn"
    NIGHT = "night", "After the night"


class TimelineKind(models.TextChoices):
    """What an entry of the campaign's timeline tells (campaign.selectors.timeline), its filter's choices."""

    DAY = "day", "The day's course"
    BATTLE = "battle", "Battles"
    CONTROL = "control", "Control changes"
    LOSSES = "losses", "Losses and replacements"
    ARRIVAL = "arrival", "Arrivals"
    ORDERS = "orders", "Orders carried out"
    NIGHT = "night", "The night's results"


class BattleStatus(models.TextChoices):
    PLANNED = "planned", "Planned"
    SET_UP = "set_up", "Set up"
    IN_PROGRESS = "in_progress", "In progress"
    REPORTED = "reported", "Reported"
    CLOSED = "closed", "Closed"


class DraftStatus(models.TextChoices):
    FILED = "filed", "Filed, awaiting the umpire"
    CONFIRMED = "confirmed", "Confirmed by the umpire"


class DraftItemStatus(models.TextChoices):
    """How the drafts of a battle report stand on one item (campaign.report_drafts)."""

    AGREED = "agreed", "Both sides agree"
    CONFLICT = "conflict", "The sides disagree"
    ONE_SIDE = "one_side", "Entered by one side only"


class DraftItemKind(models.TextChoices):
    """What an item of a battle report is about."""

    STAND = "stand", "Stand"
    ACTIVATION_POINTS_SPENT = "activation_points_spent", "Activation points spent"
    BARRAGE_ROUNDS_SPENT = "barrage_rounds_spent", "Barrage rounds fired"
    BARRAGE_TEMPLATES_USED = "barrage_templates_used", "Barrage templates used"
    OBJECTIVES = "objectives", "Objectives taken"
    SUPPLY_SITUATION = "supply_situation", "Supply at the end"
    WINNER = "winner", "Winner"
    SECTOR_OWNER = "sector_owner", "Who holds the sector"
    TURN = "turn", "Turn the points were spent"


class SectorKind(models.TextChoices):
    TOWN = "town", "Town"
    PORT = "port", "Port"
    AIRFIELD = "airfield", "Airfield"
    BEACH = "beach", "Beach"
    DROP_ZONE = "drop_zone", "Drop zone"
    JUNCTION = "junction", "Junction"
    OPEN = "open", "Open ground"


class LinkKind(models.TextChoices):
    """How two adjacent sectors are joined: what moves along it (supply follows any link)."""

    ROAD = "road", "Road"
    TRACK = "track", "Track"
    NONE = "none", "Cross-country"


class CarryOverDirection(models.TextChoices):
    """How a side's activation carry-over score moves with the day number."""

    FALLING = "-", "Base minus day number"
    RISING = "+", "Base plus day number"


class OperationKind(models.TextChoices):
    NIGHT_PHASE = "night_phase", "Night phase"
    ARRIVALS = "arrivals", "Arrival rolls"


class OperationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class NightOrderKind(models.TextChoices):
    WITHDRAW = "withdraw", "Withdraw to reserve"
    ATTACH = "attach", "Attach stand"
    DETACH = "detach", "Detach stand"


class SideOrderKind(models.TextChoices):
    """What a side may order between club nights (the umpire applies each through its service)."""

    WITHDRAW = "withdraw", "Withdraw a battalion to reserve"
    ATTACH = "attach", "Attach a stand"
    DETACH = "detach", "Detach a stand"
    MOVE = "move", "Move a battalion on the map"
    ARTILLERY = "artillery", "Artillery template for the dawn sequence"
    DEPLOY = "deploy", "Commit a reserve battalion at dawn"


class SideOrderStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    SUBMITTED = "submitted", "Submitted to the umpire"
    RETURNED = "returned", "Sent back by the umpire"
    APPROVED = "approved", "Approved: waiting for its night phase or dawn"
    APPLIED = "applied", "Applied"
    WITHDRAWN = "withdrawn", "Withdrawn by the side"
    LAPSED = "lapsed", "Not approved before the night phase"


class Visibility(models.TextChoices):
    """Who reads a roll record or an event besides the umpires (``campaign.access``)."""

    PUBLIC = "public", "Every member"
    BATTLE = "battle", "The sides in its battle"
    SIDE = "side", "Its side"
    UMPIRE = "umpire", "Umpires only"


# An event is about the whole campaign, one side or the umpires: never a battle's sides.
EVENT_VISIBILITY_CHOICES = [(v.value, v.label) for v in Visibility if v is not Visibility.BATTLE]


class EventVerb(models.TextChoices):
    CAMPAIGN_CREATED = "campaign.created", "Campaign created"
    CAMPAIGN_STARTED = "campaign.started", "Campaign started"
    DAY_DAWNED = "day.dawned", "Day dawned"
    SEGMENT_ADVANCED = "segment.advanced", "Segment advanced"
    FORCE_DEPLOYED = "force.deployed", "Force deployed"
    REINFORCEMENT_SCHEDULED = "reinforcement.scheduled", "Reinforcement scheduled"
    REINFORCEMENT_POSTPONED = "reinforcement.postponed", "Reinforcement postponed"
    ARRIVAL_DUE = "arrival.due", "Arrival due"
    ACTIVATION_SPENT = "activation.spent", "Activation points spent"
    BATTLE_CREATED = "battle.created", "Battle created"
    BATTLE_SET_UP = "battle.set_up", "Battle set up"
    BATTLE_REPORTED = "battle.reported", "Battle reported"
    BATTLE_CLOSED = "battle.closed", "Battle closed"
    AIRBORNE_LANDED = "airborne.landed", "Airborne landing"
    BATTLE_LULL_CHECKED = "battle.lull_checked", "Combat lull checked"
    ROLL_OVERRIDDEN = "roll.overridden", "Roll overridden"
    CAMPAIGN_IMPORTED = "campaign.imported", "Campaign imported"
    NIGHT_PHASE_STARTED = "night.started", "Night phase started"
    NIGHT_PHASE_DONE = "night.done", "Night phase done"
    NIGHT_ORDER_QUEUED = "night.order_queued", "Night order queued"
    NIGHT_ORDER_CANCELLED = "night.order_cancelled", "Night order cancelled"
    ARRIVALS_STARTED = "arrivals.started", "Arrival rolls started"
    ARRIVALS_RESOLVED = "arrivals.resolved", "Arrival rolls resolved"
    OPERATION_FAILED = "operation.failed", "Background work failed"
    UMPIRE_REMINDED = "umpire.reminded", "Umpire reminded"
    ADMIN_CORRECTED = "admin.corrected", "Corrected by an administrator"
    FOG_OF_WAR_SET = "side.fog_of_war_set", "Fog of war set"
    ADMIN_DELETED = "admin.deleted", "Deleted by an administrator"
    API_KEY_CREATED = "api_key.created", "API key created"
    API_KEY_REVOKED = "api_key.revoked", "API key revoked"
    WEBHOOK_SUBSCRIBED = "webhook.subscribed", "Webhook subscribed"
    WEBHOOK_UPDATED = "webhook.updated", "Webhook changed"
    WEBHOOK_UNSUBSCRIBED = "webhook.unsubscribed", "Webhook unsubscribed"
    WEBHOOK_PINGED = "webhook.pinged", "Webhook sent a test event"
    FORCE_MOVED = "force.moved", "Force moved"
    BATTALION_MOVED = "battalion.moved", "Battalion moved"
    SECTOR_CONTROL_CHANGED = "sector.control_changed", "Sector changed hands"
    SUPPLY_CONFIRMED = "supply.confirmed", "Supply lines confirmed"
    SUPPLY_OVERRIDDEN = "supply.overridden", "Supply situation overridden"
    SUPPLY_APPLIED = "supply.applied", "Supply lines applied at nightfall"
    OBJECTIVE_AWARDED = "objective.awarded", "Objective taken: activation points awarded"
    CAMPAIGN_FINISHED = "campaign.finished", "Campaign finished"
    RULE_APPLIED = "rule.applied", "Campaign rule applied"
    WEBHOOK_RETRIED = "webhook.retried", "Webhook delivery retried"
    WEBHOOK_PUBLISHED = "webhook.published", "Held webhook post published"
    WEBHOOK_DISCARDED = "webhook.discarded", "Held webhook post discarded"
    MEMBER_INVITED = "member.invited", "Member invited"
    MEMBER_JOINED = "member.joined", "Member joined"
    MEMBER_ACCOUNT_CREATED = "member.account_created", "Member account created"
    MEMBER_REMOVED = "member.removed", "Member removed"
    CALENDAR_RENEWED = "calendar.renewed", "Calendar link renewed"
    SCHEDULE_SET = "schedule.set", "Club schedule set"
    NOTIFICATIONS_SENT = "notifications.sent", "Members notified"
    NOTIFICATION_EMAIL_SET = "member.notification_email_set", "Notification e-mails turned on or off"
    SIDE_ORDER_DRAFTED = "order.drafted", "Order drafted"
    SIDE_ORDER_EDITED = "order.edited", "Order edited"
    ORDERS_SUBMITTED = "orders.submitted", "Orders submitted"
    ORDERS_DUE = "orders.due", "Orders due"
    SIDE_ORDER_WITHDRAWN = "order.withdrawn", "Order withdrawn"
    SIDE_ORDER_APPROVED = "order.approved", "Order approved"
    SIDE_ORDER_RETURNED = "order.returned", "Order sent back"
    SIDE_ORDER_AMENDED = "order.amended", "Order amended by the umpire"
    SIDE_ORDERS_LAPSED = "orders.lapsed", "Orders not approved before the night phase"
    BATTLE_DRAFT_SAVED = "battle.draft_saved", "Battle report drafted"
    BATTLE_DRAFTS_CONFIRMED = "battle.drafts_confirmed", "Drafted battle reports confirmed"
    DAY_JOURNAL_WRITTEN = "day.journal_written", "Day's journal written"


# The events a webhook subscription may ask for: the moments other clubs' apps act on.
WEBHOOK_EVENTS = (
    EventVerb.NIGHT_PHASE_DONE,
    EventVerb.ARRIVALS_RESOLVED,
    EventVerb.BATTLE_CREATED,
    EventVerb.BATTLE_REPORTED,
    EventVerb.DAY_DAWNED,
    EventVerb.SECTOR_CONTROL_CHANGED,
    EventVerb.CAMPAIGN_FINISHED,
    EventVerb.ORDERS_SUBMITTED,
    EventVerb.ORDERS_DUE,
)
WEBHOOK_EVENT_CHOICES = [(verb.value, verb.label) for verb in WEBHOOK_EVENTS]
# A delivery's event: one of those, or the test event an umpire's ping sends.
WEBHOOK_PING = "ping"
WEBHOOK_DELIVERY_EVENT_CHOICES = [*WEBHOOK_EVENT_CHOICES, (WEBHOOK_PING, "Ping (a test event)")]


class NotificationKind(models.TextChoices):
    """What a member's inbox tells them of (issue 17's five moments)."""

    ORDERS_DUE = "orders_due", "Orders due"
    ORDERS_SENT_BACK = "orders_sent_back", "Orders sent back"
    BATTLE_ASSIGNED = "battle_assigned", "Battle assigned to you"
    DRAFT_WAITING = "draft_waiting", "Battle report draft waiting for your opponent"
    NIGHT_REPORT_READY = "night_report_ready", "Night report ready"
    # The umpires' (issue 30): what waits for them.
    ORDER_SUBMITTED = "order_submitted", "Order waiting for approval"
    DRAFT_FILED = "draft_filed", "Battle report draft filed"


class TodoKind(models.TextChoices):
    """What waits for the umpire now (campaign.selectors.umpire_todo), in the order it is listed."""

    ORDERS_SUBMITTED = "orders_submitted", "Orders to approve"
    DRAFTS_FILED = "drafts_filed", "Drafts to reconcile"
    DRAFT_AWAITED = "draft_awaited", "Draft awaited from one side"
    SUPPLY_UNCONFIRMED = "supply_unconfirmed", "Supply to confirm"
    SEGMENTS_LEFT = "segments_left", "Segments left to play"
    ARRIVALS_ROLLING = "arrivals_rolling", "Arrival rolls running"
    NIGHT_DUE = "night_due", "Night phase due"


class NotificationEmail(models.TextChoices):
    """A notification's e-mail: always in the inbox, e-mailed at most once (see notifications.py)."""

    PENDING = "pending", "To be e-mailed"
    SENT = "sent", "E-mailed"
    OFF = "off", "Not e-mailed: the member turned e-mails off"
    NO_ADDRESS = "no_address", "Not e-mailed: no address"
    FAILED = "failed", "Not e-mailed: the mail server refused it every time"


class WebhookAudience(models.TextChoices):
    """Whose eyes a webhook subscription reads with: what it receives, and every link in it, is
    what that audience may read (campaign.access, one fog for the API and its webhooks)."""

    PUBLIC = "public", "Public: what any observer may read"
    SIDE = "side", "One side: what its players may read"
    UMPIRES = "umpires", "Umpires: everything"


class WebhookKind(models.TextChoices):
    """What a subscription's URL reads: the service's signed JSON, or a Discord channel's webhook
    (Discord's own message: content and embeds in words)."""

    JSON = "json", "Signed JSON for an app"
    DISCORD = "discord", "Discord channel"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed after every retry"
    # A channel that holds its posts: each waits for an umpire to publish or discard it.
    HELD = "held", "Held for an umpire's approval"
    DISCARDED = "discarded", "Discarded by an umpire"
