"""Webhooks keep the fog (issue 33): each subscription reads with its audience's eyes (public,
one side, the umpires), and every link it is sent answers 200 to that audience's key."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import transaction

from campaign import models
from campaign.choices import WEBHOOK_EVENTS, DeliveryStatus, EventVerb, WebhookAudience
from campaign.services.api_keys import api_key_create, api_key_revoke
from campaign.services.audit import event_record
from campaign.services.battle_reports import battle_report
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.world import ACTOR, Role, World, api_key_client, build_world
from tests.campaign.test_night_worker import wait_for
from tests.webhook_receiver import Receiver, running

SECRET = "the-clubs-own-secret-0"
HOOK = "https://club.example/hooks/campaign"


def _subscribe(world: World, url: str, audience: str, side: models.Side | None = None) -> None:
    webhook_subscribe(
        world.campaign.pk,
        ACTOR,
        url=url,
        events=list(WEBHOOK_EVENTS),
        secret=SECRET,
        audience=audience,
        side_id=side.pk if side else None,
    )


def _links_answer(payloads: list[dict[str, Any]], key: str) -> dict[str, int]:
    client = api_key_client(key)
    return {link: client.get(link).status_code for payload in payloads for link in payload["links"].values()}


@pytest.mark.django_db(transaction=True)
def test_each_side_channel_gets_its_own_news_and_links_it_may_follow(celery_worker):
    world = build_world()
    _, axis_key = api_key_create(world.campaign.pk, ACTOR, name="Axis bot", side_id=world.axis.pk)
    _, public_key = api_key_create(world.campaign.pk, ACTOR, name="Club bot")
    with running(Receiver()) as axis, running(Receiver()) as allied, running(Receiver()) as public:
        _subscribe(world, axis.url, WebhookAudience.SIDE, world.axis)
        _subscribe(world, allied.url, WebhookAudience.SIDE, world.allied)
        _subscribe(world, public.url, WebhookAudience.PUBLIC)
        battle_report(
            world.campaign.pk,
            ACTOR,
            world.planned.pk,
            {"battalions": [{"code": "A1", "destroyed": ["3"]}, {"code": "L1", "destroyed": []}]},
        )
        operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
        pending = models.WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
        wait_for(lambda: not pending.exists(), what="every delivery sent")
        received = {
            name: [r.json() for r in hook.requests]
            for name, hook in [("axis", axis), ("allied", allied), ("public", public)]
        }

    axis_reports = [p["links"]["report"] for p in received["axis"] if "report" in p["links"]]
    allied_reports = [p["links"]["report"] for p in received["allied"] if "report" in p["links"]]
    own_reports = {
        side: {str(r.public_id) for r in models.NightReport.objects.filter(side=side)}
        for side in (world.axis, world.allied)
    }
    # Each side channel got its own side's night report, and nothing of the other's.
    assert len(axis_reports) == len(allied_reports) == 1
    assert axis_reports[0].rstrip("/").rsplit("/", 1)[1] in own_reports[world.axis]
    assert allied_reports[0].rstrip("/").rsplit("/", 1)[1] in own_reports[world.allied]
    assert not any(report in str(received["axis"]) for report in own_reports[world.allied])
    assert not any(report in str(received["allied"]) for report in own_reports[world.axis])
    # Both fight the battle: each side hears of its report, with the battle's link, not the
    # umpires' entry of it.
    for side in ("axis", "allied"):
        [reported] = [p for p in received[side] if p["event"] == EventVerb.BATTLE_REPORTED]
        assert reported["id"] is None
        assert "event" not in reported["links"]
        assert reported["links"]["object"].rstrip("/").endswith(str(world.planned.public_id))
    # The public channel: public news only, no battle, no report.
    assert {p["event"] for p in received["public"]} <= {
        EventVerb.NIGHT_PHASE_DONE,
        EventVerb.DAY_DAWNED,
        EventVerb.ARRIVALS_RESOLVED,
        EventVerb.SECTOR_CONTROL_CHANGED,
        EventVerb.CAMPAIGN_FINISHED,
    }
    assert EventVerb.NIGHT_PHASE_DONE in {p["event"] for p in received["public"]}
    assert not any("report" in p["links"] for p in received["public"])
    # Every link answers 200 to the audience's own key.
    for key, payloads in (
        (axis_key, received["axis"]),
        (world.keys[Role.ALLIED_KEY], received["allied"]),
        (public_key, received["public"]),
    ):
        answers = _links_answer(payloads, key)
        assert answers
        assert set(answers.values()) == {200}, answers


def test_a_sides_write_key_manages_its_own_sides_subscriptions_only(world):
    key, plain = api_key_create(
        world.campaign.pk, ACTOR, name="Allied bot", side_id=world.allied.pk, can_write=True
    )
    bot = api_key_client(plain)
    _subscribe(world, HOOK, WebhookAudience.UMPIRES)
    _subscribe(world, HOOK, WebhookAudience.SIDE, world.axis)

    asked_for_all = bot.post(
        world.url("webhook-list"),
        {"url": HOOK, "events": ["battle.reported"], "audience": "umpires"},
        format="json",
    )
    listed = bot.get(world.url("webhook-list")).json()["results"]
    read_only = world.client(Role.ALLIED_KEY).get(world.url("webhook-list"))

    assert asked_for_all.status_code == 201
    made = asked_for_all.json()
    assert (made["audience"], made["audience_label"], made["side"]) == (
        "side",
        WebhookAudience.SIDE.label,
        world.allied.pk,
    )
    assert [hook["id"] for hook in listed] == [made["id"]]  # not the umpires', not the Axis'
    assert read_only.status_code == 403
    assert bot.delete(world.url("webhook-detail", pk=made["id"])).status_code == 204

    again = bot.post(world.url("webhook-list"), {"url": HOOK, "events": ["night.done"]}, format="json")
    api_key_revoke(world.campaign.pk, ACTOR, key.prefix)
    assert not models.WebhookSubscription.objects.get(public_id=again.json()["id"]).active


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"audience": "side"}, "side"),
        ({"audience": "public", "side": 1}, "side"),
        ({"audience": "side", "side": 999999}, "side"),
        ({"audience": "everybody"}, "audience"),
    ],
)
def test_an_audience_without_its_side_is_refused_naming_the_field(world, body, field):
    umpire = world.client(Role.UMPIRE)
    before = models.WebhookSubscription.objects.count()

    refused = umpire.post(
        world.url("webhook-list"), {"url": HOOK, "events": ["night.done"], **body}, format="json"
    )

    assert refused.status_code == 400
    assert field in str(refused.json())
    assert models.WebhookSubscription.objects.count() == before


@pytest.mark.django_db(transaction=True)
def test_with_approval_on_nothing_is_posted_until_the_umpire_publishes(celery_worker):
    world = build_world()
    _, plain = api_key_create(
        world.campaign.pk, ACTOR, name="Axis bot", side_id=world.axis.pk, can_write=True
    )
    umpire = world.client(Role.UMPIRE)
    with running(Receiver()) as channel:
        hook = webhook_subscribe(
            world.campaign.pk,
            ACTOR,
            url=channel.url,
            events=["night.done"],
            secret=SECRET,
            audience=WebhookAudience.SIDE,
            side_id=world.axis.pk,
            hold_for_approval=True,
        )
        battle_report(
            world.campaign.pk,
            ACTOR,
            world.planned.pk,
            {"battalions": [{"code": "A1", "destroyed": ["3"]}, {"code": "L1", "destroyed": []}]},
        )
        operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
        held = models.WebhookDelivery.objects.get(subscription=hook)
        time.sleep(1)  # a worker had the time to send it, were it not held
        log = umpire.get(world.url("webhook-delivery-list", webhook_pk=hook.public_id)).json()["results"]
        publish = world.url("webhook-delivery-publish", webhook_pk=hook.public_id, pk=held.public_id)
        by_key = api_key_client(plain).post(publish)
        before = list(channel.requests)
        published = umpire.post(publish)
        wait_for(lambda: len(channel.requests) == 1, what="the published post")

    assert before == []
    assert (log[0]["status"], log[0]["status_label"], log[0]["actions"]) == (
        DeliveryStatus.HELD,
        DeliveryStatus.HELD.label,
        ["publish", "discard"],
    )
    assert by_key.status_code == 403  # the umpire checks what the club reads, signed in
    assert published.status_code == 202
    assert channel.requests[0].json()["links"]["report"]
    held.refresh_from_db()
    assert held.status == DeliveryStatus.DELIVERED


def test_a_discarded_post_never_goes_and_stays_in_the_log(world):
    hook = webhook_subscribe(
        world.campaign.pk, ACTOR, url=HOOK, events=["day.dawned"], hold_for_approval=True
    )
    with transaction.atomic():
        event_record(world.campaign, EventVerb.DAY_DAWNED, world.campaign, "Day 3 dawns", ACTOR)
    held = models.WebhookDelivery.objects.get(subscription=hook)
    umpire = world.client(Role.UMPIRE)
    url = world.url("webhook-delivery-discard", webhook_pk=hook.public_id, pk=held.public_id)

    discarded = umpire.post(url)
    again = umpire.post(url)

    assert (discarded.status_code, discarded.json()["status"], discarded.json()["actions"]) == (
        200,
        DeliveryStatus.DISCARDED,
        [],
    )
    assert again.status_code == 409
