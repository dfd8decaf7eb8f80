"""Scenario packs in and out.

:func:`scenario_import` creates a campaign from a pack — a hand-written
scenario (set-up only) or a full export (set-up and ``state``) — once the JSON
Schema and the domain checks pass (:mod:`campaign.scenarios.validation`).
:func:`campaign_export` writes a campaign whole.  Database ids never appear in a
pack: relations are natural keys (:mod:`campaign.scenarios.format`), so export →
import → export gives the same document.  See ``docs/scenario-format.md``.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import PurePath
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models as db_models
from django.db import transaction

from campaign import models
from campaign.choices import EventVerb, MemberRole
from campaign.scenarios import YAML_SUFFIXES, pack_parse
from campaign.scenarios.format import (
    ACTIVATION_SPEND,
    AIRBORNE_DROP,
    ARTILLERY_ORDER,
    BATTALION,
    BATTLE,
    BATTLEGROUP,
    CAMPAIGN,
    CLUB_NIGHT,
    DAY,
    EVENT,
    EXPORT_OMITS,
    FORCE,
    FORMAT,
    INSERT_STAMPED,
    MEMBERSHIP,
    NIGHT_ORDER,
    NIGHT_REPORT,
    OPERATION,
    ROLL,
    SECTOR,
    SECTOR_LINK,
    SEGMENT,
    SIDE,
    STAND,
    STATE,
    TALLY,
    VERSION,
    Level,
    segment_key,
    stand_keys,
)
from campaign.scenarios.upgrade import pack_upgrade
from campaign.scenarios.validation import MAX_ISSUES_SHOWN, issues_text, scenario_validate
from campaign.services.audit import Actor, event_record
from campaign.services.dice import dice_commitment_fields, dice_seed_fresh
from campaign.services.errors import ConflictError, DomainError, NotFoundError

# The import event belongs to the database it happened in, not to the campaign's
# history: exports leave it out, so a round trip does not grow the timeline.
LOCAL_VERBS = frozenset({EventVerb.CAMPAIGN_IMPORTED.value})

K = TypeVar("K")
V = TypeVar("V")


def _known(mapping: Mapping[K, V], key: K | None) -> V | None:
    return None if key is None else mapping[key]


def _grouped(items: Iterable[V], parent: Callable[[V], int]) -> dict[int, list[V]]:
    grouped: dict[int, list[V]] = defaultdict(list)
    for item in items:
        grouped[parent(item)].append(item)
    return grouped


def _stands_keyed(battalion_code: str, stands: Sequence[models.Stand]) -> Iterable[tuple[str, models.Stand]]:
    return zip(stand_keys(battalion_code, [stand.label for stand in stands]), stands, strict=True)


# --- import -----------------------------------------------------------------------------


def _parse(level: Level, name: str, value: Any) -> Any:
    """A pack value as the model field holds it (ISO text → date, time, datetime)."""
    return level.field(name).to_python(value)


def _values(level: Level, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The model values ``entry`` gives; fields it leaves out keep the model's default."""
    return {name: _parse(level, name, entry[name]) for name in level.fields if name in entry}


def _stamps_restore(
    level: Level, rows: Sequence[db_models.Model], entries: Sequence[Mapping[str, Any]], *also: str
) -> None:
    """Inserting stamps "now" on ``created_at``: put back the pack's times, and ``also`` fields set since."""
    for entry, row in zip(entries, rows, strict=True):
        setattr(row, INSERT_STAMPED, _parse(level, INSERT_STAMPED, entry[INSERT_STAMPED]))
    level.model._default_manager.bulk_update(rows, [INSERT_STAMPED, *also], batch_size=1000)


def _users_ensure(usernames: set[str]) -> dict[str, int]:
    """User ids by username; missing users are created with an unusable password."""
    user_model = get_user_model()
    name_field = user_model.USERNAME_FIELD
    found = {
        str(getattr(user, name_field)): int(user.pk)
        for user in user_model.objects.filter(**{f"{name_field}__in": usernames})
    }
    missing = []
    for username in sorted(usernames - found.keys()):
        user = user_model(**{name_field: username})
        user.set_unusable_password()
        missing.append(user)
    user_model.objects.bulk_create(missing)
    return {**found, **{str(getattr(user, name_field)): int(user.pk) for user in missing}}


