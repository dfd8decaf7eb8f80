"""A night on a real worker, paused between its commits: every poll shows the state before the
night (with night_in_progress) or the state after it, never a mixture."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import redis
from django.conf import settings
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import ActivationState, OperationStatus
from campaign.services.battle_reports import battle_report
from campaign.services.night import night_phase_start, night_phase_step
from campaign.services.night_orders import night_order_queue
from tests.api.world import ACTOR, Role, World, build_world
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs

pytestmark = pytest.mark.django_db(transaction=True)

# Seconds the worker waits after each commit but the last: a poll (three reads) fits in it even
# on a loaded machine (1.5 s did not, with the suite and other work on two cores).
STEP_PAUSE = "3"
# The campaign summary's version (for writes) and day status (at night) are as they are.
# What may change the moment a night starts: its status, and what the umpire may do now (no second
# night, no next segment); the state the night writes may not show until it ends.
AS_IS = ("version", "day_status", "day_status_label", "actions", "actions_labels")


@pytest.fixture
@needs("worker")
def paused_worker(redis_client: redis.Redis) -> Iterator[WorkerProcess]:
    """A worker of its own that pauses between a night's commits; the queue starts empty."""
    redis_client.delete(*settings.CELERY_QUEUE_NAMES.values(), "unacked", "unacked_index")
    worker = WorkerProcess(worker_database_url(), {"OPERATION_STEP_PAUSE": STEP_PAUSE})
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def night_ready(world: World) -> None:
    """Day 2's battle reported with stands suppressed and destroyed (the night's first commit
    flips and replaces them); barrage rounds to come and battalions activated (its last commit
    adds the rounds and sets the battalions inactive)."""
    battle_report(
        world.planned.campaign_id,
        ACTOR,
        world.planned.pk,
        {
            "battalions": [
                {"code": "A1", "destroyed": ["1"], "suppressed": ["3"]},
                {"code": "L1", "suppressed": ["3"]},  # "2" fell on day 1: its return is the dice's
            ]
        },
    )
    models.Side.objects.filter(campaign=world.campaign).update(barrage_rounds_per_day=5)
    models.Battalion.objects.filter(campaign=world.campaign).update(activation=ActivationState.ACTIVATED)


def classified(body: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str:
    shown = without_flag(body, *AS_IS)
    if shown == before:
        return "before, night in progress" if body.get("night_in_progress") else "before"
    if shown == after:
        return "after" if body.get("night_in_progress") is False else "after, night in progress"
    return "mixture"


def own_battalions(order_of_battle: dict[str, Any], side_id: int) -> list[dict[str, Any]]:
    return [
        battalion
        for force in order_of_battle["forces"]
        if force["side"] == side_id
        for battlegroup in force["battlegroups"]
        for battalion in battlegroup["battalions"]
    ]


def without_flag(body: dict[str, Any], *also: str) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key not in ("night_in_progress", *also)}


