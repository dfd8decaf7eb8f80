"""The campaign map's writes: moving forces and battalions between adjacent sectors, and who
holds a sector.

Every change of a sector's owner goes through :func:`sector_control_set`, whether an umpire
sets it or a battle report carries it, so what follows a change of control (the event, the
``sector.control_changed`` webhook, objective awards) happens in one place.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.text import slugify

from campaign import models
from campaign.choices import CampaignStatus, DayStatus, EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.campaigns import campaign_lock, campaign_require_status, campaign_save
from campaign.services.errors import ConflictError, DomainError, NotFoundError
from campaign.services.objectives import objective_award

SECTOR_NAME_LENGTH = 100  # Sector.name


def sectors_adjacent(first_id: int, second_id: int) -> bool:
    low, high = sorted((first_id, second_id))
    return models.SectorLink.objects.filter(a_id=low, b_id=high).exists()


def campaign_has_map(campaign: models.Campaign) -> bool:
    """Whether the campaign's pack drew a map (placed sectors), rather than naming tables."""
    return campaign.sectors.filter(Q(x__isnull=False) | Q(geometry__isnull=False)).exists()


def _sector_get(campaign: models.Campaign, sector_id: int, field: str) -> models.Sector:
    sector = campaign.sectors.filter(pk=sector_id).first()
    if sector is None:
        raise NotFoundError(f"sector {sector_id} is not in campaign {campaign.slug}", field=field)
    return sector


def sector_for_battle(campaign: models.Campaign, sector_id: int | None, sector_name: str) -> models.Sector:
    """Where a new battle is fought: a sector by id, or by name. A campaign without a map names
    its tables freely (a new name makes an unplaced sector); one with a map fights on its sectors."""
    name = sector_name.strip()
    if (sector_id is None) == (not name):
        raise DomainError(
            "name the sector of the battle: its id (sector) or its name (sector_name)", field="sector"
        )
    if sector_id is not None:
        return _sector_get(campaign, sector_id, "sector")
    if len(name) > SECTOR_NAME_LENGTH:
        raise DomainError(f"a sector name has at most {SECTOR_NAME_LENGTH} characters", field="sector_name")
    sector = campaign.sectors.filter(name=name).first()
    if sector is not None:
        return sector
    if campaign_has_map(campaign):
        raise DomainError(
            f"{name} is not a sector of this campaign's map: choose one of its sectors", field="sector_name"
        )
    base = slugify(name)[:50] or "sector"
    taken = set(campaign.sectors.filter(key__startswith=base).values_list("key", flat=True))
    key = next(k for k in (base, *(f"{base}-{n}" for n in range(2, len(taken) + 3))) if k not in taken)
    return models.Sector.objects.create(campaign=campaign, key=key, name=name)


def _map_lock(campaign_id: int) -> models.Campaign:
    """The campaign, locked, in a state where the umpire moves things on the map."""
    campaign = campaign_lock(campaign_id)
    campaign_require_status(campaign, CampaignStatus.ACTIVE)
    if campaign.days.filter(number=campaign.current_day, status=DayStatus.NIGHT).exists():
        raise ConflictError(
            f"day {campaign.current_day} is in its night phase: the map changes by day",
            field="status",
            code="night_phase",
        )
    return campaign


def _step_check(
    campaign: models.Campaign, origin: models.Sector | None, target: models.Sector | None, what: str
) -> None:
    """A move goes to an adjacent sector; onto the map from off it, or off it, anywhere."""
    if origin is None or target is None:
        return
    if origin.pk == target.pk:
        raise DomainError(f"{what} is already in {target.name}", field="sector")
    if not sectors_adjacent(origin.pk, target.pk):
        neighbours = models.Sector.objects.filter(
            Q(links_as_a__b=origin) | Q(links_as_b__a=origin), campaign=campaign
        ).order_by("name")
        names = ", ".join(s.name for s in neighbours) or "none"
        raise DomainError(
            f"{target.name} is not next to {origin.name}, where {what} stands (next to it: {names})",
            field="sector",
            code="not_adjacent",
        )


def _place_name(sector: models.Sector | None) -> str:
    return sector.name if sector is not None else "off the map"


def _key(sector: models.Sector | None) -> str | None:
    return sector.key if sector is not None else None


