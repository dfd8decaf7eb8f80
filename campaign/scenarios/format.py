"""The scenario pack format, version 2: what each level of a pack holds.

Each :class:`Level` names a model and the fields a pack copies as they are,
under the model's own names.  Everything else in a pack is a relation, written
as a natural key (side and force names, battalion codes, ``code/label`` for a
stand, day numbers, battle refs, usernames) and listed here as an extra.

:func:`schema_build` derives the JSON Schema from these levels and the models
(types, ranges, lengths, vocabularies), so the schema file cannot drift from
the database; ``schema/scenario-v2.json`` is its output, checked by a test.
``schema/scenario-v1.json`` is version 1's, kept as it was: a version 1 pack is checked
against it, then upgraded (:mod:`campaign.scenarios.upgrade`).
Rebuild it after a model change with::

    .venv/bin/python manage.py shell -c "from campaign.scenarios.format import schema_write; schema_write()"
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from django.db import connection
from django.db import models as db_models

from campaign import models
from campaign.choices import SectorKind
from campaign.scenarios import SCHEMA_PATH
from rules_engine.great_battles.activation import ActivationColumn
from rules_engine.vocab import DaySegment, Nation

FORMAT = "campaign-scenario"
VERSION = 2
TIME_PATTERN = r"^\d{2}:\d{2}(:\d{2}(\.\d+)?)?$"
TIMESTAMP = {"type": "string", "description": "ISO 8601 date and time with its UTC offset"}


@dataclass(frozen=True)
class Level:
    """One kind of pack entry: its model and the fields copied as they are."""

    model: type[db_models.Model]
    fields: tuple[str, ...]

    def field(self, name: str) -> db_models.Field[Any, Any]:
        field = self.model._meta.get_field(name)
        assert isinstance(field, db_models.Field)  # levels name concrete fields only
        return field


CAMPAIGN = Level(
    models.Campaign,
    (
        "name", "slug", "description", "profile", "optional_rules", "rule_settings", "table_dice", "theatre",
        "year",
        "season", "start_date", "night_weekday", "night_time", "orders_lead_hours", "rng_seed", "victory",
        "objective_awards",
    ),
)  # fmt: skip
# A campaign's export leaves its secret dice seed out (campaign.services.dice); a hand-written
# pack may fix one, for a reproducible demo or test.
EXPORT_OMITS = frozenset({"rng_seed"})
CLUB_NIGHT = Level(models.ClubNight, ("campaign_day", "play_date"))
SIDE = Level(
    models.Side,
    (
        "name", "nations", "is_axis", "activation_points", "carry_over_base", "carry_over_direction",
        "activation_cap", "barrage_rounds", "barrage_first_day_rounds", "barrage_rounds_per_day",
        "barrage_templates", "barrage_templates_in_use", "supply_quality", "artillery_quality",
        "air_cover_priority", "command_system", "training", "fog_of_war",
    ),
)  # fmt: skip
MEMBERSHIP = Level(models.Membership, ("role",))
SECTOR = Level(models.Sector, ("key", "name", "kind", "terrain", "victory_points", "x", "y", "geometry"))
SECTOR_LINK = Level(models.SectorLink, ("kind",))
FORCE = Level(
    models.Force,
    (
        "name", "nation", "home_nation", "leader_name", "leader_rating", "leader_decorations", "mobility",
        "fup_road_clear", "arrival_status", "arrival_day",
        "arrival_zone", "deployment_zone", "availability", "arrival_attempts", "arrival_turns_left",
        "activation_points",
    ),
)  # fmt: skip
AIRBORNE_DROP = Level(
    models.AirborneDrop, ("day", "delivery", "height", "anti_aircraft", "time", "drift_theatre", "dropped")
)
BATTLEGROUP = Level(models.Battlegroup, ("name", "kind", "has_hq"))
BATTALION = Level(
    models.Battalion,
    (
        "code", "name", "quality", "stands_started", "activation", "in_reserve", "supply_situation",
        "ammo_low_markers", "wiped_out_day", "fuel_state",
    ),
)  # fmt: skip
STAND = Level(
    models.Stand,
    (
        "label",
        "stand_type",
        "status",
        "attached",
        "attachment_kind",
        "grade",
        "entrenchment_points",
        "entrenched",
    ),
)
STATE = Level(
    models.Campaign,
    (
        "status",
        "current_day",
        "current_segment",
        "version",
        "night_schedule_acted_for",
        "result",
        "finished_day",
        "dice_revealed_through",
    ),
)
DAY = Level(
    models.CampaignDay,
    (
        "number", "date", "weather", "status", "dawned_at", "ended_after_turn", "supply_confirmed_at",
        "supply_overrides", "supply_overrun_isolated", "dice_seed", "journal", "journal_written_at",
    ),
)  # fmt: skip
SEGMENT = Level(models.DaySegmentRecord, ("segment", "order", "turns", "wind_direction", "wind_velocity"))
ACTIVATION_SPEND = Level(models.ActivationSpend, ("turn", "column", "cost", "created_at"))
TALLY = Level(
    models.SideDayTally,
    ("strength", "activation_points", "division_activation_points", "barrage_rounds", "created_at"),
)
ARTILLERY_ORDER = Level(models.ArtilleryOrder, ("template", "mode", "created_at"))
BATTLE = Level(models.Battle, ("battle_type", "status", "setup", "lull_checks_from_turn", "lulls", "report"))
ROLL = Level(
    models.RollRecord,
    (
        "procedure", "stream", "dice_day", "dice_audience", "at_table", "inputs", "result", "line",
        "changes", "request_id", "visibility", "created_at",
    ),
)  # fmt: skip
EVENT = Level(
    models.Event,
    (
        "verb", "request_id", "day_number", "object_type", "object_repr", "message", "before", "after",
        "visibility", "created_at",
    ),
)  # fmt: skip
OPERATION = Level(
    models.Operation,
    (
        "kind", "status", "steps", "completed_steps", "attempts", "report", "error", "created_at",
        "started_at", "finished_at",
    ),
)  # fmt: skip
NIGHT_REPORT = Level(models.NightReport, ("body", "created_at"))
NIGHT_ORDER = Level(models.NightOrder, ("kind", "attachment_kind", "applied"))

# Stamped by the database on insert: an import puts the pack's value back afterwards.
INSERT_STAMPED = "created_at"


def stand_keys(battalion_code: str, labels: Sequence[str]) -> list[str]:
    """Natural keys of a battalion's stands, in order: ``code/label``, and ``code/label#n``
    for the n-th of several stands with one label (attaching can bring a second HQ)."""
    counts = Counter(labels)
    seen: Counter[str] = Counter()
    keys = []
    for label in labels:
        seen[label] += 1
        keys.append(f"{battalion_code}/{label}" + (f"#{seen[label]}" if counts[label] > 1 else ""))
    return keys


K = TypeVar("K")
V = TypeVar("V")


# Helpers the importer and the exporter share, to follow relations by natural key.


def known(mapping: Mapping[K, V], key: K | None) -> V | None:
    return None if key is None else mapping[key]


def grouped(items: Iterable[V], parent: Callable[[V], int]) -> dict[int, list[V]]:
    grouped: dict[int, list[V]] = defaultdict(list)
    for item in items:
        grouped[parent(item)].append(item)
    return grouped


def stands_keyed(battalion_code: str, stands: Sequence[models.Stand]) -> Iterable[tuple[str, models.Stand]]:
    return zip(stand_keys(battalion_code, [stand.label for stand in stands]), stands, strict=True)


def segment_key(day_number: int, segment: str) -> str:
    return f"{day_number}/{segment}"


# --- the JSON Schema --------------------------------------------------------------------


def _nullable(spec: dict[str, Any]) -> dict[str, Any]:
    kinds = spec.get("type")
    spec = {**spec, "type": [kinds, "null"]} if isinstance(kinds, str) else spec
    if "enum" in spec:
        spec["enum"] = [*spec["enum"], None]
    return spec


def _json_field_schema(field: db_models.JSONField[Any, Any]) -> dict[str, Any]:
    default = field.get_default() if field.has_default() else None
    kind = "object" if isinstance(default, dict) else "array" if isinstance(default, list) else None
    return {"type": kind} if kind else {}


def _field_schema(field: db_models.Field[Any, Any]) -> dict[str, Any]:
    """A model field as JSON Schema: its type, range or length, and vocabulary."""
    spec: dict[str, Any]
    if isinstance(field, db_models.DateTimeField):
        spec = dict(TIMESTAMP)
    elif isinstance(field, db_models.DateField):
        spec = {"type": "string", "format": "date"}
    elif isinstance(field, db_models.TimeField):
        spec = {"type": "string", "pattern": TIME_PATTERN}
    elif isinstance(field, db_models.BooleanField):
        spec = {"type": "boolean"}
    elif isinstance(field, db_models.IntegerField):
        low, high = connection.ops.integer_field_range(field.get_internal_type())
        spec = {"type": "integer", "minimum": low, "maximum": high}
    elif isinstance(field, db_models.FloatField):
        spec = {"type": "number"}
    elif isinstance(field, db_models.JSONField):
        spec = _json_field_schema(field)
    else:
        spec = {"type": "string"}
        if not (field.blank or field.has_default()):
            spec["minLength"] = 1
        if field.max_length:
            spec["maxLength"] = field.max_length
        if isinstance(field, db_models.SlugField):
            spec["pattern"] = "^[-a-zA-Z0-9_]+$"
    if field.choices:
        values = [str(value) for value, _ in field.choices]
        spec["enum"] = ["", *values] if field.blank and "" not in values else values
    if field.help_text:
        spec["description"] = str(field.help_text)
    return _nullable(spec) if field.null else spec


def _required(field: db_models.Field[Any, Any]) -> bool:
    return not (field.has_default() or field.null or field.blank or getattr(field, "auto_now_add", False))


def _definition(
    level: Level,
    extras: Mapping[str, dict[str, Any]] | None = None,
    *,
    description: str,
    overrides: Mapping[str, dict[str, Any]] | None = None,
    required: tuple[str, ...] = (),
) -> dict[str, Any]:
    fields = [level.field(name) for name in level.fields]
    properties = {
        field.name: {**_field_schema(field), **(overrides or {}).get(field.name, {})} for field in fields
    }
    return {
        "type": "object",
        "description": description,
        "additionalProperties": False,
        "required": [f.name for f in fields if _required(f)] + list(required),
        "properties": {**properties, **(extras or {})},
    }


def _list(item: dict[str, Any], description: str = "", **more: Any) -> dict[str, Any]:
    return {"type": "array", "items": item, **({"description": description} if description else {}), **more}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _key(description: str, kind: str = "string", nullable: bool = False) -> dict[str, Any]:
    return {"type": [kind, "null"] if nullable else kind, "description": description}


SEGMENTS = [segment.value for segment in DaySegment]

# What taking a sector of a kind in battle is worth (campaign.services.objectives), with its source.
OBJECTIVE_AWARD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["kind", "activation_points", "rule"],
    "properties": {
        "kind": {"enum": list(SectorKind.values), "description": "the kind of sector taken"},
        "activation_points": {"type": "integer", "minimum": 1, "maximum": 20},
        "rule": {"type": "string", "minLength": 1, "description": "where the scenario says so"},
    },
}

# The victory conditions map-supply checks each night (docs/scenario-format.md, "Victory").
VICTORY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "how the campaign ends: the first condition met at a night, else the end",
    "additionalProperties": False,
    "properties": {
        "conditions": {
            "type": "array",
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["side", "result"],
                "properties": {
                    "side": {"type": "string", "description": "the side that wins when it holds"},
                    "sectors": {
                        "type": "array",
                        "items": {"type": "string"},
                        "uniqueItems": True,
                        "description": "sector keys the side must hold, every one",
                    },
                    "victory_points": {
                        "type": ["integer", "null"],
                        "minimum": 0,
                        "description": "at least this sum of its held sectors' victory points",
                    },
                    "by_day": {
                        "type": ["integer", "null"],
                        "minimum": 1,
                        "description": "met only at a night of this day or earlier (null: any day)",
                    },
                    "result": {"type": "string", "minLength": 1, "description": "the result, in words"},
                },
            },
        },
        "end": {
            "type": "object",
            "additionalProperties": False,
            "required": ["day", "result"],
            "properties": {
                "day": {"type": "integer", "minimum": 1, "description": "the last campaign day"},
                "side": {"type": ["string", "null"], "description": "who wins then (null: a draw)"},
                "result": {"type": "string", "minLength": 1},
            },
        },
    },
}


def schema_build() -> dict[str, Any]:
    """The JSON Schema of version 2 packs, from the levels above and the models."""
    definitions = {
        "campaign": _definition(
            CAMPAIGN,
            {
                "club_nights": _list(
                    _ref("club_night"), "the club schedule: the real date of each campaign day"
                )
            },
            description="the campaign's set-up",
            overrides={
                "profile": {"description": "a ruleset profile key (rules_engine.profiles.PROFILES)"},
                "optional_rules": {"items": {"type": "string"}, "uniqueItems": True},
                "night_weekday": {"maximum": 6, "description": "weekday of the night phase, 0 = Monday"},
                "victory": VICTORY_SCHEMA,
                "objective_awards": {
                    "items": OBJECTIVE_AWARD_SCHEMA,
                    "description": "activation points awarded at once for taking a sector of a kind",
                },
            },
        ),
        "map": {
            "type": "object",
            "description": "the campaign's ground: sectors and the links between adjacent ones",
            "additionalProperties": False,
            "properties": {"sectors": _list(_ref("sector")), "links": _list(_ref("sector_link"))},
        },
        "sector": _definition(
            SECTOR,
            {
                "owner": _key("the side holding it: a side name (null: contested)", nullable=True),
                "supply_source_for": _list(
                    {"type": "string"},
                    "side names this sector is a source of supply for, while that side holds it",
                    uniqueItems=True,
                ),
            },
            description="a sector: x and y (0..1000, y down) or a GeoJSON geometry to draw it",
            overrides={
                "x": {"minimum": 0, "maximum": 1000},
                "y": {"minimum": 0, "maximum": 1000},
                "geometry": {"type": ["object", "null"], "required": ["type"]},
            },
        ),
        "sector_link": _definition(
            SECTOR_LINK,
            {"a": _key("a sector key"), "b": _key("another sector key")},
            description="two adjacent sectors",
            required=("a", "b"),
        ),
        "club_night": _definition(CLUB_NIGHT, description="one club night"),
        "side": _definition(
            SIDE,
            {"forces": _list(_ref("force"))},
            description="one side, with its order of battle",
            overrides={"nations": {"items": {"enum": [n.value for n in Nation]}, "uniqueItems": True}},
        ),
        "membership": _definition(
            MEMBERSHIP,
            {
                "username": {"type": "string", "minLength": 1, "maxLength": 150},
                "side": _key("a side name; players need one", nullable=True),
            },
            description="a user's role in the campaign (the user is created when missing)",
            required=("username",),
        ),
        "force": _definition(
            FORCE,
            {
                "sector": _key("where its C Ops stands: a sector key (null: off the map)", nullable=True),
                "fup_sector": _key(
                    "its forming-up point when apart from its C Ops: a sector key (null: with its C Ops)",
                    nullable=True,
                ),
                "airborne_drop": {"oneOf": [_ref("airborne_drop"), {"type": "null"}]},
                "battlegroups": _list(_ref("battlegroup")),
            },
            description="a division",
        ),
        "airborne_drop": _definition(
            AIRBORNE_DROP,
            {"drop_zone": _key("where it lands: a sector key (null: the umpire places it)", nullable=True)},
            description="the force's airborne landing at the dawn of a campaign day (004 § Drop Zone)",
        ),
        "battlegroup": _definition(
            BATTLEGROUP, {"battalions": _list(_ref("battalion"))}, description="a regiment or brigade"
        ),
        "battalion": _definition(
            BATTALION,
            {
                "sector": _key(
                    "where it stands: a sector key (null: off the map, as reserves are)", nullable=True
                ),
                "stands": _list(_ref("stand")),
            },
            description="a battalion; codes are unique in the campaign",
            overrides={"stands_started": {"description": "defaults to the number of stands listed"}},
        ),
        "stand": _definition(
            STAND,
            {"equipment": _key("an Equipment key, e.g. vehicle/british/matilda", nullable=True)},
            description="one stand; labels are unique in the battalion",
        ),
        "state": _definition(
            STATE,
            {
                "winner": _key("the winning side's name, once finished (null: drawn)", nullable=True),
                "days": _list(_ref("day")),
                "battles": _list(_ref("battle")),
                "rolls": _list(_ref("roll")),
                "events": _list(_ref("event")),
                "operations": _list(_ref("operation")),
                "night_orders": _list(_ref("night_order")),
            },
            description="where the campaign stands: written by exports, absent from scenarios",
        ),
        "day": _definition(
            DAY,
            {
                "segments": _list(_ref("segment")),
                "activation_spends": _list(_ref("activation_spend")),
                "tallies": _list(_ref("tally"), "each side's strength and stocks at dawn"),
                "artillery_orders": _list(_ref("artillery_order"), "each barrage template's mode that day"),
            },
            description="one campaign day",
        ),
        "segment": _definition(
            SEGMENT, {"initiative_side": _key("a side name", nullable=True)}, description="one day segment"
        ),
        "activation_spend": _definition(
            ACTIVATION_SPEND,
            {
                "side": _key("a side name"),
                "force": _key("the division whose pool paid; null: the side's pool", nullable=True),
                "battalions": _list({"type": "string"}, "battalion codes", uniqueItems=True),
            },
            description="an activation column bought for a turn",
            overrides={"column": {"enum": [c.value for c in ActivationColumn]}},
            required=("side", INSERT_STAMPED),
        ),
        "tally": _definition(
            TALLY,
            {"side": _key("a side name")},
            description="a side's strength and stocks as the day dawned (the charts' series)",
            overrides={"strength": {"type": "object"}, "division_activation_points": {"type": "object"}},
            required=("side", INSERT_STAMPED),
        ),
        "artillery_order": _definition(
            ARTILLERY_ORDER,
            {"side": _key("a side name")},
            description="a barrage template's mode for the day",
            required=("side", INSERT_STAMPED),
        ),
        "battle": _definition(
            BATTLE,
            {
                "ref": _key("the battle's number in this file; battles and rolls name it", "integer"),
                "day": _key("campaign day number", "integer"),
                "segments": _list({"enum": SEGMENTS}, "segments of its day", uniqueItems=True),
                "attacker": _key("a side name"),
                "defender": _key("a side name"),
                "continues": _key("ref of the battle on the same sector the day before", "integer", True),
                "feeds": _list(
                    {"type": "integer"}, "refs of battles forces leave this one for", uniqueItems=True
                ),
                "battalions": _list({"type": "string"}, "battalion codes", uniqueItems=True),
                "sector": _key("where it is fought: a sector key"),
                "winner": _key(
                    "the side that won it, from its report (null: nobody, or not reported)", nullable=True
                ),
                "attacker_decided_by": _key(
                    "the side that rolled high for the attacker decision at set-up (null: not rolled)",
                    nullable=True,
                ),
            },
            description="a battle, its links, set-up and report",
            required=("ref", "day", "sector", "attacker", "defender"),
        ),
        "roll": _definition(
            ROLL,
            {
                "day": _key("campaign day number", "integer", True),
                "segment": _key("a segment of the roll's day", nullable=True),
                "battle": _key("battle ref", "integer", True),
                "force": _key("force name", nullable=True),
                "battalion": _key("battalion code", nullable=True),
                "actor": _key("username", nullable=True),
                "override_of": _key("index in state.rolls of the roll this one overrides", "integer", True),
                "side": _key("the side that owns it: a side name, with visibility side", nullable=True),
            },
            description="one recorded die roll",
            required=(INSERT_STAMPED,),
        ),
        "event": _definition(
            EVENT,
            {
                "actor": _key("username", nullable=True),
                "object_key": _key("the subject's natural key (docs/scenario-format.md)", nullable=True),
                "side": _key("the side that owns it: a side name, with visibility side", nullable=True),
            },
            description="one timeline entry",
            required=(INSERT_STAMPED,),
        ),
        "operation": _definition(
            OPERATION,
            {
                "day": _key("campaign day number", "integer"),
                "segment": _key("a segment of that day", nullable=True),
                "created_by": _key("username", nullable=True),
                "night_reports": _list(_ref("night_report")),
            },
            description="a night phase or arrival roll run in the background",
            required=("day", INSERT_STAMPED),
        ),
        "night_report": _definition(
            NIGHT_REPORT,
            {"side": _key("a side name"), "day": _key("campaign day number", "integer")},
            description="what one side learnt from an operation",
            required=("side", "day", INSERT_STAMPED),
        ),
        "night_order": _definition(
            NIGHT_ORDER,
            {
                "day": _key("campaign day number", "integer"),
                "battalion": _key("battalion code"),
                "stand": _key(
                    "the stand: code/label, code/label#n for the n-th of a repeated label", nullable=True
                ),
                "target_battalion": _key("battalion code", nullable=True),
            },
            description="an umpire's order for the next night phase",
            required=("day", "battalion"),
        ),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://campaign-service.invalid/schema/scenario-v2.json",
        "title": "Campaign scenario pack, version 2",
        "description": "A campaign's set-up and, in a full export, its state. See docs/scenario-format.md.",
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "version", "campaign", "sides"],
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": VERSION},
            "campaign": _ref("campaign"),
            "sides": _list(_ref("side"), minItems=2),
            "map": _ref("map"),
            "memberships": _list(_ref("membership")),
            "state": _ref("state"),
        },
        "$defs": definitions,
    }


def schema_text() -> str:
    return json.dumps(schema_build(), indent=2, ensure_ascii=False) + "\n"


def schema_write() -> None:
    SCHEMA_PATH.write_text(schema_text(), encoding="utf-8")
