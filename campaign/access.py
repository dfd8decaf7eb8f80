"""Who reads which roll records and events besides the umpires: the one home of that rule.

Every roll record and event has an owner, set by the service that writes it
(rules notes C-13): everybody in the campaign (what both sides see at the table:
weather, wind, initiative, turns, that a night phase finished), the two sides of
a battle (its set-up rolls made once for both), one side (its own units' and
pools' rolls, its timeline entries), or the umpires alone. Umpires read
everything; a player, or a side's API key, reads what is public and what their
side owns; an observer, or a campaign-wide read-only key, what is public.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from campaign import models
from campaign.choices import EventVerb, Visibility


@dataclass(frozen=True)
class Reader:
    """Who reads: an umpire, or the side whose player (or side key) reads, or neither (observers)."""

    umpire: bool
    side_id: int | None


# Who reads each event besides the umpires. SIDE: the side its subject belongs to (the
# side itself, a force, a battalion or a night order's battalion); umpires alone when the
# subject belongs to none (a battle's report event, a correction of the day's weather).
# Messages of public events name nothing of either side.
EVENT_VISIBILITY: Mapping[EventVerb, Visibility] = {
    EventVerb.CAMPAIGN_CREATED: Visibility.UMPIRE,
    EventVerb.CAMPAIGN_STARTED: Visibility.PUBLIC,
    EventVerb.DAY_DAWNED: Visibility.PUBLIC,
    EventVerb.SEGMENT_ADVANCED: Visibility.PUBLIC,
    EventVerb.FORCE_DEPLOYED: Visibility.SIDE,
    EventVerb.REINFORCEMENT_SCHEDULED: Visibility.SIDE,
    EventVerb.ARRIVAL_DUE: Visibility.SIDE,
    EventVerb.ACTIVATION_SPENT: Visibility.SIDE,
    # Its message names the battalions of both sides.
    EventVerb.BATTLE_CREATED: Visibility.UMPIRE,
    EventVerb.BATTLE_SET_UP: Visibility.UMPIRE,
    # Each side's pools after a battle are that side's; the battle's losses the umpire's.
    EventVerb.BATTLE_REPORTED: Visibility.SIDE,
    EventVerb.BATTLE_CLOSED: Visibility.UMPIRE,
    # An override through the API is read by whoever reads the roll (roll_override passes it).
    EventVerb.ROLL_OVERRIDDEN: Visibility.SIDE,
    EventVerb.CAMPAIGN_IMPORTED: Visibility.UMPIRE,
    EventVerb.NIGHT_PHASE_STARTED: Visibility.PUBLIC,
    EventVerb.NIGHT_PHASE_DONE: Visibility.PUBLIC,
    EventVerb.NIGHT_ORDER_QUEUED: Visibility.SIDE,
    # Its message names the forces of both sides that roll.
    EventVerb.ARRIVALS_STARTED: Visibility.UMPIRE,
    EventVerb.ARRIVALS_RESOLVED: Visibility.PUBLIC,
    EventVerb.OPERATION_FAILED: Visibility.UMPIRE,
    EventVerb.UMPIRE_REMINDED: Visibility.UMPIRE,
    EventVerb.ADMIN_CORRECTED: Visibility.UMPIRE,
    EventVerb.ADMIN_DELETED: Visibility.UMPIRE,
    EventVerb.API_KEY_CREATED: Visibility.UMPIRE,
    EventVerb.API_KEY_REVOKED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_SUBSCRIBED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_UPDATED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_UNSUBSCRIBED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_PINGED: Visibility.UMPIRE,
}


@dataclass(frozen=True)
class Owner:
    """Who reads a row besides the umpires: a visibility, and the side when it is a side's."""

    visibility: Visibility
    side_id: int | None = None

    @classmethod
    def side(cls, side_id: int) -> Owner:
        return cls(Visibility.SIDE, side_id)


PUBLIC = Owner(Visibility.PUBLIC)
BATTLE_SIDES = Owner(Visibility.BATTLE)
UMPIRES = Owner(Visibility.UMPIRE)


def _subject_side_id(subject: Any) -> int | None:
    if isinstance(subject, models.Side):
        return int(subject.pk)
    if isinstance(subject, models.NightOrder):
        return subject.battalion.side_id
    side_id = getattr(subject, "side_id", None)
    return int(side_id) if side_id is not None else None


def event_owner(verb: EventVerb, subject: Any) -> Owner:
    """Who reads an event of ``verb`` about ``subject`` (:data:`EVENT_VISIBILITY`)."""
    visibility = EVENT_VISIBILITY[verb]
    if visibility is not Visibility.SIDE:
        return Owner(visibility)
    side_id = _subject_side_id(subject)
    return Owner.side(side_id) if side_id is not None else UMPIRES


def rolls_readable(reader: Reader) -> Q:
    """The roll records ``reader`` may read, as a filter of RollRecord rows."""
    if reader.umpire:
        return Q()
    readable = Q(visibility=Visibility.PUBLIC)
    side_id = reader.side_id
    if side_id is not None:
        in_battle = Q(battle__attacker_id=side_id) | Q(battle__defender_id=side_id)
        readable |= (
            Q(visibility=Visibility.SIDE, side_id=side_id) | Q(visibility=Visibility.BATTLE) & in_battle
        )
    return readable


def events_readable(reader: Reader) -> Q:
    """The events ``reader`` may read, as a filter of Event rows."""
    if reader.umpire:
        return Q()
    readable = Q(visibility=Visibility.PUBLIC)
    if reader.side_id is not None:
        readable |= Q(visibility=Visibility.SIDE, side_id=reader.side_id)
    return readable
