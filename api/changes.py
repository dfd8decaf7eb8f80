"""A changes cursor on the lists a client syncs: ``GET <list>/changes/`` answers every row the
reader sees (``complete``) and a token; ``GET <list>/changes/?since=<token>`` what changed since
that token (rows changed, or that became visible) and what was removed (the ids of rows deleted
or no longer visible to the reader), with the next token. The list's filters apply, and are
part of the token.

Tokens are opaque and signed (``django.core.signing``, the project's ``SECRET_KEY``): a token
altered, of another list, reader or query, or let go (a month old) is a 400 naming ``since``.
Changes are found through the change records PostgreSQL's triggers write (campaign.models.sync),
so an unchanged list costs the same few statements however long it is. While a night phase is
under way, reads show the campaign before it: the changes wait for its end."""

from __future__ import annotations

import functools
import uuid
from typing import Any, ClassVar, TypeVar

from django.core import signing
from django.db.models import Model
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response

from api.viewsets import CampaignScopedViewSet
from campaign import selectors
from campaign.access import CampaignAccess
from campaign.services.sync import sync_cursor_create

_M = TypeVar("_M", bound=Model)

SINCE = "since"
_SALT = "api.changes"
# Not filters of the list: the token itself, and how the answer is rendered.
_NOT_FILTERS = frozenset({SINCE, "format"})
SINCE_HELP = (
    "the `next` token of your last changes read: only what changed since; without it, every row "
    "you see (`complete`), to start from"
)


def reader_of(access: CampaignAccess) -> str:
    """Whose view of the rows: the umpires', one side's players' (and its keys'), or the public's."""
    if access.is_umpire:
        return "umpire"
    side_id = access.player_side_id
    return f"side:{side_id}" if side_id is not None else "public"


def token_of(cursor_id: uuid.UUID) -> str:
    return signing.Signer(salt=_SALT).sign(cursor_id.hex)


def _refused(reason: str) -> ValidationError:
    return ValidationError({SINCE: [reason]})


def cursor_id_of(token: str) -> uuid.UUID:
    """The cursor a token names; a 400 naming ``since`` when it was not signed here or is altered."""
    try:
        return uuid.UUID(hex=signing.Signer(salt=_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        raise _refused(
            "is not a token this API gave (altered or cut short); start again without it"
        ) from None


@functools.cache
def changes_serializer(rows: type[Any]) -> type[serializers.Serializer[Any]]:
    """The answer of a changes read of a list whose rows ``rows`` serializes."""
    name = rows.__name__.removesuffix("Serializer") + "ChangesSerializer"
    fields: dict[str, Any] = {
        "changed": rows(many=True, read_only=True, help_text="rows changed, or that you see since"),
        "removed": serializers.ListField(
            child=serializers.UUIDField(),
            read_only=True,
            help_text="ids of rows deleted, or that you no longer see: drop them from your copy",
        ),
        "next": serializers.CharField(
            read_only=True, help_text="send it as `since` to read what changes next"
        ),
        "complete": serializers.BooleanField(
            read_only=True,
            help_text="`changed` holds every row you see (a start, or a change of the fog of war's "
            "settings): replace your copy with it, less `removed`",
        ),
    }
    return type(name, (serializers.Serializer,), fields)


class ChangesMixin(CampaignScopedViewSet[_M]):
    """``changes/`` on a list: ``change_kind`` names it as the change records do;
    ``fog_signature``: annotations of its selector whose change shows a row differently."""

    change_kind: ClassVar[str]
    fog_signature: ClassVar[tuple[str, ...]] = ()

    def get_serializer_class(self) -> type[serializers.BaseSerializer[Any]]:
        rows: Any = super().get_serializer_class()
        return changes_serializer(rows) if self.action == "changes" else rows

    def _query(self, request: Request) -> str:
        """The list's filters as asked, in one order (a token is for them only)."""
        params = request.query_params
        return "&".join(
            f"{key}={value}"
            for key in sorted(params)
            if key not in _NOT_FILTERS
            for value in params.getlist(key)
        )[:500]

    @extend_schema(
        summary="Changes since a token (sync a copy of the list)",
        description="Without `since`: every row you see, `complete`, and a token. With the token of "
        "your last read: the rows changed or newly seen, the ids of rows deleted or no longer seen, "
        "and the next token; the same token back while nothing changed. The list's filters apply "
        "and belong to the token (send the same ones). 400 naming `since` for a token altered, of "
        "another list, reader or filters, or older than a month: start again without it.",
        parameters=[OpenApiParameter(SINCE, str, description=SINCE_HELP)],
        filters=True,
    )
    @action(detail=False, methods=["get"], url_path="changes", pagination_class=None)
    def changes(self, request: Request, **kwargs: Any) -> Response:
        access = self.campaign_access
        campaign_id = access.campaign.pk
        reader, query = reader_of(access), self._query(request)
        token = request.query_params.get(SINCE)
        cursor = None
        if token is not None:
            cursor = selectors.sync_cursor(cursor_id_of(token))
            if cursor is None:
                raise _refused("is a token let go (older than a month); start again without it")
            if (cursor.campaign_id, cursor.kind, cursor.reader, cursor.query) != (
                campaign_id,
                self.change_kind,
                reader,
                query,
            ):
                raise _refused(
                    "was given for another list, reader or filters; send the same ones or start again"
                )
            if selectors.night_in_progress(access.campaign):
                return Response({"changed": [], "removed": [], "next": token, "complete": False})
        rows = self.filter_queryset(self.get_queryset())
        with selectors.one_moment():
            fog = selectors.fog_digest(access)
            if cursor is None:
                # During a night, rows read as before it while its changes are recorded: the next
                # read then starts from the first change, so none of the night's is missed.
                last = (
                    0 if selectors.night_in_progress(access.campaign) else selectors.change_last(campaign_id)
                )
                changed_ids: frozenset[int] = frozenset()
            else:
                found = selectors.changes_since(campaign_id, cursor.change_id, self.change_kind)
                if found.last == cursor.change_id and fog == cursor.fog:
                    return Response({"changed": [], "removed": [], "next": token, "complete": False})
                last, changed_ids = found.last, found.row_ids
            seen = selectors.rows_seen(rows, self.fog_signature)
            complete = cursor is None or cursor.fog != fog
            before: dict[str, list[Any]] = {} if cursor is None else cursor.rows
            if complete:
                changed = set(seen)
            else:
                changed = {
                    key for key, row in seen.items() if int(key) in changed_ids or before.get(key) != row
                }
            removed = [row[0] for key, row in before.items() if key not in seen]
            row_serializer: Any = super().get_serializer_class()
            serializer = row_serializer(
                rows.filter(pk__in=[int(key) for key in changed]),
                many=True,
                context=self.get_serializer_context(),
            )
            data = serializer.data
        saved = sync_cursor_create(
            campaign_id, kind=self.change_kind, reader=reader, query=query, change_id=last, fog=fog, rows=seen
        )
        return Response(
            {"changed": data, "removed": removed, "next": token_of(saved.pk), "complete": complete}
        )
