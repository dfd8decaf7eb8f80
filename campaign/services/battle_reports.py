"""A battle's structured report: checked whole, then its stands, pools and supply changed together."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaign import models
from campaign.choices import (
    REPORTED_FUEL_CHOICES,
    BattleStatus,
    EventVerb,
    FuelState,
    NotificationKind,
    StandStatus,
)
from campaign.services.activation import Pool, activation_pool_of
from campaign.services.audit import Actor, event_record
from campaign.services.battle_setups import FUEL_SUPPLY
from campaign.services.battles import REPORTABLE, battle_lock, battle_require_status
from campaign.services.campaigns import campaign_save
from campaign.services.errors import DomainError
from campaign.services.notifications import notifications_done
from campaign.services.rules import optional_rule_on, optional_rule_require
from campaign.services.sectors import sector_control_change
from rules_engine.great_battles.activation import DAWN_TURN, LAST_TURN
from rules_engine.great_battles.campaign_pools import ROUNDS_RULE
from rules_engine.results import to_jsonable
from rules_engine.vocab import SupplySituation

REPORT_RULE = "battle report: stands, pools and supply are changed together"


# What a report says of the battle's outcome, kept on the battle and its sector, not in the report.
REPORT_OUTCOME_KEYS = frozenset({"winner", "sector_owner"})


TEMPLATES_RULE = ROUNDS_RULE.text()


def _int_field(entry: Mapping[str, Any], name: str, field: str) -> int:
    value = entry.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DomainError(f"{name} must be a whole number of 0 or more", field=field)
    return value


def fuel_reported(campaign: models.Campaign, fuel_state: str) -> bool:
    """Whether a battle's report gives the fuel of a battalion in ``fuel_state`` at the end
    (N43-29): the campaign plays fuel supply and the battalion has vehicle companies. The report
    form asks exactly these; the force status shows no fuel for the others."""
    return optional_rule_on(campaign, FUEL_SUPPLY) and fuel_state != FuelState.NOT_APPLICABLE


def _reported_fuel(campaign: models.Campaign, battalion: models.Battalion, state: Any, field: str) -> str:
    """A vehicle battalion's fuel at the end of the battle, as the report gives it (N43-29)."""
    if not fuel_reported(campaign, battalion.fuel_state):
        # Refused with the reason: the rule switched off, else no vehicle companies.
        optional_rule_require(campaign, FUEL_SUPPLY, field)
        raise DomainError(
            f"battalion {battalion.code} has no vehicle companies, so no fuel state", field=field
        )
    if state not in dict(REPORTED_FUEL_CHOICES):
        raise DomainError(
            f"{state!r} is not a fuel state ({', '.join(dict(REPORTED_FUEL_CHOICES))})", field=field
        )
    return str(state)


def _side_of_battle(battle: models.Battle, side_id: Any, field: str) -> int | None:
    """A side of the battle (the attacker or the defender) by id, or None."""
    if side_id is None:
        return None
    if side_id not in (battle.attacker_id, battle.defender_id) or isinstance(side_id, bool):
        raise DomainError(
            f"{field} names a side of the battle: {battle.attacker.name} (side {battle.attacker_id}), "
            f"{battle.defender.name} (side {battle.defender_id}) or nobody (null)",
            field=field,
        )
    return int(side_id)


@dataclasses.dataclass
class ReportPlan:
    """What a report would change, checked against the order of battle and the pools."""

    winner_id: int | None
    changes_hands: bool
    new_owner_id: int | None
    sides: dict[int, models.Side]
    divisions: dict[int, models.Force]
    pool_points: dict[Pool, dict[str, int]]
    spent_points: dict[int, int]
    spent_rounds: dict[int, int]
    templates_used: dict[int, int]
    awarded: dict[int, int]
    stand_updates: dict[int, str]
    supply: dict[int, str]
    fuel: dict[int, str]
    turn: int


