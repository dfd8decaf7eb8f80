"""The umpire's manual corrections: edits and deletions made by hand.

A correction is serialised with the services on the campaign lock, writes only
the fields it changes (so a service running at the same moment is neither
interleaved nor undone), bumps the campaign version and goes on the timeline
with before and after.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from operator import attrgetter
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction
from django.db.models import Field, Model

from campaign import models
from campaign.choices import EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_save
from campaign.services.dice import dice_commitment_fields, dice_seed_fresh
from campaign.services.errors import DomainError
from campaign.services.rules import rule_switches_check, table_dice_issues

# A field's value before and after a correction: model values as
# ``Field.value_from_object`` gives them (a foreign key's id, a many-to-many's
# list of ids).
FieldChange = tuple[Any, Any]

# The attribute holding the campaign id of each campaign-scoped model; a
# Campaign is its own scope.  Equipment is reference data, outside campaigns.
CAMPAIGN_ID_OF: Mapping[type[Model], str] = {
    models.Campaign: "pk",
    models.ClubNight: "campaign_id",
    models.Side: "campaign_id",
    models.Membership: "campaign_id",
    models.Force: "campaign_id",
    models.Battlegroup: "force.campaign_id",
    models.Battalion: "campaign_id",
    models.Stand: "campaign_id",
    models.CampaignDay: "campaign_id",
    models.DaySegmentRecord: "day.campaign_id",
    models.Battle: "campaign_id",
    models.Sector: "campaign_id",
    models.SectorLink: "campaign_id",
}

# The roll-record foreign key naming each kind of object a roll can change.
ROLL_SUBJECT_FIELD: Mapping[type[Model], str] = {
    models.CampaignDay: "day",
    models.DaySegmentRecord: "segment",
    models.Battle: "battle",
    models.Force: "force",
    models.Battalion: "battalion",
}

# Every recorded roll replays from the seed, and players read the timeline: the seed is set
# once, at creation (a fresh secret one, campaign.services.dice), and never shown there; its
# commitment and the revealed days follow from it.
SEED_FIELD = "rng_seed"
DICE_FIELDS = frozenset({SEED_FIELD, "dice_commitment", "dice_chain_length", "dice_revealed_through"})


def _campaign_id(obj: Model) -> int | None:
    path = CAMPAIGN_ID_OF.get(type(obj))
    return attrgetter(path)(obj) if path else None


def _jsonable(values: Mapping[str, Any]) -> dict[str, Any]:
    # Dates and the like as the API would show them; Event stores plain JSON.
    return json.loads(json.dumps(values, cls=DjangoJSONEncoder))  # type: ignore[no-any-return]


def _assign(obj: Model, changes: Mapping[str, FieldChange]) -> dict[str, Any]:
    """Set the ``after`` values on ``obj`` in memory; return the many-to-many
    ones, which can only be set on a saved row."""
    many_to_many: dict[str, Any] = {}
    for name, (_, after) in changes.items():
        try:
            field = obj._meta.get_field(name)
        except FieldDoesNotExist:
            field = None
        if not isinstance(field, Field):
            raise DomainError(f"{obj._meta.verbose_name} has no field {name} to correct", field=name)
        if field.many_to_many:
            many_to_many[name] = after
        else:
            setattr(obj, field.attname, after)
    return many_to_many


def _save(obj: Model, changes: Mapping[str, FieldChange], many_to_many: Mapping[str, Any]) -> None:
    """Save every field of a new ``obj``, else only the changed ones."""
    if obj._state.adding:
        obj.save()
    else:
        obj.save(update_fields=[name for name in changes if name not in many_to_many])
    for name, ids in many_to_many.items():
        getattr(obj, name).set(ids)


def _correction_verb(obj: Model, changed: Iterable[str]) -> EventVerb:
    """A correction of a value a roll set overrides that roll."""
    subject_field = ROLL_SUBJECT_FIELD.get(type(obj))
    if (
        subject_field
        and models.RollRecord.objects.filter(
            **{subject_field: obj}, changes__has_any_keys=list(changed)
        ).exists()
    ):
        return EventVerb.ROLL_OVERRIDDEN
    return EventVerb.ADMIN_CORRECTED


@transaction.atomic
def object_correct(obj: Model, actor: Actor, *, changes: Mapping[str, FieldChange], reason: str = "") -> None:
    """Write the umpire's edit of ``obj``: ``changes`` maps each changed field to
    its value (before, after), and ``reason`` says why, on the timeline.  A new
    ``obj`` is created with them.

    A new campaign is recorded as created and starts at version 1; an edit of
    reference data (equipment) has no campaign to version or record it in.
    """
    adding = obj._state.adding
    if not changes and not adding:
        return
    if isinstance(obj, models.Campaign) and changes.keys() & DICE_FIELDS:
        field = sorted(changes.keys() & DICE_FIELDS)[0]
        raise DomainError(
            "the dice seed and its commitment are set once, when the campaign is created, from a "
            "fresh secret seed",
            field=field,
        )
    if isinstance(obj, models.Campaign) and changes.keys() & {"optional_rules", "rule_settings"}:
        rule_switches_check(
            changes.get("optional_rules", (None, obj.optional_rules))[1],
            changes.get("rule_settings", (None, obj.rule_settings))[1],
        )
    if isinstance(obj, models.Campaign) and changes.keys() & {"table_dice", "profile"}:
        for issue in table_dice_issues(
            changes.get("profile", (None, obj.profile))[1],
            changes.get("table_dice", (None, obj.table_dice))[1],
        ):
            raise DomainError(issue.message, field=issue.field, code=issue.code)
    many_to_many = _assign(obj, changes)
    if adding and isinstance(obj, models.Campaign):
        for name, value in dice_commitment_fields(dice_seed_fresh()).items():
            setattr(obj, name, value)
        _save(obj, changes, many_to_many)
        created = {name: after for name, (_, after) in changes.items()}
        event_record(obj, EventVerb.CAMPAIGN_CREATED, obj, f"{obj} created", actor, after=_jsonable(created))
        return
    campaign_id = _campaign_id(obj)  # after the edit: a row can be moved to another parent
    campaign = campaign_lock(campaign_id) if campaign_id is not None else None
    _save(obj, changes, many_to_many)
    if campaign is None:
        return
    campaign_save(campaign)
    what = f"{obj._meta.verbose_name} {obj}"
    event_record(
        campaign,
        _correction_verb(obj, changes),
        obj,
        (f"Umpire added {what}" if adding else f"Umpire's correction of {what}: {', '.join(changes)}")
        + (f" ({reason})" if reason else ""),
        actor,
        before=None if adding else _jsonable({name: before for name, (before, _) in changes.items()}),
        after=_jsonable({name: after for name, (_, after) in changes.items()}),
    )


@transaction.atomic
def objects_delete(objects: Iterable[Model], actor: Actor) -> None:
    """Delete ``objects``, recording each with its last values and bumping the
    version of every campaign they belonged to, all or nothing.

    A deleted campaign takes its version and timeline with it; deleted
    reference data has neither.
    """
    doomed = [(obj, None if isinstance(obj, models.Campaign) else _campaign_id(obj)) for obj in objects]
    # Locked in id order, as every service locks one campaign, so no deadlock.
    campaigns = {cid: campaign_lock(cid) for cid in sorted({cid for _, cid in doomed if cid is not None})}
    for obj, campaign_id in doomed:
        if campaign_id is not None:
            last_values = {field.name: field.value_from_object(obj) for field in obj._meta.concrete_fields}
            event_record(
                campaigns[campaign_id],
                EventVerb.ADMIN_DELETED,
                obj,
                f"Umpire deleted {obj._meta.verbose_name} {obj}",
                actor,
                before=_jsonable(last_values),
            )
        obj.delete()  # after the event: a deleted object has no id to record
    for campaign in campaigns.values():
        campaign_save(campaign)


@transaction.atomic
def stand_correct(campaign_id: int, actor: Actor, stand_id: int, *, status: str, reason: str) -> models.Stand:
    """Set a stand's state by hand (a lost stand found, a suppression missed), with the reason,
    as a correction on the timeline."""
    campaign_lock(campaign_id)  # before the stand, in the order every service locks
    stand = models.Stand.objects.select_for_update().filter(campaign_id=campaign_id, pk=stand_id).first()
    if stand is None:
        raise DomainError(f"stand {stand_id} is not in this campaign", field="stand")
    if not reason.strip():
        raise DomainError("say why the stand is corrected", field="reason")
    if status == stand.status:
        raise DomainError(f"{stand.label} is already {stand.get_status_display().lower()}", field="status")
    object_correct(stand, actor, changes={"status": (stand.status, status)}, reason=reason.strip())
    return stand
