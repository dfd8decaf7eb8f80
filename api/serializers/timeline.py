"""The campaign's timeline: its days, each with its entries, links and the umpire's journal."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from api.actions import ActionsField, ActionsLabelsField
from api.labels import LabelledSerializer
from api.serializers.base import access_of
from api.serializers.days import DaySerializer
from campaign.choices import DAY_ACTION_CHOICES, TimelineKind
from campaign.selectors import TimelineDay, TimelineEntry
from campaign.services.journal import day_actions


class TimelineLinkSerializer(LabelledSerializer[Any]):
    text = serializers.CharField(help_text="the link in words")
    href = serializers.CharField(help_text="the web app's page, from the site's root")


class TimelineEntrySerializer(LabelledSerializer[TimelineEntry]):
    kind = serializers.ChoiceField(choices=TimelineKind.choices)
    text = serializers.CharField(help_text="what happened, in words")
    at = serializers.DateTimeField(help_text="when it was recorded")
    sides = serializers.SerializerMethodField(help_text="the names of the sides it concerns")
    links = TimelineLinkSerializer(many=True, help_text="its battle, rolls or report")

    def get_sides(self, entry: TimelineEntry) -> list[str]:
        sides = access_of(self).sides
        return [sides[side_id].name for side_id in entry.sides]


def _day_actions(access: Any, row: TimelineDay) -> list[str]:
    return day_actions(access, row.day)


class TimelineDaySerializer(LabelledSerializer[TimelineDay]):
    day = DaySerializer(help_text="the day: its weather and segments (wind, turns), its journal")
    rolls = serializers.IntegerField(help_text="how many of the day's rolls you may read")
    links = TimelineLinkSerializer(many=True, help_text="the day's rolls and the night's reports")
    entries = TimelineEntrySerializer(many=True, help_text="in the order they happened")
    actions = ActionsField(
        _day_actions,
        DAY_ACTION_CHOICES,
        help_text="what you may do with the day: `write_journal` (umpires: PUT days/{number}/journal/)",
    )
    actions_labels = ActionsLabelsField(_day_actions, DAY_ACTION_CHOICES)


class TimelineSerializer(LabelledSerializer[Any]):
    days = TimelineDaySerializer(many=True, help_text="every day dawned, the first first")
