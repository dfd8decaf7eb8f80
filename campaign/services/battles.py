"""Linked battles: creation, the players told of their battle, a lull check, closing."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence

from django.db import transaction

from campaign import models
from campaign.access import BATTLE_SIDES, side_players
from campaign.choices import (
    BattleStatus,
    CampaignStatus,
    EventVerb,
    NotificationKind,
)
from campaign.services.audit import Actor, RollContext, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError, NotFoundError
from campaign.services.notifications import notification_send
from campaign.services.rules import (
    procedure_run,
)
from campaign.services.sectors import sector_for_battle
from rules_engine.nineteen43.common import BattleType
from rules_engine.vocab import label_of


def battle_lock(campaign_id: int, battle_id: int) -> tuple[models.Campaign, models.Battle]:
    """The campaign and one of its battles, locked for a write about the battle."""
    campaign = campaign_lock(campaign_id)
    battle = models.Battle.objects.select_for_update().filter(campaign=campaign, pk=battle_id).first()
    if battle is None:
        raise NotFoundError("no such battle in this campaign", field="battle")
    return campaign, battle


def battle_require_status(battle: models.Battle, *allowed: BattleStatus) -> None:
    if battle.status not in allowed:
        names = " or ".join(s.label.lower() for s in allowed)
        raise ConflictError(
            f"the battle at {battle.sector} is {battle.get_status_display().lower()}, not {names}",
            field="status",
            code="wrong_battle_status",
        )


@transaction.atomic
def battle_create(
    campaign_id: int,
    actor: Actor,
    *,
    sector_id: int | None = None,
    sector_name: str = "",
    battle_type: str,
    attacker_id: int,
    defender_id: int,
    battalion_codes: Sequence[str],
    continues_id: uuid.UUID | None = None,
    feeds_ids: Sequence[uuid.UUID] = (),
) -> models.Battle:
    """``continues_id`` and ``feeds_ids`` name battles by their public ids, as the API does."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    day = campaign.days.filter(number=campaign.current_day).first()
    if day is None:
        raise ConflictError(
            "battles are fought on a campaign day; dawn one first", field="day", code="no_day"
        )
    sector = sector_for_battle(campaign, sector_id, sector_name)
    if battle_type not in {t.value for t in BattleType}:
        raise DomainError(
            f"{battle_type!r} is not a battle type ({', '.join(t.value for t in BattleType)})",
            field="battle_type",
        )
    sides = {s.pk: s for s in campaign.sides.all()}
    for field, side_id in (("attacker_id", attacker_id), ("defender_id", defender_id)):
        if side_id not in sides:
            raise DomainError(f"side {side_id} is not in campaign {campaign.slug}", field=field)
    if attacker_id == defender_id:
        raise DomainError("attacker and defender must be different sides", field="defender_id")
    battalions = {b.code: b for b in campaign.battalions.filter(code__in=battalion_codes)}
    for index, code in enumerate(battalion_codes):
        if code not in battalions:
            raise DomainError(f"battalion {code} is not in this campaign", field=f"battalion_codes[{index}]")
        if battalions[code].side_id not in (attacker_id, defender_id):
            raise DomainError(f"battalion {code} belongs to neither side", field=f"battalion_codes[{index}]")
    linked = {
        b.public_id: b
        for b in campaign.battles.filter(
            public_id__in=[*feeds_ids, *([continues_id] if continues_id else [])]
        )
    }
    if continues_id is not None and continues_id not in linked:
        raise DomainError(f"battle {continues_id} is not in this campaign", field="continues_id")
    for index, feed_id in enumerate(feeds_ids):
        if feed_id not in linked:
            raise DomainError(f"battle {feed_id} is not in this campaign", field=f"feeds_ids[{index}]")

    battle = models.Battle.objects.create(
        campaign=campaign,
        day=day,
        sector=sector,
        battle_type=battle_type,
        attacker_id=attacker_id,
        defender_id=defender_id,
        continues=linked[continues_id] if continues_id is not None else None,
    )
    battle.battalions.set(battalions.values())
    if feeds_ids:
        battle.feeds.set([linked[i] for i in feeds_ids])
    if campaign.current_segment:
        battle.segments.set(day.segments.filter(segment=campaign.current_segment))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_CREATED,
        battle,
        f"Battle at {battle.sector}: {sides[attacker_id].name} attack {sides[defender_id].name} "
        f"({battle_type}) with {', '.join(battalion_codes)}",
        actor,
        after={
            "sector": sector.key,
            "battalions": list(battalion_codes),
            "continues": str(continues_id) if continues_id else None,
        },
    )
    _battle_assigned_notify(campaign, battle, sides, [battalions[code] for code in battalion_codes], actor)
    return battle


