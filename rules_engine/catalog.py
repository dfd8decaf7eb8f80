"""Every table and procedure of the three rule systems, for the API and docs.

Importing this module imports every system package, which registers their
tables and procedures (:mod:`rules_engine.registry`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from rules_engine import great_battles, nineteen43, panzer_korps  # noqa: F401  (registration)
from rules_engine.inputs import describe_inputs
from rules_engine.presenters import describe_rule
from rules_engine.registry import PROCEDURES, TABLES, CatalogError, ProcedureEntry, TableEntry
from rules_engine.results import RuleSystem, to_jsonable

# Procedures no campaign service calls, each with why: resolved at the table during a battle,
# or a look-up the umpire uses beside a service that applies the same chart. Every other
# procedure is called by a campaign service (tests/campaign/test_rules_applied.py keeps the two
# apart; rules notes CR-10).
UMPIRE_AIDS: Mapping[str, str] = MappingProxyType(
    {
        "gb.action_points": "battle level: each battalion's actions, rolled every turn at the table",
        "gb.activation_cost": "priced inside gb.activation_pool, which activation spends book",
        "gb.air_attack": "battle level: an air attack on one stand, resolved at the table",
        "gb.bad_going_suppression": "battle level: a move through bad going, rolled at the table",
        "gb.barrage_delay": "battle level: each template's delay, rolled as the turn's barrages are placed",
        "gb.barrage_roll": "battle level: suppression under a template, rolled at the table",
        "gb.barrage_spotting": "battle level: how far a spotter sees a barrage's target, at the table",
        "gb.barrage_rounds": "look-up of the rounds ledger; the night's artillery step adds the day's rounds",
        "gb.barrage_turn_limit": "battle level: how many rounds one turn fires, read at the table",
        "gb.close_combat": "battle level: close combat at the table",
        "gb.equipment.gun_class": "reference: a gun's class by calibre, for set-up and movement at the table",
        "gb.equipment.vehicles": "reference: vehicles by nation and year, loaded as equipment data",
        "gb.fire": "battle level: direct and indirect fire at the table",
        "gb.malta.carry_over": "look-up: the night rolls this chart as gb.activation_carry_over "
        "with the pack's scores (GB-B-12)",
        "gb.morale": "battle level: morale tests during the battle",
        "gb.movement_rate": "battle level: a battalion's move in a turn",
        "gb.rally": "battle level: rally rolls during the battle",
        "gb.rally_number": "battle level: the number rally and reactivation rolls read",
        "gb.sighting_distance": "battle level: sighting at the table",
        "gb.airborne.infiltration": "battle level: a landed stand's consolidation move through enemy "
        "lines, made at the table after the landings the service rolls",
        "gb.supply_situation": "look-up: the table's reading in inches; the campaign map's supply "
        "service reads the traced lines with gb.map_supply_situation (MS-01)",
        "gb.variant.withdraw_to_reserve": "battle level: a battalion withdrawing to reserve at the table "
        "(issue 15 lists it among the aids)",
        "gb.variant.activation_delay": "battle level: a battalion's activation delay, rolled at the table",
        "gb.variant.ammo_low_marker": "battle level: a marker placed on a fire roll at the table",
        "n43.command_test": "battle level: a unit's command test before it moves",
        "n43.dangerous_terrain": "battle level: immobilisation in dangerous terrain",
        "n43.dig_in": "battle level: digging-in progress during the battle",
        "n43.gun_deployment": "battle level: limbering and setting up guns",
        "n43.lull_feature": "battle level: what a lull brings, read at the table once a lull check falls",
        "n43.riders_allowed": "battle level: riders a vehicle carries",
        "n43.vehicle_dig_in": "battle level: vehicles digging in at double trench usage",
        "n43.yards_to_inches": "reference: ranges converted to table inches",
        "pk.afv_fire": "battle level: AFV/AT fire at the table",
        "pk.air_fire": "battle level: air combat fire",
        "pk.air_morale": "battle level: air combat morale",
        "pk.bombardment_fire": "battle level: bombardment at the table",
        "pk.close_assault": "battle level: close assault at the table",
        "pk.command_roll": "battle level: a unit's activation roll in the battle",
        "pk.cover_die": "battle level: cover dice for fire",
        "pk.decision_die": "battle level: the decision die of a firefight or assault",
        "pk.direct_fire_range": "battle level: direct fire ranges, read at the table",
        "pk.disengage": "battle level: disengaging from a firefight",
        "pk.disorder_recovery": "battle level: recovery from disorder",
        "pk.fieldworks": "battle level: fieldworks built during the battle",
        "pk.indirect_accuracy": "battle level: indirect fire accuracy",
        "pk.indirect_fire_range": "battle level: indirect fire ranges and factors, read at the table",
        "pk.infantry_fire": "battle level: infantry fire at the table",
        "pk.move_allowance": "battle level: tactical movement with its terrain modifiers",
        "pk.morale": "battle level: morale checks during the battle",
        "pk.pilot_skill_initiative": "battle level: air combat initiative",
        "pk.spotting": "battle level: spotting at the table",
        "pk.terrain_disorder": "battle level: the d4 terrain disorder roll during a move",
        "pk.terrain_feature": "set-up at the table: the umpire lays out the battlefield's features",
        "pk.terrain_generator": "set-up at the table: the umpire generates the battlefield's terrain",
    }
)

# Campaign-level procedures no service applies yet, each with the part of issue 15 that will:
# a service that starts calling one removes it from here (the guard test fails until it does).


def tables(system: RuleSystem | None = None) -> list[TableEntry]:
    return sorted(
        (t for t in TABLES.values() if system is None or t.rule.system is system), key=lambda t: t.key
    )


def procedures(system: RuleSystem | None = None) -> list[ProcedureEntry]:
    return sorted(
        (p for p in PROCEDURES.values() if system is None or p.rule.system is system), key=lambda p: p.key
    )


def get_procedure(key: str) -> ProcedureEntry:
    try:
        return PROCEDURES[key]
    except KeyError:
        raise CatalogError(f"no procedure {key!r} in the catalog") from None


def get_table(key: str) -> TableEntry:
    try:
        return TABLES[key]
    except KeyError:
        raise CatalogError(f"no table {key!r} in the catalog") from None


def describe_procedure(entry: ProcedureEntry) -> dict[str, Any]:
    return {
        "key": entry.key,
        "kind": "procedure",
        "title": entry.title,
        "rule": describe_rule(entry.rule),
        "optional": entry.optional,
        "rolls": entry.rolls,
        "inputs": describe_inputs(entry.input_type) if entry.input_type else [],
        "umpire_aid": UMPIRE_AIDS.get(entry.key),
    }


def describe_table(entry: TableEntry, with_data: bool = False) -> dict[str, Any]:
    described: dict[str, Any] = {
        "key": entry.key,
        "kind": "table",
        "title": entry.title,
        "rule": describe_rule(entry.rule),
        "optional": entry.optional,
    }
    if with_data:
        described["data"] = to_jsonable(entry.data)
    return described
