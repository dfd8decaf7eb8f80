"""Reading a scenario pack into a new campaign's rows: the set-up, the order of battle and,
for a full export, its state and history.  Database ids never appear in a pack: relations are
natural keys (:mod:`campaign.scenarios.format`).  :func:`campaign.services.scenario.scenario_import`
checks the pack and calls it, in its transaction."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models as db_models

from campaign import models
from campaign.scenarios.format import (
    ACTIVATION_SPEND,
    AIRBORNE_DROP,
    ARTILLERY_ORDER,
    BATTALION,
    BATTLE,
    BATTLEGROUP,
    CLUB_NIGHT,
    DAY,
    EVENT,
    FORCE,
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
    TALLY,
    Level,
    grouped,
    known,
    segment_key,
    stands_keyed,
)


def _parse(level: Level, name: str, value: Any) -> Any:
    """A pack value as the model field holds it (ISO text → date, time, datetime)."""
    return level.field(name).to_python(value)


def level_values(level: Level, entry: Mapping[str, Any]) -> dict[str, Any]:
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


class PackLoader:
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
            models.ClubNight(campaign=self.campaign, **level_values(CLUB_NIGHT, entry))
            for entry in self.pack["campaign"].get("club_nights", [])
        ]
        models.ClubNight.objects.bulk_create(nights)
        self.club_nights = {night.campaign_day: night for night in nights}

    def _sides(self) -> None:
        sides = [
            models.Side(campaign=self.campaign, **level_values(SIDE, entry)) for entry in self.pack["sides"]
        ]
        models.Side.objects.bulk_create(sides)
        self.sides = {side.name: side for side in sides}

    def _memberships(self) -> None:
        self.memberships = {
            entry["username"]: models.Membership(
                campaign=self.campaign,
                user_id=self.users[entry["username"]],
                side=known(self.sides, entry.get("side")),
                **level_values(MEMBERSHIP, entry),
            )
            for entry in self.pack.get("memberships", [])
        }
        models.Membership.objects.bulk_create(self.memberships.values())

    def _map(self) -> None:
        ground = self.pack.get("map", {})
        entries = ground.get("sectors", [])
        sectors = [
            models.Sector(
                campaign=self.campaign,
                owner=known(self.sides, entry.get("owner")),
                **level_values(SECTOR, entry),
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
                models.SectorLink(campaign=self.campaign, a=low, b=high, **level_values(SECTOR_LINK, entry))
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
                    sector=known(self.sectors, entry.get("sector")),
                    fup_sector=known(self.sectors, entry.get("fup_sector")),
                    **level_values(FORCE, entry),
                ),
            )
            for side_entry in self.pack["sides"]
            for entry in side_entry.get("forces", [])
        ]
        models.Force.objects.bulk_create([force for _, force in forces])
        models.AirborneDrop.objects.bulk_create(
            models.AirborneDrop(
                force=force,
                drop_zone=known(self.sectors, entry["airborne_drop"].get("drop_zone")),
                **level_values(AIRBORNE_DROP, entry["airborne_drop"]),
            )
            for entry, force in forces
            if entry.get("airborne_drop")
        )
        groups = [
            (entry, models.Battlegroup(force=force, **level_values(BATTLEGROUP, entry)))
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
                    sector=known(self.sectors, entry.get("sector")),
                    **{"stands_started": len(entry.get("stands", [])), **level_values(BATTALION, entry)},
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
                equipment_id=known(equipment, entry.get("equipment")),
                **level_values(STAND, entry),
            )
            for entry, battalion in stand_entries
        ]
        models.Stand.objects.bulk_create(stands)
        by_battalion = grouped(stands, lambda stand: id(stand.battalion))
        self.forces = {force.name: force for _, force in forces}
        self.battalions = {battalion.code: battalion for _, battalion in battalions}
        self.stands = {
            key: stand
            for _, battalion in battalions
            for key, stand in stands_keyed(battalion.code, by_battalion[id(battalion)])
        }

    def _days(self) -> None:
        day_entries = self.state.get("days", [])
        days = [
            models.CampaignDay(campaign=self.campaign, **level_values(DAY, entry)) for entry in day_entries
        ]
        models.CampaignDay.objects.bulk_create(days)
        self.days = {day.number: day for day in days}
        segments = [
            models.DaySegmentRecord(
                day=day,
                initiative_side=known(self.sides, entry.get("initiative_side")),
                **level_values(SEGMENT, entry),
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
                force=known(self.forces, entry.get("force")),
                **level_values(ACTIVATION_SPEND, entry),
            )
            for entry, day in spend_entries
        ]
        models.ActivationSpend.objects.bulk_create(spends)
        _stamps_restore(ACTIVATION_SPEND, spends, [entry for entry, _ in spend_entries])
        tally_entries = [
            (entry, day) for d, day in zip(day_entries, days, strict=True) for entry in d.get("tallies", [])
        ]
        tallies = [
            models.SideDayTally(day=day, side=self.sides[entry["side"]], **level_values(TALLY, entry))
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
            models.ArtilleryOrder(
                day=day, side=self.sides[entry["side"]], **level_values(ARTILLERY_ORDER, entry)
            )
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
                winner=known(self.sides, entry.get("winner")),
                attacker_decided_by=known(self.sides, entry.get("attacker_decided_by")),
                **level_values(BATTLE, entry),
            )
            for entry in entries
        ]
        models.Battle.objects.bulk_create(battles)
        self.battles = {entry["ref"]: battle for entry, battle in zip(entries, battles, strict=True)}
        # Links may point forward in the file, so they are set once every battle has an id.
        pairs = list(zip(entries, battles, strict=True))
        for entry, battle in pairs:
            battle.continues = known(self.battles, entry.get("continues"))
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
                day=known(self.days, entry.get("day")),
                segment=self._segment(entry.get("day"), entry.get("segment")),
                battle=known(self.battles, entry.get("battle")),
                force=known(self.forces, entry.get("force")),
                battalion=known(self.battalions, entry.get("battalion")),
                actor_id=known(self.users, entry.get("actor")),
                side=known(self.sides, entry.get("side")),
                **level_values(ROLL, entry),
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
                created_by_id=known(self.users, entry.get("created_by")),
                **level_values(OPERATION, entry),
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
                **level_values(NIGHT_REPORT, entry),
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
                stand=known(self.stands, entry.get("stand")),
                target_battalion=known(self.battalions, entry.get("target_battalion")),
                **level_values(NIGHT_ORDER, entry),
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
                    actor_id=known(self.users, entry.get("actor")),
                    object_id=subject.pk if subject is not None else None,
                    object_public_id=getattr(subject, "public_id", None),
                    side=known(self.sides, entry.get("side")),
                    **level_values(EVENT, entry),
                )
            )
        models.Event.objects.bulk_create(events)
        _stamps_restore(EVENT, events, entries)
        self.events = events
