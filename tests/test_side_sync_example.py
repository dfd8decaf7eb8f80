"""The example client of docs/examples/side_sync.py, on a client generated from the served
OpenAPI document by ``openapi-python-client``, against a live server: the side's copy it keeps
by the changes cursor alone equals a fresh full read after a battle, a night, a fog of war
change and a deletion; its webhook receiver, subscribed with the side's key, checks each
signature, hears of its side's news and nothing of the other's, and reads the changes each
brings."""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import io
import json
import re
import subprocess
import sys
import time
import typing
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from campaign import models
from campaign.choices import DeliveryStatus, WebhookAudience
from campaign.services.api_keys import api_key_create
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.corrections import objects_delete
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.orders import side_order_draft, side_order_submit
from campaign.services.sides import side_fog_set
from tests.api.test_changes import full_read
from tests.api.world import ACTOR, Role, build_world
from tests.campaign.test_night_worker import wait_for
from tests.tiers import needs

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "side_sync.py"


@pytest.fixture(scope="session")
@needs("process")
def generated_client(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The typed client, generated as the example's docstring says (into a folder of its own)."""
    folder = tmp_path_factory.mktemp("generated")
    command = subprocess.run(
        [
            str(Path(sys.executable).parent / "openapi-python-client"),
            "generate",
            "--path",
            str(ROOT / "frontend" / "openapi.json"),
            "--meta",
            "none",
            "--output-path",
            str(folder / "campaign_client"),
        ],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert command.returncode == 0, command.stdout + command.stderr
    return folder


@pytest.fixture
def example(generated_client: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    monkeypatch.syspath_prepend(str(generated_client))
    spec = importlib.util.spec_from_file_location("side_sync_example", EXAMPLE)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    yield module
    for name in [name for name in sys.modules if name.split(".")[0] == "campaign_client"]:
        del sys.modules[name]


@pytest.mark.django_db(transaction=True)
def test_the_example_keeps_a_sides_forces_equal_to_a_full_read(example, live_server):
    world = build_world()
    key = world.keys[Role.ALLIED_KEY]
    client = example.AuthenticatedClient(base_url=live_server.url, token=key, prefix="Api-Key")
    copy = example.SideForces(client, world.campaign.slug)

    def in_sync(moment: str) -> Any:
        answer = copy.sync()
        assert copy.as_json() == full_read(world.client(Role.ALLIED_KEY), world.url("force-list")), moment
        return answer

    first = in_sync("the start")
    assert first.complete
    assert in_sync("nothing changed").changed == []

    battle_report(
        world.campaign.pk,
        ACTOR,
        world.planned.pk,
        {"battalions": [{"code": "A1", "destroyed": ["1"]}, {"code": "L1", "destroyed": ["3"]}]},
    )
    in_sync("a battle reported")
    operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
    in_sync("a night")
    # The Axis stops letting the Allies identify A1: its force is no longer seen.
    axis_force = models.Battalion.objects.get(campaign=world.campaign, code="A1").battlegroup.force
    assert axis_force.public_id in copy.forces
    side_fog_set(
        world.campaign.pk, ACTOR, world.axis.pk, identified_units=[], strengths=False, battle_results=False
    )
    hidden = in_sync("the fog of war changed")
    assert hidden.complete  # the fog's settings changed: every row again, and what went
    assert axis_force.public_id in hidden.removed
    assert axis_force.public_id not in copy.forces
    own = models.Force.objects.filter(side=world.allied).order_by("pk").first()
    objects_delete([own], ACTOR)
    gone = in_sync("a deletion")
    assert own.public_id in gone.removed

    # The command line, once: one JSON line of the copy.
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert (
            example.main(
                ["--url", live_server.url, "--campaign", world.campaign.slug, "--key", key, "--rounds", "1"]
            )
            == 0
        )
    line = json.loads(printed.getvalue())
    assert line["forces"] == full_read(world.client(Role.ALLIED_KEY), world.url("force-list"))


def test_the_generated_client_types_filters_and_headers(example):
    """The schema types what a client sends: the side filter an integer, the ETag and the
    idempotency key as headers of their own."""
    from campaign_client.api.orders_of_battle import campaigns_forces_changes_retrieve, campaigns_forces_list

    changes = typing.get_type_hints(campaigns_forces_changes_retrieve.sync)
    listed = inspect.signature(campaigns_forces_list.sync).parameters
    made = inspect.signature(example.campaigns_webhooks_create.sync).parameters

    assert changes["side"] == int | example.UNSET.__class__
    assert changes["if_none_match"] == str | example.UNSET.__class__
    assert {"side", "page", "page_size", "if_none_match"} <= set(listed)
    assert "idempotency_key" in made


def test_the_examples_signature_check_is_the_documented_one(example):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(), re.DOTALL)
    (documented,) = [block for block in blocks if "def verify_signature(" in block]

    assert inspect.getsource(example.verify_signature) in documented


def _post(url: str, body: bytes, headers: dict[str, str]) -> int:
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return error.code


@pytest.mark.django_db(transaction=True)
def test_the_examples_receiver_hears_its_sides_news_only_and_reads_the_changes(
    example, live_server, celery_worker
):
    world = build_world()
    umpire = Actor(world.users[Role.UMPIRE])  # a key's writes are its maker's
    _, key = api_key_create(
        world.campaign.pk, umpire, name="Allied bot", side_id=world.allied.pk, can_write=True
    )
    client = example.AuthenticatedClient(base_url=live_server.url, token=key, prefix="Api-Key")
    copy = example.SideForces(client, world.campaign.slug)
    hooks = example.SideWebhooks(copy)
    hooks.secret = example.subscribe(client, world.campaign.slug, hooks.url)
    subscription = models.WebhookSubscription.objects.get(campaign=world.campaign)
    assert (subscription.audience, subscription.side_id) == (WebhookAudience.SIDE, world.allied.pk)
    hooks.start()
    try:
        forged = json.dumps({"event": "night.done"}).encode()
        stamp = str(int(time.time()))
        refused = _post(
            hooks.url,
            forged,
            {"X-Campaign-Timestamp": stamp, "X-Campaign-Signature": "sha256=00", "X-Campaign-Delivery": "x"},
        )
        orders = {}
        for side, code in ((world.axis, "A2"), (world.allied, "L2")):
            order = side_order_draft(
                world.campaign.pk, ACTOR, side_id=side.pk, kind="withdraw", payload={"battalion_code": code}
            )
            orders[side.pk] = side_order_submit(world.campaign.pk, ACTOR, order.pk, side_id=side.pk)
        battle_report(
            world.campaign.pk,
            ACTOR,
            world.planned.pk,
            {"battalions": [{"code": "A1", "destroyed": ["1"]}, {"code": "L1", "destroyed": ["3"]}]},
        )
        operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
        sent = models.WebhookDelivery.objects.filter(subscription=subscription)
        wait_for(lambda: not sent.filter(status=DeliveryStatus.PENDING).exists(), what="every post sent")
    finally:
        hooks.stop()

    assert refused == 401
    assert (hooks.refused, len(hooks.received)) == (1, sent.count())
    assert {p["event"] for p in hooks.received} == {"orders.submitted", "battle.reported", "night.done"}
    received = json.dumps(hooks.received)
    assert str(orders[world.allied.pk].public_id) in received
    assert str(orders[world.axis.pk].public_id) not in received
    tonight = models.NightReport.objects.filter(day=world.planned.day)
    assert str(tonight.get(side=world.allied).public_id) in received
    assert str(tonight.get(side=world.axis).public_id) not in received
    # What the last webhook brought, the copy read: it equals a full read.
    assert copy.as_json() == full_read(world.client(Role.ALLIED_KEY), world.url("force-list"))
