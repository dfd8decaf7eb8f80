"""Two players' drafts of one battle report, compared item by item (rules notes C-20).

A draft has the shape of :func:`campaign.services.battle_reports.battle_report`'s input. Each is
read as items: per battalion, each stand it names (destroyed or suppressed), its points,
rounds and templates spent, its objectives and its supply situation; and the battle's
winner, sector owner and turn. Each side drafts only what it may know (``drafted_fields``):
all of its own battalions; of the enemy's, the stands of those whose stands its fog of war
shows; the battle's winner, owner and turn. Where both drafts could give an item, the same
value is agreed, different ones are a conflict for the umpire (a stand a draft listing the
battalion leaves out counts as "in order"). What only one side can know (a battalion's points,
rounds, templates, objectives and supply: ``OWN_SIDE_FIELDS``; the stands the enemy does not
see) is that side's proposal, another draft's word on it not read. An item only one draft
enters is taken from that draft, marked as one side's word.

Pure: no queries. The selector and the confirming service both read drafts through here,
so the umpire confirms exactly what they were shown.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.choices import DraftItemKind, DraftItemStatus, StandStatus

# What an item's value is when a draft that lists the battalion leaves it out.
IN_ORDER = StandStatus.OK.value
UNCHANGED = "unchanged"
STAND_OUTCOMES = ("destroyed", "suppressed")
COUNTS = ("activation_points_spent", "barrage_rounds_spent", "barrage_templates_used")
BATTLE_FIELDS = ("winner", "sector_owner", "turn")
# What a side drafts of any battalion of the battle (both saw the table), and what of its own only.
ANY_SIDE_FIELDS = STAND_OUTCOMES
OWN_SIDE_FIELDS: dict[str, str] = {
    **{kind: DraftItemKind(kind).label.lower() for kind in (*COUNTS, "supply_situation", "objectives")},
    "fuel_state": "fuel at the end",
}


def drafted_fields(owner_id: int, side_id: int, sees_stands: bool) -> tuple[str, ...]:
    """The fields of a battalion of side ``owner_id`` that side ``side_id``'s draft may give;
    ``sees_stands``: its fog of war shows side ``side_id`` the battalion's stands."""
    if owner_id == side_id:
        return (*ANY_SIDE_FIELDS, *OWN_SIDE_FIELDS)
    return ANY_SIDE_FIELDS if sees_stands else ()


# Draftable fields: by side id, by battalion code (drafted_fields of each).
Draftable = Mapping[int, Mapping[str, Sequence[str]]]


def _field_of(kind: str) -> str:
    """The draft's field an item of ``kind`` is read from (a stand's: its outcome lists)."""
    return STAND_OUTCOMES[0] if kind == "stand" else kind


@dataclass(frozen=True)
class Item:
    """One thing a report says: ``key`` names it (``battalions[A1].stands[3]``,
    ``battalions[A1].activation_points_spent``, ``winner``), ``versions`` each draft's value
    by side id (only the drafts that entered it)."""

    key: str
    kind: DraftItemKind
    battalion: str | None
    stand: str | None
    versions: dict[int, Any]

    @property
    def status(self) -> DraftItemStatus:
        if len(self.versions) < 2:
            return DraftItemStatus.ONE_SIDE
        values = list(self.versions.values())
        return DraftItemStatus.AGREED if all(v == values[0] for v in values) else DraftItemStatus.CONFLICT

    @property
    def value(self) -> Any:
        """The value proposed: the one all its drafts give; None for a conflict."""
        return None if self.status == DraftItemStatus.CONFLICT else next(iter(self.versions.values()))