def battle_report_check(
    campaign: models.Campaign, battle: models.Battle, report: Mapping[str, Any], *, lock: bool = False
) -> ReportPlan:
    """Check a structured report against the battle's order of battle and the pools it draws
    on (a :class:`DomainError` naming the field at fault otherwise); ``lock``: lock the sides
    and divisions it would change. Writes nothing: drafts are checked here too."""
    winner_id = _side_of_battle(battle, report.get("winner"), "winner")
    changes_hands = "sector_owner" in report
    new_owner_id = (
        _side_of_battle(battle, report.get("sector_owner"), "sector_owner") if changes_hands else None
    )
    entries = report.get("battalions")
    if not isinstance(entries, list) or not entries:
        raise DomainError("list the battalions of the battle in the report", field="battalions")
    in_battle = {
        b.code: b for b in battle.battalions.select_related("battlegroup__force").prefetch_related("stands")
    }
    side_rows = campaign.sides.filter(pk__in=[battle.attacker_id, battle.defender_id])
    sides = {s.pk: s for s in (side_rows.select_for_update() if lock else side_rows)}
    spent_points = dict.fromkeys(sides, 0)
    spent_rounds = dict.fromkeys(sides, 0)
    templates_used = dict.fromkeys(sides, 0)
    report_turn = report.get("turn", 1)
    if not isinstance(report_turn, int) or not DAWN_TURN <= report_turn <= LAST_TURN:
        raise DomainError(f"turn must be {DAWN_TURN} (dawn) to {LAST_TURN}", field="turn")
    # The pool each battalion's points go to: its side's, or (Malta) its division's (CR-03).
    pool_points: dict[Pool, dict[str, int]] = {}
    awarded = dict.fromkeys(sides, 0)
    named_stands: dict[int, str] = {}
    stand_updates: dict[int, str] = {}
    supply: dict[int, str] = {}
    fuel: dict[int, str] = {}
    seen_codes: set[str] = set()
    for i, entry in enumerate(entries):
        prefix = f"battalions[{i}]"
        code = entry.get("code") if isinstance(entry, Mapping) else None
        if code not in in_battle:
            raise DomainError(
                f"battalion {code} is not in the battle at {battle.sector}", field=f"{prefix}.code"
            )
        if code in seen_codes:
            raise DomainError(f"battalion {code} is reported twice", field=f"{prefix}.code")
        seen_codes.add(code)
        battalion = in_battle[code]
        # A stand is named by its label ("1. Kp") or its id (its public id, as the API lists it).
        stands = {s.label: s for s in battalion.stands.all()}
        stands_by_id = {str(s.public_id): s for s in stands.values()}
        for outcome, status in (("destroyed", StandStatus.DESTROYED), ("suppressed", StandStatus.SUPPRESSED)):
            labels = entry.get(outcome, [])
            if not isinstance(labels, list):
                raise DomainError(
                    f"{outcome} must be a list of stand labels or ids", field=f"{prefix}.{outcome}"
                )
            for j, label in enumerate(labels):
                field = f"{prefix}.{outcome}[{j}]"
                stand = stands.get(label) or stands_by_id.get(str(label).strip().lower())
                if stand is None:
                    raise DomainError(
                        f"stand {label} is not in battalion {code}: name a stand by its label or id "
                        f"(its labels: {', '.join(stands) or 'none'})",
                        field=field,
                    )
                if stand.pk in named_stands:
                    raise DomainError(f"stand {code}/{label} is named twice in the report", field=field)
                if stand.status == StandStatus.DESTROYED:
                    raise DomainError(f"stand {code}/{label} was already destroyed", field=field)
                named_stands[stand.pk] = field
                stand_updates[stand.pk] = status
        pool = activation_pool_of(
            campaign, sides[battalion.side_id], battalion.battlegroup.force, battle.day.number, report_turn
        )
        points = pool_points.setdefault(pool, {"spent": 0, "awarded": 0})
        spent = _int_field(entry, "activation_points_spent", f"{prefix}.activation_points_spent")
        spent_points[battalion.side_id] += spent
        points["spent"] += spent
        spent_rounds[battalion.side_id] += _int_field(
            entry, "barrage_rounds_spent", f"{prefix}.barrage_rounds_spent"
        )
        templates_used[battalion.side_id] += _int_field(
            entry, "barrage_templates_used", f"{prefix}.barrage_templates_used"
        )
        for k, objective in enumerate(entry.get("objectives", [])):
            field = f"{prefix}.objectives[{k}]"
            if not isinstance(objective, Mapping) or not str(objective.get("name", "")).strip():
                raise DomainError("an objective needs a name", field=f"{field}.name")
            award = _int_field(objective, "activation_points", f"{field}.activation_points")
            awarded[battalion.side_id] += award
            points["awarded"] += award
        if "supply_situation" in entry:
            if entry["supply_situation"] not in {s.value for s in SupplySituation}:
                raise DomainError(
                    f"{entry['supply_situation']!r} is not a supply situation "
                    f"({', '.join(s.value for s in SupplySituation)})",
                    field=f"{prefix}.supply_situation",
                )
            supply[battalion.pk] = entry["supply_situation"]
        if "fuel_state" in entry:
            field = f"{prefix}.fuel_state"
            fuel[battalion.pk] = _reported_fuel(campaign, battalion, entry["fuel_state"], field)
    force_ids = [p.pk for p in pool_points if isinstance(p, models.Force)]
    force_rows = models.Force.objects.filter(pk__in=force_ids)
    divisions = {pool.pk: pool for pool in (force_rows.select_for_update() if lock else force_rows)}
    pool_points = {
        (divisions[p.pk] if isinstance(p, models.Force) else p): points for p, points in pool_points.items()
    }
    for pool, points in pool_points.items():
        if points["spent"] > pool.activation_points:
            raise DomainError(
                f"activation pool would go below zero: {pool.name} reports {points['spent']} spent, "
                f"has {pool.activation_points}",
                field="battalions",
                rule=REPORT_RULE,
                code="pool_overspent",
            )
    for side_id, side in sides.items():
        if templates_used[side_id] + side.barrage_templates_in_use > side.barrage_templates:
            raise DomainError(
                f"{side.name} has {side.barrage_templates} barrage templates, "
                f"{side.barrage_templates_in_use} in use already: "
                f"{templates_used[side_id]} more cannot be used",
                field="battalions",
                rule=TEMPLATES_RULE,
                code="templates_overused",
            )
        if spent_rounds[side_id] > side.barrage_rounds:
            raise DomainError(
                f"barrage rounds would go below zero: {side.name} reports {spent_rounds[side_id]} fired, "
                f"has {side.barrage_rounds}",
                field="battalions",
                rule=REPORT_RULE,
                code="rounds_overspent",
            )
    return ReportPlan(
        winner_id=winner_id,
        changes_hands=changes_hands,
        new_owner_id=new_owner_id,
        sides=sides,
        divisions=divisions,
        pool_points=pool_points,
        spent_points=spent_points,
        spent_rounds=spent_rounds,
        templates_used=templates_used,
        awarded=awarded,
        stand_updates=stand_updates,
        supply=supply,
        fuel=fuel,
        turn=report_turn,
    )


