"""Players' drafts of a battle report, and the umpire's confirmation (rules notes C-20).

A player of either side of a battle drafts its report between club nights; the drafts change
nothing in the campaign. The umpire reads them compared (:mod:`campaign.report_drafts`),
chooses a side's version for each conflict, and confirms: the report that makes is applied
by :func:`~campaign.services.battle_reports.battle_report`, the one home of a report's effects.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from campaign import models
from campaign.access import battle_draft_side, campaign_umpires, side_players
from campaign.choices import DraftItemStatus, DraftStatus, EventVerb, NotificationKind
from campaign.report_drafts import ANY_SIDE_FIELDS, OWN_SIDE_FIELDS, drafts_compare
from campaign.selectors import battle_draftable
from campaign.services.audit import Actor, event_record
from campaign.services.battle_reports import battle_report, battle_report_check, battle_require_reportable
from campaign.services.battles import battle_lock
from campaign.services.errors import ConflictError, DomainError, ForbiddenError
from campaign.services.notifications import notification_send, notifications_done
from rules_engine.results import to_jsonable
from rules_engine.vocab import counted


def _drafts_of(battle: models.Battle) -> dict[int, models.BattleDraft]:
    return {draft.side_id: draft for draft in battle.drafts.select_for_update().order_by("side_id")}


def _require_draftable(battle: models.Battle, side_id: int, report: Mapping[str, Any]) -> None:
    """A side drafts what it may know (``selectors.battle_draftable``): all of its own
    battalions; of the enemy's, the stands its fog of war shows, never what only its side knows."""
    draftable = battle_draftable(battle)[side_id]
    for i, entry in enumerate(report.get("battalions") or []):
        code = str(entry.get("code"))
        for name in (*ANY_SIDE_FIELDS, *OWN_SIDE_FIELDS):
            if name not in entry or name in draftable.get(code, ()):
                continue
            why = (
                f"only its own side drafts its {OWN_SIDE_FIELDS[name]}"
                if name in OWN_SIDE_FIELDS
                else "your fog of war hides its stands, so its own side drafts them"
            )
            raise DomainError(f"{code} is the enemy's battalion: {why}", field=f"battalions[{i}].{name}")


@transaction.atomic
def battle_draft_save(
    campaign_id: int, actor: Actor, battle_id: int, report: Mapping[str, Any]
) -> models.BattleDraft:
    """File or replace the caller's side's draft of the battle's report, checked against the
    order of battle as a report is; only a player of a side that fights it, until it is reported."""
    campaign, battle = battle_lock(campaign_id, battle_id)
    membership = (
        None
        if actor.user_id is None
        else campaign.memberships.filter(user_id=actor.user_id).only("role", "side_id").first()
    )
    side_id = (
        battle_draft_side(membership.role, membership.side_id, battle) if membership is not None else None
    )
    if side_id is None:
        raise ForbiddenError(
            f"only a player of {battle.attacker.name} or {battle.defender.name}, signed in, drafts "
            "this battle's report; umpires report it themselves",
            field="battle",
        )
    battle_require_reportable(battle)
    battle_report_check(campaign, battle, report)
    _require_draftable(battle, side_id, report)
    saved = to_jsonable(dict(report))
    drafts = _drafts_of(battle)
    draft = drafts.get(side_id)
    before = None if draft is None else {"report": draft.report}
    if draft is None:
        draft = models.BattleDraft(campaign=campaign, battle=battle, side_id=side_id)
    draft.report, draft.author_id, draft.status = saved, actor.user_id, DraftStatus.FILED
    draft.save()
    # No campaign_save: a draft changes nothing of the campaign, so the umpire's copy stays current.
    event_record(
        campaign,
        EventVerb.BATTLE_DRAFT_SAVED,
        draft,
        f"{draft.side.name} {'filed' if before is None else 'changed'} its draft report of the battle "
        f"at {battle.sector}",
        actor,
        before=before,
        after={"report": saved},
    )
    opponent_id = battle.defender_id if side_id == battle.attacker_id else battle.attacker_id
    both = opponent_id in drafts
    # "Report the battle at …" is done for this side once it has filed.
    notifications_done(
        campaign,
        NotificationKind.DRAFT_WAITING,
        f"battle:{battle.pk}:draft",
        side_players(campaign, [side_id]).values_list("user_id", flat=True),
    )
    notification_send(
        campaign,
        campaign_umpires(campaign).select_related("user"),
        NotificationKind.DRAFT_FILED,
        f"Both drafts of the battle at {battle.sector} are filed"
        if both
        else f"{draft.side.name} filed its draft of the battle at {battle.sector}",
        f"Reconcile the two drafts and confirm the report (day {battle.day.number})."
        if both
        else f"The other side's draft is awaited (day {battle.day.number}).",
        f"/campaigns/{campaign.slug}/battles/{battle.public_id}",
        actor,
        key=f"battle:{battle.pk}:drafts:{'both' if both else side_id}",  # once each
    )
    if not both:
        # Never what the draft says: only that the opponent's is awaited (rules notes C-20).
        notification_send(
            campaign,
            side_players(campaign, [opponent_id]).select_related("user"),
            NotificationKind.DRAFT_WAITING,
            f"Report the battle at {battle.sector}",
            f"{draft.side.name} has filed its draft report of the battle at {battle.sector} "
            f"(day {battle.day.number}); file yours so the umpire can confirm the report.",
            f"/campaigns/{campaign.slug}/battles/{battle.public_id}",
            actor,
            side_id=opponent_id,
            key=f"battle:{battle.pk}:draft",
        )
    return draft


