"""Renderers besides DRF's JSON and browsable API: a table as CSV (``?format=csv``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import BaseRenderer


class CSVRenderer(BaseRenderer):
    """A table, ``{"columns": [...], "rows": [[...], ...]}``, as CSV: a header of the columns'
    words, then a row each, empty cells where the value is null. An error's answer is its
    message, in a column of its own, so a spreadsheet shows why there are no figures."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        if not isinstance(data, Mapping) or "rows" not in data:
            error = data.get("error", data) if isinstance(data, Mapping) else data
            message = error.get("message", error) if isinstance(error, Mapping) else error
            data = {"columns": ["Error"], "rows": [[message]]}
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\r\n")
        writer.writerow(data["columns"])
        writer.writerows(["" if value is None else value for value in row] for row in data["rows"])
        return out.getvalue().encode(self.charset)