def battle_require_reportable(battle: models.Battle) -> None:
    """A battle takes a report (or a draft of one) until it is reported."""
    battle_require_status(battle, *REPORTABLE)


@transaction.atomic
def battle_report(campaign_id: int, actor: Actor, battle_id: int, report: Mapping[str, Any]) -> models.Battle:
    """Validate a structured report against the OOB and apply it atomically.

    ``report["battalions"]``: per battalion ``code``, ``destroyed`` and
    ``suppressed`` (stand labels), ``activation_points_spent``,
    ``barrage_rounds_spent``, ``barrage_templates_used`` (in use until the night returns them),
    ``objectives`` ([{name, activation_points}]) and ``supply_situation`` at the end of the battle;
    with fuel supply played, a vehicle battalion's ``fuel_state`` then (full, low or empty).
    ``turn`` (1 if left out): the pool paying then takes the battalions' spent and awarded points —
    with Malta's division pools the side's on day 1 up to turn 1, else each battalion's division's.
    ``winner``: the side that won (an id of the attacker or defender, or None); ``sector_owner``,
    when given, who holds the battle's sector now (a side of the battle, or None: contested),
    applied through :func:`~campaign.services.sectors.sector_control_change`.
    Players' drafts reach the battle only through here (:mod:`campaign.services.battle_drafts`).
    """
    campaign, battle = battle_lock(campaign_id, battle_id)
    battle_require_reportable(battle)
    plan = battle_report_check(campaign, battle, report, lock=True)
    sides, divisions, stand_updates, supply, fuel = (
        plan.sides,
        plan.divisions,
        plan.stand_updates,
        plan.supply,
        plan.fuel,
    )
    for status in (StandStatus.DESTROYED, StandStatus.SUPPRESSED):
        models.Stand.objects.filter(pk__in=[pk for pk, s in stand_updates.items() if s == status]).update(
            status=status
        )
    for situation in {*supply.values()}:
        models.Battalion.objects.filter(pk__in=[pk for pk, s in supply.items() if s == situation]).update(
            supply_situation=situation
        )
    for state in {*fuel.values()}:
        models.Battalion.objects.filter(pk__in=[pk for pk, s in fuel.items() if s == state]).update(
            fuel_state=state
        )
    division_before = {pk: force.activation_points for pk, force in divisions.items()}
    side_before = {side_id: side.activation_points for side_id, side in sides.items()}
    for pool, points in plan.pool_points.items():
        cap = sides[pool.side_id if isinstance(pool, models.Force) else pool.pk].activation_cap
        pool.activation_points = min(pool.activation_points - points["spent"] + points["awarded"], cap)
    models.Force.objects.bulk_update(divisions.values(), ["activation_points"])
    for side_id, side in sides.items():
        before: dict[str, Any] = {
            "activation_points": side_before[side_id],
            "barrage_rounds": side.barrage_rounds,
            "barrage_templates_in_use": side.barrage_templates_in_use,
        }
        if divisions:
            before["divisions"] = {
                f.name: division_before[pk] for pk, f in divisions.items() if f.side_id == side_id
            }
        side.barrage_rounds -= plan.spent_rounds[side_id]
        side.barrage_templates_in_use += plan.templates_used[side_id]
        side.save(update_fields=["activation_points", "barrage_rounds", "barrage_templates_in_use"])
        event_record(
            campaign,
            EventVerb.BATTLE_REPORTED,
            side,
            f"{side.name} after the battle at {battle.sector}: {plan.spent_points[side_id]} AP spent, "
            f"{plan.awarded[side_id]} awarded, {plan.spent_rounds[side_id]} barrage rounds fired, "
            f"{plan.templates_used[side_id]} templates used",
            actor,
            before=before,
            after={
                "activation_points": side.activation_points,
                "barrage_rounds": side.barrage_rounds,
                "barrage_templates_in_use": side.barrage_templates_in_use,
                **(
                    {
                        "divisions": {
                            f.name: f.activation_points for f in divisions.values() if f.side_id == side_id
                        }
                    }
                    if divisions
                    else {}
                ),
            },
        )
    if plan.changes_hands:
        sector = models.Sector.objects.select_for_update().get(pk=battle.sector_id)
        sector_control_change(
            campaign,
            actor,
            sector,
            plan.new_owner_id,
            f"the battle of day {battle.day.number}",
            battle=battle,
            turn=plan.turn,
        )
    # The winner is the battle's field and a change of control the sector's (and its event): one home each.
    battle.report = to_jsonable({k: v for k, v in report.items() if k not in REPORT_OUTCOME_KEYS})
    battle.winner_id = plan.winner_id
    battle.status = BattleStatus.REPORTED
    battle.save(update_fields=["report", "winner", "status"])
    campaign_save(campaign)
    destroyed = sum(1 for s in stand_updates.values() if s == StandStatus.DESTROYED)
    suppressed = len(stand_updates) - destroyed
    event_record(
        campaign,
        EventVerb.BATTLE_REPORTED,
        battle,
        f"Battle at {battle.sector} reported: {destroyed} stands destroyed, {suppressed} suppressed",
        actor,
        after={"destroyed": destroyed, "suppressed": suppressed},
    )
    # Reported: nobody need draft it, nor reconcile its drafts, any more.
    notifications_done(campaign, NotificationKind.DRAFT_WAITING, f"battle:{battle.pk}:draft")
    for drafted in ("both", battle.attacker_id, battle.defender_id):
        notifications_done(campaign, NotificationKind.DRAFT_FILED, f"battle:{battle.pk}:drafts:{drafted}")
    return battle
