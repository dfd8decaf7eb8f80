"""Run rules-engine procedures for a campaign and keep what they rolled.

Dice come from the seed of the campaign's dice day and of the roll's audience, exactly its
readers (:mod:`campaign.services.dice`), and a stream named after what is rolled
(``day/3/segment/morning/wind``), so rerunning an operation reproduces the same faces, and any
roll can be replayed from its record.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign import models
from campaign.access import dice_audience
from campaign.services.audit import Actor, RollContext, roll_record_rows
from campaign.services.dice import dice_day, dice_day_seed
from campaign.services.errors import ConflictError, DomainError
from rules_engine import catalog
from rules_engine.dice import DiceError, ScriptedDice, SeededDice
from rules_engine.fairness import PUBLIC_AUDIENCE, FairnessError
from rules_engine.inputs import InputError, build_inputs, read_input
from rules_engine.profiles import CampaignStep, RulesetProfile, get_profile
from rules_engine.registry import CatalogError, ProcedureEntry
from rules_engine.results import Outcome, to_jsonable


def campaign_profile(campaign: models.Campaign) -> RulesetProfile:
    return get_profile(campaign.profile)


def procedure_key(campaign: models.Campaign, step: CampaignStep) -> str | None:
    return campaign_profile(campaign).procedure_for(step)


@dataclass(frozen=True)
class RuleRun:
    procedure: str
    stream: tuple[str, ...]
    inputs: Any
    outcome: Any
    dice_day: int | None = None  # whose seed rolled it; None when it rolled no dice
    audience: str = PUBLIC_AUDIENCE  # whose chain's seed rolled it
    at_table: bool = False  # rolled with physical dice, its faces entered

    def records(
        self, campaign: models.Campaign, actor: Actor, context: RollContext, changes: Mapping[str, Any]
    ) -> list[models.RollRecord]:
        return [models.RollRecord(**row) for row in self.rows(campaign, actor, context, changes)]

    def rows(
        self, campaign: models.Campaign, actor: Actor, context: RollContext, changes: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        if self.dice_day is not None and roll_audience(campaign, context) != self.audience:
            raise ValueError(
                f"{self.procedure} rolled with the seed of {self.audience!r} but is recorded for "
                f"{roll_audience(campaign, context)!r}: roll it with the context it is recorded with"
            )
        return roll_record_rows(
            campaign,
            self.procedure,
            self.stream,
            self.inputs,
            self.outcome,
            actor,
            context,
            changes,
            dice_day=self.dice_day,
            dice_audience=self.audience,
            at_table=self.at_table,
        )


def roll_audience(campaign: models.Campaign, context: RollContext) -> str:
    """Whose seed rolls a roll recorded with ``context``: exactly its readers."""
    battle = context.battle
    battle_sides = () if battle is None else (battle.attacker_id, battle.defender_id)
    return dice_audience(context.owner, campaign.side_names, battle_sides)


# The optional rules and variants a campaign service applies when a campaign switches them on.
# Every path that sets ``Campaign.optional_rules`` (scenario packs, the admin, corrections)
# refuses any other optional procedure: it would be a switch that changes nothing (rules notes CR-01).
APPLIED_OPTIONAL_RULES = frozenset(
    {
        "gb.reactivation",  # activation: spends, and a deactivated battalion's reactivation
        "gb.activation_carry_over",  # the night phase's carry-over step
        "gb.variant.ammo_night_removal",  # the night phase's ammo step
        "gb.malta.division_pools",  # activation spends, the night's carry-over, the dawn tallies
        "gb.malta.day_end",  # day_rules.day_end_roll
        "gb.malta.barrage_orders",  # day_rules.artillery_order_set
        "gb.malta.entrenchment",  # day_rules.stand_entrench
        "gb.malta.air_support",  # day_rules.air_support_request
        "gb.variant.cops_action_points",  # day_rules.force_cops_action_points
        "gb.variant.action_to_activation",  # the same, saving the C Ops' action points
        "gb.initiative_activation",  # activation.battlegroup_initiative_activate
        "gb.airborne.drift_variant",  # airborne: the drift of each landing stand
        "n43.defensive_works",  # battle_setups.battle_setup, each side's works
        "n43.fuel_supply",  # battle_setups.battle_setup's fuel rolls, the report's, the night's fuel states
    }
)


def optional_rule_on(campaign: models.Campaign, key: str) -> bool:
    """Whether ``key`` applies in ``campaign``: a stock procedure always, an optional one
    when the campaign switched it on.  Services read optional rules only through here, so
    a service applying a rule missing from :data:`APPLIED_OPTIONAL_RULES` fails its tests."""
    if not catalog.get_procedure(key).optional:
        return True
    if key not in APPLIED_OPTIONAL_RULES:
        raise LookupError(f"{key} is applied by a service but missing from APPLIED_OPTIONAL_RULES")
    return key in campaign.optional_rules


def optional_rule_require(campaign: models.Campaign, key: str, field: str) -> None:
    """Refuse (409, naming ``field``) a service whose optional rule the campaign does not play."""
    if not optional_rule_on(campaign, key):
        raise ConflictError(
            f"this campaign does not play {catalog.get_procedure(key).title} ({key}): "
            "switch it on in the campaign's rules first",
            field=field,
            code="rule_off",
        )


@dataclass(frozen=True)
class RuleSwitchIssue:
    """Why a campaign cannot hold an optional rule or a club setting, at ``field``."""

    field: str
    message: str
    code: str = "invalid"


def _optional_rule_issue(field: str, key: Any) -> RuleSwitchIssue | None:
    if not isinstance(key, str):
        return RuleSwitchIssue(field, f"{key!r} is not the key of a rule")
    try:
        entry = catalog.get_procedure(key)
    except CatalogError:
        return RuleSwitchIssue(field, f"there is no rule {key!r} in the rules catalogue")
    if not entry.optional:
        return RuleSwitchIssue(field, f"{entry.title} ({key}) is not an optional rule: it always applies")
    if key not in APPLIED_OPTIONAL_RULES:
        return RuleSwitchIssue(
            field,
            f"{entry.title} ({key}) is not applied by the campaign service yet, "
            "so switching it on would change nothing; leave it off",
            code="rule_not_applied",
        )
    return None


def _rule_setting_issue(field: str, name: str, value: Any) -> RuleSwitchIssue | None:
    key, _, input_name = name.rpartition(".")
    try:
        entry = catalog.get_procedure(key)
    except CatalogError:
        return RuleSwitchIssue(field, "name a setting procedure.field, e.g. gb.activation_carry_over.cap")
    accepted = sorted(f.name for f in dataclasses.fields(entry.input_type)) if entry.input_type else []
    if entry.input_type is None or input_name not in accepted:
        return RuleSwitchIssue(field, f"{key} has no input {input_name!r}; it takes {', '.join(accepted)}")
    try:
        read_input(entry.input_type, input_name, value)
    except InputError as exc:
        return RuleSwitchIssue(field, f"{entry.title}: {exc}")
    return None


def rule_switch_issues(optional_rules: Any, rule_settings: Any) -> list[RuleSwitchIssue]:
    """Each optional rule or club setting a campaign cannot hold: the one check of
    ``Campaign.optional_rules`` and ``Campaign.rule_settings``, wherever they are set."""
    issues: list[RuleSwitchIssue | None] = []
    if isinstance(optional_rules, list):
        issues += (_optional_rule_issue(f"optional_rules[{i}]", k) for i, k in enumerate(optional_rules))
    else:
        issues.append(RuleSwitchIssue("optional_rules", "list the optional rules switched on"))
    if isinstance(rule_settings, Mapping):
        issues += (_rule_setting_issue(f"rule_settings.{n}", str(n), v) for n, v in rule_settings.items())
    else:
        issues.append(RuleSwitchIssue("rule_settings", 'give settings as {"procedure.field": value}'))
    return [issue for issue in issues if issue is not None]


def rule_switches_check(optional_rules: Any, rule_settings: Any) -> None:
    """Refuse, naming the field, the first optional rule or setting the campaign cannot hold."""
    issues = rule_switch_issues(optional_rules, rule_settings)
    if issues:
        raise DomainError(issues[0].message, field=issues[0].field, code=issues[0].code)


def club_settings(campaign: models.Campaign, key: str) -> dict[str, Any]:
    """The campaign's readings of ambiguous rules for one procedure."""
    prefix = key + "."
    merged = {**campaign_profile(campaign).settings, **campaign.rule_settings}
    return {name[len(prefix) :]: value for name, value in merged.items() if name.startswith(prefix)}