@transaction.atomic
def force_move(
    campaign_id: int, actor: Actor, force_id: int, *, sector_id: int | None, forming_up_point: bool = False
) -> models.Force:
    """Move a force's C Ops (or, with ``forming_up_point``, its FUP) to an adjacent sector.

    An FUP moved onto its C Ops' sector is with its C Ops again (an empty ``fup_sector``).
    """
    campaign = _map_lock(campaign_id)
    force = (
        models.Force.objects.select_for_update(of=("self",))
        .select_related("sector", "fup_sector")
        .filter(campaign=campaign, pk=force_id)
        .first()
    )
    if force is None:
        raise NotFoundError(f"force {force_id} is not in campaign {campaign.slug}", field="force")
    target = _sector_get(campaign, sector_id, "sector") if sector_id is not None else None
    if forming_up_point:
        if force.sector is None:
            raise DomainError(
                f"{force.name}'s C Ops is off the map: place it first", field="forming_up_point"
            )
        origin: models.Sector | None = force.fup_sector or force.sector
        if target is None:
            raise DomainError("a forming-up point stands on the map", field="sector")
        _step_check(campaign, origin, target, f"{force.name}'s forming-up point")
        force.fup_sector = None if target.pk == force.sector_id else target
        field, before, what = "fup_sector", origin, "forming-up point"
    else:
        origin = force.sector
        _step_check(campaign, origin, target, f"{force.name}'s C Ops")
        if target is None and force.fup_sector is not None:
            raise DomainError(
                f"{force.name}'s forming-up point is apart from its C Ops: bring it back first",
                field="sector",
            )
        force.sector = target
        field, before, what = "sector", origin, "C Ops"
    force.save(update_fields=[field])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.FORCE_MOVED,
        force,
        f"{force.name}'s {what} moved from {_place_name(before)} to {_place_name(target)}",
        actor,
        before={field: _key(before)},
        after={field: _key(target)},
    )
    return force


@transaction.atomic
def battalion_move(
    campaign_id: int, actor: Actor, battalion_id: int, *, sector_id: int | None
) -> models.Battalion:
    """Move a battalion to an adjacent sector, onto the map, or off it (``sector_id`` None)."""
    campaign = _map_lock(campaign_id)
    battalion = (
        models.Battalion.objects.select_for_update(of=("self",))
        .select_related("sector")
        .filter(campaign=campaign, pk=battalion_id)
        .first()
    )
    if battalion is None:
        raise NotFoundError(f"battalion {battalion_id} is not in campaign {campaign.slug}", field="battalion")
    target = _sector_get(campaign, sector_id, "sector") if sector_id is not None else None
    if target is not None and battalion.in_reserve:
        raise DomainError(
            f"battalion {battalion.code} is in reserve, and reserves are off the map", field="sector"
        )
    origin = battalion.sector
    _step_check(campaign, origin, target, f"battalion {battalion.code}")
    battalion.sector = target
    battalion.save(update_fields=["sector"])
    campaign_save(campaign)
    event_record(
        campaign,
        EventVerb.BATTALION_MOVED,
        battalion,
        f"Battalion {battalion.code} moved from {_place_name(origin)} to {_place_name(target)}",
        actor,
        before={"sector": _key(origin)},
        after={"sector": _key(target)},
    )
    return battalion


def sector_control_change(
    campaign: models.Campaign,
    actor: Actor,
    sector: models.Sector,
    owner_id: int | None,
    reason: str,
    *,
    battle: models.Battle | None = None,
    turn: int = 1,
) -> bool:
    """Give ``sector`` to ``owner_id`` (None: contested) inside a caller's transaction holding the
    campaign lock: the event (public: sectors and their owners are everybody's) and its
    ``sector.control_changed`` webhook. False when the owner is unchanged (nothing recorded).

    A side taking a sector in ``battle`` (at its report's ``turn``) is awarded the points its
    kind is worth (Malta: 2 per port); who holds a source of supply is read from here by the supply lines.
    """
    if owner_id is not None and not campaign.sides.filter(pk=owner_id).exists():
        raise DomainError(f"side {owner_id} is not in campaign {campaign.slug}", field="owner")
    if sector.owner_id == owner_id:
        return False
    sides = {side.pk: side.name for side in campaign.sides.all()}
    before = sector.owner_id
    sector.owner_id = owner_id
    sector.save(update_fields=["owner"])
    holder = sides[owner_id] if owner_id is not None else "nobody (contested)"
    event_record(
        campaign,
        EventVerb.SECTOR_CONTROL_CHANGED,
        sector,
        f"{sector.name} is held by {holder}: {reason}",
        actor,
        before={"sector": sector.key, "owner": sides.get(before) if before is not None else None},
        after={
            "sector": sector.key,
            "owner": sides[owner_id] if owner_id is not None else None,
            "reason": reason,
            "battle": str(battle.public_id) if battle is not None else None,
        },
    )
    if battle is not None and owner_id is not None:
        objective_award(campaign, actor, sector, owner_id, battle, turn)
    return True


@transaction.atomic
def sector_control_set(
    campaign_id: int, actor: Actor, sector_id: int, *, owner_id: int | None, reason: str
) -> models.Sector:
    """The umpire gives a sector to a side, or makes it contested, saying why."""
    campaign = _map_lock(campaign_id)
    if not reason.strip():
        raise DomainError("say why the sector changes hands", field="reason")
    sector = campaign.sectors.select_for_update().filter(pk=sector_id).first()
    if sector is None:
        raise NotFoundError(f"sector {sector_id} is not in campaign {campaign.slug}", field="sector")
    if not sector_control_change(campaign, actor, sector, owner_id, reason.strip()):
        raise DomainError(f"{sector.name} is held by that side already", field="owner", code="unchanged")
    campaign_save(campaign)
    return sector
