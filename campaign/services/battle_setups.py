"""A battle's 1943 set-up: the questions it asks and the rolls the umpire and players make."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count

from campaign import models
from campaign.access import BATTLE_SIDES, Owner, battle_table_side
from campaign.choices import (
    BattleStatus,
    EventVerb,
    FuelState,
    MemberRole,
    StandStatus,
    StandType,
)
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.battles import (
    battle_assigned_restate,
    battle_lock,
    battle_require_status,
    battle_stream,
)
from campaign.services.campaigns import campaign_save
from campaign.services.errors import DomainError, ForbiddenError
from campaign.services.rules import (
    TABLE_ROLLERS,
    campaign_profile,
    club_settings,
    optional_rule_on,
    procedure_run,
)
from rules_engine import catalog
from rules_engine.inputs import describe_inputs
from rules_engine.nineteen43.air import AirSuperiority, AirSuperiorityFront, air_asset_row
from rules_engine.nineteen43.artillery import FieldStrength
from rules_engine.nineteen43.common import AirSide, BattleRole, BattleType
from rules_engine.nineteen43.setup import Proximity
from rules_engine.profiles import CampaignStep
from rules_engine.results import to_jsonable
from rules_engine.vocab import Front, Nation

# The air superiority table's rows for the campaign's theatre where one row
# fits (rules notes C-02); in the Pacific and Asia the umpire names the row.
AIR_FRONT_ROWS = {
    Front.EAST: AirSuperiorityFront.RUSSIA_POLAND,
    Front.WEST: AirSuperiorityFront.FRANCE_BELGIUM,
    Front.NORTH_AFRICA: AirSuperiorityFront.AFRICA_ITALY,
    Front.MEDITERRANEAN: AirSuperiorityFront.AFRICA_ITALY,
}


# Counts the stands planned and support fire multiply (N43-24), from the stands by type.
FIELD_STRENGTH = "n43.field_strength"


# Set-up procedures each side rolls for itself; the others are rolled once.
PER_SIDE_SETUP = frozenset(
    {
        "n43.air_presence",
        "n43.air_assets",
        "n43.planned_fire",
        "n43.support_fire",
        "n43.counterbattery",
        "n43.troop_reaction",
        "n43.defensive_works",
        "n43.fuel_supply",
    }
)


ATTACKER_DECISION = "n43.attacker_decision"


DEFENSIVE_WORKS = "n43.defensive_works"


# Rolled for each of the side's battalions with vehicle companies (a fuel state): rules notes N43-29.
FUEL_SUPPLY = "n43.fuel_supply"


def _setup_step_applies(campaign: models.Campaign, battle: models.Battle, key: str) -> bool:
    """The attacker decision where the battle type has roles; optional steps (defensive works,
    fuel) when the campaign plays them; every other step always."""
    if key == ATTACKER_DECISION:
        return BattleType(battle.battle_type).has_roles
    return optional_rule_on(campaign, key)


def _vehicle_battalions(battle: models.Battle, side: models.Side) -> list[models.Battalion]:
    """The side's battalions in the battle that keep a fuel state: those with vehicle companies."""
    return list(
        battle.battalions.filter(side=side).exclude(fuel_state=FuelState.NOT_APPLICABLE).order_by("code")
    )


def _setup_values(
    key: str,
    campaign: models.Campaign,
    battle: models.Battle,
    side: models.Side | None,
    stands: Mapping[str, int],
    strength: FieldStrength | None,
    air: AirSuperiority | None,
) -> dict[str, Any]:
    """What the campaign already knows that a set-up procedure may ask for."""
    values: dict[str, Any] = {
        "year": campaign.year,
        "battle_type": battle.battle_type,
        "front": campaign.theatre,
    }
    if key == FIELD_STRENGTH:
        values.update(stands)
    if key == DEFENSIVE_WORKS:  # a campaign stand is a 1943 unit, one base here (N43-30)
        values["total_bases"] = sum(stands.values())
    if key == ATTACKER_DECISION:
        values.update(first_side=battle.attacker.name, second_side=battle.defender.name)
    if strength is not None:
        values["total_units"] = strength.units
    if key == "n43.air_superiority":
        values["front"] = AIR_FRONT_ROWS.get(Front(campaign.theatre))
    if battle.sector.terrain:  # the ground it is fought on; a table without one: the umpire says
        values["terrain"] = battle.sector.terrain
    if BattleType(battle.battle_type).has_roles:
        values["attacker"] = "axis" if battle.attacker.is_axis else "allies"
    if side is not None:
        nation = Nation(side.nations[0]) if side.nations else None
        if key == "n43.air_assets" and nation is not None:
            values["row"] = air_asset_row(nation, Front(campaign.theatre), campaign.year)
        values.update(
            nation=side.nations[0] if side.nations else None,
            command_system=side.command_system,
            training=side.training,
            priority=side.air_cover_priority,
        )
        if air is not None:
            values["superiority_score"] = air.score_for(AirSide.AXIS if side.is_axis else AirSide.ALLIES)
        if BattleType(battle.battle_type).has_roles:
            values["role"] = BattleRole.ATTACKER if side.pk == battle.attacker_id else BattleRole.DEFENDER
    return values


