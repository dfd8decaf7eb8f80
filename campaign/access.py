"""Who sees what in a campaign: the one home of access and fog of war.

An umpire sees everything of their campaign and makes every write. A player sees
their own side in full and the enemy only as far as the enemy side's
``fog_of_war`` settings reveal (:class:`Fog`). An observer sees what is public.
A third-party app's :class:`~campaign.models.CampaignAPIKey` reads as the role
:func:`api_key_role` gives it, in its one campaign.

Every roll record and event has an owner, set by the service that writes it
(rules notes C-13): everybody in the campaign (what both sides see at the table:
weather, wind, initiative, turns, that a night phase finished), the two sides of
a battle (its set-up rolls made once for both), one side (its own units' and
pools' rolls, its timeline entries), or the umpires alone.

The API (its selectors' querysets and serializers' masks), the night e-mails and
the webhooks ask here; none decides it for itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property, reduce
from operator import attrgetter, or_
from typing import Any, cast

from django.db.models import BooleanField, Exists, ExpressionWrapper, Model, OuterRef, Q, QuerySet, Value

from campaign import models
from campaign.choices import (
    ArrivalStatus,
    CampaignStatus,
    EventVerb,
    MemberRole,
    OperationKind,
    SideOrderStatus,
    Visibility,
    WebhookAudience,
)
from rules_engine.fairness import PUBLIC_AUDIENCE
from rules_engine.nineteen43.artillery import FIELD_STRENGTH_CLASSES, allotment_words

# Enemy forces are seen only once they are on the table: never in reserve or on their way.
PRESENT = (ArrivalStatus.ON_TABLE, ArrivalStatus.ARRIVED)
NOTHING = Q(pk__in=[])


@dataclass(frozen=True)
class Fog:
    """What a side lets its enemies see (``Side.fog_of_war``); unset means nothing, but for
    ``in_contact``: on a map, units in contact are seen unless the side's settings say not."""

    identified_units: frozenset[str]  # battalion codes the enemy has identified
    battle_results: bool  # the enemy sees this side's lines of battle reports
    strengths: bool  # the enemy sees stands and stand counts of identified battalions
    # The enemy sees this side's battalions and C Ops on the map where they stand on or next to
    # a sector holding one of the enemy's own battalions or C Ops (rules notes C-17).
    in_contact: bool

    @classmethod
    def of(cls, side: models.Side) -> Fog:
        settings: Mapping[str, Any] = side.fog_of_war if isinstance(side.fog_of_war, Mapping) else {}
        return cls(
            identified_units=frozenset(str(code) for code in settings.get("identified_units") or ()),
            battle_results=settings.get("battle_results") is True,
            strengths=settings.get("strengths") is True,
            in_contact=settings.get("in_contact", True) is not False,
        )


@dataclass(frozen=True)
class CampaignAccess:
    """One reader's role in one campaign, with the campaign's sides (for fog of war)."""

    campaign: models.Campaign
    role: MemberRole
    side_id: int | None
    # A member signed in, not an API key: a side's key reads as its player but writes nothing of it.
    in_person: bool = True
    # The sectors where a player sees the enemy in contact, read for one moment (contact_read).
    contact_sectors: frozenset[int] | None = None

    @classmethod
    def of_api_key(cls, api_key: models.CampaignAPIKey) -> CampaignAccess:
        """What a key reads in its one campaign (loaded with the key)."""
        role = api_key_role(api_key)
        return cls(
            campaign=api_key.campaign,
            role=role,
            side_id=api_key.side_id if role == MemberRole.PLAYER else None,
            in_person=False,
        )

    @classmethod
    def of_member(cls, campaign: models.Campaign, membership: models.Membership) -> CampaignAccess:
        return cls(campaign=campaign, role=MemberRole(membership.role), side_id=membership.side_id)

    @classmethod
    def of_side(cls, campaign: models.Campaign, side_id: int) -> CampaignAccess:
        """What a side's players see, whoever asks: a briefing or battle packet printed for them
        (by them or by an umpire) shows exactly that."""
        return cls(campaign=campaign, role=MemberRole.PLAYER, side_id=side_id)

    def prints_for(self, side_id: int) -> bool:
        """Who may print a side's papers: the umpires, and that side's players (never the enemy's
        nor an observer, who would read the side's full strengths in them)."""
        return self.sees_in_full(side_id)

    @cached_property
    def sides(self) -> Mapping[int, models.Side]:
        """By id, loaded when first needed (a cached force status needs none), or prefetched."""
        return {side.pk: side for side in sorted(self.campaign.sides.all(), key=attrgetter("pk"))}

    @property
    def is_umpire(self) -> bool:
        return self.role == MemberRole.UMPIRE

    @property
    def player_side_id(self) -> int | None:
        """The reader's side when they are a player; None for umpires and observers."""
        return self.side_id if self.role == MemberRole.PLAYER else None

    @property
    def playing_side_id(self) -> int | None:
        """The side whose writes the reader makes as its player (orders, drafts, set-up rolls at the
        table): a player's, signed in; None for everybody else, a side's API key included."""
        return self.player_side_id if self.in_person else None

    @property
    def is_player(self) -> bool:
        return self.player_side_id is not None

    def sees_in_full(self, side_id: int) -> bool:
        return self.is_umpire or side_id == self.player_side_id

    def fog(self, side_id: int) -> Fog:
        return Fog.of(self.sides[side_id])

    @property
    def own_side(self) -> models.Side | None:
        """A player's side."""
        side_id = self.player_side_id
        return self.sides.get(side_id) if side_id is not None else None

    @property
    def enemy_fogs(self) -> dict[int, Fog]:
        """A player's enemy sides and what each reveals; nothing for other roles."""
        own = self.player_side_id
        if own is None:
            return {}
        return {side_id: Fog.of(side) for side_id, side in self.sides.items() if side_id != own}


