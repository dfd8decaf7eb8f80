"""Work whose task is lost is sent again. The broker down when work is committed: the
client is told the work will run (202), the row waits, and once the broker is back the
sweeper sends it and a worker runs it. (A killed worker's night: test_night_worker.py.)

Each test starts a Redis of its own as the Celery broker (the shared one on 6379 is never
stopped), points this process's Celery app at it, stops it around the request when the test
says so, and starts it again with a worker on it. The cache and sessions stay on the shared
Redis: only the broker is down.
"""

from __future__ import annotations

import datetime
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import pytest
import redis
from django.utils import timezone
from rest_framework.test import APIClient

from campaign import models
from campaign.choices import DayStatus, DeliveryStatus, EventVerb, OperationStatus
from campaign.services.battles import battle_create
from campaign.services.night import night_phase_start
from campaign.services.sweep import work_sweep
from campaign.services.webhook_subscriptions import webhook_subscribe
from campaign.services.webhooks import webhook_deliver, webhook_payload
from config.celery_app import app
from tests.campaign.night_setup import ACTOR, campaign_after_day_one, state_of
from tests.campaign.test_night_worker import reference_state, wait_for
from tests.conftest import WorkerProcess, worker_database_url
from tests.tiers import needs
from tests.webhook_receiver import Receiver, running

pytestmark = pytest.mark.django_db(transaction=True)


class PrivateRedis:
    """A ``redis-server`` of this test's own on a free port, without persistence: each start
    is an empty broker, as after a restart that lost the queue."""

    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 10
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


def _broker_use(url: str) -> None:
    """Point this process's Celery app at ``url``: its connection and producer pools are
    keyed by the broker URL, so dropping them makes the next send connect there."""
    app.conf.update(broker_url=url)
    app._pool = None  # type: ignore[attr-defined]  # Celery has no public way to drop them
    app.amqp._producer_pool = None  # type: ignore[attr-defined]


@contextmanager
def _private_broker() -> Iterator[PrivateRedis]:
    broker = PrivateRedis()
    shared = app.conf.broker_url
    broker.start()
    _broker_use(broker.url)
    try:
        yield broker
    finally:
        _broker_use(shared)
        broker.stop()


@pytest.fixture
@needs("process")
def broker() -> Iterator[PrivateRedis]:
    with _private_broker() as broker:
        yield broker


@pytest.fixture
@needs("worker")
def workers(broker: PrivateRedis) -> Iterator[list[WorkerProcess]]:
    """Workers a test starts on the private broker (``start_worker``), all stopped at its end."""
    started: list[WorkerProcess] = []
    yield started
    for worker in started:
        worker.stop()


def start_worker(workers: list[WorkerProcess], broker: PrivateRedis) -> None:
    worker = WorkerProcess(worker_database_url(), {"REDIS_URL": broker.url})
    workers.append(worker)
    worker.wait_ready()


def umpire_client(campaign: models.Campaign) -> APIClient:
    # The response the club member would get, not the exception behind a 500.
    client = APIClient(raise_request_exception=False)
    client.force_login(models.Membership.objects.get(campaign=campaign, role="umpire").user)
    return client


def sweep_until_sent(kind: str, pk: int) -> None:
    """Run the sweeper (as beat would) until it sends ``pk`` again: once its lease is over."""
    wait_for(lambda: pk in work_sweep(timezone.now())[kind], timeout=30, what=f"the sweeper to send {pk}")


def test_a_night_phase_started_with_the_broker_down_answers_202_and_runs_once_it_is_back(
    broker, workers, settings
):
    settings.WORK_LEASE_SECONDS = 1
    expected = reference_state()
    campaign = campaign_after_day_one(seed="drill")
    client = umpire_client(campaign)
    broker.stop()

    started = client.post(
        f"/api/v1/campaigns/{campaign.slug}/operations/", {"kind": "night_phase"}, format="json"
    )

    assert started.status_code == 202, started.content
    operation = models.Operation.objects.get(public_id=started.json()["id"])
    assert (operation.status, operation.attempts) == (OperationStatus.PENDING, 0)
    assert campaign.days.get(number=1).status == DayStatus.NIGHT

    broker.start()  # empty: the task was never sent
    start_worker(workers, broker)
    sweep_until_sent("operations", operation.pk)
    wait_for(lambda: models.Operation.objects.get(pk=operation.pk).status == OperationStatus.DONE, timeout=60)
    assert models.Operation.objects.get(pk=operation.pk).attempts == 1
    assert state_of(campaign) == expected