def procedure_run(
    campaign: models.Campaign,
    key: str,
    values: Mapping[str, Any],
    stream: Sequence[str | int],
    *,
    context: RollContext | None = None,
    field_prefix: str = "",
    table_faces: Sequence[int] | None = None,
    faces_field: str = "faces",
) -> RuleRun:
    """Build ``key``'s inputs (club settings first, then ``values``) and roll, with the seed of
    the readers of ``context``, the context the rolls are recorded with (a procedure that rolls
    no dice needs none). With ``table_faces`` the procedure reads those faces, rolled at the
    table, instead (refused at ``faces_field`` unless it uses every one of them)."""
    try:
        entry = catalog.get_procedure(key)
    except CatalogError as exc:
        raise DomainError(str(exc), field="procedure", code="unknown_procedure") from exc
    if entry.input_type is None:
        raise DomainError(f"procedure {key} takes no inputs", field="procedure")
    try:
        inputs = build_inputs(entry.input_type, {**club_settings(campaign, key), **values})
    except InputError as exc:
        raise DomainError(
            f"{entry.title}: {exc}", field=f"{field_prefix}{exc.field}", rule=entry.rule.text()
        ) from exc
    labels = tuple(str(label) for label in stream)
    if not entry.rolls:
        return RuleRun(key, labels, inputs, entry.func(inputs))
    if context is None:
        raise TypeError(f"{key} rolls dice: give the context its rolls are recorded with")
    day, audience = dice_day(campaign), roll_audience(campaign, context)
    if table_faces is not None:
        return RuleRun(
            key, labels, inputs, _table_roll(entry, inputs, table_faces, faces_field), day, audience, True
        )
    try:
        seed = dice_day_seed(campaign, day, audience)
    except FairnessError as exc:
        raise ConflictError(str(exc), field="dice", code="dice_chain_exhausted") from exc
    return RuleRun(key, labels, inputs, entry.func(inputs, SeededDice(seed, *labels)), day, audience)