def api_key_role(api_key: models.CampaignAPIKey) -> MemberRole:
    """A write-granted key of no side acts for the umpire; a side's key sees as its player
    (write-granted, it manages its side's webhook subscriptions, nothing else); else an observer."""
    if api_key.side_id is not None:
        return MemberRole.PLAYER
    return MemberRole.UMPIRE if api_key.can_write else MemberRole.OBSERVER


def webhooks_managed(access: CampaignAccess, side_key_writes: bool = False) -> Q:
    """The webhook subscriptions the reader reads and manages: the umpires' every one; a side's
    write-granted key (``side_key_writes``) its own side's; nobody else any."""
    if access.is_umpire:
        return Q()
    side_id = access.player_side_id
    if side_key_writes and not access.in_person and side_id is not None:
        return Q(audience=WebhookAudience.SIDE, side_id=side_id)
    return NOTHING


# Rows ------------------------------------------------------------------------


def own_side_rows(access: CampaignAccess, field: str = "side_id") -> Q:
    """Rows that are a side's own (reports, reserves): umpires all, a player their side's, else none."""
    if access.is_umpire:
        return Q()
    side_id = access.player_side_id
    return Q(**{field: side_id}) if side_id is not None else NOTHING


def contact_sector_ids(access: CampaignAccess) -> QuerySet[models.Sector, Any] | list[int]:
    """Sectors where a player sees the enemy in contact (those its battalions or C Ops stand on and
    next to them), as the ids :func:`contact_read` read or a subquery. The one home of "where"."""
    if access.contact_sectors is not None:
        return sorted(access.contact_sectors)
    side_id = access.player_side_id
    sectors = models.Sector.objects.filter(campaign=access.campaign)
    if side_id is None:
        return sectors.none().values("pk")
    own = sectors.filter(Q(battalions__side_id=side_id) | Q(forces__side_id=side_id)).values("pk")
    return sectors.filter(Q(pk__in=own) | Q(links_as_a__b__in=own) | Q(links_as_b__a__in=own)).values("pk")


def contact_read(access: CampaignAccess) -> CampaignAccess:
    """``access`` with its contact sectors read (one query) for the reads of one moment that ask
    several times (a map): a list of ids costs less to build and plan than the subquery (issue 34)."""
    if access.contact_sectors is not None or not _in_contact_sides(access):
        return access
    subquery = cast(QuerySet[models.Sector, Any], contact_sector_ids(access))  # none read yet
    read = replace(access, contact_sectors=frozenset(subquery.values_list("pk", flat=True)))
    read.__dict__["sides"] = access.sides  # the sides as loaded (or prefetched): not read again
    return read


def _in_contact_sides(access: CampaignAccess) -> list[int]:
    """A player's enemy sides whose fog of war shows their units in contact."""
    return [side_id for side_id, fog in access.enemy_fogs.items() if fog.in_contact]


