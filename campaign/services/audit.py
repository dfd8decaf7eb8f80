"""Audit trail writers: roll records and timeline events.

Services call these inside their own transaction, so an operation's audit rows
commit or roll back with its effects.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from campaign import models
from campaign.choices import EventVerb
from rules_engine.results import Outcome, to_jsonable


@dataclass(frozen=True)
class Actor:
    """Who asked for an operation: a user (None for the system) and the request id."""

    user: AbstractBaseUser | AnonymousUser | None = None
    request_id: str = ""

    @property
    def user_id(self) -> int | None:
        user = self.user
        return int(user.pk) if user is not None and user.is_authenticated and user.pk is not None else None


SYSTEM = Actor()


def event_record(
    campaign: models.Campaign,
    verb: EventVerb,
    subject: Any,
    message: str,
    actor: Actor,
    *,
    before: Mapping[str, Any] | None = None,
    after: Mapping[str, Any] | None = None,
) -> models.Event:
    return models.Event.objects.create(
        campaign=campaign,
        verb=verb,
        actor_id=actor.user_id,
        request_id=actor.request_id,
        day_number=campaign.current_day or None,
        object_type=type(subject).__name__,
        object_id=getattr(subject, "pk", None),
        object_repr=str(subject)[:200],
        message=message,
        before=to_jsonable(before) if before is not None else None,
        after=to_jsonable(after) if after is not None else None,
    )


@dataclass(frozen=True)
class RollContext:
    """Where a roll belongs on the campaign timeline."""

    day: models.CampaignDay | None = None
    segment: models.DaySegmentRecord | None = None
    battle: models.Battle | None = None
    force: models.Force | None = None
    battalion: models.Battalion | None = None


def roll_records_build(
    campaign: models.Campaign,
    procedure: str,
    stream: Sequence[str | int],
    inputs: Any,
    outcome: Outcome,
    actor: Actor,
    context: RollContext,
    changes: Mapping[str, Any],
) -> list[models.RollRecord]:
    """Unsaved roll records, one per roll of ``outcome``, for bulk creation."""
    stream_text = "/".join(str(label) for label in stream)
    shared_inputs, shared_changes = to_jsonable(inputs), to_jsonable(changes)
    results = [roll.to_dict() for roll in outcome.roll_results()]
    return [
        models.RollRecord(
            campaign=campaign,
            day=context.day,
            segment=context.segment,
            battle=context.battle,
            force=context.force,
            battalion=context.battalion,
            procedure=procedure,
            stream=stream_text,
            inputs=shared_inputs,
            result=result,
            line=result["line"],
            changes=shared_changes,
            actor_id=actor.user_id,
            request_id=actor.request_id,
        )
        for result in results
    ]
