"""Page sizes are the client's to choose, up to a ceiling; a page size or cursor that
means nothing is a 400 naming the parameter, never ignored or a crash."""

from __future__ import annotations

from typing import Any

from rest_framework import pagination
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.request import Request

from api.inputs import ID_MAX


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


class TimelineCursorPagination(pagination.CursorPagination):
    """Roll log and event timeline: oldest first, stable under inserts while paging."""

    ordering = "id"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000

    def get_page_size(self, request: Request) -> int:
        return _page_size(self, request)

    def decode_cursor(self, request: Request) -> pagination.Cursor | None:
        """DRF's cursor, whose position (an id, as the order is by id) is checked: the cursor is
        the client's to send back untouched, but nothing stops it being edited."""
        invalid = ValidationError({self.cursor_query_param: ["is not a cursor this list gave; start again"]})
        try:
            cursor = super().decode_cursor(request)
        except NotFound:
            raise invalid from None
        position = cursor.position if cursor is not None else None
        if position is not None and not (str(position).isdigit() and int(position) <= ID_MAX):
            raise invalid
        return cursor