class _PackLoader:
    """Creates a validated pack's rows under ``campaign``: one bulk insert per table."""

    def __init__(self, campaign: models.Campaign, pack: Mapping[str, Any]) -> None:
        self.campaign = campaign
        self.pack = pack
        self.state: Mapping[str, Any] = pack.get("state", {})
        self.users: dict[str, int] = {}
        self.club_nights: dict[int, models.ClubNight] = {}
        self.sides: dict[str, models.Side] = {}
        self.sectors: dict[str, models.Sector] = {}
        self.memberships: dict[str, models.Membership] = {}
        self.forces: dict[str, models.Force] = {}
        self.battalions: dict[str, models.Battalion] = {}
        self.stands: dict[str, models.Stand] = {}
        self.days: dict[int, models.CampaignDay] = {}
        self.segments: dict[str, models.DaySegmentRecord] = {}
        self.battles: dict[int, models.Battle] = {}
        self.rolls: list[models.RollRecord] = []
        self.operations: list[models.Operation] = []
        self.night_orders: list[models.NightOrder] = []
        self.events: list[models.Event] = []

    def load(self) -> dict[str, int]:
        """Create everything; returns how many of each were created."""
        self._users()
        self._club_nights()
        self._sides()
        self._memberships()
        self._map()
        self._order_of_battle()
        self._days()
        self._battles()
        self._rolls()
        self._operations()
        self._night_orders()
        self._events()
        return {
            "sides": len(self.sides),
            "sectors": len(self.sectors),
            "forces": len(self.forces),
            "battalions": len(self.battalions),
            "stands": len(self.stands),
            "days": len(self.days),
            "battles": len(self.battles),
            "rolls": len(self.rolls),
            "events": len(self.events),
        }

    def _segment(self, day: int | None, segment: str | None) -> models.DaySegmentRecord | None:
        return None if day is None or segment is None else self.segments[segment_key(day, segment)]

    def _users(self) -> None:
        state = self.state
        named = [
            *(m["username"] for m in self.pack.get("memberships", [])),
            *(r.get("actor") for r in state.get("rolls", [])),
            *(e.get("actor") for e in state.get("events", [])),
            *(o.get("created_by") for o in state.get("operations", [])),
        ]
        self.users = _users_ensure({name for name in named if name})

    def _club_nights(self) -> None:
        nights = [
            models.ClubNight(campaign=self.campaign, **_values(CLUB_NIGHT, entry))
            for entry in self.pack["campaign"].get("club_nights", [])
        ]
        models.ClubNight.objects.bulk_create(nights)
        self.club_nights = {night.campaign_day: night for night in nights}

    def _sides(self) -> None:
        sides = [models.Side(campaign=self.campaign, **_values(SIDE, entry)) for entry in self.pack["sides"]]
        models.Side.objects.bulk_create(sides)
        self.sides = {side.name: side for side in sides}

    def _memberships(self) -> None:
        self.memberships = {
            entry["username"]: models.Membership(
                campaign=self.campaign,
                user_id=self.users[entry["username"]],
                side=_known(self.sides, entry.get("side")),
                **_values(MEMBERSHIP, entry),
            )
            for entry in self.pack.get("memberships", [])
        }
        models.Membership.objects.bulk_create(self.memberships.values())

    def _map(self) -> None:
        ground = self.pack.get("map", {})
        entries = ground.get("sectors", [])
        sectors = [
            models.Sector(
                campaign=self.campaign, owner=_known(self.sides, entry.get("owner")), **_values(SECTOR, entry)
            )
            for entry in entries
        ]
        models.Sector.objects.bulk_create(sectors)
        self.sectors = {sector.key: sector for sector in sectors}
        source = models.Sector.supply_source_for.through
        source.objects.bulk_create(
            source(sector_id=sector.pk, side_id=self.sides[name].pk)
            for entry, sector in zip(entries, sectors, strict=True)
            for name in entry.get("supply_source_for", [])
        )
        links = []
        for entry in ground.get("links", []):
            low, high = sorted((self.sectors[entry["a"]], self.sectors[entry["b"]]), key=lambda s: s.pk)
            links.append(
                models.SectorLink(campaign=self.campaign, a=low, b=high, **_values(SECTOR_LINK, entry))
            )
        models.SectorLink.objects.bulk_create(links)

    def _order_of_battle(self) -> None:
        campaign = self.campaign
        forces = [
            (
                entry,
                models.Force(
                    campaign=campaign,
                    side=self.sides[side_entry["name"]],
                    sector=_known(self.sectors, entry.get("sector")),
                    fup_sector=_known(self.sectors, entry.get("fup_sector")),
                    **_values(FORCE, entry),
                ),
            )
            for side_entry in self.pack["sides"]
            for entry in side_entry.get("forces", [])
        ]
        models.Force.objects.bulk_create([force for _, force in forces])
        models.AirborneDrop.objects.bulk_create(
            models.AirborneDrop(
                force=force,
                drop_zone=_known(self.sectors, entry["airborne_drop"].get("drop_zone")),
                **_values(AIRBORNE_DROP, entry["airborne_drop"]),
            )
            for entry, force in forces
            if entry.get("airborne_drop")
        )
        groups = [
            (entry, models.Battlegroup(force=force, **_values(BATTLEGROUP, entry)))
            for force_entry, force in forces
            for entry in force_entry.get("battlegroups", [])
        ]
        models.Battlegroup.objects.bulk_create([group for _, group in groups])
        battalions = [
            (
                entry,
                models.Battalion(
                    battlegroup=group,
                    campaign=campaign,
                    side=group.force.side,
                    sector=_known(self.sectors, entry.get("sector")),
                    **{"stands_started": len(entry.get("stands", [])), **_values(BATTALION, entry)},
                ),
            )
            for group_entry, group in groups
            for entry in group_entry.get("battalions", [])
        ]
        models.Battalion.objects.bulk_create([battalion for _, battalion in battalions])
        stand_entries = [(entry, battalion) for b, battalion in battalions for entry in b.get("stands", [])]
        keys = {entry["equipment"] for entry, _ in stand_entries if entry.get("equipment")}
        equipment = dict(models.Equipment.objects.filter(key__in=keys).values_list("key", "pk"))
        stands = [
            models.Stand(
                battalion=battalion,
                campaign=campaign,
                equipment_id=_known(equipment, entry.get("equipment")),
                **_values(STAND, entry),
            )
            for entry, battalion in stand_entries
        ]
        models.Stand.objects.bulk_create(stands)
        by_battalion = _grouped(stands, lambda stand: id(stand.battalion))
        self.forces = {force.name: force for _, force in forces}
        self.battalions = {battalion.code: battalion for _, battalion in battalions}
        self.stands = {
            key: stand
            for _, battalion in battalions
            for key, stand in _stands_keyed(battalion.code, by_battalion[id(battalion)])
        }

    def _days(self) -> None:
        day_entries = self.state.get("days", [])
        days = [models.CampaignDay(campaign=self.campaign, **_values(DAY, entry)) for entry in day_entries]
        models.CampaignDay.objects.bulk_create(days)
        self.days = {day.number: day for day in days}
        segments = [
            models.DaySegmentRecord(
                day=day,
                initiative_side=_known(self.sides, entry.get("initiative_side")),
                **_values(SEGMENT, entry),
            )
            for day_entry, day in zip(day_entries, days, strict=True)
            for entry in day_entry.get("segments", [])
        ]
        models.DaySegmentRecord.objects.bulk_create(segments)
        self.segments = {segment_key(record.day.number, record.segment): record for record in segments}
        spend_entries = [
            (entry, day)
            for d, day in zip(day_entries, days, strict=True)
            for entry in d.get("activation_spends", [])
        ]
        spends = [
            models.ActivationSpend(
                day=day,
                side=self.sides[entry["side"]],
                force=_known(self.forces, entry.get("force")),
                **_values(ACTIVATION_SPEND, entry),
            )
            for entry, day in spend_entries
        ]
        models.ActivationSpend.objects.bulk_create(spends)
        _stamps_restore(ACTIVATION_SPEND, spends, [entry for entry, _ in spend_entries])
        tally_entries = [
            (entry, day) for d, day in zip(day_entries, days, strict=True) for entry in d.get("tallies", [])
        ]
        tallies = [
            models.SideDayTally(day=day, side=self.sides[entry["side"]], **_values(TALLY, entry))
            for entry, day in tally_entries
        ]
        models.SideDayTally.objects.bulk_create(tallies)
        _stamps_restore(TALLY, tallies, [entry for entry, _ in tally_entries])
        order_entries = [
            (entry, day)
            for d, day in zip(day_entries, days, strict=True)
            for entry in d.get("artillery_orders", [])
        ]
        orders = [
            models.ArtilleryOrder(day=day, side=self.sides[entry["side"]], **_values(ARTILLERY_ORDER, entry))
            for entry, day in order_entries
        ]
        models.ArtilleryOrder.objects.bulk_create(orders)
        _stamps_restore(ARTILLERY_ORDER, orders, [entry for entry, _ in order_entries])
        link = models.ActivationSpend.battalions.through
        link.objects.bulk_create(
            link(activationspend_id=spend.pk, battalion_id=self.battalions[code].pk)
            for (entry, _), spend in zip(spend_entries, spends, strict=True)
            for code in entry.get("battalions", [])
        )

    def _battles(self) -> None:
        entries = self.state.get("battles", [])
        battles = [
            models.Battle(
                campaign=self.campaign,
                day=self.days[entry["day"]],
                attacker=self.sides[entry["attacker"]],
                defender=self.sides[entry["defender"]],
                sector=self.sectors[entry["sector"]],
                winner=_known(self.sides, entry.get("winner")),
                attacker_decided_by=_known(self.sides, entry.get("attacker_decided_by")),
                **_values(BATTLE, entry),
            )
            for entry in entries
        ]
        models.Battle.objects.bulk_create(battles)
        self.battles = {entry["ref"]: battle for entry, battle in zip(entries, battles, strict=True)}
        # Links may point forward in the file, so they are set once every battle has an id.
        pairs = list(zip(entries, battles, strict=True))
        for entry, battle in pairs:
            battle.continues = _known(self.battles, entry.get("continues"))
        models.Battle.objects.bulk_update(
            [b for e, b in pairs if e.get("continues") is not None], ["continues"]
        )
        segment_link = models.Battle.segments.through
        segment_link.objects.bulk_create(
            segment_link(
                battle_id=battle.pk, daysegmentrecord_id=self.segments[segment_key(entry["day"], name)].pk
            )
            for entry, battle in pairs
            for name in entry.get("segments", [])
        )
        feed_link = models.Battle.feeds.through
        feed_link.objects.bulk_create(
            feed_link(from_battle_id=battle.pk, to_battle_id=self.battles[ref].pk)
            for entry, battle in pairs
            for ref in entry.get("feeds", [])
        )
        battalion_link = models.Battle.battalions.through
        battalion_link.objects.bulk_create(
            battalion_link(battle_id=battle.pk, battalion_id=self.battalions[code].pk)
            for entry, battle in pairs
            for code in entry.get("battalions", [])
        )

    def _rolls(self) -> None:
        entries = self.state.get("rolls", [])
        rolls = [
            models.RollRecord(
                campaign=self.campaign,
                day=_known(self.days, entry.get("day")),
                segment=self._segment(entry.get("day"), entry.get("segment")),
                battle=_known(self.battles, entry.get("battle")),
                force=_known(self.forces, entry.get("force")),
                battalion=_known(self.battalions, entry.get("battalion")),
                actor_id=_known(self.users, entry.get("actor")),
                side=_known(self.sides, entry.get("side")),
                **_values(ROLL, entry),
            )
            for entry in entries
        ]
        models.RollRecord.objects.bulk_create(rolls)
        # An override names a roll that needs its id first, so the link is set after the insert.
        for entry, roll in zip(entries, rolls, strict=True):
            overridden = entry.get("override_of")
            roll.override_of = rolls[overridden] if overridden is not None else None
        _stamps_restore(ROLL, rolls, entries, "override_of")
        self.rolls = rolls

    def _operations(self) -> None:
        entries = self.state.get("operations", [])
        operations = [
            models.Operation(
                campaign=self.campaign,
                day=self.days[entry["day"]],
                segment=self._segment(entry["day"], entry.get("segment")),
                created_by_id=_known(self.users, entry.get("created_by")),
                **_values(OPERATION, entry),
            )
            for entry in entries
        ]
        models.Operation.objects.bulk_create(operations)
        _stamps_restore(OPERATION, operations, entries)
        report_entries = [
            (report, operation)
            for entry, operation in zip(entries, operations, strict=True)
            for report in entry.get("night_reports", [])
        ]
        reports = [
            models.NightReport(
                operation=operation,
                side=self.sides[entry["side"]],
                day=self.days[entry["day"]],
                **_values(NIGHT_REPORT, entry),
            )
            for entry, operation in report_entries
        ]
        models.NightReport.objects.bulk_create(reports)
        _stamps_restore(NIGHT_REPORT, reports, [entry for entry, _ in report_entries])
        self.operations = operations

    def _night_orders(self) -> None:
        self.night_orders = [
            models.NightOrder(
                campaign=self.campaign,
                day=self.days[entry["day"]],
                battalion=self.battalions[entry["battalion"]],
                stand=_known(self.stands, entry.get("stand")),
                target_battalion=_known(self.battalions, entry.get("target_battalion")),
                **_values(NIGHT_ORDER, entry),
            )
            for entry in self.state.get("night_orders", [])
        ]
        models.NightOrder.objects.bulk_create(self.night_orders)

    def _subjects(self) -> dict[str, Mapping[str, db_models.Model]]:
        """Event subjects by type and natural key (as the export writes them)."""
        return {
            "Campaign": {self.pack["campaign"]["slug"]: self.campaign},
            "ClubNight": {str(day): night for day, night in self.club_nights.items()},
            "Side": self.sides,
            "Membership": self.memberships,
            "Force": self.forces,
            "Battalion": self.battalions,
            "Stand": self.stands,
            "Sector": self.sectors,
            "CampaignDay": {str(number): day for number, day in self.days.items()},
            "DaySegmentRecord": self.segments,
            "Battle": {str(ref): battle for ref, battle in self.battles.items()},
            "RollRecord": {str(index): roll for index, roll in enumerate(self.rolls)},
            "Operation": {str(index): op for index, op in enumerate(self.operations)},
            "NightOrder": {str(index): order for index, order in enumerate(self.night_orders)},
        }

    def _events(self) -> None:
        entries = self.state.get("events", [])
        subjects = self._subjects()
        events = []
        for entry in entries:
            subject = subjects.get(entry["object_type"], {}).get(entry.get("object_key") or "")
            events.append(
                models.Event(
                    campaign=self.campaign,
                    actor_id=_known(self.users, entry.get("actor")),
                    object_id=subject.pk if subject is not None else None,
                    object_public_id=getattr(subject, "public_id", None),
                    side=_known(self.sides, entry.get("side")),
                    **_values(EVENT, entry),
                )
            )
        models.Event.objects.bulk_create(events)
        _stamps_restore(EVENT, events, entries)
        self.events = events


