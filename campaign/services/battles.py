"""Linked battles: creation, 1943 set-up rolls, the structured report, closing."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count

from campaign import models
from campaign.access import BATTLE_SIDES, Owner, battle_table_side, side_players
from campaign.choices import (
    REPORTED_FUEL_CHOICES,
    BattleStatus,
    CampaignStatus,
    DayStatus,
    EventVerb,
    FuelState,
    MemberRole,
    NotificationKind,
    StandStatus,
    StandType,
)
from campaign.services.activation import Pool, activation_pool_of
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import (
    campaign_lock,
    campaign_save,
    campaign_status_refusal,
)
from campaign.services.errors import ConflictError, DomainError, ForbiddenError, NotFoundError
from campaign.services.notifications import notification_send, notifications_done
from campaign.services.rules import (
    TABLE_ROLLERS,
    campaign_profile,
    club_settings,
    optional_rule_on,
    optional_rule_require,
    procedure_run,
)
from campaign.services.sectors import sector_control_change, sector_for_battle
from rules_engine import catalog
from rules_engine.great_battles.activation import DAWN_TURN, LAST_TURN
from rules_engine.great_battles.campaign_pools import ROUNDS_RULE
from rules_engine.inputs import describe_inputs
from rules_engine.nineteen43.air import AirSuperiority, AirSuperiorityFront, air_asset_row
from rules_engine.nineteen43.artillery import FieldStrength
from rules_engine.nineteen43.common import AirSide, BattleRole, BattleType
from rules_engine.nineteen43.setup import Proximity
from rules_engine.profiles import CampaignStep
from rules_engine.results import to_jsonable
from rules_engine.vocab import Front, Nation, SupplySituation, label_of

# The air superiority table's rows for the campaign's theatre where one row
# fits (rules notes C-02); in the Pacific and Asia the umpire names the row.
AIR_FRONT_ROWS = {
    Front.EAST: AirSuperiorityFront.RUSSIA_POLAND,
    Front.WEST: AirSuperiorityFront.FRANCE_BELGIUM,
    Front.NORTH_AFRICA: AirSuperiorityFront.AFRICA_ITALY,
    Front.MEDITERRANEAN: AirSuperiorityFront.AFRICA_ITALY,
}
REPORT_RULE = "battle report: stands, pools and supply are changed together"
# What a report says of the battle's outcome, kept on the battle and its sector, not in the report.
REPORT_OUTCOME_KEYS = frozenset({"winner", "sector_owner"})
TEMPLATES_RULE = ROUNDS_RULE.text()
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


def battle_lock(campaign_id: int, battle_id: int) -> tuple[models.Campaign, models.Battle]:
    """The campaign and one of its battles, locked for a write about the battle."""
    campaign = campaign_lock(campaign_id)
    battle = models.Battle.objects.select_for_update().filter(campaign=campaign, pk=battle_id).first()
    if battle is None:
        raise NotFoundError("no such battle in this campaign", field="battle")
    return campaign, battle


def _require_battle_status(battle: models.Battle, *allowed: BattleStatus) -> None:
    if battle.status not in allowed:
        names = " or ".join(s.label.lower() for s in allowed)
        raise ConflictError(
            f"the battle at {battle.sector} is {battle.get_status_display().lower()}, not {names}",
            field="status",
            code="wrong_battle_status",
        )


def battle_create_refusal(campaign: models.Campaign) -> ConflictError | None:
    """Why no battle may be created now, or None (the umpire's ``create_battle`` action): battles
    are fought on a campaign day under way, not once its night phase has started (a battle created
    then would stay unreported: the night checks for those before it starts)."""
    refusal = campaign_status_refusal(campaign, CampaignStatus.ACTIVE)
    if refusal is not None:
        return refusal
    day = campaign.days.filter(number=campaign.current_day).first()
    if day is None:
        return ConflictError(
            "battles are fought on a campaign day; dawn one first", field="day", code="no_day"
        )
    if day.status != DayStatus.DAY:
        return ConflictError(
            f"day {day.number} is {day.get_status_display().lower()}: "
            "battles are created while it is under way",
            field="day",
            code="wrong_day_status",
        )
    return None


@transaction.atomic
def battle_create(
    campaign_id: int,
    actor: Actor,
    *,
    sector_id: int | None = None,
    sector_name: str = "",
    battle_type: str,
    attacker_id: int,
    defender_id: int,
    battalion_codes: Sequence[str],
    continues_id: uuid.UUID | None = None,
    feeds_ids: Sequence[uuid.UUID] = (),
) -> models.Battle:
    """``continues_id`` and ``feeds_ids`` name battles by their public ids, as the API does."""
    campaign = campaign_lock(campaign_id)
    refusal = battle_create_refusal(campaign)
    if refusal is not None:
        raise refusal
    day = campaign.days.get(number=campaign.current_day)
    sector = sector_for_battle(campaign, sector_id, sector_name)
    if battle_type not in {t.value for t in BattleType}:
        raise DomainError(
            f"{battle_type!r} is not a battle type ({', '.join(t.value for t in BattleType)})",
            field="battle_type",
        )
    sides = {s.pk: s for s in campaign.sides.all()}
    for field, side_id in (("attacker_id", attacker_id), ("defender_id", defender_id)):
        if side_id not in sides:
            raise DomainError(f"side {side_id} is not in campaign {campaign.slug}", field=field)
    if attacker_id == defender_id:
        raise DomainError("attacker and defender must be different sides", field="defender_id")
    battalions = {b.code: b for b in campaign.battalions.filter(code__in=battalion_codes)}
    for index, code in enumerate(battalion_codes):
        if code not in battalions:
            raise DomainError(f"battalion {code} is not in this campaign", field=f"battalion_codes[{index}]")
        if battalions[code].side_id not in (attacker_id, defender_id):
            raise DomainError(f"battalion {code} belongs to neither side", field=f"battalion_codes[{index}]")
    linked = {
        b.public_id: b
        for b in campaign.battles.filter(
            public_id__in=[*feeds_ids, *([continues_id] if continues_id else [])]
        )
    }
    if continues_id is not None and continues_id not in linked:
        raise DomainError(f"battle {continues_id} is not in this campaign", field="continues_id")
    for index, feed_id in enumerate(feeds_ids):
        if feed_id not in linked:
            raise DomainError(f"battle {feed_id} is not in this campaign", field=f"feeds_ids[{index}]")

    battle = models.Battle.objects.create(
        campaign=campaign,
        day=day,
        sector=sector,
        battle_type=battle_type,
        attacker_id=attacker_id,
        defender_id=defender_id,
        continues=linked[continues_id] if continues_id is not None else None,
    )
    battle.battalions.set(battalions.values())
    if feeds_ids:
        battle.feeds.set([linked[i] for i in feeds_ids])
    if campaign.current_segment:
        battle.segments.set(day.segments.filter(segment=campaign.current_segment))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_CREATED,
        battle,
        f"Battle at {battle.sector}: {sides[attacker_id].name} attack {sides[defender_id].name} "
        f"({battle_type}) with {', '.join(battalion_codes)}",
        actor,
        after={
            "sector": sector.key,
            "battalions": list(battalion_codes),
            "continues": str(continues_id) if continues_id else None,
        },
    )
    _battle_assigned_notify(campaign, battle, sides, [battalions[code] for code in battalion_codes], actor)
    return battle


def _battle_assigned_body(
    battle: models.Battle, sides: Mapping[int, models.Side], side_id: int, own: Sequence[str]
) -> str:
    """A side's news of its battle, as the battle now stands: its role, the enemy, its battalions."""
    role, enemy = (
        ("attack", sides[battle.defender_id])
        if side_id == battle.attacker_id
        else ("defend against", sides[battle.attacker_id])
    )
    kind = label_of(BattleType(battle.battle_type))
    return f"{sides[side_id].name} {role} {enemy.name} at {battle.sector} ({kind})." + (
        f" Your battalions: {', '.join(own)}." if own else ""
    )


def _battle_assigned_notify(
    campaign: models.Campaign,
    battle: models.Battle,
    sides: Mapping[int, models.Side],
    battalions: Sequence[models.Battalion],
    actor: Actor,
) -> None:
    """Tell each side's players of their new battle: where, against whom, with which of their
    own battalions (never the enemy's: those are the fog of war's to reveal)."""
    players: dict[int, list[models.Membership]] = {}
    for membership in side_players(campaign, (battle.attacker_id, battle.defender_id)).select_related("user"):
        if membership.side_id is not None:  # always, for a player
            players.setdefault(membership.side_id, []).append(membership)
    title = f"Battle at {battle.sector} on day {battle.day.number}"
    for side_id, members in players.items():
        own = [b.code for b in battalions if b.side_id == side_id]
        notification_send(
            campaign,
            members,
            NotificationKind.BATTLE_ASSIGNED,
            title,
            _battle_assigned_body(battle, sides, side_id, own),
            f"/campaigns/{campaign.slug}/battles/{battle.public_id}",
            actor,
            side_id=side_id,
            key=f"battle:{battle.pk}",
        )


def _battle_assigned_restate(campaign: models.Campaign, battle: models.Battle) -> None:
    """The attacker decision swapped the battle's sides: each side's news of the battle says its
    role as it now is (the inbox reads it again; an e-mail already sent stays as it was)."""
    sides = {side.pk: side for side in (battle.attacker, battle.defender)}
    own: dict[int, list[str]] = {side_id: [] for side_id in sides}
    for code, side_id in battle.battalions.order_by("pk").values_list("code", "side_id"):
        own.setdefault(side_id, []).append(code)
    news = models.Notification.objects.filter(
        campaign=campaign, kind=NotificationKind.BATTLE_ASSIGNED, dedupe_key=f"battle:{battle.pk}"
    )
    for side_id in sides:
        readers = campaign.memberships.filter(side_id=side_id).values("user_id")
        news.filter(recipient_id__in=readers).update(
            body=_battle_assigned_body(battle, sides, side_id, own[side_id])
        )


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


def battle_stream(battle: models.Battle) -> tuple[str, int]:
    """The name of ``battle``'s dice streams: the battle by its place among its campaign's (by
    creation), not its row number, so a campaign rolls the same dice whatever other campaigns
    the database holds (rolls already recorded keep the stream names they were rolled under)."""
    return ("battle", models.Battle.objects.filter(campaign_id=battle.campaign_id, pk__lte=battle.pk).count())


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
    _require_battle_status(battle, BattleStatus.PLANNED)
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
        _battle_assigned_restate(campaign, battle)
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


@transaction.atomic
def battle_lull_check(campaign_id: int, actor: Actor, battle_id: int, turn: int) -> models.Battle:
    """The attacker's combat lull check at the start of an assault phase (000 § Combat Lulls)."""
    campaign, battle = battle_lock(campaign_id, battle_id)
    _require_battle_status(battle, BattleStatus.SET_UP)
    if battle.lull_checks_from_turn is None:
        raise ConflictError(
            "this battle's set-up rolled no proximity, so no turn starts the lull checks",
            field="turn",
            code="no_lull_start",
        )
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise DomainError("turn must be a whole number of 1 or more", field="turn")
    if any(lull["turn"] == turn for lull in battle.lulls):
        raise ConflictError(f"turn {turn} already had its lull check", field="turn", code="lull_checked")
    context = RollContext(day=battle.day, battle=battle, owner=BATTLE_SIDES)
    run = procedure_run(
        campaign,
        "n43.lull_check",
        {"turn": turn, "start_turn": battle.lull_checks_from_turn},
        (*battle_stream(battle), "lull", turn),
        context=context,
    )
    length = run.outcome.outcome
    lull = {"turn": turn, "length": length.value if length else None, "text": run.outcome.outcome_text}
    battle.lulls = [*battle.lulls, lull]
    battle.save(update_fields=["lulls"])
    models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, {"lull": lull}))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_LULL_CHECKED,
        battle,
        f"Battle at {battle.sector}, turn {turn}: {run.outcome.outcome_text}",
        actor,
        after=lull,
    )
    return battle


