"""Page sizes are the client's to choose, up to a ceiling."""

from __future__ import annotations

from rest_framework import pagination


class PagePagination(pagination.PageNumberPagination):
    """``?page=`` and ``?page_size=`` (at most ``max_page_size``) for every list."""

    page_size_query_param = "page_size"
    max_page_size = 500


class TimelineCursorPagination(pagination.CursorPagination):
    """Roll log and event timeline: oldest first, stable under inserts while paging."""

    ordering = "id"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 1000
