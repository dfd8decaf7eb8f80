"""Audit trail writers: roll records and timeline events.

Services call these inside their own transaction, so an operation's audit rows
commit or roll back with its effects.
"""

from __future__ import annotations

import contextlib
import operator
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper
from django.db.models import JSONField
from django.http import HttpRequest
from django.utils import timezone
from psycopg.copy import QueuedLibpqWriter

from campaign import models
from campaign.access import UMPIRES, Owner, event_owner
from campaign.choices import EventVerb
from campaign.services.webhooks import webhook_deliveries_create
from rules_engine.fairness import PUBLIC_AUDIENCE
from rules_engine.results import Outcome, to_jsonable

REQUEST_ID_LENGTH = 64  # Event.request_id and RollRecord.request_id
REQUEST_ID_META = "HTTP_X_REQUEST_ID"  # the client's X-Request-ID header
API_KEY_ACTOR = "api-key"


@dataclass(frozen=True)
class Actor:
    """Who asked for an operation: a user (None for the system) and the request id."""

    user: AbstractBaseUser | AnonymousUser | None = None
    request_id: str = ""

    @property
    def user_id(self) -> int | None:
        user = self.user
        return int(user.pk) if user is not None and user.is_authenticated and user.pk is not None else None

    @classmethod
    def of_api_key(cls, prefix: str, request_id: str) -> Actor:
        """A third-party app's key acts as no user: its prefix leads the recorded request id."""
        return cls(request_id=f"{API_KEY_ACTOR}:{prefix}:{request_id}"[:REQUEST_ID_LENGTH])

    @classmethod
    def of_request(cls, request: HttpRequest, *, api_key_prefix: str | None = None) -> Actor:
        """The signed-in user (or the API key of ``api_key_prefix``), with one request id for
        everything the request writes: the client's ``X-Request-ID``, else a new one."""
        request_id = str(request.META.get(REQUEST_ID_META, ""))[:REQUEST_ID_LENGTH]
        if not request_id:
            request_id = request.META[REQUEST_ID_META] = uuid.uuid4().hex
        if api_key_prefix is not None:
            return cls.of_api_key(api_key_prefix, request_id)
        return cls(user=request.user, request_id=request_id)


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
    owner: Owner | None = None,
) -> models.Event:
    """Record an event, read by ``owner``, else as its verb says (``campaign.access.EVENT_VISIBILITY``)."""
    owner = owner or event_owner(verb, subject)
    event = models.Event.objects.create(
        campaign=campaign,
        verb=verb,
        actor_id=actor.user_id,
        request_id=actor.request_id,
        day_number=campaign.current_day or None,
        object_type=type(subject).__name__,
        object_id=getattr(subject, "pk", None),
        object_public_id=getattr(subject, "public_id", None),
        object_repr=str(subject)[:200],
        message=message,
        before=to_jsonable(before) if before is not None else None,
        after=to_jsonable(after) if after is not None else None,
        visibility=owner.visibility,
        side_id=owner.side_id,
    )
    webhook_deliveries_create(event)
    return event


@dataclass(frozen=True)
class RollContext:
    """Where a roll belongs on the campaign timeline, and who reads it besides the umpires."""

    day: models.CampaignDay | None = None
    segment: models.DaySegmentRecord | None = None
    battle: models.Battle | None = None
    force: models.Force | None = None
    battalion: models.Battalion | None = None
    owner: Owner = UMPIRES


def roll_record_rows(
    campaign: models.Campaign,
    procedure: str,
    stream: Sequence[str | int],
    inputs: Any,
    outcome: Outcome,
    actor: Actor,
    context: RollContext,
    changes: Mapping[str, Any],
    *,
    dice_day: int | None = None,
    dice_audience: str = PUBLIC_AUDIENCE,
    at_table: bool = False,
) -> list[dict[str, Any]]:
    """Roll records as plain column values, for :func:`roll_records_write` (no model instances);
    ``dice_day`` and ``dice_audience``: whose seed rolled them (campaign.services.dice)."""
    # What every roll of ``outcome`` shares, built once: the night writes thousands of rows.
    shared = {
        "campaign_id": campaign.pk,
        **{f"{name}_id": getattr(getattr(context, name), "pk", None) for name in _CONTEXT_FIELDS},
        "procedure": procedure,
        "stream": "/".join(str(label) for label in stream),
        "dice_day": dice_day,
        "dice_audience": dice_audience,
        "at_table": at_table,
        "inputs": to_jsonable(inputs),
        "changes": to_jsonable(changes),
        "actor_id": actor.user_id,
        "request_id": actor.request_id,
        "visibility": context.owner.visibility.value,
        "side_id": context.owner.side_id,
    }
    rows = []
    for roll in outcome.roll_results():
        result = roll.to_dict()
        rows.append({**shared, "result": result, "line": result["line"]})
    return rows


_CONTEXT_FIELDS = ("day", "segment", "battle", "force", "battalion")


# The columns a roll record is written with, besides its created_at; the others are null, or
# their database default (the ids).
_COPIED_FIELDS = tuple(
    f
    for f in models.RollRecord._meta.concrete_fields
    if f.name not in ("id", "public_id", "override_of", "created_at")
)


RollRowsWriter = Callable[[Sequence[Mapping[str, Any]]], None]


@contextlib.contextmanager
def roll_records_copy() -> Iterator[RollRowsWriter]:
    """A COPY into the roll log, open while the caller rolls: each batch of rows
    (:func:`roll_record_rows`) is sent as it is made, by a writer thread, so the database
    stores one battalion's rolls while Python rolls the next. No other query may run on
    the connection until it closes.

    Unlike ``bulk_create`` nothing is quoted into SQL per row and no model is
    built, and each JSON value is encoded once, by orjson.
    """
    now = timezone.now()
    table = models.RollRecord._meta.db_table
    columns = ", ".join([*(f.column for f in _COPIED_FIELDS), "created_at"])
    sql = f"COPY {table} ({columns}) FROM STDIN"
    columns_of = operator.itemgetter(*(f.attname for f in _COPIED_FIELDS))
    json_positions = [i for i, f in enumerate(_COPIED_FIELDS) if isinstance(f, JSONField)]
    with connection.cursor() as cursor:
        # Logged like any query, so query counts in tests see it.
        logged = cursor.debug_sql(sql) if isinstance(cursor, CursorDebugWrapper) else contextlib.nullcontext()
        with logged, cursor.cursor.copy(sql, writer=QueuedLibpqWriter(cursor.cursor)) as copy:

            def write(rows: Sequence[Mapping[str, Any]]) -> None:
                # A battalion's rolls share their inputs and changes: each object is encoded
                # once. The batch stays alive meanwhile, so no id is reused for another object.
                encoded: dict[int, str] = {}

                def json_text(value: Any) -> str:
                    text = encoded.get(id(value))
                    if text is None:
                        text = encoded[id(value)] = orjson.dumps(value).decode()
                    return text

                for row in rows:
                    values = [*columns_of(row), now]
                    for position in json_positions:
                        values[position] = json_text(values[position])
                    copy.write_row(values)

            yield write


def roll_records_write(rows: Sequence[Mapping[str, Any]]) -> None:
    """Insert roll records (:func:`roll_record_rows`) with one COPY."""
    if rows:
        with roll_records_copy() as write:
            write(rows)