def _int_field(entry: Mapping[str, Any], name: str, field: str) -> int:
    value = entry.get(name, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise DomainError(f"{name} must be a whole number of 0 or more", field=field)
    return value


def _reported_fuel(campaign: models.Campaign, battalion: models.Battalion, state: Any, field: str) -> str:
    """A vehicle battalion's fuel at the end of the battle, as the report gives it (N43-29)."""
    optional_rule_require(campaign, FUEL_SUPPLY, field)
    if battalion.fuel_state == FuelState.NOT_APPLICABLE:
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
        stands = {s.label: s for s in battalion.stands.all()}
        for outcome, status in (("destroyed", StandStatus.DESTROYED), ("suppressed", StandStatus.SUPPRESSED)):
            labels = entry.get(outcome, [])
            if not isinstance(labels, list):
                raise DomainError(f"{outcome} must be a list of stand labels", field=f"{prefix}.{outcome}")
            for j, label in enumerate(labels):
                field = f"{prefix}.{outcome}[{j}]"
                stand = stands.get(label)
                if stand is None:
                    raise DomainError(f"stand {label} is not in battalion {code}", field=field)
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
    _require_battle_status(battle, BattleStatus.PLANNED, BattleStatus.SET_UP, BattleStatus.IN_PROGRESS)


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


@transaction.atomic
def battle_close(campaign_id: int, actor: Actor, battle_id: int) -> models.Battle:
    campaign, battle = battle_lock(campaign_id, battle_id)
    _require_battle_status(battle, BattleStatus.REPORTED)
    battle.status = BattleStatus.CLOSED
    battle.save(update_fields=["status"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_CLOSED,
        battle,
        f"Battle at {battle.sector} closed",
        actor,
        before={"status": BattleStatus.REPORTED},
        after={"status": BattleStatus.CLOSED},
    )
    return battle