def _slug_check(slug: str) -> None:
    try:
        validate_slug(slug)
    except ValidationError as exc:
        raise DomainError("; ".join(exc.messages), field="slug") from exc
    if len(slug) > (models.Campaign._meta.get_field("slug").max_length or 0):
        raise DomainError("the slug is too long", field="slug")


@transaction.atomic
def scenario_import(pack: Mapping[str, Any], actor: Actor, *, slug: str | None = None) -> models.Campaign:
    """Create a campaign from ``pack`` (a scenario or a full export), all or nothing.

    ``slug`` imports it under another slug.  Users the pack names (members,
    roll and event actors, operation creators) are created when missing, with
    an unusable password: they log in once an admin sets one.
    """
    issues = scenario_validate(pack)
    if issues:
        by_path: dict[str, list[str]] = defaultdict(list)
        for issue in issues[:MAX_ISSUES_SHOWN]:
            by_path[issue.path].append(issue.message)
        raise DomainError(issues_text(issues), field=issues[0].path, code="invalid_scenario", fields=by_path)
    values = _values(CAMPAIGN, pack["campaign"])
    if slug is not None:
        _slug_check(slug)
        values["slug"] = slug
    if models.Campaign.objects.filter(slug=values["slug"]).exists():
        raise ConflictError(
            f"a campaign with slug {values['slug']!r} already exists",
            field="campaign.slug",
            code="slug_taken",
        )
    pack = pack_upgrade(pack)
    # A pack without a seed (an export, or a scenario that does not fix one) rolls from a fresh secret one.
    values |= dice_commitment_fields(values.pop("rng_seed", "") or dice_seed_fresh())
    state = _values(STATE, pack.get("state", {}))
    if "dice_revealed_through" not in state:  # a pack from before day seeds: its nights are over
        done = [
            day.get("number", 0)
            for day in pack.get("state", {}).get("days", [])
            if day.get("status") == "done"
        ]
        state["dice_revealed_through"] = max(done, default=0)
    campaign = models.Campaign.objects.create(**values, **state)
    loader = _PackLoader(campaign, pack)
    counts = loader.load()
    winner = pack.get("state", {}).get("winner")
    if winner is not None:
        campaign.winner = loader.sides[winner]
        campaign.save(update_fields=["winner"])
    event_record(
        campaign,
        EventVerb.CAMPAIGN_IMPORTED,
        campaign,
        f"{campaign.name} imported: {counts['sides']} sides, {counts['battalions']} battalions, "
        f"{counts['stands']} stands, {counts['days']} days",
        actor,
        after=counts,
    )
    return campaign