def _stand_counts(battle: models.Battle) -> dict[str, int]:
    return dict(
        models.Stand.objects.filter(battalion__battles=battle)
        .exclude(status=StandStatus.DESTROYED)
        .values("stand_type")
        .annotate(count=Count("pk"))
        .values_list("stand_type", "count")
    )


def _value_type(described: Mapping[str, Any]) -> str:
    if "choices" in described:
        return "choice"
    return {"bool": "boolean", "int": "integer"}.get(str(described["type"]).split(" | ")[0], "text")


def _row_needed(key: str, known: Mapping[str, Any]) -> bool:
    """The defender's defensive works read a row of the table the umpire names; the attacker's none."""
    return key == DEFENSIVE_WORKS and known.get("role") is not BattleRole.ATTACKER


def battle_setup_questions(
    campaign: models.Campaign, battle: models.Battle, player_side: int | None = None
) -> list[dict[str, Any]]:
    """What :func:`battle_setup` would ask the umpire (or ``player_side``'s player rolling at the
    table: their shared and own steps only): each set-up step (per side where each side rolls)
    with the inputs neither the campaign, its club settings nor an earlier step supplies;
    ``needed`` where the procedure has no default; ``at_table`` where the caller may enter its
    faces rolled at the table. Reads only."""
    may_enter = ("players",) if player_side is not None else TABLE_ROLLERS
    stands = _stand_counts(battle)
    chained = {FIELD_STRENGTH: "total_units", "n43.air_superiority": "superiority_score"}
    earlier: set[str] = set()
    questions = []
    for key in campaign_profile(campaign).procedures_for(CampaignStep.BATTLE_SETUP):
        if not _setup_step_applies(campaign, battle, key):
            continue
        entry = catalog.get_procedure(key)
        assert entry.input_type is not None
        for side in _rollers(key, [battle.attacker, battle.defender]):
            if key == FUEL_SUPPLY and side is not None and not _vehicle_battalions(battle, side):
                continue
            if player_side is not None and side is not None and side.pk != player_side:
                continue
            known = _setup_values(key, campaign, battle, side, stands, None, None)
            supplied = {k for k, v in known.items() if v is not None} | set(club_settings(campaign, key))
            if key == FIELD_STRENGTH:
                supplied |= {t.value for t in StandType}
            supplied |= earlier
            asked = [
                {
                    **described,
                    "value_type": _value_type(described),
                    # Each side names its works' row: the attacker decision, rolled first, may
                    # make either side the defender.
                    "needed": "default" not in described
                    or (key, described["name"]) == (DEFENSIVE_WORKS, "row"),
                }
                for described in describe_inputs(entry.input_type)
                if described["name"] not in supplied
            ]
            questions.append(
                {
                    "step": f"{key}@{side.name}" if side else key,
                    "procedure": key,
                    "title": entry.title,
                    "side": side.pk if side else None,
                    "inputs": asked,
                    "at_table": campaign.table_dice.get(key) in may_enter,
                }
            )
        if key in chained:
            earlier.add(chained[key])
    return questions


def _attacker_decided(battle: models.Battle, decider_name: str, takes: BattleRole) -> list[models.Side]:
    """The high roller decides (000 § 1): it takes the role the club reads it taking (N43-28),
    so the battle's sides swap when the ordered roles say otherwise. The sides, attacker first."""
    decider = battle.attacker if decider_name == battle.attacker.name else battle.defender
    battle.attacker_decided_by = decider
    if (decider.pk == battle.attacker_id) != (takes is BattleRole.ATTACKER):
        battle.attacker, battle.defender = battle.defender, battle.attacker
    return [battle.attacker, battle.defender]


