"""Orders of battle and force status: the tree of forces down to stands, and a force as it
stood before the night while a night is under way."""

from __future__ import annotations

import contextlib
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Prefetch, QuerySet

from campaign import models
from campaign.access import CampaignAccess
from campaign.choices import (
    BattleStatus,
    StandStatus,
)
from campaign.selectors.scoped import battalions, forces, stands


def oob_tree(campaign_id: int, side_id: int | None = None) -> list[models.Force]:
    """Forces with battlegroups, battalions and stands: four queries whatever the size."""
    forces = models.Force.objects.filter(campaign_id=campaign_id).select_related(
        "side", "sector", "fup_sector"
    )
    if side_id is not None:
        forces = forces.filter(side_id=side_id)
    return list(
        forces.prefetch_related(
            Prefetch("battlegroups", queryset=models.Battlegroup.objects.order_by("name")),
            Prefetch(
                "battlegroups__battalions",
                queryset=models.Battalion.objects.select_related("sector").order_by("code"),
            ),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=models.Stand.objects.select_related("equipment").order_by("label"),
            ),
        )
    )


# What force status shows of each battalion: plain rows, as a division has a hundred.
BATTALION_STATUS_FIELDS = (
    "id",
    "side_id",
    "code",
    "name",
    "in_reserve",
    "activation",
    "supply_situation",
    "fuel_state",
    "ammo_low_markers",
)


@dataclass(frozen=True)
class BattalionStatus:
    battalion: dict[str, Any]  # BATTALION_STATUS_FIELDS
    stands: dict[str, int]  # status → count
    battle: dict[str, Any] | None  # id, sector, sector_name and status of its open battle today


@dataclass(frozen=True)
class ForceStatus:
    force: models.Force
    strength: dict[str, dict[str, int]]  # stand type → status → count, of every battalion
    battalions: list[BattalionStatus]
    night_in_progress: bool  # the state shown is the state before the night under way


def night_in_progress(campaign: models.Campaign) -> bool:
    """Whether a night phase is under way: until its last commit, reads show the state before it."""
    return campaign.night_version is not None


def version_shown(campaign: models.Campaign) -> int:
    """The version whose state reads show: during a night, the one it started at."""
    return campaign.night_version or campaign.version


@dataclass(frozen=True)
class NightBefore:
    """A night's :class:`~campaign.models.NightSnapshot`: puts back what the night under way has
    written so far, on model instances and on ``.values()`` rows."""

    values: dict[str, dict[str, list[Any]]]

    def _before(self, name: str, pk: Any) -> dict[str, Any]:
        values = self.values.get(name, {}).get(str(pk))
        return {} if values is None else dict(zip(models.NightSnapshot.FIELDS[name], values, strict=True))

    def restore(self, instance: Any) -> None:
        for field, value in self._before(instance._meta.model_name, instance.pk).items():
            setattr(instance, field, value)

    def restore_row(self, name: str, row: dict[str, Any]) -> None:
        row.update((field, value) for field, value in self._before(name, row["id"]).items() if field in row)

    def stands_of(self, battalion_ids: set[int]) -> dict[int, dict[str, Any]]:
        """The stands that were in these battalions, with their fields as they were."""
        battalion = models.NightSnapshot.FIELDS["stand"].index("battalion_id")
        return {
            int(pk): self._before("stand", pk)
            for pk, values in self.values.get("stand", {}).items()
            if values[battalion] in battalion_ids
        }


def night_before(campaign_id: int, *names: str) -> NightBefore | None:
    """The state before the campaign's night under way, if one is (its snapshot goes with its
    last commit): of the models ``names`` (default: all). Read it in the same
    :func:`one_moment` as what it restores."""
    snapshots = models.NightSnapshot.objects.filter(operation__campaign_id=campaign_id)
    if not names:
        values = snapshots.values_list("values", flat=True).first()
        return None if values is None else NightBefore(values)
    parts = snapshots.values_list(*(f"values__{name}" for name in names)).first()
    return None if parts is None else NightBefore(dict(zip(names, parts, strict=True)))


