"""Checking a pack: the JSON Schema first, then what a schema cannot say.

Every issue names its path inside the file, e.g.
``sides[1].forces[0].battlegroups[0].battalions[2].quality: 'Elite' is not one
of Raw, Inferior, Average, Experienced, Veteran``.  Domain checks run once the
schema passes: the profile and its quality scale, optional rules and rule
settings as every campaign write checks them (``rule_switch_issues``),
equipment keys against the reference data, unique natural keys, and every cross-reference of a full export.
"""

from __future__ import annotations

import datetime
import functools
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from campaign import models
from campaign.choices import MemberRole, Visibility
from campaign.scenarios import SCHEMA_V1_PATH, schema_load
from campaign.scenarios.format import segment_key, stand_keys
from campaign.scenarios.upgrade import pack_upgrade
from campaign.services.rules import rule_switch_issues, table_dice_issues
from rules_engine.profiles import PROFILES

MAX_ISSUES_SHOWN = 50


@dataclass(frozen=True)
class ScenarioIssue:
    """One thing wrong with a pack, at ``path`` inside the file."""

    path: str
    message: str

    def text(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


def issues_text(issues: Sequence[ScenarioIssue]) -> str:
    shown = [issue.text() for issue in issues[:MAX_ISSUES_SHOWN]]
    if len(issues) > MAX_ISSUES_SHOWN:
        shown.append(f"... and {len(issues) - MAX_ISSUES_SHOWN} more")
    return "\n".join(shown)


def path_join(*parts: str | int) -> str:
    """``sides``, 1, ``forces`` → ``sides[1].forces``."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
    return text


def _choices_text(values: Iterable[Any]) -> str:
    return ", ".join(repr(v) if v in ("", None) else str(v) for v in values)


# --- the schema -------------------------------------------------------------------------


@functools.cache
def _schema_validator(version: int) -> Any:
    schema = schema_load(SCHEMA_V1_PATH) if version == 1 else schema_load()
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _schema_issues(pack: Any) -> Iterator[ScenarioIssue]:
    """Against its version's schema: a version 1 pack is checked as written, before its upgrade."""
    version = 1 if isinstance(pack, Mapping) and pack.get("version") == 1 else 2
    for error in _schema_validator(version).iter_errors(pack):
        where = list(error.absolute_path)
        if error.validator == "required":
            for name in error.validator_value:
                if name not in error.instance:
                    yield ScenarioIssue(path_join(*where, name), "required field is missing")
        elif error.validator == "additionalProperties":
            known = error.schema.get("properties", {})
            for name in error.instance:
                if name not in known:
                    yield ScenarioIssue(path_join(*where, name), "unknown field")
        elif error.validator == "enum":
            yield ScenarioIssue(
                path_join(*where), f"{error.instance!r} is not one of {_choices_text(error.validator_value)}"
            )
        elif error.validator == "const":
            yield ScenarioIssue(
                path_join(*where), f"must be {error.validator_value!r}, not {error.instance!r}"
            )
        else:
            yield ScenarioIssue(path_join(*where), error.message)


# --- what the pack defines --------------------------------------------------------------


@dataclass
class PackIndex:
    """Every natural key a pack defines; the order of battle's with the path defining it."""

    slug: str
    club_nights: set[int]
    sectors: set[str]
    sides: dict[str, str]
    forces: dict[str, str]
    battalions: dict[str, str]
    stands: dict[str, str]
    usernames: set[str]
    days: dict[int, set[str]]  # day number → its segments
    battles: set[int]
    # Rolls, operations and night orders are named by their index in their list.
    rolls: int
    operations: int
    night_orders: int

    def subject_keys(self) -> dict[str, set[str]]:
        """The keys an event may name its subject by, per subject type."""
        return {
            "Campaign": {self.slug},
            "ClubNight": {str(day) for day in self.club_nights},
            "Side": set(self.sides),
            "Membership": self.usernames,
            "Force": set(self.forces),
            "Battalion": set(self.battalions),
            "Stand": set(self.stands),
            "Sector": self.sectors,
            "CampaignDay": {str(n) for n in self.days},
            "DaySegmentRecord": {segment_key(n, s) for n, segments in self.days.items() for s in segments},
            "Battle": {str(ref) for ref in self.battles},
            "RollRecord": {str(i) for i in range(self.rolls)},
            "Operation": {str(i) for i in range(self.operations)},
            "NightOrder": {str(i) for i in range(self.night_orders)},
        }


def walk_order_of_battle(pack: Mapping[str, Any]) -> Iterator[tuple[str, str, Mapping[str, Any]]]:
    """(level, path, entry) for every side, force, battlegroup, battalion and stand, in file order."""
    for s, side in enumerate(pack["sides"]):
        yield "side", path_join("sides", s), side
        for f, force in enumerate(side.get("forces", [])):
            force_path = path_join("sides", s, "forces", f)
            yield "force", force_path, force
            for g, group in enumerate(force.get("battlegroups", [])):
                group_path = path_join(force_path, "battlegroups", g)
                yield "battlegroup", group_path, group
                for b, battalion in enumerate(group.get("battalions", [])):
                    battalion_path = path_join(group_path, "battalions", b)
                    yield "battalion", battalion_path, battalion
                    for t, stand in enumerate(battalion.get("stands", [])):
                        stand_path = path_join(battalion_path, "stands", t)
                        yield "stand", stand_path, stand


def pack_index(pack: Mapping[str, Any]) -> PackIndex:
    by_level: dict[str, dict[str, str]] = defaultdict(dict)
    for level, path, entry in walk_order_of_battle(pack):
        if level in ("side", "force"):
            by_level[level].setdefault(entry["name"], path)
        elif level == "battalion":
            by_level[level].setdefault(entry["code"], path)
            keys = stand_keys(entry["code"], [stand["label"] for stand in entry.get("stands", [])])
            for t, key in enumerate(keys):
                by_level["stand"].setdefault(key, path_join(path, "stands", t))
    state = pack.get("state", {})
    return PackIndex(
        slug=pack["campaign"]["slug"],
        sectors={sector["key"] for sector in pack.get("map", {}).get("sectors", [])},
        club_nights={night["campaign_day"] for night in pack["campaign"].get("club_nights", [])},
        sides=by_level["side"],
        forces=by_level["force"],
        battalions=by_level["battalion"],
        stands=by_level["stand"],
        usernames={m["username"] for m in pack.get("memberships", [])},
        days={d["number"]: {s["segment"] for s in d.get("segments", [])} for d in state.get("days", [])},
        battles={b["ref"] for b in state.get("battles", [])},
        rolls=len(state.get("rolls", [])),
        operations=len(state.get("operations", [])),
        night_orders=len(state.get("night_orders", [])),
    )


# --- domain checks ----------------------------------------------------------------------


def _duplicates(entries: Iterable[tuple[str, Any]], what: str) -> Iterator[ScenarioIssue]:
    """An issue for each repeat of a key; ``entries`` are (path, key) pairs."""
    first: dict[Any, str] = {}
    for path, key in entries:
        if key in first:
            yield ScenarioIssue(path, f"duplicate {what} {key!r} (first at {first[key]})")
        else:
            first[key] = path


def _reference(path: str, value: Any, known: Iterable[Any], what: str) -> Iterator[ScenarioIssue]:
    if value is not None and value not in known:
        yield ScenarioIssue(path, f"no {what} {value!r} in this pack")


def _timestamp(path: str, text: str | None) -> Iterator[ScenarioIssue]:
    if text is None:
        return
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        yield ScenarioIssue(path, f"{text!r} is not an ISO 8601 date and time")
        return
    if moment.tzinfo is None:
        yield ScenarioIssue(path, f"{text!r} has no UTC offset")


def _campaign_issues(campaign: Mapping[str, Any]) -> Iterator[ScenarioIssue]:
    profile = campaign["profile"]
    if profile not in PROFILES:
        yield ScenarioIssue("campaign.profile", f"{profile!r} is not one of {_choices_text(PROFILES)}")
    for issue in rule_switch_issues(campaign.get("optional_rules", []), campaign.get("rule_settings", {})):
        yield ScenarioIssue(f"campaign.{issue.field}", issue.message)
    for issue in table_dice_issues(profile, campaign.get("table_dice", {})):
        yield ScenarioIssue(f"campaign.{issue.field}", issue.message)
    nights = campaign.get("club_nights", [])
    yield from _duplicates(
        (
            (path_join("campaign", "club_nights", i, "campaign_day"), n["campaign_day"])
            for i, n in enumerate(nights)
        ),
        "campaign day",
    )


def _order_of_battle_issues(pack: Mapping[str, Any]) -> Iterator[ScenarioIssue]:
    profile = PROFILES.get(pack["campaign"]["profile"])
    grades = profile.quality_scale.grades if profile and profile.quality_scale else ()
    keyed: dict[str, list[tuple[str, str]]] = defaultdict(list)
    equipment: list[tuple[str, str]] = []
    for level, path, entry in walk_order_of_battle(pack):
        if level in ("side", "force"):  # battlegroup names are never referred to
            keyed[f"{level} name"].append((f"{path}.name", entry["name"]))
        if level == "battalion":
            keyed["battalion code"].append((f"{path}.code", entry["code"]))
        for grade_field in ("quality", "grade"):
            grade = entry.get(grade_field) if level in ("battalion", "stand") else None
            if grades and grade and grade not in grades:
                yield ScenarioIssue(f"{path}.{grade_field}", f"{grade!r} is not one of {', '.join(grades)}")
        if level == "stand":
            if entry.get("attached", False) != bool(entry.get("attachment_kind")):
                yield ScenarioIssue(
                    f"{path}.attachment_kind",
                    "an attached stand needs an attachment kind, and only an attached one",
                )
            if entry.get("equipment"):
                equipment.append((f"{path}.equipment", entry["equipment"]))
    for what, entries in keyed.items():
        yield from _duplicates(entries, what)
    known = set(
        models.Equipment.objects.filter(key__in={k for _, k in equipment}).values_list("key", flat=True)
    )
    for path, key in equipment:
        if key not in known:
            yield ScenarioIssue(path, f"no equipment with key {key!r}")


def _map_issues(pack: Mapping[str, Any], index: PackIndex) -> Iterator[ScenarioIssue]:
    """Sectors named once, links between two known sectors once, and every sector reference known."""
    ground = pack.get("map", {})
    sectors = ground.get("sectors", [])
    for what in ("key", "name"):
        yield from _duplicates(
            ((path_join("map", "sectors", i, what), s[what]) for i, s in enumerate(sectors)), what
        )
    for i, sector in enumerate(sectors):
        path = path_join("map", "sectors", i)
        yield from _reference(f"{path}.owner", sector.get("owner"), index.sides, "side")
        for j, side in enumerate(sector.get("supply_source_for", [])):
            yield from _reference(path_join(path, "supply_source_for", j), side, index.sides, "side")
        if (sector.get("x") is None) != (sector.get("y") is None):
            yield ScenarioIssue(
                f"{path}.y" if sector.get("y") is None else f"{path}.x", "give both x and y, or neither"
            )
    pairs = []
    for i, link in enumerate(ground.get("links", [])):
        path = path_join("map", "links", i)
        for end in ("a", "b"):
            yield from _reference(f"{path}.{end}", link[end], index.sectors, "sector")
        if link["a"] == link["b"]:
            yield ScenarioIssue(f"{path}.b", "a link joins two different sectors")
        pairs.append((path, tuple(sorted((link["a"], link["b"])))))
    yield from _duplicates(pairs, "link")
    for level, path, entry in walk_order_of_battle(pack):
        for field in ("sector", "fup_sector") if level in ("force", "battalion") else ():
            yield from _reference(f"{path}.{field}", entry.get(field), index.sectors, "sector")
        if level == "battalion" and entry.get("in_reserve") and entry.get("sector") is not None:
            yield ScenarioIssue(f"{path}.sector", "a battalion in reserve is off the map (no sector)")
    victory = pack["campaign"].get("victory", {})
    for i, condition in enumerate(victory.get("conditions", [])):
        path = path_join("campaign", "victory", "conditions", i)
        yield from _reference(f"{path}.side", condition["side"], index.sides, "side")
        for j, key in enumerate(condition.get("sectors", [])):
            yield from _reference(path_join(path, "sectors", j), key, index.sectors, "sector")
    if "end" in victory:
        yield from _reference("campaign.victory.end.side", victory["end"].get("side"), index.sides, "side")


def _membership_issues(pack: Mapping[str, Any], index: PackIndex) -> Iterator[ScenarioIssue]:
    memberships = pack.get("memberships", [])
    yield from _duplicates(
        ((path_join("memberships", i, "username"), m["username"]) for i, m in enumerate(memberships)),
        "username",
    )
    for i, membership in enumerate(memberships):
        side = membership.get("side")
        if side is None and membership["role"] == MemberRole.PLAYER:
            yield ScenarioIssue(path_join("memberships", i, "side"), "a player must belong to a side")
        yield from _reference(path_join("memberships", i, "side"), side, index.sides, "side")


def _day_issues(days: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    yield from _duplicates(
        ((path_join("state", "days", i, "number"), d["number"]) for i, d in enumerate(days)), "day"
    )
    for i, day in enumerate(days):
        path = path_join("state", "days", i)
        segments = day.get("segments", [])
        yield from _duplicates(
            ((path_join(path, "segments", j, "segment"), s["segment"]) for j, s in enumerate(segments)),
            "segment",
        )
        for j, segment in enumerate(segments):
            side = segment.get("initiative_side")
            yield from _reference(
                path_join(path, "segments", j, "initiative_side"), side, index.sides, "side"
            )
        for j, spend in enumerate(day.get("activation_spends", [])):
            spend_path = path_join(path, "activation_spends", j)
            yield from _reference(f"{spend_path}.side", spend["side"], index.sides, "side")
            for k, code in enumerate(spend.get("battalions", [])):
                yield from _reference(
                    path_join(spend_path, "battalions", k), code, index.battalions, "battalion"
                )
            yield from _timestamp(f"{spend_path}.created_at", spend["created_at"])
        for j, tally in enumerate(day.get("tallies", [])):
            tally_path = path_join(path, "tallies", j)
            yield from _reference(f"{tally_path}.side", tally["side"], index.sides, "side")
            yield from _timestamp(f"{tally_path}.created_at", tally["created_at"])


def _day_segment(path: str, day: int, segment: str | None, index: PackIndex) -> Iterator[ScenarioIssue]:
    if day not in index.days:
        yield ScenarioIssue(f"{path}.day", f"no campaign day {day!r} in this pack")
    elif segment is not None:
        yield from _reference(f"{path}.segment", segment, index.days[day], f"segment of day {day}")


def _battle_issues(battles: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    yield from _duplicates(
        ((path_join("state", "battles", i, "ref"), b["ref"]) for i, b in enumerate(battles)), "ref"
    )
    for i, battle in enumerate(battles):
        path = path_join("state", "battles", i)
        yield from _day_segment(path, battle["day"], None, index)
        for j, segment in enumerate(battle.get("segments", [])):
            known = index.days.get(battle["day"], set())
            yield from _reference(path_join(path, "segments", j), segment, known, "segment of that day")
        for role in ("attacker", "defender"):
            yield from _reference(f"{path}.{role}", battle[role], index.sides, "side")
        if battle["attacker"] == battle["defender"]:
            yield ScenarioIssue(f"{path}.defender", "attacker and defender must be different sides")
        yield from _reference(f"{path}.continues", battle.get("continues"), index.battles, "battle ref")
        for j, ref in enumerate(battle.get("feeds", [])):
            yield from _reference(path_join(path, "feeds", j), ref, index.battles, "battle ref")
        for j, code in enumerate(battle.get("battalions", [])):
            yield from _reference(path_join(path, "battalions", j), code, index.battalions, "battalion")
        yield from _reference(f"{path}.sector", battle["sector"], index.sectors, "sector")
        if battle.get("winner") not in (None, battle["attacker"], battle["defender"]):
            yield ScenarioIssue(
                f"{path}.winner", "the winner is the attacker, the defender, or nobody (null)"
            )
        if battle.get("attacker_decided_by") not in (None, battle["attacker"], battle["defender"]):
            yield ScenarioIssue(
                f"{path}.attacker_decided_by",
                "the attacker decision's high roller is the attacker, the defender, or nobody (null)",
            )


def _roll_issues(rolls: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    for i, roll in enumerate(rolls):
        path = path_join("state", "rolls", i)
        if roll.get("day") is not None:
            yield from _day_segment(path, roll["day"], roll.get("segment"), index)
        elif roll.get("segment") is not None:
            yield ScenarioIssue(f"{path}.segment", "a roll with a segment needs its day")
        yield from _reference(f"{path}.battle", roll.get("battle"), index.battles, "battle ref")
        yield from _reference(f"{path}.force", roll.get("force"), index.forces, "force")
        yield from _reference(f"{path}.battalion", roll.get("battalion"), index.battalions, "battalion")
        override_of = roll.get("override_of")
        if override_of is not None and not (0 <= override_of < len(rolls) and override_of != i):
            yield ScenarioIssue(f"{path}.override_of", f"{override_of} is not the index of another roll")
        yield from _owner_issues(path, roll, index)
        if roll.get("visibility") == Visibility.BATTLE and roll.get("battle") is None:
            yield ScenarioIssue(f"{path}.battle", "a roll read by its battle's sides needs its battle")
        yield from _timestamp(f"{path}.created_at", roll["created_at"])


def _owner_issues(path: str, entry: Mapping[str, Any], index: PackIndex) -> Iterator[ScenarioIssue]:
    """A roll or event of a side names its side; any other names none."""
    side = entry.get("side")
    yield from _reference(f"{path}.side", side, index.sides, "side")
    if entry.get("visibility") == Visibility.SIDE and side is None:
        yield ScenarioIssue(f"{path}.side", "a roll or event read by its side names the side")
    elif entry.get("visibility") != Visibility.SIDE and side is not None:
        yield ScenarioIssue(f"{path}.side", "only a roll or event read by its side names a side")


def _event_issues(events: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    subjects = index.subject_keys()
    for i, event in enumerate(events):
        path = path_join("state", "events", i)
        kind = event["object_type"]
        if kind in subjects:
            yield from _reference(f"{path}.object_key", event.get("object_key"), subjects[kind], kind)
        yield from _owner_issues(path, event, index)
        yield from _timestamp(f"{path}.created_at", event["created_at"])


def _operation_issues(operations: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    yield from _duplicates(
        (
            (path_join("state", "operations", i, "kind"), (op["kind"], op["day"], op.get("segment")))
            for i, op in enumerate(operations)
        ),
        "operation (kind, day, segment)",
    )
    for i, operation in enumerate(operations):
        path = path_join("state", "operations", i)
        yield from _day_segment(path, operation["day"], operation.get("segment"), index)
        for stamp in ("created_at", "started_at", "finished_at"):
            yield from _timestamp(f"{path}.{stamp}", operation.get(stamp))
        reports = operation.get("night_reports", [])
        yield from _duplicates(
            ((path_join(path, "night_reports", j, "side"), r["side"]) for j, r in enumerate(reports)), "side"
        )
        for j, report in enumerate(reports):
            report_path = path_join(path, "night_reports", j)
            yield from _reference(f"{report_path}.side", report["side"], index.sides, "side")
            yield from _day_segment(report_path, report["day"], None, index)
            yield from _timestamp(f"{report_path}.created_at", report["created_at"])


def _night_order_issues(orders: Sequence[Mapping[str, Any]], index: PackIndex) -> Iterator[ScenarioIssue]:
    for i, order in enumerate(orders):
        path = path_join("state", "night_orders", i)
        yield from _day_segment(path, order["day"], None, index)
        yield from _reference(f"{path}.battalion", order["battalion"], index.battalions, "battalion")
        yield from _reference(f"{path}.stand", order.get("stand"), index.stands, "stand")
        yield from _reference(
            f"{path}.target_battalion", order.get("target_battalion"), index.battalions, "battalion"
        )


def _state_issues(state: Mapping[str, Any], index: PackIndex) -> Iterator[ScenarioIssue]:
    yield from _reference("state.winner", state.get("winner"), index.sides, "side")
    yield from _day_issues(state.get("days", []), index)
    yield from _battle_issues(state.get("battles", []), index)
    yield from _roll_issues(state.get("rolls", []), index)
    yield from _event_issues(state.get("events", []), index)
    yield from _operation_issues(state.get("operations", []), index)
    yield from _night_order_issues(state.get("night_orders", []), index)


def scenario_validate(pack: Any) -> list[ScenarioIssue]:
    """Every issue of ``pack`` by path: the schema's, or when it passes, the domain's (a version 1
    pack's once upgraded: :func:`~campaign.scenarios.upgrade.pack_upgrade`)."""
    issues = list(_schema_issues(pack))
    if not issues:
        pack = pack_upgrade(pack)
        index = pack_index(pack)
        issues = [
            *_campaign_issues(pack["campaign"]),
            *_order_of_battle_issues(pack),
            *_membership_issues(pack, index),
            *_map_issues(pack, index),
            *_state_issues(pack.get("state", {}), index),
        ]
    return sorted(dict.fromkeys(issues), key=lambda issue: issue.path)