# Where a pack's history names people: the entries of state lists, by list and field.
PEOPLE_FIELDS = {"rolls": ("actor",), "events": ("actor",), "operations": ("created_by",)}


def _entry_without_people(key: str, entry: Any) -> Any:
    if not isinstance(entry, Mapping):
        return entry  # the schema refuses it, by its path
    dropped = set(PEOPLE_FIELDS.get(key, ()))
    if key == "events" and entry.get("object_type") == models.Membership.__name__:
        dropped.add("object_key")  # a membership the pack no longer holds
    return {name: value for name, value in entry.items() if name not in dropped}


def _pack_without_people(pack: Mapping[str, Any]) -> dict[str, Any]:
    """``pack`` without its memberships and the users its history names: a pack uploaded
    through the web neither makes accounts nor gives anybody a role (its rolls and events
    keep what happened, without who did it)."""
    stripped = {**pack, "memberships": []}
    state = pack.get("state")
    if isinstance(state, Mapping):
        stripped["state"] = {
            key: [_entry_without_people(key, entry) for entry in entries]
            if isinstance(entries, list)
            else entries
            for key, entries in state.items()
        }
    return stripped


def _slug_free(base: str) -> str:
    """``base``, or ``base-2``, ``base-3``... whichever no campaign has yet."""
    taken = set(models.Campaign.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    number = 1
    slug = base
    while slug in taken:
        number += 1
        slug = f"{base}-{number}"
    return slug


@transaction.atomic
def campaign_create(
    actor: Actor, pack: Any, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """A new campaign from ``pack`` whose only member is its creator, as umpire, rolling
    from a fresh secret seed (a seed the pack fixes is not used).

    Without ``slug`` it takes the pack's, numbered when taken. A pack's issues are
    refused by their path in the file, each under ``pack.<path>``."""
    user_id = actor.user_id
    if user_id is None:
        raise DomainError("only a signed-in user creates a campaign", code="not_signed_in")
    if not isinstance(pack, Mapping):
        raise DomainError("the file holds no scenario pack (a mapping of campaign, sides...)", field="pack")
    if slug is not None:
        _slug_check(slug)
        if models.Campaign.objects.filter(slug=slug).exists():
            raise ConflictError(
                f"a campaign with slug {slug!r} already exists", field="slug", code="slug_taken"
            )
    stripped = _pack_without_people(pack)
    campaign_values = stripped.get("campaign")
    if isinstance(campaign_values, Mapping):
        if slug is None and isinstance(campaign_values.get("slug"), str):
            slug = _slug_free(campaign_values["slug"])
        # Whoever uploads the pack would know every die of a seed it fixes: a fresh secret one.
        stripped["campaign"] = {
            **{k: v for k, v in campaign_values.items() if k not in EXPORT_OMITS},
            **({"name": name} if name else {}),
        }
    try:
        campaign = scenario_import(stripped, actor, slug=slug)
    except DomainError as refused:
        if refused.code != "invalid_scenario":
            raise
        fields = {f"pack.{path}" if path else "pack": texts for path, texts in refused.fields.items()}
        raise DomainError(
            f"the pack was not imported:\n{refused.message}",
            field="pack",
            code="invalid_scenario",
            fields=fields,
        ) from None
    membership = models.Membership.objects.create(user_id=user_id, campaign=campaign, role=MemberRole.UMPIRE)
    event_record(
        campaign,
        EventVerb.MEMBER_JOINED,
        membership,
        f"{membership.user} created {campaign.name} and umpires it",
        actor,
        after={"role": MemberRole.UMPIRE.value},
    )
    return campaign


def campaign_create_from_file(
    actor: Actor, file_name: str, content: str, *, slug: str | None = None, name: str | None = None
) -> models.Campaign:
    """:func:`campaign_create` from an uploaded file's text: YAML for .yaml/.yml, else JSON."""
    suffix = PurePath(file_name).suffix
    try:
        pack = pack_parse(content, suffix)
    except ValueError as exc:  # JSON and YAML parse errors both say where
        kind = "YAML" if suffix.lower() in YAML_SUFFIXES else "JSON"
        raise DomainError(
            f"{file_name} is not valid {kind}: {exc}", field="pack", code="invalid_scenario"
        ) from None
    return campaign_create(actor, pack, slug=slug, name=name)


# --- export -----------------------------------------------------------------------------


def _to_pack(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime.date | datetime.time) else value


def _plain(level: Level, instance: db_models.Model) -> dict[str, Any]:
    return {name: _to_pack(getattr(instance, name)) for name in level.fields}


def campaign_id_by_slug(slug: str) -> int:
    campaign_id = models.Campaign.objects.filter(slug=slug).values_list("pk", flat=True).first()
    if campaign_id is None:
        raise NotFoundError(f"no campaign with slug {slug!r}", field="slug")
    return campaign_id


def actor_by_username(username: str) -> Actor:
    """The actor a command acts as, named on its command line."""
    user_model = get_user_model()
    user = user_model.objects.filter(**{user_model.USERNAME_FIELD: username}).first()
    if user is None:
        raise NotFoundError(f"no user {username!r}", field="username")
    return Actor(user)


def campaign_export(campaign_id: int) -> dict[str, Any]:
    """The whole campaign as a pack: set-up, order of battle, memberships and state."""
    campaign = models.Campaign.objects.filter(pk=campaign_id).first()
    if campaign is None:
        raise NotFoundError(f"campaign {campaign_id} does not exist", field="campaign")
    return _CampaignWriter(campaign).pack()


class _CampaignWriter:
    """Reads a campaign table by table — a fixed number of queries at any size — and writes its pack."""

    def __init__(self, campaign: models.Campaign) -> None:
        self.campaign = campaign
        self.sides = list(campaign.sides.order_by("name", "pk"))
        # In the order the pack listed them: an import creates them in file order.
        self.sectors = list(campaign.sectors.order_by("pk").prefetch_related("supply_source_for"))
        self.links = list(campaign.sector_links.all())
        self.forces = list(campaign.forces.order_by("name", "pk"))
        self.airborne_drops = {
            drop.force_id: drop for drop in models.AirborneDrop.objects.filter(force__campaign=campaign)
        }
        self.battalions = list(campaign.battalions.order_by("code", "pk"))
        self.stands = list(campaign.stands.select_related("equipment").order_by("label", "pk"))
        self.stands_by_battalion = _grouped(self.stands, lambda stand: stand.battalion_id)
        self.days = list(campaign.days.order_by("number"))
        self.segments = list(
            models.DaySegmentRecord.objects.filter(day__campaign=campaign).order_by("order", "pk")
        )
        self.battles = list(
            campaign.battles.order_by("pk").prefetch_related("segments", "feeds", "battalions")
        )
        self.rolls = list(campaign.rolls.order_by("pk"))
        self.events = list(campaign.events.exclude(verb__in=LOCAL_VERBS).order_by("pk"))
        self.operations = list(campaign.operations.order_by("pk").prefetch_related("night_reports"))
        self.night_orders = list(campaign.night_orders.order_by("pk"))
        self.memberships = list(campaign.memberships.all())
        self.club_nights = list(campaign.club_nights.order_by("campaign_day"))
        user_ids = {
            *(m.user_id for m in self.memberships),
            *(r.actor_id for r in self.rolls),
            *(e.actor_id for e in self.events),
            *(o.created_by_id for o in self.operations),
        }
        user_model = get_user_model()
        self.usernames = {
            int(user.pk): str(getattr(user, user_model.USERNAME_FIELD))
            for user in user_model.objects.filter(pk__in=user_ids - {None})
        }
        self.side_names = {side.pk: side.name for side in self.sides}
        self.sector_keys = {sector.pk: sector.key for sector in self.sectors}
        self.day_numbers = {day.pk: day.number for day in self.days}
        self.segment_names = {record.pk: record.segment for record in self.segments}
        self.battle_refs = {battle.pk: ref for ref, battle in enumerate(self.battles, start=1)}
        self.battalion_codes = {battalion.pk: battalion.code for battalion in self.battalions}
        self.stand_keys = {
            stand.pk: key
            for battalion in self.battalions
            for key, stand in _stands_keyed(battalion.code, self.stands_by_battalion[battalion.pk])
        }

    def pack(self) -> dict[str, Any]:
        memberships = [
            {
                "username": self.usernames[m.user_id],
                **_plain(MEMBERSHIP, m),
                "side": _known(self.side_names, m.side_id),
            }
            for m in self.memberships
        ]
        return {
            "format": FORMAT,
            "version": VERSION,
            "campaign": {
                **{k: v for k, v in _plain(CAMPAIGN, self.campaign).items() if k not in EXPORT_OMITS},
                "club_nights": [_plain(CLUB_NIGHT, night) for night in self.club_nights],
            },
            "sides": self._sides(),
            "map": self._map(),
            "memberships": sorted(memberships, key=lambda entry: str(entry["username"])),
            "state": {
                **_plain(STATE, self.campaign),
                "winner": _known(self.side_names, self.campaign.winner_id),
                "days": self._days(),
                "battles": self._battles(),
                "rolls": self._rolls(),
                "events": self._events(),
                "operations": self._operations(),
                "night_orders": self._night_orders(),
            },
        }

    def _map(self) -> dict[str, Any]:
        sectors = [
            {
                **_plain(SECTOR, sector),
                "owner": _known(self.side_names, sector.owner_id),
                "supply_source_for": sorted(
                    self.side_names[side.pk] for side in sector.supply_source_for.all()
                ),
            }
            for sector in self.sectors
        ]
        # Each link once, its ends in key order, the links in the order of their ends' keys.
        ends = {
            link.pk: sorted((self.sector_keys[link.a_id], self.sector_keys[link.b_id])) for link in self.links
        }
        links = [
            {"a": ends[link.pk][0], "b": ends[link.pk][1], **_plain(SECTOR_LINK, link)}
            for link in sorted(self.links, key=lambda link: ends[link.pk])
        ]
        return {"sectors": sectors, "links": links}

    def _sides(self) -> list[dict[str, Any]]:
        groups = _grouped(
            models.Battlegroup.objects.filter(force__campaign=self.campaign).order_by("name", "pk"),
            lambda group: group.force_id,
        )
        forces = _grouped(self.forces, lambda force: force.side_id)
        battalions = _grouped(self.battalions, lambda battalion: battalion.battlegroup_id)

        def stand_entry(stand: models.Stand) -> dict[str, Any]:
            return {**_plain(STAND, stand), "equipment": stand.equipment.key if stand.equipment else None}

        def battalion_entry(battalion: models.Battalion) -> dict[str, Any]:
            return {
                **_plain(BATTALION, battalion),
                "sector": _known(self.sector_keys, battalion.sector_id),
                "stands": [stand_entry(s) for s in self.stands_by_battalion[battalion.pk]],
            }

        def group_entry(group: models.Battlegroup) -> dict[str, Any]:
            return {
                **_plain(BATTLEGROUP, group),
                "battalions": [battalion_entry(b) for b in battalions[group.pk]],
            }

        def drop_entry(drop: models.AirborneDrop | None) -> dict[str, Any] | None:
            if drop is None:
                return None
            return {**_plain(AIRBORNE_DROP, drop), "drop_zone": _known(self.sector_keys, drop.drop_zone_id)}

        def force_entry(force: models.Force) -> dict[str, Any]:
            return {
                **_plain(FORCE, force),
                "sector": _known(self.sector_keys, force.sector_id),
                "fup_sector": _known(self.sector_keys, force.fup_sector_id),
                "airborne_drop": drop_entry(self.airborne_drops.get(force.pk)),
                "battlegroups": [group_entry(g) for g in groups[force.pk]],
            }

        return [
            {**_plain(SIDE, side), "forces": [force_entry(f) for f in forces[side.pk]]} for side in self.sides
        ]

    def _days(self) -> list[dict[str, Any]]:
        segments = _grouped(self.segments, lambda record: record.day_id)
        spends = _grouped(
            models.ActivationSpend.objects.filter(day__campaign=self.campaign)
            .order_by("turn", "pk")
            .prefetch_related("battalions"),
            lambda spend: spend.day_id,
        )
        tallies = _grouped(
            models.SideDayTally.objects.filter(day__campaign=self.campaign).order_by("side__name", "pk"),
            lambda tally: tally.day_id,
        )
        artillery = _grouped(
            models.ArtilleryOrder.objects.filter(day__campaign=self.campaign).order_by(
                "side__name", "template"
            ),
            lambda order: order.day_id,
        )
        force_names = {force.pk: force.name for force in self.forces}
        return [
            {
                **_plain(DAY, day),
                "segments": [
                    {
                        **_plain(SEGMENT, record),
                        "initiative_side": _known(self.side_names, record.initiative_side_id),
                    }
                    for record in segments[day.pk]
                ],
                "activation_spends": [
                    {
                        "side": self.side_names[spend.side_id],
                        "force": _known(force_names, spend.force_id),
                        **_plain(ACTIVATION_SPEND, spend),
                        "battalions": sorted(self.battalion_codes[b.pk] for b in spend.battalions.all()),
                    }
                    for spend in spends[day.pk]
                ],
                "tallies": [
                    {"side": self.side_names[tally.side_id], **_plain(TALLY, tally)}
                    for tally in tallies[day.pk]
                ],
                "artillery_orders": [
                    {"side": self.side_names[order.side_id], **_plain(ARTILLERY_ORDER, order)}
                    for order in artillery[day.pk]
                ],
            }
            for day in self.days
        ]

    def _battles(self) -> list[dict[str, Any]]:
        return [
            {
                "ref": self.battle_refs[battle.pk],
                "day": self.day_numbers[battle.day_id],
                "segments": [r.segment for r in sorted(battle.segments.all(), key=lambda r: r.order)],
                "attacker": self.side_names[battle.attacker_id],
                "defender": self.side_names[battle.defender_id],
                "continues": _known(self.battle_refs, battle.continues_id),
                "feeds": sorted(self.battle_refs[fed.pk] for fed in battle.feeds.all()),
                "battalions": sorted(self.battalion_codes[b.pk] for b in battle.battalions.all()),
                "sector": self.sector_keys[battle.sector_id],
                "winner": _known(self.side_names, battle.winner_id),
                "attacker_decided_by": _known(self.side_names, battle.attacker_decided_by_id),
                **_plain(BATTLE, battle),
            }
            for battle in self.battles
        ]

    def _rolls(self) -> list[dict[str, Any]]:
        force_names = {force.pk: force.name for force in self.forces}
        roll_indexes = {roll.pk: index for index, roll in enumerate(self.rolls)}
        return [
            {
                "day": _known(self.day_numbers, roll.day_id),
                "segment": _known(self.segment_names, roll.segment_id),
                "battle": _known(self.battle_refs, roll.battle_id),
                "force": _known(force_names, roll.force_id),
                "battalion": _known(self.battalion_codes, roll.battalion_id),
                **_plain(ROLL, roll),
                "actor": _known(self.usernames, roll.actor_id),
                "override_of": _known(roll_indexes, roll.override_of_id),
                "side": _known(self.side_names, roll.side_id),
            }
            for roll in self.rolls
        ]

    def _operations(self) -> list[dict[str, Any]]:
        return [
            {
                "day": self.day_numbers[operation.day_id],
                "segment": _known(self.segment_names, operation.segment_id),
                **_plain(OPERATION, operation),
                "created_by": _known(self.usernames, operation.created_by_id),
                "night_reports": [
                    {
                        "side": self.side_names[report.side_id],
                        "day": self.day_numbers[report.day_id],
                        **_plain(NIGHT_REPORT, report),
                    }
                    for report in sorted(operation.night_reports.all(), key=lambda r: r.pk)
                ],
            }
            for operation in self.operations
        ]

    def _night_orders(self) -> list[dict[str, Any]]:
        return [
            {
                "day": self.day_numbers[order.day_id],
                "battalion": self.battalion_codes[order.battalion_id],
                "stand": _known(self.stand_keys, order.stand_id),
                "target_battalion": _known(self.battalion_codes, order.target_battalion_id),
                **_plain(NIGHT_ORDER, order),
            }
            for order in self.night_orders
        ]

    def _subject_keys(self) -> dict[str, dict[int, str]]:
        """Natural keys of event subjects by type and id; the import reads them back."""
        return {
            "Campaign": {self.campaign.pk: self.campaign.slug},
            "ClubNight": {night.pk: str(night.campaign_day) for night in self.club_nights},
            "Side": self.side_names,
            "Membership": {m.pk: self.usernames[m.user_id] for m in self.memberships},
            "Force": {force.pk: force.name for force in self.forces},
            "Battalion": self.battalion_codes,
            "Stand": self.stand_keys,
            "Sector": self.sector_keys,
            "CampaignDay": {day.pk: str(day.number) for day in self.days},
            "DaySegmentRecord": {
                r.pk: segment_key(self.day_numbers[r.day_id], r.segment) for r in self.segments
            },
            "Battle": {pk: str(ref) for pk, ref in self.battle_refs.items()},
            "RollRecord": {roll.pk: str(index) for index, roll in enumerate(self.rolls)},
            "Operation": {op.pk: str(index) for index, op in enumerate(self.operations)},
            "NightOrder": {order.pk: str(index) for index, order in enumerate(self.night_orders)},
        }

    def _events(self) -> list[dict[str, Any]]:
        keys = self._subject_keys()
        return [
            {
                **_plain(EVENT, event),
                "object_key": keys.get(event.object_type, {}).get(event.object_id or 0),
                "actor": _known(self.usernames, event.actor_id),
                "side": _known(self.side_names, event.side_id),
            }
            for event in self.events
        ]
