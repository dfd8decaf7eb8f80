"""Page sizes are the client's to choose, from 1 to one ceiling on every list; a page size,
page or cursor that means nothing (0, 1000, a page past the last, an edited cursor) is a 400
naming the parameter, never ignored, silently capped or a 404."""

from __future__ import annotations

import base64
import uuid
from typing import Any
from urllib import parse

from django.db.models import QuerySet
from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request

# The most rows one page holds, on every list (page-numbered or cursor-paged).
MAX_PAGE_SIZE = 500


def _page_size(paginator: Any, request: Request) -> int:
    """``?page_size=``: a whole number from 1 to ``max_page_size``; the default without it."""
    name, ceiling = paginator.page_size_query_param, paginator.max_page_size
    raw = request.query_params.get(name)
    if raw is None:
        return int(paginator.page_size)
    if not raw.isdigit() or not 1 <= int(raw) <= ceiling:
        raise ValidationError({name: [f"must be a whole number from 1 to {ceiling}, not {raw!r}"]})
    return int(raw)


def _bounded(parameters: list[dict[str, Any]], name: str, ceiling: int) -> list[dict[str, Any]]:
    """The schema's page size parameter with its bounds, as :func:`_page_size` reads it."""
    for parameter in parameters:
        if parameter["name"] == name:
            parameter["schema"] = {**parameter["schema"], "minimum": 1, "maximum": ceiling}
    return parameters


class PagePagination(pagination.PageNumberPagination):
    """``?page=`` (from 1 to the last page; 1 on an empty list) and ``?page_size=`` (1 to
    ``max_page_size``) for every list."""

    page_size_query_param = "page_size"
    max_page_size = MAX_PAGE_SIZE

    def get_page_size(self, request: Request) -> int:
        return _page_size(self, request)

    def paginate_queryset(self, queryset: Any, request: Request, view: Any = None) -> list[Any] | None:
        """DRF's page, with a 400 naming ``page`` where DRF answers 404 (``?page=9`` of two)."""
        try:
            return super().paginate_queryset(queryset, request, view)
        except NotFound:
            raw = request.query_params.get(self.page_query_param, "")
            page_size = self.get_page_size(request)
            last = max(1, -(-self.django_paginator_class(queryset, page_size).count // page_size))
            raise ValidationError(
                {self.page_query_param: [f"must be a page from 1 to {last}, not {raw!r}"]}
            ) from None

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {**parameter["schema"], "minimum": 1}
        return _bounded(parameters, self.page_size_query_param, self.max_page_size)


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
    max_page_size = MAX_PAGE_SIZE
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
        parameters = _bounded(
            super().get_schema_operation_parameters(view), self.page_size_query_param, self.max_page_size
        )
        return [*parameters, order]

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