def test_polls_during_a_paused_night_never_see_it_half_applied(paused_worker: WorkerProcess) -> None:
    world = build_world()
    night_ready(world)
    player = world.client(Role.AXIS_PLAYER)
    urls = {
        "force status": world.url(
            "force-force-status", pk=models.Force.objects.get(side=world.axis).public_id
        ),
        "order of battle": world.url("campaign-oob"),
        "campaign summary": world.url("campaign-detail"),
    }

    def poll(client: APIClient) -> dict[str, dict[str, Any]]:
        answers = {}
        for name, url in urls.items():
            response = client.get(url)
            assert response.status_code == 200, response.content
            answers[name] = response.json()
        return answers

    before = poll(player)
    assert all(body["night_in_progress"] is False for body in before.values())
    operation = night_phase_start(world.campaign.pk, ACTOR)  # the worker starts on the commit

    polls: list[tuple[bool, dict[str, dict[str, Any]]]] = []  # (between two commits, answers)
    while True:
        state = models.Operation.objects.values("status", "completed_steps").get(pk=operation.pk)
        assert state["status"] in (OperationStatus.PENDING, OperationStatus.RUNNING, OperationStatus.DONE)
        if state["status"] == OperationStatus.DONE:
            break
        answers = poll(player)
        running = models.Operation.objects.values_list("status", flat=True).get(pk=operation.pk)
        polls.append((bool(state["completed_steps"]) and running == OperationStatus.RUNNING, answers))
    after = poll(player)

    assert any(between for between, _ in polls), "no poll came between the night's commits"
    for name in urls:
        # Both commits change what this read shows: a poll in between would see a mixture.
        assert before[name]["night_in_progress"] is after[name]["night_in_progress"] is False
        assert without_flag(before[name]) != without_flag(after[name])
    assert before["force status"]["strength"] != after["force status"]["strength"]  # the first commit
    assert before["force status"]["side"] != after["force status"]["side"]  # the last commit
    own = {
        moment: own_battalions(answers["order of battle"], world.axis.pk)
        for moment, answers in (("before", before), ("after", after))
    }
    assert [b["activation"] for b in own["before"]] != [
        b["activation"] for b in own["after"]
    ]  # the last commit
    assert [s["status"] for b in own["before"] for s in b["stands"]] != [
        s["status"] for b in own["after"] for s in b["stands"]
    ]  # the first commit
    seen = [
        (name, classified(body, without_flag(before[name], *AS_IS), without_flag(after[name], *AS_IS)))
        for _, answers in polls
        for name, body in answers.items()
    ]
    assert {kind for _, kind in seen} <= {"before, night in progress", "after"}, sorted(set(seen))


@pytest.mark.django_db(transaction=False)
def test_every_step_applied_but_the_finish_still_reads_as_before_the_night() -> None:
    """The snapshot holds every field the steps write: with all of them committed (orders moving
    and withdrawing, flips, replacements, barrage, carry-over, inactive) and the finish still
    to come, each reader sees exactly what it saw before the night."""
    world = build_world()
    night_ready(world)
    night_order_queue(
        world.campaign.pk,
        ACTOR,
        kind="attach",
        battalion_code="A2",
        stand_label="1",
        target_battalion_code="A3",
        attachment_kind="hq",
    )
    night_order_queue(world.campaign.pk, ACTOR, kind="withdraw", battalion_code="A2")
    axis_force = models.Force.objects.get(side=world.axis).public_id
    reads = [
        (role, world.url(name, **kwargs))
        for role in (Role.UMPIRE, Role.AXIS_PLAYER, Role.ALLIED_KEY)
        for name, kwargs in (
            ("force-force-status", {"pk": axis_force}),
            ("campaign-oob", {}),
            ("campaign-detail", {}),
        )
    ]

    def answers() -> list[dict[str, Any]]:
        bodies = []
        for role, url in reads:
            response = world.client(role).get(url)
            assert response.status_code == 200, (role, url, response.content)
            bodies.append(response.json())
        return bodies

    before = answers()
    operation = night_phase_start(world.campaign.pk, ACTOR)  # no worker: nothing commits here
    operation = models.Operation.objects.select_related("campaign", "day").get(pk=operation.pk)
    assert {"orders", "flip_suppressed", "replacements", "inactive"} <= set(operation.steps)
    for step in operation.steps:
        night_phase_step(operation, step)
    moved = models.Stand.objects.get(battalion__code="A3", label="1", attached=True)
    assert models.Battalion.objects.get(pk=moved.battalion_id).code == "A3"  # the orders applied

    during = answers()

    assert [without_flag(body, *AS_IS) for body in during] == [without_flag(body, *AS_IS) for body in before]
    summary_sides = {side["id"]: side for side in before[2]["sides"]}  # the umpire's summary
    assert (
        models.Side.objects.get(pk=world.axis.pk).barrage_rounds
        != summary_sides[world.axis.pk]["barrage_rounds"]
    )
    assert all(body["night_in_progress"] is True for body in during)
