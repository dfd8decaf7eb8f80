"""Stateful schemathesis: the umpire's writes in sequences, each fed by an earlier response.

OpenAPI links (``LINKS``, the one home of which response feeds which request) say
how: a battle created is set up, reported and closed; a day dawned advances its
segments; a roll listed is overridden, and its override overridden again; a
webhook made is read, patched, pinged and deleted; a key made is revoked, twice.
schemathesis's state machine draws scenarios from them, with bodies generated
as the schema allows (some of them invalid on purpose).

The app is called in-process over WSGI, inside the test's transaction, as the
umpire of a populated campaign. Its slug is written into the paths, so that
listing the campaign's rows can open a scenario (schemathesis starts scenarios
only from operations that need no path parameter).
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any, cast

import pytest
import schemathesis
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, Phase
from hypothesis import settings as hypothesis_settings
from schemathesis.config import SchemathesisConfig
from schemathesis.generation.stateful.state_machine import normalize_name
from schemathesis.specs.openapi.checks import ensure_resource_availability, use_after_free
from schemathesis.specs.openapi.stateful import OpenAPIStateMachine
from schemathesis.specs.openapi.stateful.links import SCHEMATHESIS_LINK_EXTENSION

from campaign.choices import EventVerb
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.test_schemathesis import CHECKS, credentials, wsgi_app
from tests.api.world import ACTOR, Role, World, build_world

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]  # schemathesis draws its cases (tests/tiers.py)

CAMPAIGN_PATH = "/api/v1/campaigns/{campaign_slug}/"
WRITES = {"post", "put", "patch", "delete"}
# Scenarios and their length: about 2,300 calls (it varies: a link picks among listed rows
# at random), three minutes on a busy two-core machine.
SCENARIOS = 230
STEPS_PER_SCENARIO = 12
LEAST_CASES = 2_000

# As the stateless test's, and what the sequences show: a resource made can be read at
# once, and one deleted cannot.
STATEFUL_CHECKS = [*CHECKS, ensure_resource_availability, use_after_free]
# Writes naming a row made or listed earlier in the scenario.
ACCEPTED_THROUGH_LINKS = {
    "POST api-keys/{prefix}/revoke/",
    "DELETE webhooks/{id}/",
    "POST webhooks/{id}/ping/",
    "POST days/{number}/advance-segment/",
}

BODY_ID = {"id": "$response.body#/id"}
LISTED_IDS = {"id": "$response.body#/results/*/id"}
# A report naming a battalion of the battle, the rest of it generated.
REPORT_BODY = {"battalions": [{"code": "$response.body#/battalions/0"}]}


def each(targets: tuple[str, ...], parameters: dict[str, str]) -> list[tuple[str, dict[str, str], Any]]:
    return [(target, parameters, None) for target in targets]


BATTLE = ("GET battles/{id}/", "POST battles/{id}/setup/", "POST battles/{id}/close/")
WEBHOOK = ("GET webhooks/{id}/", "PATCH webhooks/{id}/", "DELETE webhooks/{id}/", "POST webhooks/{id}/ping/")
API_KEY = ("GET api-keys/{prefix}/", "POST api-keys/{prefix}/revoke/")
DAY = ("GET days/{number}/", "POST days/{number}/advance-segment/")

# Which response feeds which request: (source, its status) → [(target, parameters, request
# body)], operations named "METHOD path under the campaign". A path parameter the link
# leaves out is the source request's own. In the body, values are merged into generated ones.
LINKS: dict[tuple[str, int], list[tuple[str, dict[str, str], Any]]] = {
    ("POST start/", 200): [("POST days/dawn/", {}, None)],
    ("GET days/", 200): each(DAY, {"number": "$response.body#/results/*/number"}),
    ("POST days/dawn/", 201): each(DAY, {"number": "$response.body#/number"}),
    ("POST days/{number}/advance-segment/", 200): each(DAY, {"number": "$response.body#/number"}),
    # A battle between the two sides, of battalions of each (sorted by code: Axis first).
    ("GET battalions/", 200): [
        (
            "POST battles/",
            {},
            {
                "attacker_id": "$response.body#/results/1/side",
                "defender_id": "$response.body#/results/4/side",
                "battalion_codes": ["$response.body#/results/1/code", "$response.body#/results/4/code"],
            },
        )
    ],
    ("GET battles/", 200): [
        *each(BATTLE, LISTED_IDS),
        ("POST battles/{id}/report/", LISTED_IDS, None),
    ],
    **{
        (source, status): [*each(BATTLE, BODY_ID), ("POST battles/{id}/report/", BODY_ID, REPORT_BODY)]
        for source, status in (("POST battles/", 201), ("POST battles/{id}/setup/", 200))
    },
    ("POST battles/{id}/report/", 200): [
        *each(BATTLE, BODY_ID),
        # The day's last battle reported, its night phase can start.
        ("POST operations/", {}, {"kind": "night_phase"}),
    ],
    ("POST battles/{id}/close/", 200): [*each(BATTLE, BODY_ID), ("POST battles/{id}/report/", BODY_ID, None)],
    ("POST operations/", 202): [("GET operations/{id}/", BODY_ID, None)],
    ("GET rolls/", 200): each(("GET rolls/{id}/", "POST rolls/{id}/override/"), LISTED_IDS),
    ("POST rolls/{id}/override/", 201): [
        *each(("GET rolls/{id}/", "POST rolls/{id}/override/"), {"id": "$response.body#/override/id"}),
        ("POST rolls/{id}/override/", {"id": "$response.body#/original/id"}, None),
    ],
    ("GET sides/", 200): [
        ("POST sides/{side_pk}/activation-spends/", {"side_pk": "$response.body#/results/*/id"}, None)
    ],
    ("POST sides/{side_pk}/activation-spends/", 201): [("GET sides/{side_pk}/activation-spends/", {}, None)],
    ("GET forces/", 200): [("POST reinforcements/", {}, {"force_id": "$response.body#/results/*/id"})],
    ("POST reinforcements/", 201): [("GET reinforcements/", {}, None)],
    ("GET webhooks/", 200): each(WEBHOOK, LISTED_IDS),
    ("POST webhooks/", 201): [
        *each(WEBHOOK, BODY_ID),
        ("GET webhooks/{webhook_pk}/deliveries/", {"webhook_pk": "$response.body#/id"}, None),
    ],
    ("PATCH webhooks/{id}/", 200): each(WEBHOOK, BODY_ID),
    ("POST webhooks/{id}/ping/", 202): [
        ("GET webhooks/{webhook_pk}/deliveries/{id}/", {"webhook_pk": "$request.path.id", **BODY_ID}, None)
    ],
    ("GET api-keys/", 200): each(API_KEY, {"prefix": "$response.body#/results/*/prefix"}),
    ("POST api-keys/", 201): each(API_KEY, {"prefix": "$response.body#/prefix"}),
    ("POST api-keys/{prefix}/revoke/", 200): each(API_KEY, {"prefix": "$response.body#/prefix"}),
}


def linked_schema(raw: dict[str, Any], slug: str) -> dict[str, Any]:
    """The served schema's campaign operations at the campaign's slug, with ``LINKS`` added.

    Reads lose their query parameters: here they only feed the writes, and their filters
    are the stateless test's (generating them would take a third of the time)."""
    schema = copy.deepcopy(raw)
    paths: dict[str, Any] = {}
    for path, operations in schema["paths"].items():
        if not path.startswith(CAMPAIGN_PATH):
            continue  # the session's writes would log the umpire out; the rest are reads
        for method, definition in operations.items():
            definition["parameters"] = [
                parameter
                for parameter in definition.get("parameters", [])
                if parameter["name"] != "campaign_slug" and (method in WRITES or parameter["in"] != "query")
            ]
        paths[path.replace("{campaign_slug}", slug)] = operations
    schema["paths"] = paths

    def operation(label: str) -> dict[str, Any]:
        method, _, path = label.partition(" ")
        found: dict[str, Any] = paths[f"/api/v1/campaigns/{slug}/{path}"][method.lower()]
        return found

    for (source, status), targets in LINKS.items():
        links = operation(source)["responses"][str(status)].setdefault("links", {})
        for target, parameters, body in targets:
            own = {name: f"$request.path.{name}" for name in path_names(target) & path_names(source)}
            link: dict[str, Any] = {
                "operationId": operation(target)["operationId"],
                "parameters": {**own, **parameters},
            }
            if body is not None:
                link["requestBody"] = body
            if "/*/" in str(link):
                # schemathesis reads ``*`` as any item of a list only in links it marks as its own.
                link[SCHEMATHESIS_LINK_EXTENSION] = {"is_inferred": True}
            links[f"{target} {len(links)}"] = link
    return schema


