"""The webhook endpoints: umpires only, secrets write-only, the delivery log, pings."""

from __future__ import annotations

import datetime
from collections.abc import Iterator

import pytest
from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.choices import DeliveryStatus, EventVerb
from campaign.services.audit import event_record
from campaign.services.background import retry_delay
from campaign.services.webhook_subscriptions import webhook_subscribe
from campaign.services.webhooks import webhook_deliver
from tests.api.world import (
    ACTOR,
    WRITE_REFUSED,
    Role,
    World,
    assert_statuses,
    build_world,
    query_count,
    strings,
)
from tests.campaign.test_night_worker import wait_for
from tests.webhook_receiver import Receiver, documented_verify_signature, running

pytestmark = pytest.mark.django_db

SECRET = "the-umpires-own-secret"
HOOK = "https://club.example/hooks/campaign"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running(Receiver()) as receiver:
        yield receiver


def subscription(world: World, url: str = HOOK) -> models.WebhookSubscription:
    return webhook_subscribe(world.campaign.pk, ACTOR, url=url, events=[EventVerb.DAY_DAWNED], secret=SECRET)


def dawn_event(world: World) -> models.Event:
    with transaction.atomic():
        return event_record(world.campaign, EventVerb.DAY_DAWNED, world.campaign, "Day 2 dawns", ACTOR)


def test_only_umpires_see_and_manage_webhooks(world):
    hook = subscription(world)
    umpire_only = {**WRITE_REFUSED, Role.UMPIRE: 200}
    for url in (
        world.url("webhook-list"),
        world.url("webhook-detail", pk=hook.public_id),
        world.url("webhook-delivery-list", webhook_pk=hook.public_id),
    ):
        assert_statuses(world, "get", url, umpire_only)

    body = {"url": HOOK, "events": ["night.done"]}
    assert_statuses(world, "post", world.url("webhook-list"), {**WRITE_REFUSED, Role.UMPIRE: 201}, body)
    detail = world.url("webhook-detail", pk=hook.public_id)
    assert_statuses(world, "patch", detail, {**WRITE_REFUSED, Role.UMPIRE: 200}, {"active": False})
    assert_statuses(world, "delete", detail, {**WRITE_REFUSED, Role.UMPIRE: 204})

    assert list(models.WebhookSubscription.objects.values_list("events", "active")) == [
        (["night.done"], True)
    ]


def test_another_campaigns_webhooks_are_not_found(world):
    other = models.Campaign.objects.exclude(pk=world.campaign.pk).get()  # the other umpire's
    theirs = webhook_subscribe(other.pk, ACTOR, url=HOOK, events=[EventVerb.DAY_DAWNED])
    umpire = world.client(Role.UMPIRE)

    assert umpire.get(world.url("webhook-detail", pk=theirs.public_id)).status_code == 404
    assert umpire.get(world.url("webhook-delivery-list", webhook_pk=theirs.public_id)).status_code == 404
    assert umpire.get(world.url("webhook-list")).json()["results"] == []


def test_the_secret_is_shown_once_and_only_when_the_service_made_it(world):
    umpire = world.client(Role.UMPIRE)

    made = umpire.post(world.url("webhook-list"), {"url": HOOK, "events": ["day.dawned"]}, format="json")
    given = umpire.post(
        world.url("webhook-list"), {"url": HOOK, "events": ["day.dawned"], "secret": SECRET}, format="json"
    )

    assert made.status_code == given.status_code == 201
    stored = models.WebhookSubscription.objects.get(public_id=made.json()["id"])
    assert made.json()["secret"] == stored.secret
    assert len(stored.secret) >= 32
    assert made["Location"].endswith(world.url("webhook-detail", pk=stored.public_id))
    assert given.json()["secret"] is None
    shown = [
        umpire.get(world.url("webhook-list")).json(),
        umpire.get(world.url("webhook-detail", pk=stored.public_id)).json(),
        umpire.patch(
            world.url("webhook-detail", pk=stored.public_id), {"active": False}, format="json"
        ).json(),
    ]
    for body in shown:
        assert not {stored.secret, SECRET, "secret"} & set(strings(body))


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"url": "ftp://club.example/hooks", "events": ["day.dawned"]}, "url"),
        ({"url": "javascript:alert(1)", "events": ["day.dawned"]}, "url"),
        ({"url": HOOK, "events": ["segment.advanced"]}, "events[0]"),
        ({"url": HOOK, "events": []}, "events"),
        ({"events": ["day.dawned"]}, "url"),
        ({"url": HOOK, "events": ["day.dawned"], "secret": "short"}, "secret"),
    ],
)
def test_invalid_subscriptions_answer_400_naming_the_field_and_write_nothing(world, body, field):
    response = world.client(Role.UMPIRE).post(world.url("webhook-list"), body, format="json")

    assert response.status_code == 400
    assert field in response.json()["error"]["fields"]
    assert not models.WebhookSubscription.objects.exists()