def _battle_assigned_body(
    battle: models.Battle, sides: Mapping[int, models.Side], side_id: int, own: Sequence[str]
) -> str:
    """A side's news of its battle, as the battle now stands: its role, the enemy, its battalions."""
    role, enemy = (
        ("attack", sides[battle.defender_id])
        if side_id == battle.attacker_id
        else ("defend against", sides[battle.attacker_id])
    )
    kind = label_of(BattleType(battle.battle_type))
    return f"{sides[side_id].name} {role} {enemy.name} at {battle.sector} ({kind})." + (
        f" Your battalions: {', '.join(own)}." if own else ""
    )


def _battle_assigned_notify(
    campaign: models.Campaign,
    battle: models.Battle,
    sides: Mapping[int, models.Side],
    battalions: Sequence[models.Battalion],
    actor: Actor,
) -> None:
    """Tell each side's players of their new battle: where, against whom, with which of their
    own battalions (never the enemy's: those are the fog of war's to reveal)."""
    players: dict[int, list[models.Membership]] = {}
    for membership in side_players(campaign, (battle.attacker_id, battle.defender_id)).select_related("user"):
        if membership.side_id is not None:  # always, for a player
            players.setdefault(membership.side_id, []).append(membership)
    title = f"Battle at {battle.sector} on day {battle.day.number}"
    for side_id, members in players.items():
        own = [b.code for b in battalions if b.side_id == side_id]
        notification_send(
            campaign,
            members,
            NotificationKind.BATTLE_ASSIGNED,
            title,
            _battle_assigned_body(battle, sides, side_id, own),
            f"/campaigns/{campaign.slug}/battles/{battle.public_id}",
            actor,
            side_id=side_id,
            key=f"battle:{battle.pk}",
        )


def battle_assigned_restate(campaign: models.Campaign, battle: models.Battle) -> None:
    """The attacker decision swapped the battle's sides: each side's news of the battle says its
    role as it now is (the inbox reads it again; an e-mail already sent stays as it was)."""
    sides = {side.pk: side for side in (battle.attacker, battle.defender)}
    own: dict[int, list[str]] = {side_id: [] for side_id in sides}
    for code, side_id in battle.battalions.order_by("pk").values_list("code", "side_id"):
        own.setdefault(side_id, []).append(code)
    news = models.Notification.objects.filter(
        campaign=campaign, kind=NotificationKind.BATTLE_ASSIGNED, dedupe_key=f"battle:{battle.pk}"
    )
    for side_id in sides:
        readers = campaign.memberships.filter(side_id=side_id).values("user_id")
        news.filter(recipient_id__in=readers).update(
            body=_battle_assigned_body(battle, sides, side_id, own[side_id])
        )


def battle_stream(battle: models.Battle) -> tuple[str, int]:
    """The name of ``battle``'s dice streams: the battle by its place among its campaign's (by
    creation), not its row number, so a campaign rolls the same dice whatever other campaigns
    the database holds (rolls already recorded keep the stream names they were rolled under)."""
    return ("battle", models.Battle.objects.filter(campaign_id=battle.campaign_id, pk__lte=battle.pk).count())


@transaction.atomic
def battle_lull_check(campaign_id: int, actor: Actor, battle_id: int, turn: int) -> models.Battle:
    """The attacker's combat lull check at the start of an assault phase (000 § Combat Lulls)."""
    campaign, battle = battle_lock(campaign_id, battle_id)
    battle_require_status(battle, BattleStatus.SET_UP)
    if battle.lull_checks_from_turn is None:
        raise ConflictError(
            "this battle's set-up rolled no proximity, so no turn starts the lull checks",
            field="turn",
            code="no_lull_start",
        )
    if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1:
        raise DomainError("turn must be a whole number of 1 or more", field="turn")
    if any(lull["turn"] == turn for lull in battle.lulls):
        raise ConflictError(f"turn {turn} already had its lull check", field="turn", code="lull_checked")
    context = RollContext(day=battle.day, battle=battle, owner=BATTLE_SIDES)
    run = procedure_run(
        campaign,
        "n43.lull_check",
        {"turn": turn, "start_turn": battle.lull_checks_from_turn},
        (*battle_stream(battle), "lull", turn),
        context=context,
    )
    length = run.outcome.outcome
    lull = {"turn": turn, "length": length.value if length else None, "text": run.outcome.outcome_text}
    battle.lulls = [*battle.lulls, lull]
    battle.save(update_fields=["lulls"])
    models.RollRecord.objects.bulk_create(run.records(campaign, actor, context, {"lull": lull}))
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_LULL_CHECKED,
        battle,
        f"Battle at {battle.sector}, turn {turn}: {run.outcome.outcome_text}",
        actor,
        after=lull,
    )
    return battle


@transaction.atomic
def battle_close(campaign_id: int, actor: Actor, battle_id: int) -> models.Battle:
    campaign, battle = battle_lock(campaign_id, battle_id)
    battle_require_status(battle, BattleStatus.REPORTED)
    battle.status = BattleStatus.CLOSED
    battle.save(update_fields=["status"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTLE_CLOSED,
        battle,
        f"Battle at {battle.sector} closed",
        actor,
        before={"status": BattleStatus.REPORTED},
        after={"status": BattleStatus.CLOSED},
    )
    return battle