@transaction.atomic
def battle_draft_confirm(
    campaign_id: int, actor: Actor, battle_id: int, revision: str, choices: Mapping[str, int]
) -> models.Battle:
    """Confirm the battle's drafts as compared at ``revision``: what they agree on and what one
    side alone entered, and for each conflict the version of the side ``choices`` names (by the
    item's key); applied through :func:`battle_report`. Umpires only (the API's permission)."""
    campaign, battle = battle_lock(campaign_id, battle_id)
    battle_require_reportable(battle)
    drafts = _drafts_of(battle)
    if not drafts:
        raise ConflictError(
            "neither side has filed a draft report of this battle", field="battle", code="no_drafts"
        )
    comparison = drafts_compare(
        {side: draft.report for side, draft in drafts.items()},
        [battle.attacker_id, battle.defender_id],
        battle_draftable(battle),
    )
    if revision != comparison.revision:
        raise ConflictError(
            "a draft changed since you read them: read the comparison again and confirm that",
            field="revision",
            code="stale_drafts",
        )
    conflicts = {item.key: item for item in comparison.conflicts}
    for key, side_id in choices.items():
        if key not in conflicts:
            raise DomainError(f"{key} is not a conflict between the drafts", field=f"choices.{key}")
        if side_id not in conflicts[key].versions:
            names = ", ".join(f"{drafts[s].side.name} ({s})" for s in conflicts[key].versions)
            raise DomainError(
                f"choose the version of a side that drafted {key}: {names}", field=f"choices.{key}"
            )
    missing = [key for key in conflicts if key not in choices]
    if missing:
        raise DomainError(
            f"choose a side's version of {missing[0]} ({len(missing)} conflict(s) left)",
            field=f"choices.{missing[0]}",
        )
    report = comparison.report(choices)
    agreed = len(comparison.of_status(DraftItemStatus.AGREED))
    one_side = len(comparison.of_status(DraftItemStatus.ONE_SIDE))
    # Says what was chosen, before the report is applied (the events after it are the report's).
    event_record(
        campaign,
        EventVerb.BATTLE_DRAFTS_CONFIRMED,
        battle,
        f"Drafted reports of the battle at {battle.sector} confirmed: "
        f"{counted(agreed, 'item')} agreed, {counted(len(conflicts), 'conflict')} chosen, "
        f"{one_side} entered by one side",
        actor,
        after={"revision": revision, "choices": dict(choices), "report": report},
    )
    for draft in drafts.values():
        draft.status = DraftStatus.CONFIRMED
    models.BattleDraft.objects.bulk_update(drafts.values(), ["status"])
    return battle_report(campaign.pk, actor, battle.pk, report)
