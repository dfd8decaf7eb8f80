"""Battle report drafts: what a player may draft, their own draft, and the umpire's
comparison of the sides'."""

from __future__ import annotations

from dataclasses import dataclass

from campaign import access as access_rules
from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    MemberRole,
)
from campaign.report_drafts import Comparison, drafted_fields, drafts_compare


def battle_draftable(battle: models.Battle) -> dict[int, dict[str, tuple[str, ...]]]:
    """What each side of the battle may draft of each of its battalions, by side id and code
    (``report_drafts.drafted_fields``): an enemy's stands only where its fog shows them."""
    owners = dict(battle.battalions.values_list("code", "side_id"))
    draftable = {}
    for side_id in (battle.attacker_id, battle.defender_id):
        reader = CampaignAccess(battle.campaign, MemberRole.PLAYER, side_id)
        seen = set(
            battle.battalions.filter(
                access_rules.battalions_readable(reader, strengths_only=True)
            ).values_list("code", flat=True)
        )
        draftable[side_id] = {
            code: drafted_fields(owner, side_id, code in seen) for code, owner in owners.items()
        }
    return draftable


@dataclass(frozen=True)
class OwnDraft:
    """A player's side's draft of a battle (None: not filed), whether the other side filed one,
    and the fields the side may draft of each battalion, by code (``report_drafts.drafted_fields``;
    only the battalions it may draft something of)."""

    battle: models.Battle
    side_id: int
    draft: models.BattleDraft | None
    opponent_filed: bool
    fields: dict[str, tuple[str, ...]]


def battle_draft_own(access: CampaignAccess, battle: models.Battle) -> OwnDraft | None:
    """The reader's side's draft of ``battle`` (a battle the reader sees), or None when the reader
    drafts none of it (``campaign.access.battle_draft_reader_side``)."""
    side_id = access_rules.battle_draft_reader_side(access, battle)
    if side_id is None:
        return None
    drafts = {d.side_id: d for d in battle.drafts.select_related("author").order_by("side_id")}
    # Never an enemy battalion it may draft nothing of: the fog may hide its very code.
    fields = {code: drafted for code, drafted in battle_draftable(battle)[side_id].items() if drafted}
    return OwnDraft(battle, side_id, drafts.get(side_id), any(s != side_id for s in drafts), fields)


@dataclass(frozen=True)
class DraftComparison:
    """Both drafts of a battle and their items compared, for the umpire; ``stands_now``: the
    order of battle's state of each stand the drafts name, by (battalion code, label)."""

    battle: models.Battle
    drafts: list[models.BattleDraft]
    comparison: Comparison
    stands_now: dict[tuple[str, str], str]


def battle_draft_comparison(access: CampaignAccess, battle: models.Battle) -> DraftComparison | None:
    """The battle's drafts compared (umpires; None for anybody else)."""
    if not access_rules.battle_drafts_compared_by(access):
        return None
    drafts = list(battle.drafts.select_related("author", "side").order_by("side_id"))
    comparison = drafts_compare(
        {d.side_id: d.report for d in drafts},
        [battle.attacker_id, battle.defender_id],
        battle_draftable(battle),
    )
    named = {(i.battalion, i.stand) for i in comparison.items if i.kind == "stand"}
    codes = {code for code, _ in named}
    stands_now = {
        (code, label): status
        for code, label, status in models.Stand.objects.filter(
            battalion__battles=battle, battalion__code__in=codes
        ).values_list("battalion__code", "label", "status")
        if (code, label) in named
    }
    return DraftComparison(battle, drafts, comparison, stands_now)
