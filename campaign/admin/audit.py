"""The audit trails, only ever viewed: roll records and events."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.core.serializers.json import DjangoJSONEncoder
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

from campaign import models
from campaign.admin.base import EMPTY, ReadOnlyAdmin, pretty_json
from campaign.services.rules import roll_replay


def _compact(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, cls=DjangoJSONEncoder)


@admin.register(models.RollRecord)
class RollRecordAdmin(ReadOnlyAdmin[models.RollRecord]):
    list_display = ("id", "created_at", "campaign", "day", "procedure", "line", "actor")
    list_filter = ("campaign", "procedure", "day__number", "visibility")
    search_fields = ("line", "procedure", "stream", "request_id")
    list_select_related = ("campaign", "day", "actor")
    fieldsets = (
        (None, {"fields": ("line", "dice", "modifiers", "score", "outcome", "rule", "replay")}),
        (
            "Where and who",
            {
                "fields": (
                    "campaign",
                    "day",
                    "segment",
                    "battle",
                    "force",
                    "battalion",
                    "procedure",
                    "stream",
                    "actor",
                    "request_id",
                    "created_at",
                    "override_of",
                    "visibility",
                    "side",
                )
            },
        ),
        ("Data", {"fields": ("inputs_shown", "changes_shown", "result_shown")}),
    )
    readonly_fields = (
        "dice",
        "modifiers",
        "score",
        "outcome",
        "rule",
        "replay",
        "inputs_shown",
        "changes_shown",
        "result_shown",
    )

    @admin.display(description="dice")
    def dice(self, record: models.RollRecord) -> str:
        output = record.output
        return ", ".join(thrown.text() for thrown in output.dice) if output and output.dice else EMPTY

    @admin.display(description="modifiers")
    def modifiers(self, record: models.RollRecord) -> str:
        output = record.output
        if not output or not output.modifiers:
            return EMPTY
        return "; ".join(f"{m.text()} (on the {m.applies_to.value})" for m in output.modifiers)

    @admin.display(description="score")
    def score(self, record: models.RollRecord) -> str:
        output = record.output
        if output is None:
            return EMPTY
        text = f"{output.score} (natural {output.natural})"
        if output.comparison and output.threshold is not None:
            text += f" {output.comparison.value} {output.threshold} (base {output.threshold_base})"
        return text + (f" [{output.cell}]" if output.cell else "")

    @admin.display(description="outcome")
    def outcome(self, record: models.RollRecord) -> str:
        return (record.output.outcome_text if record.output else "") or EMPTY

    @admin.display(description="rule")
    def rule(self, record: models.RollRecord) -> str:
        return record.output.rule.text() if record.output else EMPTY

    @admin.display(description="replay from the seed")
    def replay(self, record: models.RollRecord) -> str:
        if record.override_of_id is not None:
            return f"an umpire's override: replay roll {record.override_of_id} instead"
        try:
            replayed = roll_replay(record)
        except Exception as exc:  # an unreplayable record is a finding to show, not a page to break
            return f"✘ cannot replay: {type(exc).__name__}: {exc}"
        if record.result in replayed:
            return "✔ matches the stored result"
        return "✘ differs from the stored result; the seed gives: " + "; ".join(r["line"] for r in replayed)

    @admin.display(description="inputs")
    def inputs_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.inputs)

    @admin.display(description="changes")
    def changes_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.changes)

    @admin.display(description="whole result")
    def result_shown(self, record: models.RollRecord) -> SafeString:
        return pretty_json(record.result)


@admin.register(models.Event)
class EventAdmin(ReadOnlyAdmin[models.Event]):
    list_display = ("id", "created_at", "campaign", "day_number", "verb", "object_repr", "message", "actor")
    list_filter = ("campaign", "verb", "object_type", "day_number", "visibility")
    search_fields = ("message", "object_repr", "request_id")
    list_select_related = ("campaign", "actor")
    fields = (
        "created_at",
        "campaign",
        "day_number",
        "verb",
        "message",
        "before_after",
        "object_type",
        "object_id",
        "object_repr",
        "actor",
        "request_id",
        "visibility",
        "side",
    )
    readonly_fields = ("before_after",)

    @admin.display(description="before → after")
    def before_after(self, event: models.Event) -> SafeString | str:
        before, after = event.before or {}, event.after or {}
        if not isinstance(before, dict) or not isinstance(after, dict):
            return pretty_json({"before": event.before, "after": event.after})
        names = list(dict.fromkeys([*before, *after]))
        if not names:
            return EMPTY
        rows = format_html_join(
            "",
            "<tr><th>{}</th><td>{}</td><td>{}</td></tr>",
            ((name, _compact(before.get(name, EMPTY)), _compact(after.get(name, EMPTY))) for name in names),
        )
        return format_html(
            "<table><thead><tr><th>field</th><th>before</th><th>after</th></tr></thead><tbody>{}</tbody></table>",
            rows,
        )