def path_names(label: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", label))


def test_the_umpires_writes_in_sequence_answer_as_documented_and_never_with_a_server_error() -> None:
    world = build_world()
    # A webhook to list: made in a scenario, it would need a URL the generator rarely writes.
    webhook_subscribe(world.campaign.pk, ACTOR, url="http://127.0.0.1:9/hook", events=[EventVerb.DAY_DAWNED])
    raw = world.client(Role.UMPIRE).get(f"{reverse('api:schema')}?format=json").json()
    answered: Counter[tuple[str, int]] = Counter()

    with wsgi_app() as app:
        # Only the links above: schemathesis's own guesses would chain reads to reads.
        config = SchemathesisConfig.from_dict({"phases": {"stateful": {"inference": {"algorithms": []}}}})
        schema = schemathesis.openapi.from_dict(linked_schema(raw, world.campaign.slug), config=config)
        schema.app = app
        machine = cast(type[OpenAPIStateMachine], schema.as_state_machine())
        umpire_workflow(machine, world, answered).run(
            settings=hypothesis_settings(
                max_examples=SCENARIOS,
                stateful_step_count=STEPS_PER_SCENARIO,
                derandomize=True,
                database=None,
                deadline=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            )
        )

    by_operation = Counter(label for label, _ in answered.elements())
    assert sum(by_operation.values()) >= LEAST_CASES, by_operation
    linked_writes = {label for label in linked_operations() if label.split()[0].lower() in WRITES}
    assert not linked_writes - set(by_operation), f"never written: {linked_writes - set(by_operation)}"
    # The chains reached past a 404: writes naming a row made or found earlier were accepted.
    accepted = {label for (label, status), count in answered.items() if status < 300}
    assert not ACCEPTED_THROUGH_LINKS - accepted, {
        label: {status: count for (name, status), count in answered.items() if name == label}
        for label in ACCEPTED_THROUGH_LINKS - accepted
    }


def linked_operations() -> set[str]:
    return {source for source, _ in LINKS} | {
        target for targets in LINKS.values() for target, _, _ in targets
    }


def umpire_workflow(
    base: type[OpenAPIStateMachine], world: World, answered: Counter[tuple[str, int]]
) -> type[OpenAPIStateMachine]:
    """The state machine calling as the umpire, checking each response, counting them by
    operation and status."""
    prefix = f"/api/v1/campaigns/{world.campaign.slug}/"
    sent = credentials(world, Role.UMPIRE)

    # Scenarios start only where no row is named: a made-up id stops at a 404 (the
    # stateless test tries those), and would spend most of the steps.
    naming_a_row = {label for label in base._root_labels if "{" in label}
    dropped = {normalize_name(f"RANDOM -> {label}") for label in naming_a_row}

    class UmpireWorkflow(base):  # type: ignore[misc,valid-type]  # a class made at run time
        _root_labels = base._root_labels - naming_a_row
        root_rules = base.root_rules - dropped

        def setup(self) -> None:
            # Every scenario starts from the same campaign: Hypothesis replays a scenario's
            # choices and expects the same answers.
            self.savepoint = transaction.savepoint()

        def teardown(self) -> None:
            transaction.savepoint_rollback(self.savepoint)

        def get_call_kwargs(self, case: Any) -> dict[str, Any]:
            return sent

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            answered[
                f"{case.method.upper()} {case.operation.path.removeprefix(prefix)}", response.status_code
            ] += 1
            case.validate_response(
                response, checks=STATEFUL_CHECKS, transport_kwargs=kwargs or None, recorder=self.recorder
            )

    for name in dropped:
        setattr(UmpireWorkflow, name, None)
    return UmpireWorkflow
