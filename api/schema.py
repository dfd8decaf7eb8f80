"""The OpenAPI 3 document: the API key scheme, the error shape on every operation, examples.

Its settings (title, enum names, these hooks) are ``SPECTACULAR_SETTINGS`` in
``config.settings.base``, so the served schema and the stock
``manage.py spectacular`` are the same document.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension, OpenApiSerializerExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiExample, OpenApiParameter

from api.errors import error_body
from api.idempotency import HEADER as IDEMPOTENCY_HEADER
from api.idempotency import REPLAYED_HEADER


class CampaignAPIKeyScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]  # registers it
    """Third-party apps' keys (:mod:`api.authentication`) in the schema's security schemes."""

    target_class = "api.authentication.CampaignAPIKeyAuthentication"
    name = "campaignApiKey"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>`: a campaign's key, made by its umpire (docs/api.md)",
        }


class ReportBodySchema(OpenApiSerializerExtension):  # type: ignore[no-untyped-call]  # registers it
    """A report's body has its kind's keys and no other (the serializer writes no other): so an
    arrival body, which has a night body's day and side too, matches only its own schema."""

    target_class = "api.serializers.night.ReportBodySerializer"
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> dict[str, Any]:
        schema: dict[str, Any] = auto_schema._map_basic_serializer(self.target, direction)
        return {**schema, "additionalProperties": False}


def exclude_schema_views(endpoints: list[tuple[Any, ...]], **kwargs: Any) -> list[tuple[Any, ...]]:
    """The schema and its documentation pages are not API operations."""
    return [endpoint for endpoint in endpoints if not endpoint[0].startswith("/api/v1/schema/")]


ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "fields", "rule"],
            "properties": {
                "code": {
                    "type": "string",
                    "description": "stable machine code, e.g. not_found, pool_overspent",
                },
                "message": {"type": "string", "description": "for people"},
                "fields": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    "description": "input at fault by dotted path (battalions[0].code) → messages",
                },
                "rule": {"type": "string", "nullable": True, "description": "the rule the request broke"},
            },
        }
    },
}

ERROR_EXAMPLES: dict[str, dict[str, dict[str, Any]]] = {
    "400": {
        "field": {
            "summary": "Bad input, naming the field",
            "value": error_body(
                "invalid",
                "Battalion ZZ9 is not in the battle at Hal Far.",
                {"battalions[0].code": ["Battalion ZZ9 is not in the battle at Hal Far."]},
            ),
        },
        "rule": {
            "summary": "A broken rule, naming it",
            "value": error_body(
                "pool_overspent",
                "Activation pool would go below zero: Axis reports 9 spent, has 8.",
                {"battalions": ["Activation pool would go below zero: Axis reports 9 spent, has 8."]},
                "battle report: stands, pools and supply are changed together",
            ),
        },
    },
    "401": {
        "anonymous": {
            "summary": "Not logged in, and no API key",
            "value": error_body("not_authenticated", "Authentication credentials were not provided."),
        },
        "key": {
            "summary": "A revoked, expired or mistyped API key",
            "value": error_body("api_key_invalid", "Unknown or revoked API key."),
        },
    },
    "403": {
        "csrf": {
            "summary": "A session's write without its CSRF token",
            "value": error_body("permission_denied", "CSRF Failed: CSRF token missing."),
        },
        "role": {
            "summary": "Not an umpire",
            "value": error_body("permission_denied", "Only an umpire of this campaign may change it."),
        },
    },
    "404": {
        "hidden": {
            "summary": "Not there, or not yours to see",
            "value": error_body("not_found", "No campaign 'malta-1942' that you are a member of."),
        }
    },
    "409": {
        "state": {
            "summary": "Does not fit the campaign's state",
            "value": error_body(
                "wrong_battle_status",
                "The battle at Hal Far is closed, not planned or set up or in progress.",
                {"status": ["The battle at Hal Far is closed, not planned or set up or in progress."]},
            ),
        }
    },
    "413": {
        "large": {
            "summary": "A body past the size limit",
            "value": error_body("payload_too_large", "The request body is larger than 2560 KiB."),
        }
    },
    "415": {
        "type": {
            "summary": "A body of a type the API does not read",
            "value": error_body("unsupported_media_type", 'Unsupported media type "text/plain" in request.'),
        }
    },
    "422": {
        "reused": {
            "summary": "Idempotency-Key reused for another request",
            "value": error_body(
                "idempotency_key_reused",
                "this Idempotency-Key was already used for a different request; send a new key",
                {IDEMPOTENCY_HEADER: ["this Idempotency-Key was already used for a different request"]},
            ),
        }
    },
    "429": {
        "limited": {
            "summary": "Over the caller's rate limit",
            "value": error_body(
                "rate_limited",
                "Too many requests from a read-only API key: 600 per 60 seconds. Try again in 12 seconds.",
            ),
        }
    },
    "500": {"crash": {"summary": "A bug", "value": error_body("server_error", "Internal server error.")}},
}
WRITE_METHODS = {"post", "put", "patch", "delete"}