def _enemy_battalions(access: CampaignAccess, prefix: str, *, strengths_only: bool) -> Q:
    """Enemy battalions a player may see: identified, or (their strength aside) in contact on the
    map; on the table, not in reserve."""
    seen = [
        Q(**{f"{prefix}side_id": side_id, f"{prefix}code__in": sorted(fog.identified_units)})
        for side_id, fog in access.enemy_fogs.items()
        if fog.identified_units and (fog.strengths or not strengths_only)
    ]
    contact_sides = [] if strengths_only else _in_contact_sides(access)
    if contact_sides:
        seen.append(
            Q(**{f"{prefix}side_id__in": contact_sides, f"{prefix}sector_id__in": contact_sector_ids(access)})
        )
    if not seen:
        return NOTHING
    return reduce(or_, seen) & Q(
        **{f"{prefix}in_reserve": False, f"{prefix}battlegroup__force__arrival_status__in": PRESENT}
    )


def battalions_readable(access: CampaignAccess, prefix: str = "", *, strengths_only: bool = False) -> Q:
    """Battalions (``prefix`` leads to one) the reader sees: own ones, identified enemy ones, and
    with ``strengths_only`` only those whose stands and stand counts it sees too."""
    if access.is_umpire:
        return Q()
    if access.player_side_id is None:
        return NOTHING
    return Q(**{f"{prefix}side_id": access.player_side_id}) | _enemy_battalions(
        access, prefix, strengths_only=strengths_only
    )


def enemy_battalions_readable(access: CampaignAccess) -> Q:
    """A player's identified or in-contact enemy battalions (what makes an enemy force seen)."""
    return _enemy_battalions(access, "", strengths_only=False)


def forces_readable(access: CampaignAccess) -> Q:
    """Own forces in full; an enemy force once one of its battalions is seen, or its C Ops in contact."""
    if access.is_umpire:
        return Q()
    side_id = access.player_side_id
    if side_id is None:
        return NOTHING
    seen = models.Battalion.objects.filter(campaign=access.campaign).filter(enemy_battalions_readable(access))
    readable = Q(side_id=side_id) | Q(pk__in=seen.values("battlegroup__force_id"))
    contact_sides = _in_contact_sides(access)
    if contact_sides:
        readable |= Q(
            side_id__in=contact_sides, sector_id__in=contact_sector_ids(access), arrival_status__in=PRESENT
        )
    return readable


def force_place_seen(access: CampaignAccess, field: str = "sector_id") -> Q:
    """Forces whose C Ops (``field``: or forming-up point) the reader sees where it stands:
    umpires all, a player their own side's and an enemy's in contact only (an identified
    battalion shows its force, not where it commands); nobody else any."""
    if access.is_umpire:
        return Q()
    if access.player_side_id is None:
        return NOTHING
    seen = Q(side_id=access.player_side_id)
    contact_sides = _in_contact_sides(access)
    if contact_sides:
        seen |= Q(side_id__in=contact_sides, **{f"{field}__in": contact_sector_ids(access)})
    return seen


def force_sectors_seen(access: CampaignAccess) -> dict[str, ExpressionWrapper[Q] | Value]:
    """:func:`force_place_seen` as annotations of forces: ``sector_seen``, ``fup_sector_seen``."""
    if access.is_umpire or access.player_side_id is None:
        return dict.fromkeys(("sector_seen", "fup_sector_seen"), Value(access.is_umpire))
    return {
        name: ExpressionWrapper(force_place_seen(access, field), output_field=BooleanField())
        for name, field in (("sector_seen", "sector_id"), ("fup_sector_seen", "fup_sector_id"))
    }


def battles_readable(access: CampaignAccess) -> Q:
    """Umpires every battle, players the battles their side fights."""
    if access.is_umpire:
        return Q()
    side_id = access.player_side_id
    if side_id is None:
        return NOTHING
    return Q(attacker_id=side_id) | Q(defender_id=side_id)


# Battle drafts: a player drafts the report of a battle their side fights; they read their
# side's draft and only whether the other side filed one, never its content (not even once
# confirmed: the confirmed report is what the battle shows, as fog allows); umpires read
# both side by side to confirm them (rules notes C-20).


def battle_draft_side(role: str, side_id: int | None, battle: models.Battle) -> int | None:
    """The side whose draft of ``battle``'s report a member of ``role`` and ``side_id`` writes:
    a player's, when their side fights it; None for anybody else (umpires report, observers
    watch, API keys act for nobody's draft)."""
    if role != MemberRole.PLAYER or side_id not in (battle.attacker_id, battle.defender_id):
        return None
    return side_id


def battle_draft_reader_side(access: CampaignAccess, battle: models.Battle) -> int | None:
    """The side whose draft of ``battle`` the reader reads (with whether the other side filed):
    a player's own side when it fights the battle; None for umpires and everybody else."""
    return battle_draft_side(access.role, access.player_side_id, battle)