def _table_roll(entry: ProcedureEntry, inputs: Any, faces: Sequence[int], field: str) -> Any:
    """The procedure applied to faces rolled at the table, every one of them used."""
    dice = ScriptedDice(faces)
    try:
        outcome = entry.func(inputs, dice)
    except DiceError as exc:
        needs = f"needs more than the {len(faces)} faces entered" if dice.used == len(faces) else str(exc)
        raise DomainError(f"{entry.title}: {needs}", field=field, code="table_faces") from exc
    if dice.remaining:
        raise DomainError(
            f"{entry.title} read {dice.used} of the {len(faces)} faces entered: "
            "enter the faces it rolls, no more",
            field=field,
            code="table_faces",
        )
    return outcome


# Who may enter a set-up step's faces rolled at the table (Campaign.table_dice): the umpires, or
# also the battle's players. Fuel supply rolls once per vehicle battalion: not at the table.
TABLE_ROLLERS = ("umpire", "players")
NOT_AT_TABLE = frozenset({"n43.fuel_supply"})


def table_dice_issues(profile: str, table_dice: Any) -> list[RuleSwitchIssue]:
    """Each entry of ``Campaign.table_dice`` the campaign cannot hold: a step that is not a battle
    set-up step of its rules, or a roller that is neither ``umpire`` nor ``players``."""
    if not isinstance(table_dice, Mapping):
        return [
            RuleSwitchIssue("table_dice", 'give the steps rolled at the table as {"procedure": "umpire"}')
        ]
    try:
        steps = get_profile(profile).procedures_for(CampaignStep.BATTLE_SETUP)
    except CatalogError:
        steps = ()
    issues = []
    for key, who in table_dice.items():
        field = f"table_dice.{key}"
        if key not in steps or key in NOT_AT_TABLE or not catalog.get_procedure(key).rolls:
            issues.append(
                RuleSwitchIssue(
                    field,
                    f"{key} is not a battle set-up step of this campaign's rules that is rolled once: "
                    "only those may be rolled at the table",
                )
            )
        elif who not in TABLE_ROLLERS:
            issues.append(
                RuleSwitchIssue(field, f"say who enters {key} rolled at the table: umpire or players")
            )
    return issues


def roll_replay(record: models.RollRecord) -> list[dict[str, Any]]:
    """Re-derive a recorded roll from its day's seed of its audience (a roll recorded before day
    seeds: from the campaign seed, as it was rolled): the results as dicts."""
    entry = catalog.get_procedure(record.procedure)
    assert entry.input_type is not None
    inputs = build_inputs(entry.input_type, record.inputs)
    campaign = record.campaign
    seed = (
        campaign.rng_seed
        if record.dice_day is None
        else dice_day_seed(campaign, record.dice_day, record.dice_audience)
    )
    outcome: Outcome = entry.func(inputs, SeededDice(seed, *record.stream.split("/")))
    return [to_jsonable(r.to_dict()) for r in outcome.roll_results()]
