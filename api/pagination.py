"""Page sizes are the client's to choose, up to a ceiling; a page size or cursor that
means nothing is a 400 naming the parameter, never ignored or a crash."""

from __future__ import annotations

import base64
import uuid
from typing import Any
from urllib import parse

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request


def _page_size(paginator: Any, request: Request) -> int:
    """``?page_size=``: a whole number from 1, capped at ``max_page_size``; the default without it."""
    name, ceiling = paginator.page_size_query_param, paginator.max_page_size
    raw = request.query_params.get(name)
    if raw is None:
        return int(paginator.page_size)
    if not raw.isdigit() or int(raw) < 1:
        raise ValidationError({name: [f"must be a whole number from 1 to {ceiling}, not {raw!r}"]})
    return min(int(raw), int(ceiling))


class PagePagination(pagination.PageNumberPagination):
    """``?page=`` and ``?page_size=`` (at most ``max_page_size``) for every list."""

    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Request) -> int:
        return _page_size(self, request)


# What DRF writes in a cursor: its offset, reverse flag and position, each once.
CURSOR_FIELDS = frozenset({"o", "r", "p"})


def _cursor_well_formed(encoded: str) -> bool:
    """Whether ``encoded`` is written as DRF writes cursors. DRF's own decoding skips what is
    not base64 and ignores fields it does not know, so ``%%%`` would read as the first page."""
    try:
        text = base64.b64decode(encoded.encode("ascii"), validate=True).decode("ascii")
        fields = parse.parse_qs(text, keep_blank_values=True, strict_parsing=True)
    except ValueError:  # binascii.Error and UnicodeError are ValueErrors
        return False
    return set(fields) <= CURSOR_FIELDS and all(len(values) == 1 for values in fields.values())


def _at(cursor: pagination.Cursor, position: str | None) -> pagination.Cursor:
    # DRF's positions are the text of the ordering field (its stubs say int).
    return cursor._replace(position=position)  # type: ignore[arg-type]


class TimelineCursorPagination(pagination.CursorPagination):
    """Roll log and event timeline: oldest first (``?order=newest``: newest first, as people read
    them), stable under inserts while paging.

    The order is by id, but a cursor names its row by public id: the id of the row a page
    starts after would count the rows between two pages the reader does not see (C-14)."""

    ordering = "id"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
    order_query_param = "order"
    ORDERS = {"oldest": ("id",), "newest": ("-id",)}

    def get_page_size(self, request: Request) -> int:
        return _page_size(self, request)

    def get_ordering(self, request: Request, queryset: QuerySet[Any], view: Any) -> tuple[str, ...]:
        order = request.query_params.get(self.order_query_param, "oldest")
        if order not in self.ORDERS:
            choices = " or ".join(self.ORDERS)
            raise ValidationError({self.order_query_param: [f"must be {choices}, not {order!r}"]})
        return self.ORDERS[order]

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        order = {
            "name": self.order_query_param,
            "required": False,
            "in": "query",
            "description": "oldest first (the default) or newest first",
            "schema": {"type": "string", "enum": list(self.ORDERS), "default": "oldest"},
        }
        return [*super().get_schema_operation_parameters(view), order]

    def paginate_queryset(
        self, queryset: QuerySet[Any], request: Request, view: Any = None
    ) -> list[Any] | None:
        self._rows = queryset  # the visible rows, in which a cursor's public id is looked up
        self._public_ids: dict[str, str] = {}
        return super().paginate_queryset(queryset, request, view)

    def _get_position_from_instance(self, instance: Any, ordering: Any) -> str:
        position = str(instance.pk)
        self._public_ids[position] = str(instance.public_id)
        return position

    def encode_cursor(self, cursor: pagination.Cursor) -> str:
        position = cursor.position
        public = self._public_ids[str(position)] if position is not None else None
        return super().encode_cursor(_at(cursor, public))

    def decode_cursor(self, request: Request) -> pagination.Cursor | None:
        """DRF's cursor, whose position (a public id) is checked and looked up: the cursor is
        the client's to send back untouched, but nothing stops it being edited."""
        invalid = ValidationError({self.cursor_query_param: ["is not a cursor this list gave; start again"]})
        encoded = request.query_params.get(self.cursor_query_param)
        if encoded is not None and not _cursor_well_formed(encoded):
            raise invalid
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise invalid from None
        if cursor is None or cursor.position is None:
            return cursor
        try:
            public = uuid.UUID(str(cursor.position))
        except ValueError:
            raise invalid from None
        position = self._rows.filter(public_id=public).values_list("pk", flat=True).first()
        if position is None:
            raise invalid
        self._public_ids[str(position)] = str(public)
        return _at(cursor, str(position))