def _fuel_supply_roll(
    campaign: models.Campaign,
    actor: Actor,
    battle: models.Battle,
    side: models.Side,
    label: str,
    values: Mapping[str, Any],
    stream: Sequence[str | int],
) -> tuple[dict[str, Any], list[models.RollRecord]]:
    """Fuel tables 1-3 for each of the side's vehicle battalions (000 § 21), by battalion code: one
    that comes out of fuel starts the battle without (tables 2-3 only, N43-29). The side's secret."""
    results: dict[str, Any] = {}
    rolls: list[models.RollRecord] = []
    for battalion in _vehicle_battalions(battle, side):
        context = RollContext(day=battle.day, battle=battle, battalion=battalion, owner=Owner.side(side.pk))
        run = procedure_run(
            campaign,
            FUEL_SUPPLY,
            {**values, "out_of_fuel": battalion.fuel_state == FuelState.EMPTY},
            (*stream, "setup", label, battalion.code),
            context=context,
            field_prefix=f"inputs.{label}.",
        )
        results[battalion.code] = to_jsonable(run.outcome.to_dict())
        rolls += run.records(campaign, actor, context, {"setup": label, "battalion": battalion.code})
    return results, rolls


def _rollers(key: str, sides: Sequence[models.Side]) -> list[models.Side | None]:
    """Who rolls a set-up step: each side for a per-side step, else once for both (None)."""
    return list(sides) if key in PER_SIDE_SETUP else [None]


def _setup_player_side(campaign: models.Campaign, actor: Actor, battle: models.Battle) -> int | None:
    """Who sets the battle up: None for an umpire, a write-granted key or the back office (which
    only umpires and staff reach), else the side of a player of the battle; any other member is
    refused."""
    if actor.user_id is None:
        return None
    membership = campaign.memberships.filter(user_id=actor.user_id).only("role", "side_id").first()
    if membership is None or membership.role == MemberRole.UMPIRE:
        return None
    side_id = battle_table_side(membership.role, membership.side_id, battle, campaign.table_dice)
    if side_id is None:
        raise ForbiddenError(
            "only an umpire sets this battle up, or a player of it rolling at the table the steps the "
            "club lets players roll (the campaign's table_dice)",
            field="battle",
        )
    return side_id


def _table_faces_check(
    campaign: models.Campaign,
    battle: models.Battle,
    labels: Mapping[str, str],
    given: Mapping[str, Any],
    faces: Mapping[str, Sequence[int]],
    player_side: int | None,
) -> None:
    """Refuse, naming the field, faces of a step the club does not roll at the table or that the
    caller may not enter, and a player's inputs of the other side's steps. ``labels``: each
    step's procedure key by its label (``key`` or ``key@Side``)."""
    own = (
        None
        if player_side is None
        else (battle.attacker if battle.attacker_id == player_side else battle.defender)
    )

    def mine(label: str) -> bool:
        return own is None or "@" not in label or label.endswith(f"@{own.name}")

    for label in given:
        if not mine(label):
            raise ForbiddenError(
                f"{label} is the other side's secret step: its inputs are not yours to give",
                field=f"inputs.{label}",
            )
    if player_side is not None and not faces:
        raise DomainError("enter the faces of the steps you rolled at the table", field="faces")
    for label, entered in faces.items():
        field = f"faces.{label}"
        key = labels.get(label)
        if key is None:
            raise DomainError(f"{label} is not a set-up step of this battle", field=field)
        who = campaign.table_dice.get(key)
        title = catalog.get_procedure(key).title
        if who is None:
            raise DomainError(
                f"the club does not roll {title} at the table (the campaign's table_dice)", field=field
            )
        if player_side is not None and who != "players":
            raise ForbiddenError(f"only an umpire enters {title} rolled at the table", field=field)
        if not mine(label):
            raise ForbiddenError(f"{label} is the other side's secret roll: it rolls its own", field=field)
        if not isinstance(entered, Sequence) or not entered:
            raise DomainError(f"list the faces of {title} as rolled, in order", field=field)