def test_a_battle_reported_with_the_broker_down_is_announced_once_it_is_back(broker, workers, settings):
    settings.WORK_LEASE_SECONDS = 1
    campaign = campaign_after_day_one(seed="webhook")
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Mdina",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )
    client = umpire_client(campaign)
    with running(Receiver()) as receiver:
        webhook_subscribe(
            campaign.pk, ACTOR, url=receiver.url, events=[EventVerb.BATTLE_REPORTED], secret="s" * 16
        )
        broker.stop()

        reported = client.post(
            f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/report/",
            {"battalions": [{"code": "A1", "destroyed": ["4"]}]},
            format="json",
        )

        assert reported.status_code == 200, reported.content
        delivery = models.WebhookDelivery.objects.get(event__object_type="Battle", event__object_id=battle.pk)
        assert (delivery.status, delivery.attempts) == (DeliveryStatus.PENDING, 0)

        broker.start()
        start_worker(workers, broker)
        sweep_until_sent("webhook_deliveries", delivery.pk)
        wait_for(
            lambda: models.WebhookDelivery.objects.get(pk=delivery.pk).status == DeliveryStatus.DELIVERED,
            timeout=60,
        )
        assert [r.delivery for r in receiver.requests] == [str(delivery.public_id)]


def test_the_sweeper_sends_a_stale_operation_once_a_lease_and_never_one_a_run_holds(broker, settings):
    settings.WORK_LEASE_SECONDS = 30
    campaign = campaign_after_day_one(seed="sweep")
    operation = night_phase_start(campaign.pk, ACTOR)  # sent on commit: nobody runs it
    queue = redis.Redis.from_url(broker.url)
    now = timezone.now()

    def swept(seconds_later: float) -> list[int]:
        return work_sweep(now + datetime.timedelta(seconds=seconds_later))["operations"]

    assert swept(0) == []  # pending less than a lease: its task may be on its way
    assert swept(31) == [operation.pk]
    assert swept(32) == []  # the send renewed the lease
    with psycopg.connect(worker_database_url()) as run:  # a run's step holds the row lock
        run.execute("SELECT 1 FROM campaign_operation WHERE id = %s FOR UPDATE", [operation.pk])
        assert swept(100) == []
    assert swept(100) == [operation.pk]
    # The start's send and the sweeper's two.
    assert queue.llen(settings.CELERY_QUEUE_NAMES["operations"]) == 3


def test_a_delivery_sent_again_before_its_next_attempt_is_due_is_left_to_the_retry(broker, settings):
    settings.WORK_LEASE_SECONDS, settings.WORK_BACKOFF_SECONDS = 30, 10
    campaign = campaign_after_day_one(seed="retry")
    with running(Receiver()) as receiver:
        subscription = webhook_subscribe(
            campaign.pk, ACTOR, url=receiver.url, events=[EventVerb.DAY_DAWNED], secret="s" * 16
        )
        event = models.Event.objects.create(
            campaign=campaign, verb=EventVerb.DAY_DAWNED, day_number=1, object_type="Campaign", message="-"
        )
        attempted = timezone.now()
        delivery = models.WebhookDelivery.objects.create(  # by hand: no task is sent
            subscription=subscription,
            event=event,
            payload=webhook_payload(event, campaign.slug),
            attempts=1,
            last_attempt_at=attempted,
        )

        assert webhook_deliver(delivery.pk) is None  # the retry is due in 20 s
        assert receiver.requests == []

    def swept(seconds_later: float) -> list[int]:
        return work_sweep(attempted + datetime.timedelta(seconds=seconds_later))["webhook_deliveries"]

    assert swept(49) == []  # due at 20 s, overdue by a lease at 50 s
    assert swept(51) == [delivery.pk]