def battle_table_side(
    role: str, side_id: int | None, battle: models.Battle, table_dice: Mapping[str, str]
) -> int | None:
    """The side of a player of ``battle`` who may set it up rolling at the table: the club lets
    players enter at least one set-up step (its campaign's ``table_dice``); None for anybody else."""
    side = battle_draft_side(role, side_id, battle)
    return side if side is not None and "players" in table_dice.values() else None


def battle_drafts_compared_by(access: CampaignAccess) -> bool:
    """Who reads both drafts side by side and confirms them: the umpires alone."""
    return access.is_umpire


def operations_readable(access: CampaignAccess) -> Q:
    """Night phases for every member; arrival rolls (which name both sides' forces) for umpires."""
    return Q() if access.is_umpire else Q(kind=OperationKind.NIGHT_PHASE)


def rolls_readable(access: CampaignAccess) -> Q:
    """The roll records the reader may read, as a filter of RollRecord rows."""
    if access.is_umpire:
        return Q()
    readable = Q(visibility=Visibility.PUBLIC)
    side_id = access.player_side_id
    if side_id is not None:
        in_battle = Q(battle__attacker_id=side_id) | Q(battle__defender_id=side_id)
        readable |= (
            Q(visibility=Visibility.SIDE, side_id=side_id) | Q(visibility=Visibility.BATTLE) & in_battle
        )
    return readable


def events_readable(access: CampaignAccess) -> Q:
    """The events the reader may read, as a filter of Event rows."""
    if access.is_umpire:
        return Q()
    readable = Q(visibility=Visibility.PUBLIC)
    if access.player_side_id is not None:
        readable |= Q(visibility=Visibility.SIDE, side_id=access.player_side_id)
    return readable


def side_orders_readable(access: CampaignAccess) -> Q:
    """A side's sealed orders: its own players read them all (drafts too); umpires every side's
    once submitted (a draft is the side's own until then); nobody else any, whatever the enemy's
    fog of war: an order shows only through what it became once applied (rules notes C-19)."""
    if access.is_umpire:
        return ~Q(status=SideOrderStatus.DRAFT)
    side_id = access.player_side_id
    return Q(side_id=side_id) if side_id is not None else NOTHING


def reports_for(access: CampaignAccess, reports: Iterable[models.NightReport]) -> list[models.NightReport]:
    """The night reports the reader gets (by e-mail too): umpires every side's, a player their side's."""
    return [report for report in reports if access.sees_in_full(report.side_id)]


def campaign_umpires(campaign: models.Campaign) -> QuerySet[models.Membership]:
    """The campaign's umpires: who a notification of what waits for them is for."""
    return campaign.memberships.filter(role=MemberRole.UMPIRE)


def side_players(campaign: models.Campaign, side_ids: Iterable[int]) -> QuerySet[models.Membership]:
    """The players of ``side_ids``: who a side's notification (its battle, its orders) is for."""
    return campaign.memberships.filter(role=MemberRole.PLAYER, side_id__in=list(side_ids))


def notifications_readable(user_id: int) -> Q:
    """A person's own notifications, of the campaigns they are still a member of (a member
    removed no longer reads what the campaign told them)."""
    member = models.Membership.objects.filter(user_id=user_id, campaign_id=OuterRef("campaign_id"))
    return Q(recipient_id=user_id) & Q(Exists(member))


def notification_refused(
    campaign: models.Campaign, membership: models.Membership, side_id: int | None
) -> str | None:
    """Why a notification about ``side_id`` (None: about nobody's side) may not reach
    ``membership``, or None when it may: only a member who sees that side in full gets it, so a
    side's notification never reaches the other side (nor an observer)."""
    if side_id is None or CampaignAccess.of_member(campaign, membership).sees_in_full(side_id):
        return None
    return f"{membership.user} does not see side {side_id} in full"


def webhook_reader(subscription: models.WebhookSubscription) -> CampaignAccess:
    """Whose eyes a webhook subscription reads with (its audience): the umpires', a side's
    player's, or a public observer's; a key's, never a member in person."""
    audience = subscription.audience
    if audience == WebhookAudience.SIDE and subscription.side_id is not None:
        role, side_id = MemberRole.PLAYER, subscription.side_id
    elif audience == WebhookAudience.UMPIRES:
        role, side_id = MemberRole.UMPIRE, None
    else:
        role, side_id = MemberRole.OBSERVER, None
    return CampaignAccess(campaign=subscription.campaign, role=role, side_id=side_id, in_person=False)