@transaction.atomic
def battle_setup(
    campaign_id: int,
    actor: Actor,
    battle_id: int,
    inputs: Mapping[str, Mapping[str, Any]] | None = None,
    faces: Mapping[str, Sequence[int]] | None = None,
) -> models.Battle:
    """Roll every set-up procedure of the campaign's profile, in order.

    ``inputs`` supplies what the campaign cannot know, by procedure key, or by
    ``key@Side name`` for one side only; it wins over derived values. ``faces``: by the same
    labels, the faces of the steps rolled at the table, which the procedure reads instead of the
    seed's dice, as the campaign's ``table_dice`` lets the caller (an umpire, or a player of the
    battle for its shared steps and their own side's) enter them.
    """
    campaign, battle = battle_lock(campaign_id, battle_id)
    battle_require_status(battle, BattleStatus.PLANNED)
    player_side = _setup_player_side(campaign, actor, battle)
    given = dict(inputs or {})
    table = dict(faces or {})
    stands = _stand_counts(battle)
    sides = [battle.attacker, battle.defender]
    attacker_before = battle.attacker_id
    setup: dict[str, Any] = {}
    rolls: list[models.RollRecord] = []
    air: AirSuperiority | None = None
    strength: FieldStrength | None = None
    steps = [
        key
        for key in campaign_profile(campaign).procedures_for(CampaignStep.BATTLE_SETUP)
        if _setup_step_applies(campaign, battle, key)
    ]
    labels = {f"{key}@{side.name}" if side else key: key for key in steps for side in _rollers(key, sides)}
    _table_faces_check(campaign, battle, labels, given, table, player_side)
    stream = battle_stream(battle)
    for key in steps:
        entry = catalog.get_procedure(key)
        assert entry.input_type is not None
        accepted = {f.name for f in dataclasses.fields(entry.input_type)}
        for side in _rollers(key, sides):
            label = f"{key}@{side.name}" if side else key
            known = _setup_values(key, campaign, battle, side, stands, strength, air)
            derived = {k: v for k, v in known.items() if k in accepted and v is not None}
            values = {**derived, **given.get(key, {}), **given.get(label, {})}
            if key == ATTACKER_DECISION:  # the dice are the battle's two sides, whatever is given
                values.update(first_side=battle.attacker.name, second_side=battle.defender.name)
            if _row_needed(key, known) and values.get("row") is None:
                raise DomainError(
                    f"name the row of the defensive works table {side.name if side else 'the defender'} "
                    "reads (nation, place and time)",
                    field=f"inputs.{label}.row",
                    rule=entry.rule.text(),
                )
            if key == FUEL_SUPPLY and side is not None:
                setup[label], fuel_rolls = _fuel_supply_roll(
                    campaign, actor, battle, side, label, values, stream
                )
                rolls += fuel_rolls
                continue
            # A side's own set-up rolls are its secrets; those rolled once are both sides' (C-13).
            context = RollContext(
                day=battle.day, battle=battle, owner=Owner.side(side.pk) if side else BATTLE_SIDES
            )
            run = procedure_run(
                campaign,
                key,
                values,
                (*stream, "setup", label),
                context=context,
                field_prefix=f"inputs.{label}.",
                table_faces=table.get(label),
                faces_field=f"faces.{label}",
            )
            setup[label] = to_jsonable(run.outcome.to_dict())
            # What later steps and the battle keep: lookups (field strength, air assets) are their
            # own result; a roll's reading is its outcome.
            read = getattr(run.outcome, "outcome", run.outcome)
            if isinstance(read, FieldStrength):
                strength = read
            elif isinstance(read, AirSuperiority):
                air = read
            elif isinstance(read, Proximity):
                battle.lull_checks_from_turn = read.lull_checks_from_turn
            elif key == ATTACKER_DECISION:
                sides = _attacker_decided(battle, read, run.inputs.high_roller_takes)
            rolls += run.records(campaign, actor, context, {"setup": label})
    known_steps = {*steps, *(f"{key}@{side.name}" for key in steps for side in sides)}
    unknown = sorted(set(given) - known_steps)
    if unknown:
        raise DomainError(f"{unknown[0]} is not a set-up step of this campaign", field=f"inputs.{unknown[0]}")
    models.RollRecord.objects.bulk_create(rolls)
    battle.setup = setup
    battle.status = BattleStatus.SET_UP
    battle.save(
        update_fields=[
            "setup",
            "status",
            "lull_checks_from_turn",
            "attacker_decided_by",
            "attacker",
            "defender",
        ]
    )
    if battle.attacker_id != attacker_before:
        battle_assigned_restate(campaign, battle)
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_SET_UP,
        battle,
        f"Battle at {battle.sector} set up: {len(rolls)} rolls",
        actor,
        before={"status": BattleStatus.PLANNED},
        after={
            "status": BattleStatus.SET_UP,
            "steps": list(setup),
            "attacker": battle.attacker_id,
            "attacker_decided_by": battle.attacker_decided_by_id,
        },
    )
    return battle
