"""Run rules-engine procedures for a campaign and keep what they rolled.

Dice come from the campaign seed and a stream named after what is rolled
(``day/3/segment/morning/wind``), so rerunning an operation reproduces the
same faces, and any roll can be replayed from its record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign import models
from campaign.services.audit import Actor, RollContext, roll_record_rows, roll_records_build
from campaign.services.errors import DomainError
from rules_engine import catalog
from rules_engine.dice import SeededDice
from rules_engine.inputs import InputError, build_inputs
from rules_engine.profiles import CampaignStep, RulesetProfile, get_profile
from rules_engine.registry import CatalogError
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

    def records(
        self, campaign: models.Campaign, actor: Actor, context: RollContext, changes: Mapping[str, Any]
    ) -> list[models.RollRecord]:
        return roll_records_build(
            campaign, self.procedure, self.stream, self.inputs, self.outcome, actor, context, changes
        )

    def rows(
        self, campaign: models.Campaign, actor: Actor, context: RollContext, changes: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        return roll_record_rows(
            campaign, self.procedure, self.stream, self.inputs, self.outcome, actor, context, changes
        )


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
    field_prefix: str = "",
) -> RuleRun:
    """Build ``key``'s inputs (club settings first, then ``values``) and roll."""
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
    outcome = (
        entry.func(inputs, SeededDice(campaign.rng_seed, *labels)) if entry.rolls else entry.func(inputs)
    )
    return RuleRun(key, labels, inputs, outcome)


def roll_replay(record: models.RollRecord) -> list[dict[str, Any]]:
    """Re-derive a recorded roll from the campaign seed: the results as dicts."""
    entry = catalog.get_procedure(record.procedure)
    assert entry.input_type is not None
    inputs = build_inputs(entry.input_type, record.inputs)
    outcome: Outcome = entry.func(inputs, SeededDice(record.campaign.rng_seed, *record.stream.split("/")))
    return [to_jsonable(r.to_dict()) for r in outcome.roll_results()]
