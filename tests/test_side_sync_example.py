"""The example client of docs/examples/side_sync.py, on a client generated from the served
OpenAPI document by ``openapi-python-client``, against a live server: the side's copy it keeps
by the changes cursor alone equals a fresh full read after a battle, a night, a fog of war
change and a deletion."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from campaign import models
from campaign.services.battle_reports import battle_report
from campaign.services.corrections import objects_delete
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.sides import side_fog_set
from tests.api.test_changes import full_read
from tests.api.world import ACTOR, Role, build_world
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