def test_a_patch_is_validated_like_a_subscription(world):
    hook = subscription(world)
    umpire = world.client(Role.UMPIRE)

    refused = umpire.patch(
        world.url("webhook-detail", pk=hook.public_id), {"url": "file:///etc/passwd"}, format="json"
    )
    changed = umpire.patch(
        world.url("webhook-detail", pk=hook.public_id), {"events": ["night.done"]}, format="json"
    )

    assert (refused.status_code, list(refused.json()["error"]["fields"])) == (400, ["url"])
    assert (changed.status_code, changed.json()["events"]) == (200, ["night.done"])
    hook.refresh_from_db()
    assert (hook.url, hook.events, hook.secret) == (HOOK, ["night.done"], SECRET)


def test_the_delivery_log_shows_each_delivery_and_filters_by_status(world, receiver):
    hook = subscription(world, receiver.url)
    first, second = dawn_event(world), dawn_event(world)
    webhook_deliver(models.WebhookDelivery.objects.get(event=first).pk)
    umpire = world.client(Role.UMPIRE)
    url = world.url("webhook-delivery-list", webhook_pk=hook.public_id)

    log = umpire.get(url).json()["results"]
    delivered = umpire.get(url, {"status": DeliveryStatus.DELIVERED}).json()["results"]

    assert [(d["status"], d["attempts"], d["response_status"]) for d in log] == [
        ("pending", 0, None),
        ("delivered", 1, 200),
    ]
    assert [d["payload"]["id"] for d in log] == [str(second.public_id), str(first.public_id)]
    assert [d["event"] for d in log] == ["day.dawned", "day.dawned"]
    assert log[1]["delivered_at"] == log[1]["last_attempt_at"] is not None
    assert [d["payload"]["id"] for d in delivered] == [str(first.public_id)]


def test_the_delivery_log_takes_as_many_queries_for_30_deliveries_as_for_1(world):
    hook = subscription(world)
    umpire = world.client(Role.UMPIRE)
    url = world.url("webhook-delivery-list", webhook_pk=hook.public_id)
    umpire.get(url)  # the session, loaded once
    dawn_event(world)
    one, _ = query_count(umpire, url)
    for _ in range(29):
        dawn_event(world)
    thirty, response = query_count(umpire, url)

    assert response.json()["count"] == 30
    assert one == thirty


def test_a_ping_queues_a_delivery_and_sends_nothing_from_the_web_request(world, receiver):
    hook = subscription(world, receiver.url)

    response = world.client(Role.UMPIRE).post(world.url("webhook-ping", pk=hook.public_id))

    assert response.status_code == 202
    delivery = models.WebhookDelivery.objects.get(subscription=hook)
    assert response.headers["Location"] == "http://testserver" + world.url(
        "webhook-delivery-detail", webhook_pk=hook.public_id, pk=delivery.public_id
    )
    assert (response.json()["event"], response.json()["status"]) == ("ping", "pending")
    assert (delivery.event, delivery.attempts) == (None, 0)
    assert receiver.requests == []  # the test's transaction never commits: no worker was asked


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_a_ping_signed_and_its_delivery_shows_the_answer(celery_worker):
    world = build_world()
    verify_signature = documented_verify_signature()
    umpire = world.client(Role.UMPIRE)
    with running(Receiver()) as happy, running(Receiver(status=500)) as broken:
        pinged = umpire.post(world.url("webhook-ping", pk=subscription(world, happy.url).public_id))
        refused = umpire.post(world.url("webhook-ping", pk=subscription(world, broken.url).public_id))
        pending = models.WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
        wait_for(lambda: not pending.exists(), what="both pings to be delivered or given up")

    delivered = umpire.get(pinged.headers["Location"]).json()
    failed = umpire.get(refused.headers["Location"]).json()
    assert (delivered["event"], delivered["status"], delivered["response_status"]) == (
        "ping",
        "delivered",
        200,
    )
    assert (failed["status"], failed["response_status"], failed["error"]) == (
        "failed",
        500,
        "HTTP 500 Internal Server Error",
    )
    [ping] = happy.requests
    assert ping.headers["X-Campaign-Event"] == "ping"
    # Named as the API names the delivery: a number would count every campaign's deliveries.
    assert ping.headers["X-Campaign-Delivery"] == delivered["id"]
    assert ping.json()["campaign"] == world.campaign.slug
    assert verify_signature(SECRET, ping.headers, ping.body)


