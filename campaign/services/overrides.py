"""The umpire's manual override of a rolled value: recorded, never silent."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models as db_models
from django.db import transaction

from campaign import models
from campaign.access import UMPIRES, Owner
from campaign.choices import EventVerb, Visibility
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.errors import ConflictError, DomainError, NotFoundError

# Values a roll changed that live under another name on the changed object.
FOREIGN_KEYS_BY_NAME = {"initiative_side": "initiative_side"}


def _target(record: models.RollRecord) -> db_models.Model:
    """The object the roll changed: the most specific one on its record."""
    for candidate in (record.battalion, record.force, record.battle, record.segment, record.day):
        if candidate is not None:
            return candidate
    raise ConflictError("this roll is not tied to an object that can be overridden", field="roll")


@transaction.atomic
def roll_override(
    roll_id: int, actor: Actor, *, changes: Mapping[str, Any], reason: str
) -> models.RollRecord:
    record = models.RollRecord.objects.filter(pk=roll_id).first()
    if record is None:
        raise NotFoundError(f"roll {roll_id} does not exist", field="roll")
    campaign = campaign_lock(record.campaign_id)
    if not reason.strip():
        raise DomainError("say why the rolled value is overridden", field="reason")
    if not changes:
        raise DomainError("name at least one value to override", field="changes")
    target = _target(record)
    before: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in record.changes:
            raise DomainError(
                f"roll {roll_id} did not set {name}; it set {', '.join(record.changes) or 'nothing'}",
                field=f"changes.{name}",
            )
        if name in FOREIGN_KEYS_BY_NAME:
            side = campaign.sides.filter(name=value).first()
            if side is None:
                raise DomainError(f"{value!r} is not a side of this campaign", field=f"changes.{name}")
            before[name] = getattr(getattr(target, name), "name", None)
            setattr(target, name, side)
            continue
        before[name] = getattr(target, name)
        setattr(target, name, value)
        model_field = target._meta.get_field(name)
        if not isinstance(model_field, db_models.Field):
            raise DomainError(f"{name} cannot be overridden", field=f"changes.{name}")
        try:
            model_field.clean(value, target)
        except ValidationError as exc:
            raise DomainError("; ".join(exc.messages), field=f"changes.{name}") from exc
    target.save(update_fields=list(changes))
    override = models.RollRecord.objects.create(
        campaign=campaign,
        day=record.day,
        segment=record.segment,
        battle=record.battle,
        force=record.force,
        battalion=record.battalion,
        procedure=record.procedure,
        stream=record.stream,
        inputs=record.inputs,
        result={"override": True, "reason": reason, "before": before, "after": dict(changes)},
        line=f"Umpire override of roll {record.pk}: "
        + ", ".join(f"{k} {before[k]} → {v}" for k, v in changes.items())
        + f" ({reason})",
        changes=dict(changes),
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
        after=dict(changes),
        owner=owner,
    )
    return override
