"""A campaign written whole as a pack: set-up, order of battle, memberships and state, by
natural keys (:mod:`campaign.scenarios.format`), so export → import → export gives the same
document.  See ``docs/scenario-format.md``."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models as db_models

from campaign import models
from campaign.choices import EventVerb
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
    grouped,
    known,
    segment_key,
    stands_keyed,
)
from campaign.services.errors import NotFoundError

# The import event belongs to the database it happened in, not to the campaign's
# history: exports leave it out, so a round trip does not grow the timeline.
LOCAL_VERBS = frozenset({EventVerb.CAMPAIGN_IMPORTED.value})


def _to_pack(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime.date | datetime.time) else value


def _plain(level: Level, instance: db_models.Model) -> dict[str, Any]:
    return {name: _to_pack(getattr(instance, name)) for name in level.fields}


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
        self.stands_by_battalion = grouped(self.stands, lambda stand: stand.battalion_id)
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
            for key, stand in stands_keyed(battalion.code, self.stands_by_battalion[battalion.pk])
        }

    def pack(self) -> dict[str, Any]:
        memberships = [
            {
                "username": self.usernames[m.user_id],
                **_plain(MEMBERSHIP, m),
                "side": known(self.side_names, m.side_id),
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
                "winner": known(self.side_names, self.campaign.winner_id),
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
                "owner": known(self.side_names, sector.owner_id),
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
        groups = grouped(
            models.Battlegroup.objects.filter(force__campaign=self.campaign).order_by("name", "pk"),
            lambda group: group.force_id,
        )
        forces = grouped(self.forces, lambda force: force.side_id)
        battalions = grouped(self.battalions, lambda battalion: battalion.battlegroup_id)

        def stand_entry(stand: models.Stand) -> dict[str, Any]:
            return {**_plain(STAND, stand), "equipment": stand.equipment.key if stand.equipment else None}

        def battalion_entry(battalion: models.Battalion) -> dict[str, Any]:
            return {
                **_plain(BATTALION, battalion),
                "sector": known(self.sector_keys, battalion.sector_id),
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
            return {**_plain(AIRBORNE_DROP, drop), "drop_zone": known(self.sector_keys, drop.drop_zone_id)}

        def force_entry(force: models.Force) -> dict[str, Any]:
            return {
                **_plain(FORCE, force),
                "sector": known(self.sector_keys, force.sector_id),
                "fup_sector": known(self.sector_keys, force.fup_sector_id),
                "airborne_drop": drop_entry(self.airborne_drops.get(force.pk)),
                "battlegroups": [group_entry(g) for g in groups[force.pk]],
            }

        return [
            {**_plain(SIDE, side), "forces": [force_entry(f) for f in forces[side.pk]]} for side in self.sides
        ]

    def _days(self) -> list[dict[str, Any]]:
        segments = grouped(self.segments, lambda record: record.day_id)
        spends = grouped(
            models.ActivationSpend.objects.filter(day__campaign=self.campaign)
            .order_by("turn", "pk")
            .prefetch_related("battalions"),
            lambda spend: spend.day_id,
        )
        tallies = grouped(
            models.SideDayTally.objects.filter(day__campaign=self.campaign).order_by("side__name", "pk"),
            lambda tally: tally.day_id,
        )
        artillery = grouped(
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
                        "initiative_side": known(self.side_names, record.initiative_side_id),
                    }
                    for record in segments[day.pk]
                ],
                "activation_spends": [
                    {
                        "side": self.side_names[spend.side_id],
                        "force": known(force_names, spend.force_id),
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
                "continues": known(self.battle_refs, battle.continues_id),
                "feeds": sorted(self.battle_refs[fed.pk] for fed in battle.feeds.all()),
                "battalions": sorted(self.battalion_codes[b.pk] for b in battle.battalions.all()),
                "sector": self.sector_keys[battle.sector_id],
                "winner": known(self.side_names, battle.winner_id),
                "attacker_decided_by": known(self.side_names, battle.attacker_decided_by_id),
                **_plain(BATTLE, battle),
            }
            for battle in self.battles
        ]

    def _rolls(self) -> list[dict[str, Any]]:
        force_names = {force.pk: force.name for force in self.forces}
        roll_indexes = {roll.pk: index for index, roll in enumerate(self.rolls)}
        return [
            {
                "day": known(self.day_numbers, roll.day_id),
                "segment": known(self.segment_names, roll.segment_id),
                "battle": known(self.battle_refs, roll.battle_id),
                "force": known(force_names, roll.force_id),
                "battalion": known(self.battalion_codes, roll.battalion_id),
                **_plain(ROLL, roll),
                "actor": known(self.usernames, roll.actor_id),
                "override_of": known(roll_indexes, roll.override_of_id),
                "side": known(self.side_names, roll.side_id),
            }
            for roll in self.rolls
        ]

    def _operations(self) -> list[dict[str, Any]]:
        return [
            {
                "day": self.day_numbers[operation.day_id],
                "segment": known(self.segment_names, operation.segment_id),
                **_plain(OPERATION, operation),
                "created_by": known(self.usernames, operation.created_by_id),
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
                "stand": known(self.stand_keys, order.stand_id),
                "target_battalion": known(self.battalion_codes, order.target_battalion_id),
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
                "actor": known(self.usernames, event.actor_id),
                "side": known(self.side_names, event.side_id),
            }
            for event in self.events
        ]