# The internal targets a webhook was once allowed to reach, in every form a resolver reads.
INTERNAL_URLS = [
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://192.168.1.1/",
    "http://localhost:6379/",
    "http://0/",
    "http://2130706433/",
    "http://0x7f000001/",
    "http://[::1]/",
    "http://[::ffff:169.254.169.254]/",
    "http://user:pw@127.0.0.1/",
    "http://metadata.google.internal/computeMetadata/v1/",
    # and their relatives
    "http://127.1/",
    "http://0177.0.0.1/",
    "http://[fe80::1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
    "http://224.0.0.1/",
    "http://240.0.0.1/",
    "http://100.64.0.1/",
    "http://redis:6379/",
    "http://printer.local/",
    "https://user@club.example/hooks",
    # written as a resolver reads them once the host is normalised (issue 28): a trailing
    # dot, Unicode digits and dots
    "http://127.0.0.1.:8025/",
    "http://\u2460\u2461\u2466.0.0.1:8025/",
    "http://127\u30020\u30020\u30021:8025/",
    "http://\uff11\uff10.0.0.1/",
    "http://169\uff0e254\uff0e169\uff0e254/",
    "http://10\uff610.0.1/",
    "http://LOCALHOST./",
    "http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/",
]


@pytest.mark.parametrize("url", INTERNAL_URLS)
def test_a_subscription_to_an_internal_address_is_refused(world, settings, url):
    settings.WEBHOOK_ALLOW_LOOPBACK = False  # as in production
    umpire = world.client(Role.UMPIRE)
    hook = subscription(world)

    created = umpire.post(world.url("webhook-list"), {"url": url, "events": ["day.dawned"]}, format="json")
    changed = umpire.patch(world.url("webhook-detail", pk=hook.public_id), {"url": url}, format="json")

    for response in (created, changed):
        assert response.status_code == 400, response.json()
        assert list(response.json()["error"]["fields"]) == ["url"]
    assert list(models.WebhookSubscription.objects.values_list("url", flat=True)) == [HOOK]


def test_the_loopback_setting_lets_only_loopback_through(world, settings):
    umpire = world.client(Role.UMPIRE)

    def subscribe(url: str) -> int:
        body = {"url": url, "events": ["day.dawned"]}
        status: int = umpire.post(world.url("webhook-list"), body, format="json").status_code
        return status

    settings.WEBHOOK_ALLOW_LOOPBACK = False
    assert subscribe("http://127.0.0.1:8025/hooks") == 400
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    assert [subscribe(url) for url in ("http://127.0.0.1:8025/hooks", "http://localhost:8025/hooks")] == [
        201,
        201,
    ]
    assert [subscribe(url) for url in ("http://10.0.0.1/", "http://169.254.169.254/")] == [400, 400]


def test_a_renewed_secret_signs_beside_the_old_one_until_the_overlap_ends(world, receiver, settings):
    """A receiver still holding the old secret and one already holding the new both verify
    during the overlap; after it only the new one does. The log shows the next attempt's time."""
    verify_signature = documented_verify_signature()
    hook = subscription(world, receiver.url)
    umpire = world.client(Role.UMPIRE)
    renewed = "the-new-secret-for-the-receiver"
    overlap = datetime.timedelta(hours=settings.WEBHOOK_SECRET_OVERLAP_HOURS)
    before = timezone.now()

    answer = umpire.patch(world.url("webhook-detail", pk=hook.public_id), {"secret": renewed}, format="json")
    until = datetime.datetime.fromisoformat(answer.json()["previous_secret_until"])
    webhook_deliver(models.WebhookDelivery.objects.get(event=dawn_event(world)).pk)
    models.WebhookSubscription.objects.filter(pk=hook.pk).update(previous_secret_until=timezone.now())
    receiver.status = 500
    failed = webhook_deliver(models.WebhookDelivery.objects.get(event=dawn_event(world)).pk)
    log = umpire.get(world.url("webhook-delivery-list", webhook_pk=hook.public_id)).json()["results"]

    assert answer.status_code == 200
    assert before + overlap <= until <= timezone.now() + overlap
    during, after = receiver.requests
    assert during.headers["X-Campaign-Signature"].count("sha256=") == 2
    assert verify_signature(SECRET, during.headers, during.body)
    assert verify_signature(renewed, during.headers, during.body)
    assert after.headers["X-Campaign-Signature"].count("sha256=") == 1
    assert verify_signature(renewed, after.headers, after.body)
    assert not verify_signature(SECRET, after.headers, after.body)
    # The failed attempt is tried again after the backoff, and the delivery log says when.
    assert failed.status == DeliveryStatus.PENDING
    assert failed.next_attempt_at == failed.last_attempt_at + datetime.timedelta(seconds=retry_delay(1))
    [shown] = [d for d in log if d["id"] == str(failed.public_id)]
    assert datetime.datetime.fromisoformat(shown["next_attempt_at"]) == failed.next_attempt_at
