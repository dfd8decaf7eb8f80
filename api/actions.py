"""A row's ``actions`` and ``actions_labels``: what the reader may do with it now, as the domain
says (the same function the write's guard reads), so the web app shows exactly the buttons the
API accepts and keeps no copy of the state machine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rest_framework import serializers

from campaign.access import CampaignAccess

Actions = Callable[[CampaignAccess, Any], list[str]]


def _reader(field: serializers.Field[Any, Any, Any, Any]) -> CampaignAccess:
    access = field.context["access"]
    assert isinstance(access, CampaignAccess)
    return access


class ActionsField(serializers.ListField):
    """The codes of what the reader may do with the row, in their order."""

    def __init__(self, actions: Actions, choices: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        self.actions = actions
        super().__init__(child=serializers.ChoiceField(choices=choices), source="*", read_only=True, **kwargs)

    def to_representation(self, data: Any) -> list[str]:
        return self.actions(_reader(self), data)


class ActionsLabelsField(serializers.ListField):
    """The same actions in words, in their order."""

    def __init__(self, actions: Actions, choices: Sequence[tuple[str, str]], **kwargs: Any) -> None:
        self.actions, self.words = actions, dict(choices)
        kwargs.setdefault("help_text", "the actions in words, in their order")
        super().__init__(child=serializers.CharField(), source="*", read_only=True, **kwargs)

    def to_representation(self, data: Any) -> list[str]:
        return [self.words[action] for action in self.actions(_reader(self), data)]