@dataclass(frozen=True)
class Comparison:
    """The drafts' items, in report order, and what the drafts were (``revision``)."""

    items: list[Item]
    revision: str
    sides: list[int] = field(default_factory=list)

    def of_status(self, status: DraftItemStatus) -> list[Item]:
        return [item for item in self.items if item.status == status]

    @property
    def conflicts(self) -> list[Item]:
        return self.of_status(DraftItemStatus.CONFLICT)

    def report(self, chosen: Mapping[str, int] | None = None) -> dict[str, Any]:
        """The report the items make: agreed and one side's items, and each conflict as the
        side ``chosen`` for it says (left out when not chosen: the proposal)."""
        chosen = chosen or {}
        report: dict[str, Any] = {}
        entries: dict[str, dict[str, Any]] = {}
        for item in self.items:
            if item.status == DraftItemStatus.CONFLICT:
                if item.key not in chosen:
                    continue
                value = item.versions[chosen[item.key]]
            else:
                value = item.value
            if item.battalion is None:
                report[item.kind.value] = value
                continue
            entry = entries.setdefault(item.battalion, {"code": item.battalion})
            if item.kind == "stand":
                if value != IN_ORDER:
                    entry.setdefault(value, []).append(item.stand)
            elif item.kind == "supply_situation":
                if value != UNCHANGED:
                    entry[item.kind.value] = value
            else:
                entry[item.kind.value] = value
        return {"battalions": list(entries.values()), **report}


def _objectives(entry: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Objectives as compared: by name, trimmed, with their points (0 when left out)."""
    return sorted(
        (
            {"name": str(o.get("name", "")).strip(), "activation_points": o.get("activation_points", 0)}
            for o in entry.get("objectives") or []
        ),
        key=lambda o: (o["name"], o["activation_points"]),
    )


def _battalion_items(code: str, entry: Mapping[str, Any]) -> dict[tuple[str, str | None], Any]:
    """One draft's items of one battalion: (kind, stand) → value."""
    items: dict[tuple[str, str | None], Any] = {}
    for outcome in STAND_OUTCOMES:
        for label in entry.get(outcome) or []:
            items[("stand", str(label))] = outcome
    for count in COUNTS:
        items[(count, None)] = entry.get(count, 0)
    items[("objectives", None)] = _objectives(entry)
    items[("supply_situation", None)] = entry.get("supply_situation", UNCHANGED)
    return items


def _item_key(code: str, kind: str, stand: str | None) -> str:
    if kind == "stand":
        return f"battalions[{code}].stands[{stand}]"
    return f"battalions[{code}].{kind}"


def revision_of(drafts: Mapping[int, Mapping[str, Any]]) -> str:
    """A fingerprint of the drafts compared: a confirmation names it, so a draft changed since
    the umpire read them is refused rather than confirmed unseen."""
    text = json.dumps(sorted(drafts.items()), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def drafts_compare(
    drafts: Mapping[int, Mapping[str, Any]], side_order: Sequence[int], draftable: Draftable
) -> Comparison:
    """Compare the drafts (by side id; one or two) in ``side_order`` (the attacker's first);
    ``draftable``: what each side may draft of each battalion, the only versions read."""
    sides = [side for side in side_order if side in drafts]
    by_side: dict[int, dict[str, Mapping[str, Any]]] = {
        # Drafts are saved checked (battle_report_check): each entry is a battalion with a code.
        side: {str(entry["code"]): entry for entry in drafts[side].get("battalions", [])}
        for side in sides
    }
    codes = list(dict.fromkeys(code for side in sides for code in by_side[side]))
    items: list[Item] = []
    for code in codes:
        listing = [side for side in sides if code in by_side[side]]
        per_side = {side: _battalion_items(code, by_side[side][code]) for side in listing}
        keys = list(dict.fromkeys(key for side in listing for key in per_side[side]))
        keys.sort(key=lambda key: key[0] != "stand")  # stable: the stands first, as drafted
        for kind, stand in keys:
            default = IN_ORDER if kind == "stand" else None
            drafters = [s for s in listing if _field_of(kind) in draftable.get(s, {}).get(code, ())]
            if not drafters:
                continue  # only a draft that could not know it gave it
            versions = {side: per_side[side].get((kind, stand), default) for side in drafters}
            items.append(Item(_item_key(code, kind, stand), DraftItemKind(kind), code, stand, versions))
    for name in BATTLE_FIELDS:
        versions = {side: drafts[side][name] for side in sides if name in drafts[side]}
        if versions:
            items.append(Item(name, DraftItemKind(name), None, None, versions))
    return Comparison(items=items, revision=revision_of(drafts), sides=sides)