def _error_statuses(path: str, method: str, operation: dict[str, Any]) -> Iterator[str]:
    yield "401"  # a bad API key is refused everywhere, even where no login is needed
    yield "403"
    if "{" in path:  # a path naming a row (a page past the last is a 400 naming page)
        yield "404"
    # Every operation refuses an unknown query parameter (api.contract).
    yield "400"
    if method in WRITE_METHODS:
        yield "409"
    if "requestBody" in operation:  # the parsers' refusals: JSON, form or multipart, and not too large
        yield "413"
        yield "415"
    if any(p.get("name") == IDEMPOTENCY_HEADER for p in operation.get("parameters", [])):
        yield "422"
    yield "429"  # every operation counts against its caller's rate limit (api.rate_limits)
    yield "500"


CHALLENGE_HEADER = {
    "schema": {"type": "string"},
    "description": '`Api-Key realm="api"`: log in (session) or send a campaign\'s API key',
}


RETRY_AFTER_HEADER = {
    "schema": {"type": "integer", "minimum": 1},
    "description": "seconds until the rate limit's window ends and requests are admitted again",
}


def add_error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Every operation documents the error shape for the errors it can answer."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    reference = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            for status in _error_statuses(path, method, operation):
                examples = ERROR_EXAMPLES[status]
                response: dict[str, Any] = {
                    "description": "Error",
                    "content": {"application/json": {"schema": reference, "examples": examples}},
                }
                if status == "401":
                    response["headers"] = {"WWW-Authenticate": CHALLENGE_HEADER}
                if status == "429":
                    response["headers"] = {"Retry-After": RETRY_AFTER_HEADER}
                operation["responses"].setdefault(status, response)
    return result


RESPONSE_HEADERS = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "the content's version for this reader: send it back in `If-None-Match`, "
        "and while nothing changed the answer is 304 with no body",
    },
    "Location": {"schema": {"type": "string"}, "description": "the URL of what was made or started"},
    # draft-ietf-httpapi-ratelimit-headers, on every response of a counted request (api.rate_limits)
    "RateLimit-Limit": {
        "schema": {"type": "integer"},
        "description": "requests this caller's kind may make per window (docs/api.md, Rate limits)",
    },
    "RateLimit-Remaining": {
        "schema": {"type": "integer", "minimum": 0},
        "description": "requests left in the current window",
    },
    "RateLimit-Reset": {
        "schema": {"type": "integer", "minimum": 1},
        "description": "seconds until the window ends",
    },
    "RateLimit-Policy": {
        "schema": {"type": "string"},
        "description": "the limit and its window in seconds: `600;w=60`",
    },
    REPLAYED_HEADER: {
        "schema": {"type": "string", "enum": ["true"]},
        "description": "present when this is the stored answer to an earlier request with the same "
        f"`{IDEMPOTENCY_HEADER}`: nothing was done again",
    },
}


RATE_LIMIT_HEADERS = ("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy")