def event_readable(access: CampaignAccess, event: models.Event) -> bool:
    """:func:`events_readable` of one event already loaded."""
    if access.is_umpire or event.visibility == Visibility.PUBLIC:
        return True
    side_id = access.player_side_id
    return event.visibility == Visibility.SIDE and side_id is not None and event.side_id == side_id


# What a webhook's audience must read of an event's object to be told of it, by model name.
def _everybody(access: CampaignAccess) -> Q:
    return Q()


WEBHOOK_OBJECTS_READABLE: Mapping[str, tuple[type[Model], Callable[[CampaignAccess], Q]]] = {
    model.__name__: (model, readable)
    for model, readable in (
        (models.Battle, battles_readable),
        (models.Operation, operations_readable),
        (models.Sector, _everybody),  # the ground is public
        (models.SideOrder, side_orders_readable),
    )
}


def webhook_object_readable(access: CampaignAccess, event: models.Event) -> bool:
    """Whether the audience reads the object ``event`` is about (a battle its side fights)."""
    known = WEBHOOK_OBJECTS_READABLE.get(event.object_type)
    if known is None or event.object_id is None:
        return False
    if access.is_umpire:
        return True
    model, readable = known
    return bool(model._default_manager.filter(readable(access), pk=event.object_id).exists())


def announced(event: models.Event) -> bool:
    """Whether webhooks (third parties, whatever their subscriber's role) may announce ``event``:
    never a side's own entry (its pools after a battle); a battle is announced once."""
    return event.object_type != models.Side.__name__


# Fields ----------------------------------------------------------------------


def fields_shown(
    access: CampaignAccess, side_id: int, public: frozenset[str], strengths: frozenset[str]
) -> frozenset[str] | None:
    """The fields the reader sees of a row of ``side_id``: None when it sees them all, else the
    ``public`` ones and the ``strengths`` ones when that side's fog of war reveals strengths."""
    if access.sees_in_full(side_id):
        return None
    return public | (strengths if access.fog(side_id).strengths else frozenset())


# What a reader who does not see a battalion's side in full sees of one it sees (an enemy's,
# identified or in contact): where it stands, and its stands when its side reveals
# strengths; never its quality, state or supply (where the enemy's lines are cut).
BATTALION_PUBLIC = frozenset({"id", "code", "name", "side", "force", "battlegroup", "sector", "sector_name"})
BATTALION_STRENGTHS = frozenset({"stands_started"})


def battalion_fields_shown(access: CampaignAccess, side_id: int) -> frozenset[str] | None:
    return fields_shown(access, side_id, BATTALION_PUBLIC, BATTALION_STRENGTHS)


# The statistics' figures of a side (campaign.selectors.statistics), per figure: who holds the
# sectors is public (rules notes C-17); the stands a side lost, had suppressed and got back are
# its strengths, shown to a reader who does not see it in full only where its fog of war reveals
# strengths; its pools (activation points, barrage rounds) never, as the campaign summary shows them.
STATISTICS_PUBLIC = frozenset({"side", "sectors_held", "victory_points"})
STATISTICS_STRENGTHS = frozenset({"stands_lost", "stands_suppressed", "stands_replaced"})


def statistics_figures_shown(access: CampaignAccess, side_id: int) -> frozenset[str] | None:
    return fields_shown(access, side_id, STATISTICS_PUBLIC, STATISTICS_STRENGTHS)


# What of a night operation only umpires see: its steps and attempts count the whole
# campaign's units and retries, both sides' (rules notes C-14).
OPERATION_UMPIRE_ONLY = frozenset(
    {"steps", "completed_steps", "steps_done", "steps_total", "attempts", "report", "error"}
)


def operation_fields_hidden(access: CampaignAccess) -> frozenset[str]:
    return frozenset() if access.is_umpire else OPERATION_UMPIRE_ONLY


def battle_report_shown(
    access: CampaignAccess, report: Mapping[str, Any], sides: Mapping[str, int]
) -> dict[str, Any]:
    """A battle report's lines the reader sees: of their own battalions, and of the enemy's
    identified ones (``sides``: code → side, of those) whose side reveals battle results."""
    if access.is_umpire:
        return dict(report)
    fogs = access.enemy_fogs

    def shown(entry: Mapping[str, Any]) -> bool:
        side_id = sides.get(str(entry.get("code")))
        return side_id is not None and (side_id == access.player_side_id or fogs[side_id].battle_results)

    return {**report, "battalions": [e for e in report.get("battalions", []) if shown(e)]}


