"""The umpire's manual override of a rolled value: recorded, never silent.

An override is checked against what the roll set before anything is written: a
value kept in a column must fit the column (its type, choices and bounds) and be
of the kind the procedure produced; a battle set-up step is a rules-engine
result, so its override names keys of that result, each value shaped like the
rolled one. A roll that reported a number it keeps nowhere (a night's
replacement count) has nothing to override.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models as db_models
from django.db import transaction

from campaign import models
from campaign.access import UMPIRES, Owner
from campaign.choices import EventVerb, Visibility
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import ConflictError, DomainError, NotFoundError

# A roll that set the battle's set-up records ``{"setup": "<step label>"}``: the value lives
# at ``battle.setup[label]``, a rules-engine result.
SETUP = "setup"
JSON_KINDS: tuple[tuple[type, str], ...] = (
    (bool, "true or false"),  # before int: a bool is an int in Python
    (int, "a whole number"),
    (float, "a number"),
    (str, "text"),
    (list, "a list"),
    (dict, "an object"),
)


def _kind(value: Any) -> str:
    if value is None:
        return "empty"
    return next((name for kind, name in JSON_KINDS if isinstance(value, kind)), type(value).__name__)


def _shape_problem(value: Any, rolled: Any, path: str) -> tuple[str, str] | None:
    """(path, message) when ``value`` is not shaped like the rolled value ``rolled``, else None."""
    if rolled is None:  # a result may leave a value empty that it fills on another roll
        if value is None or _kind(value) in ("true or false", "a whole number", "a number", "text"):
            return None
        return path, f"must be a single value (text, a number or true or false), not {_kind(value)}"
    if isinstance(rolled, float) and isinstance(value, int) and not isinstance(value, bool):
        return None
    if _kind(value) != _kind(rolled):
        return path, f"must be {_kind(rolled)}, as the roll gave, not {_kind(value)}"
    if isinstance(rolled, dict):
        if set(value) != set(rolled):
            return path, f"must have exactly the keys {', '.join(sorted(rolled))}"
        for key, item in value.items():
            if problem := _shape_problem(item, rolled[key], f"{path}.{key}"):
                return problem
    if isinstance(rolled, list) and rolled:
        for index, item in enumerate(value):
            if problem := _shape_problem(item, rolled[0], f"{path}[{index}]"):
                return problem
    return None


def _target(record: models.RollRecord) -> db_models.Model:
    """The object the roll changed: the most specific one on its record."""
    for candidate in (record.battalion, record.force, record.battle, record.segment, record.day):
        if candidate is not None:
            return candidate
    raise ConflictError("this roll is not tied to an object that can be overridden", field="roll")


@dataclass(frozen=True)
class _Change:
    """One checked override: what the roll's object held, what it will hold, and the log's values."""

    name: str
    before: Any
    after: Any
    stored: Any  # what the model attribute is set to


def _setup_change(battle: models.Battle, rolled: Any, value: Any, field: str) -> _Change:
    label = rolled if isinstance(rolled, str) else None
    step = battle.setup.get(label) if label is not None and isinstance(battle.setup, dict) else None
    if not isinstance(step, dict):
        raise ConflictError(f"the battle holds no set-up result for {label}", field=field)
    if not isinstance(value, dict) or not value:
        raise DomainError(
            f"give the values of the {label} result to change, as an object such as "
            '{"outcome_text": "..."}, not ' + _kind(value),
            field=field,
        )
    for key, item in value.items():
        if key not in step:
            raise DomainError(
                f"the {label} result has no {key}; it has {', '.join(step)}", field=f"{field}.{key}"
            )
        if problem := _shape_problem(item, step[key], f"{field}.{key}"):
            raise DomainError(f"{problem[0].removeprefix('changes.')} {problem[1]}", field=problem[0])
    changed_step = {**step, **value}
    return _Change(
        SETUP,
        before={label: {key: step[key] for key in value}},
        after={label: dict(value)},
        stored={**battle.setup, label: changed_step},
    )


# The Python type of the JSON value each kind of column a roll sets takes (bool before int:
# BooleanField is no IntegerField, but True is an int in Python).
COLUMN_VALUE_TYPES: tuple[tuple[type[db_models.Field[Any, Any]], type], ...] = (
    (db_models.BooleanField, bool),
    (db_models.IntegerField, int),
    (db_models.CharField, str),
)


def _column_change(
    target: db_models.Model, model_field: db_models.Field[Any, Any], value: Any, field: str
) -> _Change:
    name = model_field.name
    expected = next((kind for column, kind in COLUMN_VALUE_TYPES if isinstance(model_field, column)), None)
    if expected is None:
        raise DomainError(f"{name} cannot be overridden", field=field)
    if value is None:
        if not model_field.null:
            raise DomainError(f"{name} cannot be empty", field=field)
    elif not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
        wanted = next(name for kind, name in JSON_KINDS if kind is expected)
        raise DomainError(f"{name} must be {wanted}, not {_kind(value)}", field=field)
    try:
        cleaned = model_field.clean(value, target)  # choices, bounds and lengths
    except ValidationError as exc:
        raise DomainError(f"{name}: {' '.join(exc.messages)}", field=field) from exc
    return _Change(name, before=getattr(target, name), after=cleaned, stored=cleaned)


def _side_change(
    campaign: models.Campaign, target: db_models.Model, name: str, value: Any, field: str
) -> _Change:
    side = campaign.sides.filter(name=value).first() if isinstance(value, str) else None
    if side is None:
        names = ", ".join(campaign.sides.values_list("name", flat=True))
        raise DomainError(f"{value!r} is not a side of this campaign (choose from {names})", field=field)
    return _Change(name, before=getattr(getattr(target, name), "name", None), after=side.name, stored=side)


def _checked(
    campaign: models.Campaign, record: models.RollRecord, target: db_models.Model, name: str, value: Any
) -> _Change:
    field = f"changes.{name}"
    if name not in record.changes:
        raise DomainError(
            f"roll {record.pk} did not set {name}; it set {', '.join(record.changes) or 'nothing'}",
            field=field,
        )
    if name == SETUP and isinstance(target, models.Battle):
        return _setup_change(target, record.changes[name], value, field)
    try:
        model_field = target._meta.get_field(name)
    except FieldDoesNotExist:
        model_field = None
    if isinstance(model_field, db_models.ForeignKey) and model_field.related_model is models.Side:
        return _side_change(campaign, target, name, value, field)
    if not isinstance(model_field, db_models.Field) or model_field.is_relation:
        raise DomainError(
            f"the roll reported {name} but keeps no such value on {target}, so there is nothing to "
            "override; correct the object itself instead",
            field=field,
        )
    return _column_change(target, model_field, value, field)


def _line(roll_id: uuid.UUID, changes: list[_Change], reason: str) -> str:
    shown = ", ".join(
        f"{c.name} {next(iter(c.after))}: {', '.join(next(iter(c.after.values())))} overridden"
        if c.name == SETUP
        else f"{c.name} {c.before} → {c.after}"
        for c in changes
    )
    return f"Umpire override of roll {roll_id}: {shown} ({reason})"


@transaction.atomic
def roll_override(
    campaign_id: int, actor: Actor, roll_id: int, *, changes: Mapping[str, Any], reason: str
) -> models.RollRecord:
    campaign = campaign_lock(campaign_id)
    record = models.RollRecord.objects.filter(campaign=campaign, pk=roll_id).first()
    if record is None:
        raise NotFoundError(f"roll {roll_id} does not exist", field="roll")
    if not reason.strip():
        raise DomainError("say why the rolled value is overridden", field="reason")
    if not changes:
        raise DomainError("name at least one value to override", field="changes")
    target = _target(record)
    checked = [_checked(campaign, record, target, name, value) for name, value in changes.items()]
    for change in checked:
        setattr(target, change.name, change.stored)
    target.save(update_fields=[change.name for change in checked])
    before = {change.name: change.before for change in checked}
    after = {change.name: change.after for change in checked}
    override = models.RollRecord.objects.create(
        campaign=campaign,
        day=record.day,
        segment=record.segment,
        battle=record.battle,
        force=record.force,
        battalion=record.battalion,
        procedure=record.procedure,
        stream=record.stream,
        dice_day=record.dice_day,  # listed in the verification of the day it overrides a roll of
        dice_audience=record.dice_audience,
        inputs=record.inputs,
        result={"override": True, "reason": reason, "before": before, "after": after},
        line=_line(record.public_id, checked, reason),  # its public id: the API names it by that
        # As the original: a set-up roll names its step; the step's new values are in ``result``.
        changes={name: record.changes[name] if name == SETUP else value for name, value in after.items()},
        actor_id=actor.user_id,
        request_id=actor.request_id,
        override_of=record,
        visibility=record.visibility,  # read by whoever reads the roll it overrides
        side_id=record.side_id,
    )
    campaign_save(campaign)
    # An event is never a battle's sides': an override of a set-up roll rolled for both is the umpire's.
    owner = (
        UMPIRES
        if record.visibility == Visibility.BATTLE
        else Owner(Visibility(record.visibility), record.side_id)
    )
    event_record(
        campaign,
        EventVerb.ROLL_OVERRIDDEN,
        target,
        override.line,
        actor,
        before=before,
        after=after,
        owner=owner,
    )
    return override
