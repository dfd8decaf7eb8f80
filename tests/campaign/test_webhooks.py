"""Webhooks end to end: fan-out in the event's transaction, signed POSTs from a real
worker to a real receiver on 127.0.0.1, retries with backoff, and exactly one
successful send however often the task runs."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign import models
from campaign.choices import WEBHOOK_EVENTS, DeliveryStatus, EventVerb
from campaign.services.audit import Actor, event_record
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.errors import DomainError
from campaign.services.webhook_subscriptions import webhook_subscribe
from campaign.services.webhooks import webhook_deliver, webhook_payload
from campaign.tasks import webhook_deliver_task
from tests.campaign.factories import campaign_with_sides
from tests.campaign.test_night_worker import wait_for
from tests.webhook_receiver import Receiver, documented_verify_signature, running

ACTOR = Actor(request_id="webhook-test")
SECRET = "s3cret-for-the-receiver-only"


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with running(Receiver()) as receiver:
        yield receiver


@pytest.fixture
def campaign() -> models.Campaign:
    campaign = campaign_with_sides(battalions_per_side=2)
    day_dawn(campaign.pk, ACTOR)
    campaign.refresh_from_db()
    return campaign


def subscribe(
    campaign: models.Campaign, url: str, *events: str, active: bool = True
) -> models.WebhookSubscription:
    return webhook_subscribe(
        campaign.pk, ACTOR, url=url, events=list(events or WEBHOOK_EVENTS), secret=SECRET, active=active
    )


def day_event(campaign: models.Campaign, verb: EventVerb = EventVerb.DAY_DAWNED) -> models.Event:
    """A webhook event recorded as services record it: in a transaction."""
    with transaction.atomic():
        return event_record(campaign, verb, campaign.days.get(number=1), "Day 1 dawns", ACTOR)


def delivery_of(event: models.Event) -> models.WebhookDelivery:
    return models.WebhookDelivery.objects.get(event=event)


def delivery_settled(campaign: models.Campaign, receiver: Receiver) -> models.WebhookDelivery:
    """The delivery of one event to ``receiver``, once the worker delivered it or gave up."""
    with running(receiver):
        subscribe(campaign, receiver.url)
        event = day_event(campaign)
        pending = models.WebhookDelivery.objects.filter(event=event, status=DeliveryStatus.PENDING)
        wait_for(lambda: not pending.exists(), what="the delivery to be delivered or given up")
    return delivery_of(event)


@pytest.mark.django_db(transaction=True)
def test_a_reported_battle_delivers_a_signed_public_webhook(celery_worker, receiver, campaign):
    subscription = subscribe(campaign, receiver.url, EventVerb.BATTLE_REPORTED)
    battle = battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Ta' Qali",
        battle_type="Local Attack",
        attacker_id=campaign.sides.get(name="Axis").pk,
        defender_id=campaign.sides.get(name="Allied").pk,
        battalion_codes=["A1", "L1"],
    )

    battle_report(
        battle.campaign_id,
        ACTOR,
        battle.pk,
        {"battalions": [{"code": "A1", "destroyed": ["2"], "activation_points_spent": 3}]},
    )

    deliveries = models.WebhookDelivery.objects.filter(subscription=subscription)
    wait_for(lambda: deliveries.filter(status=DeliveryStatus.DELIVERED).exists(), what="the delivery")
    verify_signature = documented_verify_signature()
    # The battle is announced once; the sides' own timeline entries are not news.
    [received] = receiver.requests
    assert received.delivery == str(deliveries.get().public_id)
    assert verify_signature(SECRET, received.headers, received.body)
    assert not verify_signature("another secret, 16+", received.headers, received.body)
    assert not verify_signature(SECRET, received.headers, received.body.replace(b"day", b"dax"))
    assert received.headers["X-Campaign-Event"] == EventVerb.BATTLE_REPORTED
    [about_battle] = [r.json() for r in receiver.requests if r.json()["object"]["type"] == "Battle"]
    event = models.Event.objects.get(public_id=about_battle["id"])
    assert about_battle == {
        "id": str(event.public_id),
        "event": "battle.reported",
        "campaign": campaign.slug,
        "day": 1,
        "object": {"type": "Battle", "id": str(battle.public_id), "repr": str(battle)},
        "message": f"Battle reported: {battle}",
        "created_at": event.created_at.isoformat(),
        "links": {
            "campaign": f"/api/v1/campaigns/{campaign.slug}/",
            "event": f"/api/v1/campaigns/{campaign.slug}/events/{event.public_id}/",
            "day": f"/api/v1/campaigns/{campaign.slug}/days/1/",
            "object": f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/",
        },
    }
    # The timeline tells the umpire the pools spent; a third party reads no numbers.
    assert "3 AP spent" in models.Event.objects.get(object_repr="Axis", verb="battle.reported").message
    assert "AP" not in about_battle["message"]


@pytest.mark.django_db(transaction=True)
def test_a_receiver_failing_twice_gets_the_delivery_on_the_third_attempt(celery_worker, campaign):
    receiver = Receiver(failures=2)
    delivery = delivery_settled(campaign, receiver)

    assert (delivery.status, delivery.attempts, delivery.response_status) == (
        DeliveryStatus.DELIVERED,
        3,
        200,
    )
    assert delivery.delivered_at == delivery.last_attempt_at
    assert [r.delivery for r in receiver.requests] == [str(delivery.public_id)] * 3
    stamps = [int(r.headers["X-Campaign-Timestamp"]) for r in receiver.requests]
    assert stamps == sorted(stamps)


@pytest.mark.django_db(transaction=True)
def test_a_receiver_always_failing_marks_the_delivery_failed_after_the_last_attempt(celery_worker, campaign):
    receiver = Receiver(status=500)
    delivery = delivery_settled(campaign, receiver)

    assert delivery.status == DeliveryStatus.FAILED
    assert delivery.attempts == settings.WORK_MAX_ATTEMPTS == len(receiver.requests)
    assert (delivery.response_status, delivery.error) == (500, "HTTP 500 Internal Server Error")
    assert delivery.delivered_at is None


@pytest.mark.django_db(transaction=True)
def test_running_the_task_twice_at_once_and_again_sends_once(campaign):
    with running(Receiver(pause=0.5)) as receiver:
        subscription = subscribe(campaign, receiver.url)
        # Made by hand so that no task is enqueued: this test runs every one itself.
        event = models.Event.objects.create(
            campaign=campaign, verb=EventVerb.DAY_DAWNED, day_number=1, object_type="Campaign", message="-"
        )
        delivery = models.WebhookDelivery.objects.create(
            subscription=subscription, event=event, payload=webhook_payload(event, campaign.slug)
        )

        def run_task() -> None:
            try:
                webhook_deliver_task.apply(args=(delivery.pk,))
            finally:
                connection.close()

        overlapping = [threading.Thread(target=run_task) for _ in range(2)]
        for thread in overlapping:
            thread.start()
        for thread in overlapping:
            thread.join()
        webhook_deliver_task.apply(args=(delivery.pk,))

    assert len(receiver.requests) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.DELIVERED, 1)


@pytest.mark.django_db
def test_events_nobody_subscribed_to_create_no_delivery(campaign, django_capture_on_commit_callbacks):
    url = "https://club.example/hooks"
    subscribe(campaign, url, EventVerb.BATTLE_REPORTED)
    subscribe(campaign, url, EventVerb.DAY_DAWNED, active=False)
    webhook_subscribe(
        campaign_with_sides().pk, ACTOR, url=url, events=[EventVerb.DAY_DAWNED], secret=SECRET
    )  # another campaign's

    with django_capture_on_commit_callbacks() as enqueued:
        day_event(campaign)
        day_event(campaign, EventVerb.SEGMENT_ADVANCED)

    assert not models.WebhookDelivery.objects.exists()
    assert enqueued == []


@pytest.mark.django_db
def test_a_deactivated_subscription_fails_its_pending_delivery_without_sending(campaign, receiver):
    subscription = subscribe(campaign, receiver.url)
    delivery = delivery_of(day_event(campaign))
    models.WebhookSubscription.objects.filter(pk=subscription.pk).update(active=False)

    sent = webhook_deliver(delivery.pk)

    assert sent is not None
    assert (sent.status, sent.attempts) == (DeliveryStatus.FAILED, 0)
    assert receiver.requests == []


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"url": "ftp://club.example/hooks"}, "url"),
        ({"url": "https:///no-host"}, "url"),
        ({"events": ["segment.advanced"]}, "events"),
        ({"events": []}, "events"),
        ({"secret": "short"}, "secret"),
    ],
)
@pytest.mark.django_db
def test_invalid_subscriptions_are_refused_naming_the_field(campaign, changes, field):
    valid = {"url": "https://club.example/hooks", "events": [EventVerb.DAY_DAWNED], "secret": SECRET}

    with pytest.raises(DomainError) as refused:
        webhook_subscribe(campaign.pk, ACTOR, **{**valid, **changes})

    assert refused.value.field == field
    assert not models.WebhookSubscription.objects.exists()


def _fan_out_queries(campaign: models.Campaign, verb: EventVerb, capture) -> tuple[int, int]:
    """Queries of recording one event, and the deliveries it made."""
    with CaptureQueriesContext(connection) as queries, capture():
        event = event_record(campaign, verb, campaign, "an event", ACTOR)
    return len(queries), models.WebhookDelivery.objects.filter(event=event).count()


@pytest.mark.django_db
def test_fan_out_takes_two_queries_whatever_the_number_of_subscriptions(
    campaign, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    plain_event, _ = _fan_out_queries(campaign, EventVerb.SEGMENT_ADVANCED, capture)
    subscribe(campaign, "https://club.example/1")
    one = _fan_out_queries(campaign, EventVerb.DAY_DAWNED, capture)
    for number in range(2, 31):
        subscribe(campaign, f"https://club.example/{number}")
    thirty = _fan_out_queries(campaign, EventVerb.DAY_DAWNED, capture)

    assert plain_event == 1  # the event's INSERT: no webhook query for other verbs
    # Then one read of the subscriptions (each audience's payload is made once) and one INSERT.
    assert one == (3, 1)
    assert thirty == (3, 30)


@pytest.mark.django_db
def test_the_admin_subscribes_through_the_service_and_keeps_the_secret_off_the_timeline(
    admin_client, campaign
):
    add = reverse("admin:campaign_webhooksubscription_add")
    form = {"campaign": campaign.pk, "events": [EventVerb.DAY_DAWNED], "active": "on"}
    events = models.Event.objects.count()

    refused = admin_client.post(add, {**form, "url": "ftp://club.example/hooks"})
    added = admin_client.post(add, {**form, "url": "https://club.example/hooks"}, follow=True)
    subscription = models.WebhookSubscription.objects.get()
    deleted = admin_client.post(
        reverse("admin:campaign_webhooksubscription_delete", args=[subscription.pk]), {"post": "yes"}
    )

    assert list(refused.context["adminform"].form.errors) == ["url"]
    assert next(m.message for m in added.context["messages"]) == (
        f"Secret of {subscription}, shown this once: {subscription.secret}"
    )
    assert deleted.status_code == 302
    assert not models.WebhookSubscription.objects.exists()
    recorded = models.Event.objects.order_by("pk")[events:]
    assert [e.verb for e in recorded] == [EventVerb.WEBHOOK_SUBSCRIBED, EventVerb.WEBHOOK_UNSUBSCRIBED]
    assert not [e for e in recorded if subscription.secret in str([e.message, e.before, e.after])]


def _subscribed_before_the_rules(campaign: models.Campaign, url: str) -> models.WebhookDelivery:
    """A pending delivery to ``url`` on a subscription row written directly: one made before
    these rules, or whose name resolved elsewhere when it was subscribed (DNS rebinding)."""
    subscription = models.WebhookSubscription.objects.create(
        campaign=campaign, url=url, secret=SECRET, events=[EventVerb.DAY_DAWNED]
    )
    event = models.Event.objects.create(
        campaign=campaign, verb=EventVerb.DAY_DAWNED, day_number=1, object_type="Campaign", message="-"
    )
    return models.WebhookDelivery.objects.create(
        subscription=subscription, event=event, payload=webhook_payload(event, campaign.slug)
    )


@pytest.mark.parametrize(
    ("host", "refusal"),
    [
        ("localhost", "localhost resolves to a loopback address (127.0.0.1)"),
        ("0", "0 resolves to an unspecified address (0.0.0.0)"),
        ("2130706433", "2130706433 resolves to a loopback address (127.0.0.1)"),
        ("0x7f000001", "0x7f000001 resolves to a loopback address (127.0.0.1)"),
        ("127.1", "127.1 resolves to a loopback address (127.0.0.1)"),
        ("[::1]", "::1 resolves to a loopback address (::1)"),
        ("[::ffff:127.0.0.1]", "::ffff:127.0.0.1 resolves to a loopback address (::ffff:7f00:1)"),
    ],
)
@pytest.mark.django_db
def test_a_delivery_resolves_the_host_and_sends_nothing_to_a_refused_address(
    campaign, receiver, settings, host, refusal
):
    settings.WEBHOOK_ALLOW_LOOPBACK = False
    port = urlsplit(receiver.url).port
    delivery = _subscribed_before_the_rules(campaign, f"http://{host}:{port}/hooks/campaign")

    sent = webhook_deliver(delivery.pk)

    assert sent is not None
    assert (sent.status, sent.response_status) == (DeliveryStatus.FAILED, None)  # no retry
    assert sent.error.startswith(refusal)
    assert receiver.requests == []


@pytest.mark.parametrize(
    "url",
    ["http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/", "http://user:pw@club.example/hooks"],
)
@pytest.mark.django_db
def test_a_delivery_to_a_private_address_or_with_credentials_fails_at_once(campaign, url):
    delivery = _subscribed_before_the_rules(campaign, url)

    sent = webhook_deliver(delivery.pk)

    assert sent is not None
    assert (sent.status, sent.attempts, sent.response_status) == (DeliveryStatus.FAILED, 1, None)
    assert "webhooks only go to public internet addresses" in sent.error or "password" in sent.error


@pytest.mark.django_db
def test_the_loopback_setting_lets_a_delivery_reach_a_receiver_on_this_machine(campaign, receiver, settings):
    settings.WEBHOOK_ALLOW_LOOPBACK = True
    port = urlsplit(receiver.url).port
    delivery = _subscribed_before_the_rules(campaign, f"http://localhost:{port}/hooks/campaign")

    sent = webhook_deliver(delivery.pk)

    assert sent is not None
    assert (sent.status, sent.response_status) == (DeliveryStatus.DELIVERED, 200)
    assert len(receiver.requests) == 1


@pytest.mark.django_db
def test_a_redirect_is_a_failed_attempt_not_followed(campaign, receiver):
    with running(Receiver(status=307, location=receiver.url)) as redirecting:
        delivery = _subscribed_before_the_rules(campaign, redirecting.url)
        sent = webhook_deliver(delivery.pk)

    assert sent is not None
    assert (sent.status, sent.attempts, sent.response_status) == (DeliveryStatus.PENDING, 1, 307)
    assert (len(redirecting.requests), receiver.requests) == (1, [])
