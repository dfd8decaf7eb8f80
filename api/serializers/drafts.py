"""Battle drafts (rules notes C-20): each side's draft of a battle's report and their comparison."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework import serializers

from api.labels import LabelledSerializer, labels_of
from api.serializers.map import CONTESTED
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    SUPPLY_SITUATION_CHOICES,
    DraftItemKind,
    DraftItemStatus,
    DraftStatus,
    StandStatus,
)
from campaign.report_drafts import BATTLE_FIELDS, OWN_SIDE_FIELDS, UNCHANGED
from campaign.selectors import DraftComparison, OwnDraft


class DraftSerializer(LabelledSerializer[Any]):
    """A side's draft of a battle report, as its own players and the umpires read it."""

    side = serializers.IntegerField()
    side_name = serializers.CharField()
    status = serializers.ChoiceField(choices=DraftStatus.choices)
    author = serializers.CharField(allow_null=True, help_text="who saved it last")
    updated_at = serializers.DateTimeField()
    report = serializers.JSONField(help_text="as POST report/ takes it")


DRAFTED_FIELD_CHOICES = [
    ("destroyed", "stands destroyed"),
    ("suppressed", "stands suppressed"),
    *OWN_SIDE_FIELDS.items(),
]


class DraftableBattalionSerializer(LabelledSerializer[Any]):
    code = serializers.CharField()
    draftable = serializers.ListField(
        child=serializers.ChoiceField(choices=DRAFTED_FIELD_CHOICES),
        help_text="what your draft may give of it: the stands of every battalion (both sides saw "
        "the table); points, rounds, templates, supply, fuel and objectives of your own only",
    )


class OwnDraftSerializer(LabelledSerializer[Any]):
    """Your side's draft of the battle's report, whether the other side has filed one (never
    what it says), and what your side may draft of each battalion."""

    battle = serializers.UUIDField(help_text="the battle's id")
    side = serializers.IntegerField(help_text="your side: the draft is its own")
    draft = DraftSerializer(allow_null=True, help_text="null: your side has filed none")
    opponent_filed = serializers.BooleanField(help_text="the other side has filed its draft")
    battalions = DraftableBattalionSerializer(many=True)
    draftable = serializers.ListField(
        child=serializers.ChoiceField(choices=[(kind, DraftItemKind(kind).label) for kind in BATTLE_FIELDS]),
        help_text="what your draft may say of the battle itself (both sides saw it)",
    )


class DraftVersionSerializer(LabelledSerializer[Any]):
    side = serializers.IntegerField()
    side_name = serializers.CharField()
    value = serializers.JSONField(allow_null=True)
    text = serializers.CharField(help_text="the value in words")


class DraftItemSerializer(LabelledSerializer[Any]):
    key = serializers.CharField(help_text="what a confirmation's `choices` names a conflict by")
    kind = serializers.ChoiceField(choices=DraftItemKind.choices)
    battalion = serializers.CharField(allow_null=True)
    stand = serializers.CharField(allow_null=True)
    status = serializers.ChoiceField(choices=DraftItemStatus.choices)
    value = serializers.JSONField(allow_null=True, help_text="the value proposed; null for a conflict")
    text = serializers.CharField(allow_null=True, help_text="the value proposed in words")
    versions = DraftVersionSerializer(many=True, help_text="each draft that entered it, side by side")
    stand_now = serializers.ChoiceField(
        choices=StandStatus.choices, allow_null=True, help_text="a stand's state in the order of battle now"
    )


class DraftComparisonSerializer(LabelledSerializer[Any]):
    """Both drafts of a battle compared for the umpire: the proposal is what they agree on and
    what one side alone entered; each conflict waits for the umpire's choice."""

    battle = serializers.UUIDField(help_text="the battle's id")
    revision = serializers.CharField(help_text="confirm with it: a draft changed since is refused")
    drafts = DraftSerializer(many=True)
    items = DraftItemSerializer(many=True)
    conflicts = serializers.IntegerField()
    proposal = serializers.JSONField(help_text="the report without the conflicts")


def _draft_data(draft: models.BattleDraft, sides: Mapping[int, models.Side]) -> dict[str, Any]:
    return {
        "side": draft.side_id,
        "side_name": sides[draft.side_id].name,
        "status": draft.status,
        "author": draft.author.get_username() if draft.author else None,
        "updated_at": draft.updated_at,
        "report": draft.report,
    }


def own_draft_data(own: OwnDraft, access: CampaignAccess) -> dict[str, Any]:
    return {
        "battle": own.battle.public_id,
        "side": own.side_id,
        "draft": _draft_data(own.draft, access.sides) if own.draft else None,
        "opponent_filed": own.opponent_filed,
        "battalions": [{"code": code, "draftable": list(fields)} for code, fields in own.fields.items()],
        "draftable": list(BATTLE_FIELDS),
    }


SUPPLY_LABELS = labels_of(SUPPLY_SITUATION_CHOICES)
STAND_LABELS = labels_of(StandStatus.choices)


def _value_text(kind: str, value: Any, sides: Mapping[int, models.Side]) -> str:
    if kind == DraftItemKind.STAND:
        return STAND_LABELS.get(str(value), str(value))
    if kind == DraftItemKind.SUPPLY_SITUATION:
        return "Unchanged" if value == UNCHANGED else SUPPLY_LABELS.get(str(value), str(value))
    if kind == DraftItemKind.OBJECTIVES:
        return "; ".join(f"{o['name']} ({o['activation_points']} AP)" for o in value) or "None"
    if kind in (DraftItemKind.WINNER, DraftItemKind.SECTOR_OWNER):
        side = sides.get(value) if isinstance(value, int) else None
        if side is not None:
            return side.name
        return "Nobody" if kind == DraftItemKind.WINNER else CONTESTED
    return str(value)


def draft_comparison_data(compared: DraftComparison, access: CampaignAccess) -> dict[str, Any]:
    sides = access.sides
    items = []
    for item in compared.comparison.items:
        items.append(
            {
                "key": item.key,
                "kind": item.kind,
                "battalion": item.battalion,
                "stand": item.stand,
                "status": item.status,
                "value": item.value,
                "text": None
                if item.status == DraftItemStatus.CONFLICT
                else _value_text(item.kind, item.value, sides),
                "versions": [
                    {
                        "side": side,
                        "side_name": sides[side].name,
                        "value": value,
                        "text": _value_text(item.kind, value, sides),
                    }
                    for side, value in item.versions.items()
                ],
                "stand_now": compared.stands_now.get((str(item.battalion), str(item.stand)))
                if item.kind == DraftItemKind.STAND
                else None,
            }
        )
    return {
        "battle": compared.battle.public_id,
        "revision": compared.comparison.revision,
        "drafts": [_draft_data(draft, sides) for draft in compared.drafts],
        "items": items,
        "conflicts": len(compared.comparison.conflicts),
        "proposal": compared.comparison.report(),
    }