# Roll inputs and outcomes: what counts the stands of a battle's battalions (the field
# strength and the planned and support fire it feeds) shows those counts only to a reader who
# sees the strength of every battalion in it; otherwise they, and the texts quoting them, are null.
STRENGTH_KEYS = frozenset({"total_units", "units", "stands", *FIELD_STRENGTH_CLASSES})
STRENGTH_TEXTS = frozenset({"line", "outcome_text", "cell"})


def battle_strengths_hidden(access: CampaignAccess, battle: str = "battle_id") -> Exists | Value:
    """Whether a battle (``battle``: a field leading to it) holds a battalion whose strength the
    reader does not see, as an annotation; never for umpires."""
    if access.is_umpire:
        return Value(False)
    fought = models.Battle.battalions.through.objects.filter(battle_id=OuterRef(battle))
    return Exists(fought.exclude(battalions_readable(access, "battalion__", strengths_only=True)))


def _strengths_fogged(value: Any, own: bool = False) -> Any:
    """``value`` with every strength and the texts quoting one nulled; with ``own`` (the reader's
    side's own roll), a fire allotment keeps its outcome in words without the units it counts:
    the fog hides the enemy's counts, not a side's own results."""
    if isinstance(value, Mapping):
        quotes = any(key in STRENGTH_KEYS for key in value) or any(
            isinstance(v, Mapping) and STRENGTH_KEYS & v.keys() for v in value.values()
        )
        fogged = {
            key: None
            if key in STRENGTH_KEYS or (quotes and key in STRENGTH_TEXTS)
            else _strengths_fogged(item, own)
            for key, item in value.items()
        }
        words = _own_allotment(value) if own and quotes else None
        return fogged if words is None else {**fogged, "outcome_text": words}
    if isinstance(value, list):
        return [_strengths_fogged(item, own) for item in value]
    return value


def _own_allotment(result: Mapping[str, Any]) -> str | None:
    outcome = result.get("outcome")
    if not isinstance(outcome, int) or isinstance(outcome, bool):
        return None
    return allotment_words(str(result.get("procedure", "")), outcome)


def _strengths_shown(access: CampaignAccess, row: Any) -> bool:
    """Read from :func:`battle_strengths_hidden` annotated as ``strengths_hidden``; a row read
    without it is fogged for all but umpires."""
    return access.is_umpire or getattr(row, "strengths_hidden", True) is False


@dataclass(frozen=True)
class RollShown:
    inputs: Any
    result: Any
    line: str | None
    output: Mapping[str, Any] | None  # the roll as presented (rules_engine.results.RollOutput), as shown


def roll_shown(
    access: CampaignAccess, roll: models.RollRecord, output: Mapping[str, Any] | None = None
) -> RollShown:
    """A readable roll's inputs, outcome, line and presented ``output`` as the reader may see them."""
    if roll.battle_id is None or _strengths_shown(access, roll):
        return RollShown(roll.inputs, roll.result, roll.line, output)
    own = roll.side_id is not None and roll.side_id == access.player_side_id
    inputs, result = _strengths_fogged(roll.inputs), _strengths_fogged(roll.result, own)
    if inputs == roll.inputs and result == roll.result:  # quotes no strength
        return RollShown(roll.inputs, roll.result, roll.line, output)
    words = result.get("outcome_text") if isinstance(result, Mapping) else None
    if words is None:
        texts_hidden = None if output is None else {**output, **dict.fromkeys(STRENGTH_TEXTS & output.keys())}
        return RollShown(inputs, result, None, texts_hidden)
    # The side's own allotment: its line and outcome in words, the units counted left out.
    line = f"{result.get('title')}, {result.get('subject')} → {words}"
    shown = None if output is None else {**output, "cell": None, "outcome_text": words, "line": line}
    return RollShown(inputs, result, line, shown)


def battle_setup_shown(access: CampaignAccess, battle: models.Battle) -> dict[str, Any]:
    """A battle's set-up results the reader sees: umpires all; a player those rolled once for
    both sides and their own side's (keys ``procedure@Side name``), strengths fogged; else none."""
    if access.is_umpire:
        return dict(battle.setup)
    own = access.own_side
    if own is None:
        return {}
    shown = {
        label: result
        for label, result in battle.setup.items()
        if "@" not in label or label.endswith(f"@{own.name}")
    }
    if _strengths_shown(access, battle):
        return shown
    return {label: _strengths_fogged(result, "@" in label) for label, result in shown.items()}