@contextlib.contextmanager
def one_moment() -> Iterator[None]:
    """The queries inside see the database as of one moment (a REPEATABLE READ transaction), so a
    read of several queries never shows part of a series of commits, such as a night's. Inside
    a transaction already (a write, a test), that transaction's view stands."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


def night_restore_tree(campaign_id: int, forces: list[models.Force]) -> bool:
    """Show forces with their battlegroups, battalions and stands (as :func:`oob_tree` prefetches
    them) as they were before the night under way, if one is (whether one is): a stand the night
    moved goes back to its battalion (when the tree holds it)."""
    before = night_before(campaign_id)
    if before is None:
        return False
    battalions: dict[int, models.Battalion] = {}
    stands: list[models.Stand] = []
    for force in forces:
        before.restore(force)
        for battlegroup in force.battlegroups.all():
            for battalion in battlegroup.battalions.all():
                before.restore(battalion)
                battalions[battalion.pk] = battalion
                stands += battalion.stands.all()
    moved: dict[int, list[models.Stand]] = defaultdict(list)
    for stand in stands:
        was_in = stand.battalion_id
        before.restore(stand)
        if stand.battalion_id != was_in:
            moved[was_in].append(stand)
            if stand.battalion_id in battalions:
                stand.battalion = battalions[stand.battalion_id]
                moved[stand.battalion_id].append(stand)
    for battalion_id, changed in moved.items():
        battalion = battalions[battalion_id]
        prefetched = battalion.stands.all()
        kept = [s for s in prefetched if s.battalion_id == battalion_id]
        arrived = [s for s in changed if s.battalion_id == battalion_id]
        prefetched._result_cache = sorted([*kept, *arrived], key=lambda s: s.label)
    return True


def force_status(force_id: int, battalions: QuerySet[models.Battalion] | None = None) -> ForceStatus:
    """A force's strength and the state of its battalions among ``battalions`` (default: all),
    in four queries whatever the size, counted in SQL; during a night, as it was before it.
    Read within :func:`one_moment`, with whatever else the response shows."""
    force = models.Force.objects.select_related("side", "campaign").get(pk=force_id)
    before = night_before(force.campaign_id) if night_in_progress(force.campaign) else None
    if before is not None:
        for instance in (force, force.side, force.campaign):
            before.restore(instance)
    strength: dict[str, dict[str, int]] = {}
    none = dict.fromkeys(StandStatus.values, 0)  # an enum's values are rebuilt on every access
    stands: dict[int, dict[str, int]] = {}
    for battalion_id, stand_type, status, count in (
        _stand_counts(force_id) if before is None else _stand_counts_before(force_id, before)
    ):
        by_status = strength.setdefault(stand_type, {})
        by_status[status] = by_status.get(status, 0) + count
        stands.setdefault(battalion_id, dict(none))[status] += count
    battles: dict[int, dict[str, Any]] = {}
    for battalion_id, battle_id, sector_id, sector_name, status in (
        models.Battle.battalions.through.objects.filter(
            battalion__battlegroup__force_id=force_id,
            battle__day__campaign_id=force.campaign_id,
            battle__day__number=force.campaign.current_day,
        )
        .exclude(battle__status=BattleStatus.CLOSED)
        .order_by("battle__sector__name", "battle_id")
        .values_list(
            "battalion_id", "battle__public_id", "battle__sector_id", "battle__sector__name", "battle__status"
        )
    ):
        battles.setdefault(
            battalion_id, {"id": battle_id, "sector": sector_id, "sector_name": sector_name, "status": status}
        )
    rows = list(
        (battalions if battalions is not None else models.Battalion.objects.all())
        .filter(battlegroup__force_id=force_id)
        .order_by("code")
        .values(*BATTALION_STATUS_FIELDS)
    )
    if before is not None:
        for row in rows:
            before.restore_row("battalion", row)
    return ForceStatus(
        force=force,
        strength=strength,
        battalions=[
            BattalionStatus(
                battalion=row, stands=stands.get(row["id"]) or dict(none), battle=battles.get(row["id"])
            )
            for row in rows
        ],
        night_in_progress=before is not None,
    )


def _stand_counts(force_id: int) -> QuerySet[Any, tuple[int, str, str, int]]:
    """(battalion, stand type, status, count) of the force's stands."""
    return (
        models.Stand.objects.filter(battalion__battlegroup__force_id=force_id)
        .values_list("battalion_id", "stand_type", "status")
        .annotate(count=Count("id"))
        .order_by()
    )


def _stand_counts_before(force_id: int, before: NightBefore) -> list[tuple[int, str, str, int]]:
    """(battalion, stand type, status, count) of the stands the force had before the night."""
    battalion_ids = set(
        models.Battalion.objects.filter(battlegroup__force_id=force_id).values_list("pk", flat=True)
    )
    was = before.stands_of(battalion_ids)
    counts: Counter[tuple[int, str, str]] = Counter()
    for pk, stand_type in models.Stand.objects.filter(pk__in=was).values_list("pk", "stand_type"):
        counts[was[pk]["battalion_id"], stand_type, was[pk]["status"]] += 1
    return [(*key, count) for key, count in counts.items()]


def oob(access: CampaignAccess) -> list[models.Force]:
    """The order of battle as the caller may see it, in a constant number of queries."""
    side_id = access.player_side_id
    if access.is_umpire:
        return oob_tree(access.campaign.pk)
    if side_id is None:
        return []
    enemy_battalions = battalions(access).exclude(side_id=side_id)
    enemy = (
        forces(access)
        .exclude(side_id=side_id)
        .prefetch_related(
            Prefetch(
                "battlegroups",
                queryset=models.Battlegroup.objects.filter(
                    pk__in=enemy_battalions.values("battlegroup_id")
                ).order_by("name"),
            ),
            Prefetch(
                "battlegroups__battalions",
                queryset=enemy_battalions.select_related("sector").order_by("code"),
            ),
            Prefetch(
                "battlegroups__battalions__stands",
                queryset=stands(access).exclude(battalion__side_id=side_id).order_by("label"),
            ),
        )
    )
    return [*oob_tree(access.campaign.pk, side_id), *enemy]