def add_response_headers(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """The headers a client reads, declared where they are sent: ETag and 304 on the conditional
    reads (every read of the base viewset, api.conditional), Location on what is made (201) or
    started (202), the replay marker on every success of a write taking an ``Idempotency-Key``, and
    the caller's rate limit on every response."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation["responses"]
            idempotent = any(p.get("name") == IDEMPOTENCY_HEADER for p in operation.get("parameters", []))
            conditional = any(p.get("name") == "If-None-Match" for p in operation.get("parameters", []))
            if conditional and "200" in responses:
                responses.setdefault("304", dict(NOT_MODIFIED))
            for code, response in responses.items():
                headers = response.setdefault("headers", {})
                if code in ("200", "304") and "304" in responses:
                    headers["ETag"] = RESPONSE_HEADERS["ETag"]
                if code in ("201", "202"):
                    headers["Location"] = RESPONSE_HEADERS["Location"]
                if idempotent and code.startswith("2"):
                    headers[REPLAYED_HEADER] = RESPONSE_HEADERS[REPLAYED_HEADER]
                for name in RATE_LIMIT_HEADERS:
                    headers[name] = RESPONSE_HEADERS[name]
                if not headers:
                    del response["headers"]
    return result


# Operations on their way out, by operationId: what to use instead and the date they go (docs/api.md,
# Deprecation policy; docs/api-changelog.md says when each was marked). None yet.
DEPRECATED: dict[str, str] = {}


def mark_deprecated(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """Each operation in :data:`DEPRECATED` flagged ``deprecated`` with its note: generated clients
    warn when it is called."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            note = DEPRECATED.get(operation.get("operationId", ""))
            if note is not None:
                operation["deprecated"] = True
                operation["description"] = (
                    f"**Deprecated**: {note}\n\n{operation.get('description', '')}".strip()
                )
    return result


IDEMPOTENCY_KEY = OpenApiParameter(
    IDEMPOTENCY_HEADER,
    str,
    OpenApiParameter.HEADER,
    description="A unique key per intended write (a UUID). A retry with the same key and body "
    f"returns the first response, with `{REPLAYED_HEADER}: true`, and changes nothing.",
)


class ApiSchema(AutoSchema):
    """The base viewset's schema: every write takes an ``Idempotency-Key``
    (:class:`api.viewsets.ApiViewSet` honours it)."""

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        if self.method.lower() in WRITE_METHODS:
            parameters.append(IDEMPOTENCY_KEY)
        if self.method.lower() == "get":
            parameters.append(IF_NONE_MATCH)
        return parameters


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="The ETag of the answer you hold: 304 with no body while it is still current.",
)
NOT_MODIFIED = {"description": "Not modified: the ETag you sent is current."}