# Dice audiences (rules notes C-22) ---------------------------------------------
# Each roll comes from the day seed of exactly its readers (rules_engine.fairness): every member,
# one side, a battle's two sides, or the umpires alone. A reader receives the revealed seeds of
# the audiences they belong to, so no seed they hold rolls a die they may not read.

UMPIRE_AUDIENCE = "umpire"


def side_audience(name: str) -> str:
    return f"side {name}"


def battle_audience(names: Iterable[str]) -> str:
    """A battle's two sides, whichever attacks (JSON: no side name can make another pair's)."""
    return "battle " + json.dumps(sorted(names), ensure_ascii=False)


def dice_audience(owner: Owner, side_names: Mapping[int, str], battle_sides: Iterable[int] = ()) -> str:
    """The audience whose seed rolls a roll read by ``owner`` (a battle's: ``battle_sides``)."""
    if owner.visibility == Visibility.PUBLIC:
        return PUBLIC_AUDIENCE
    if owner.visibility == Visibility.SIDE:
        assert owner.side_id is not None
        return side_audience(side_names[owner.side_id])
    if owner.visibility == Visibility.BATTLE:
        return battle_audience(side_names[side_id] for side_id in battle_sides)
    return UMPIRE_AUDIENCE


def dice_audiences(side_names: Iterable[str]) -> list[str]:
    """Every audience of a campaign with these sides: each has its own chain and commitment."""
    names = sorted(side_names)
    pairs = [battle_audience((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]]
    return [PUBLIC_AUDIENCE, *map(side_audience, names), *pairs, UMPIRE_AUDIENCE]


def dice_audiences_held(access: CampaignAccess) -> list[str]:
    """The audiences whose revealed day seeds the reader receives: exactly those of the rolls
    they may read (:func:`rolls_readable`). Once the campaign is over nothing is hidden: every
    member receives every audience's seeds."""
    names = [side.name for side in access.sides.values()]
    if access.is_umpire or access.campaign.status == CampaignStatus.FINISHED:
        return dice_audiences(names)
    own = access.own_side
    if own is None:
        return [PUBLIC_AUDIENCE]
    battles = [battle_audience((own.name, other)) for other in sorted(names) if other != own.name]
    return [PUBLIC_AUDIENCE, side_audience(own.name), *battles]


# Events ----------------------------------------------------------------------


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


# Who reads each event besides the umpires. SIDE: the side its subject belongs to (the
# side itself, a force, a battalion or a night order's battalion); umpires alone when the
# subject belongs to none (a battle's report event, a correction of the day's weather).
# Messages of public events name nothing of either side.
EVENT_VISIBILITY: Mapping[EventVerb, Visibility] = {
    EventVerb.CAMPAIGN_CREATED: Visibility.UMPIRE,
    EventVerb.CAMPAIGN_STARTED: Visibility.PUBLIC,
    EventVerb.DAY_DAWNED: Visibility.PUBLIC,
    # When orders close is the club's schedule, public; what each side ordered is not.
    EventVerb.ORDERS_DUE: Visibility.PUBLIC,
    EventVerb.SEGMENT_ADVANCED: Visibility.PUBLIC,
    EventVerb.FORCE_DEPLOYED: Visibility.SIDE,
    EventVerb.AIRBORNE_LANDED: Visibility.SIDE,
    EventVerb.REINFORCEMENT_SCHEDULED: Visibility.SIDE,
    EventVerb.REINFORCEMENT_POSTPONED: Visibility.SIDE,
    EventVerb.ARRIVAL_DUE: Visibility.SIDE,
    EventVerb.ACTIVATION_SPENT: Visibility.SIDE,
    # Its message names the battalions of both sides.
    EventVerb.BATTLE_CREATED: Visibility.UMPIRE,
    EventVerb.BATTLE_SET_UP: Visibility.UMPIRE,
    # Each side's pools after a battle are that side's; the battle's losses the umpire's.
    EventVerb.BATTLE_REPORTED: Visibility.SIDE,
    EventVerb.BATTLE_CLOSED: Visibility.UMPIRE,
    # Like the set-up: the battle's sides read the lull die in its roll record.
    EventVerb.BATTLE_LULL_CHECKED: Visibility.UMPIRE,
    # An override through the API is read by whoever reads the roll (roll_override passes it).
    EventVerb.ROLL_OVERRIDDEN: Visibility.SIDE,
    EventVerb.CAMPAIGN_IMPORTED: Visibility.UMPIRE,
    EventVerb.NIGHT_PHASE_STARTED: Visibility.PUBLIC,
    EventVerb.NIGHT_PHASE_DONE: Visibility.PUBLIC,
    EventVerb.NIGHT_ORDER_QUEUED: Visibility.SIDE,
    EventVerb.NIGHT_ORDER_CANCELLED: Visibility.SIDE,
    # Its message names the forces of both sides that roll.
    EventVerb.ARRIVALS_STARTED: Visibility.UMPIRE,
    EventVerb.ARRIVALS_RESOLVED: Visibility.PUBLIC,
    EventVerb.OPERATION_FAILED: Visibility.UMPIRE,
    EventVerb.UMPIRE_REMINDED: Visibility.UMPIRE,
    EventVerb.ADMIN_CORRECTED: Visibility.UMPIRE,
    # What one side has identified of the other is the umpire's to tell, at the table.
    EventVerb.FOG_OF_WAR_SET: Visibility.UMPIRE,
    EventVerb.ADMIN_DELETED: Visibility.UMPIRE,
    EventVerb.API_KEY_CREATED: Visibility.UMPIRE,
    EventVerb.API_KEY_REVOKED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_SUBSCRIBED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_UPDATED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_UNSUBSCRIBED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_PINGED: Visibility.UMPIRE,
    EventVerb.FORCE_MOVED: Visibility.SIDE,
    EventVerb.BATTALION_MOVED: Visibility.SIDE,
    # Sectors and their owners are everybody's (the ground is public); the umpire's reason too.
    EventVerb.SECTOR_CONTROL_CHANGED: Visibility.PUBLIC,
    # The proposal and its overrides name both sides' battalions and where they are cut off.
    EventVerb.SUPPLY_CONFIRMED: Visibility.UMPIRE,
    EventVerb.SUPPLY_OVERRIDDEN: Visibility.UMPIRE,
    EventVerb.SUPPLY_APPLIED: Visibility.UMPIRE,
    # Points awarded to a side's pool are its own; the change of control itself is public.
    EventVerb.OBJECTIVE_AWARDED: Visibility.SIDE,
    EventVerb.CAMPAIGN_FINISHED: Visibility.PUBLIC,
    # A side's pools, arrivals, entrenchments and artillery: its own (the day-end roll passes PUBLIC).
    EventVerb.RULE_APPLIED: Visibility.SIDE,
    EventVerb.WEBHOOK_RETRIED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_PUBLISHED: Visibility.UMPIRE,
    EventVerb.WEBHOOK_DISCARDED: Visibility.UMPIRE,
    # Who plays in the campaign, and how they were let in, is the umpires' to manage.
    EventVerb.MEMBER_INVITED: Visibility.UMPIRE,
    EventVerb.MEMBER_JOINED: Visibility.UMPIRE,
    EventVerb.MEMBER_ACCOUNT_CREATED: Visibility.UMPIRE,
    EventVerb.MEMBER_REMOVED: Visibility.UMPIRE,
    EventVerb.CALENDAR_RENEWED: Visibility.UMPIRE,
    # Everybody plays by the club's schedule.
    EventVerb.SCHEDULE_SET: Visibility.PUBLIC,
    # Who was told what is the umpires' to check; each member reads their own in their inbox.
    EventVerb.NOTIFICATIONS_SENT: Visibility.UMPIRE,
    EventVerb.NOTIFICATION_EMAIL_SET: Visibility.UMPIRE,
    # A side's orders are sealed: its own and the umpires' (rules notes C-19). The umpire's
    # list of orders left unapproved at a night names both sides'.
    EventVerb.SIDE_ORDER_DRAFTED: Visibility.SIDE,
    EventVerb.SIDE_ORDER_EDITED: Visibility.SIDE,
    EventVerb.ORDERS_SUBMITTED: Visibility.SIDE,
    EventVerb.SIDE_ORDER_WITHDRAWN: Visibility.SIDE,
    EventVerb.SIDE_ORDER_APPROVED: Visibility.SIDE,
    EventVerb.SIDE_ORDER_RETURNED: Visibility.SIDE,
    EventVerb.SIDE_ORDER_AMENDED: Visibility.SIDE,
    EventVerb.SIDE_ORDERS_LAPSED: Visibility.UMPIRE,
    # A draft is its side's (the other side never reads it); its confirmation the umpires'.
    EventVerb.BATTLE_DRAFT_SAVED: Visibility.SIDE,
    EventVerb.BATTLE_DRAFTS_CONFIRMED: Visibility.UMPIRE,
    # The journal is the umpire's public account of the day: every member reads it.
    EventVerb.DAY_JOURNAL_WRITTEN: Visibility.PUBLIC,
}


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