BATTLE_CREATE_EXAMPLE = OpenApiExample(
    "Local attack",
    value={
        "sector": 9,
        "battle_type": "Local Attack",
        "attacker_id": 1,
        "defender_id": 2,
        "battalion_codes": ["A1", "A2", "L1"],
    },
    request_only=True,
)
BATTLE_REPORT_EXAMPLE = OpenApiExample(
    "Two battalions",
    value={
        "battalions": [
            {
                "code": "A1",
                "destroyed": ["2"],
                "suppressed": ["3"],
                "activation_points_spent": 2,
                "barrage_rounds_spent": 1,
                "objectives": [{"name": "Ta' Qali airfield", "activation_points": 2}],
                "supply_situation": "OK",
            },
            {"code": "L1", "destroyed": ["1", "4"], "supply_situation": "isolated"},
        ],
        "winner": 1,
        "sector_owner": 1,
    },
    request_only=True,
)
OPERATION_START_EXAMPLE = OpenApiExample("Night phase", value={"kind": "night_phase"}, request_only=True)
FORCE_STATUS_EXAMPLE = OpenApiExample(
    "Own force",
    value={
        "campaign": {
            "slug": "malta-1942",
            "current_day": 2,
            "current_segment": "morning",
            "current_segment_label": "Morning",
        },
        "force": {
            "id": "5b1e7c3a-9d2f-4a8e-b6c0-1f3d5e7a9c2b",
            "side": 1,
            "name": "Fallschirmjäger-Brigade Ramcke",
            "nation": "German",
            "nation_label": "German",
            "home_nation": True,
            "leader_name": "Oberst Bernhard-Hermann Ramcke",
            "leader_rating": "B",
            "leader_rating_label": "B",
            "leader_decorations": [],
            "mobility": "foot",
            "mobility_label": "Foot",
            "sector": 21,
            "sector_name": "Drop zone north of Qrendi",
            "fup_sector": None,
            "fup_sector_name": None,
            "fup_road_clear": True,
            "arrival_status": "on_table",
            "arrival_status_label": "On table",
            "arrival_day": None,
            "arrival_zone": "",
            "deployment_zone": "",
            "availability": "",
            "arrival_attempts": 0,
        },
        "side": {
            "id": 1,
            "name": "Axis",
            "activation_points": 6,
            "barrage_rounds": 4,
            "barrage_templates": 2,
            "barrage_templates_in_use": 0,
        },
        "strength": {
            "hq": {"ok": 1, "suppressed": 0, "destroyed": 0},
            "infantry": {"ok": 5, "suppressed": 1, "destroyed": 2},
        },
        "strength_labels": {"hq": "HQ", "infantry": "Infantry"},
        "battalions": [
            {
                "code": "A1",
                "name": "I./FJR 2",
                "location": "battle",
                "location_label": "In a battle today",
                "battle": {
                    "id": "3c9a1f7e-5b2d-4e8a-9f6c-0d1e2b3a4c5d",
                    "sector": 10,
                    "sector_name": "Ta' Qali",
                    "status": "in_progress",
                    "status_label": "In progress",
                },
                "stands": {"ok": 6, "suppressed": 1, "destroyed": 2},
                "activation": "activated",
                "activation_label": "Activated",
                "supply_situation": "OK",
                "supply_situation_label": "OK",
                "fuel_state": "n/a",
                "fuel_state_label": "Not a vehicle company",
                "ammo_low_markers": 0,
            }
        ],
        "latest_night_report": {
            "id": "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
            "operation": "3c9a1e7b-2d4f-4a6b-8e0c-1f2a3b4c5d6e",
            "side": 1,
            "day": 1,
            "body": {"day": 1, "side": "Axis", "replacements_rolled": 3, "replacements_returned": 1},
            "created_at": "1942-07-10T23:00:00Z",
        },
        "cops_isolated_from_source": False,
        "night_in_progress": False,
    },
    response_only=True,
)
DAY_DAWN_EXAMPLE = OpenApiExample(
    "A battalion leaves reserve",
    value={"deployments": [{"battalion": "L1", "range_inches": 18, "friendly_intervening": False}]},
    request_only=True,
)
DAWN_PREVIEW_EXAMPLE = OpenApiExample(
    "Deployed 5 inches from the enemy",
    value={
        "day": 2,
        "rule": "Great Battles of WWII charts, 2. Deployment Chart [10.0]",
        "deployments": [
            {
                "battalion": "L1",
                "battalion_name": "1st Bn Devonshire",
                "range_inches": 5.0,
                "friendly_intervening": False,
                "cell": 'Dawn Phase, 6"',
                "destroyed": 0,
                "suppressed": 2,
                "retreat_inches": 0,
                "stands_destroyed": [],
                "stands_suppressed": ["A Coy", "B Coy"],
                "text": 'L1 deployed from reserve at 5" [Dawn Phase, 6"]: 2s',
            }
        ],
    },
    response_only=True,
)
STAND_CORRECT_EXAMPLE = OpenApiExample(
    "A stand found in order",
    value={"status": "ok", "reason": "the report named the wrong company"},
    request_only=True,
)
SIDE_FOG_EXAMPLE = OpenApiExample(
    "Two battalions identified, strengths hidden",
    value={"identified_units": ["G1", "G2"], "strengths": False, "battle_results": True},
    request_only=True,
)
ACTIVATION_SPEND_EXAMPLE = OpenApiExample(
    "One battlegroup at dawn",
    value={"column": "1 Bg", "turn": 0, "battalion_codes": ["G1", "G2"]},
    request_only=True,
)
ACTIVATION_SPEND_RESPONSE_EXAMPLE = OpenApiExample(
    "Spent",
    value={
        "id": "9e2d4c6b-1a3f-4b5e-8d7c-6f5e4d3c2b1a",
        "side": 1,
        "day": 2,
        "turn": 0,
        "column": "1 Bg",
        "cost": 3,
        "battalions": ["G1", "G2"],
        "created_at": "2026-03-10T19:30:00Z",
    },
    response_only=True,
)
_ROLL = {
    "day": 2,
    "segment": "early morning",
    "battle": None,
    "force": None,
    "battalion": None,
    "procedure": "pk.segment_turns",
    "stream": "day/2/segment/early_morning/turns",
    "inputs": {"segment": "early morning", "battle_day": 2},
    "actor": "umpire",
    "request_id": "3f9c2a",
}
ROLL_OVERRIDE_EXAMPLE = OpenApiExample(
    "Turns", value={"changes": {"turns": 4}, "reason": "the table ran out of time"}, request_only=True
)
ROLL_OVERRIDE_RESPONSE_EXAMPLE = OpenApiExample(
    "Both rolls",
    value={
        "original": {
            **_ROLL,
            "id": "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
            "result": {"turns": 6},
            "line": "Segment turns: 2D6 [3, 3] = 6 turns",
            "changes": {"turns": 6},
            "override_of": None,
            "created_at": "2026-03-10T19:00:00Z",
        },
        "override": {
            **_ROLL,
            "id": "9d2f7a64-1c3e-4b8a-8e0f-5a6b7c8d9e01",
            "result": {"override": True, "reason": "the table ran out of time", "before": {"turns": 6}},
            "line": (
                "Umpire override of roll 0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40: turns 6 → 4 "
                "(the table ran out of time)"
            ),
            "changes": {"turns": 4},
            "override_of": "0b5e3c1a-6f0d-4c49-9a57-2f8d3e1b7c40",
            "created_at": "2026-03-10T21:15:00Z",
        },
    },
    response_only=True,
)
REINFORCEMENT_EXAMPLE = OpenApiExample(
    "Due on day 3",
    value={"force_id": "8d0f5a2e-3c1b-4f6e-9a7d-2b4c6e8f0a1b", "day": 3, "zone": "Marsaxlokk Bay"},
    request_only=True,
)
NIGHT_ORDER_EXAMPLE = OpenApiExample(
    "Attach a machine-gun platoon",
    value={"kind": "attach", "battalion_code": "W4", "stand_label": "MG Pl", "target_battalion_code": "W2"},
    request_only=True,
)
STATISTICS_EXAMPLE = OpenApiExample(
    "A player of the Axis",
    value={
        "sides": [{"id": 1, "name": "Axis", "is_axis": True}, {"id": 2, "name": "Allied", "is_axis": False}],
        "days": [
            {
                "day": 1,
                "date": "1942-07-10",
                "night_done": True,
                "sides": [
                    {
                        "side": 1,
                        "activation_points": 8,
                        "barrage_rounds": 6,
                        "strength": {
                            "hq": {"ok": 4, "suppressed": 0, "destroyed": 0, "in_action": 4},
                            "infantry": {"ok": 12, "suppressed": 0, "destroyed": 0, "in_action": 10},
                        },
                        "stands_lost": 2,
                        "stands_replaced": 1,
                        "activation_points_spent": 5,
                        "sectors_held": 4,
                        "victory_points": 2,
                    },
                    {
                        "side": 2,
                        "activation_points": None,
                        "barrage_rounds": None,
                        "strength": None,
                        "stands_lost": None,
                        "stands_replaced": None,
                        "activation_points_spent": None,
                        "sectors_held": 16,
                        "victory_points": 31,
                    },
                ],
            }
        ],
        "figures": [{"key": "stands_lost", "title": "Stands lost", "after_night": False}],
        "links": {"csv": "https://club.example/api/v1/campaigns/malta-1942/statistics/?format=csv"},
    },
    response_only=True,
)
WEBHOOK_CREATE_EXAMPLE = OpenApiExample(
    "Battle reports and dawns",
    value={"url": "https://club.example/hooks/campaign", "events": ["battle.reported", "day.dawned"]},
    request_only=True,
)
WEBHOOK_CREATED_EXAMPLE = OpenApiExample(
    "Subscribed, with the secret the service made",
    value={
        "id": 3,
        "url": "https://club.example/hooks/campaign",
        "events": ["battle.reported", "day.dawned"],
        "active": True,
        "created_by": "umpire",
        "created_at": "2026-03-10T19:30:00Z",
        "secret": "kq3Yh1f2mZ0hV8xWc5b8Ckz7Qe1xJr4tNw9aLs6dPpo",
    },
    response_only=True,
)
