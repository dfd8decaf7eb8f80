"""Discord channels (issue 33): Discord's own message in words, within its documented limits,
linking to the web app; its 429 honoured; the same address rules as any webhook."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaign import models
from campaign.choices import DeliveryStatus, EventVerb, WebhookAudience, WebhookKind
from campaign.services.audit import event_record
from campaign.services.battle_reports import battle_report
from campaign.services.discord import discord_message, words_cut
from campaign.services.errors import DomainError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.world import ACTOR, build_world
from tests.campaign.test_night_worker import wait_for
from tests.webhook_receiver import Receiver, discord_problems, running

DISCORD = "https://discord.com/api/webhooks/123/abc"


def test_words_are_cut_at_a_word_within_the_limit():
    text = "The Axis attacked Mdina at dawn with three battalions"

    cut = words_cut(text, 20)

    assert len(cut) <= 20
    assert cut == "The Axis attacked…"
    assert words_cut(text, 200) == text


def test_a_message_stays_within_discords_limits_however_long_its_words():
    payload = {
        "event": EventVerb.BATTLE_REPORTED,
        "campaign": "malta",
        "day": 3,
        "object": {"type": "Battle", "id": "b1", "repr": "Mdina " * 100},
        "message": "word " * 2000,
    }
    details = [(f"figure {n} " * 40, "many words " * 200) for n in range(40)]

    message = discord_message(payload, details)

    assert discord_problems(message) == []
    assert message["embeds"][0]["url"].endswith("/campaigns/malta/battles/b1")
    assert message["allowed_mentions"] == {"parse": []}


@pytest.mark.django_db
def test_a_discord_channel_takes_only_a_discord_webhook_url(settings):
    campaign = build_world().campaign
    settings.WEBHOOK_ALLOW_LOOPBACK = False

    with pytest.raises(DomainError) as refused:
        webhook_subscribe(
            campaign.pk,
            ACTOR,
            url="https://club.example/hooks",
            events=["day.dawned"],
            kind=WebhookKind.DISCORD,
        )
    made = webhook_subscribe(campaign.pk, ACTOR, url=DISCORD, events=["day.dawned"], kind=WebhookKind.DISCORD)

    assert (refused.value.field, "discord.com/api/webhooks" in str(refused.value)) == ("url", True)
    assert made.kind == WebhookKind.DISCORD


@pytest.mark.django_db(transaction=True)
def test_a_429_with_retry_after_is_waited_out_and_the_post_arrives_once(celery_worker):
    world = build_world()
    with running(Receiver(rate_limited=1, retry_after=1.5, discord=True)) as channel:
        hook = webhook_subscribe(
            world.campaign.pk, ACTOR, url=channel.url, events=["day.dawned"], kind=WebhookKind.DISCORD
        )
        with transaction.atomic():
            event_record(world.campaign, EventVerb.DAY_DAWNED, world.campaign, "Day 3 dawns", ACTOR)
        delivery = models.WebhookDelivery.objects.get(subscription=hook)
        wait_for(lambda: not models.WebhookDelivery.objects.filter(pk=delivery.pk, status="pending").exists())

    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.response_status) == (
        DeliveryStatus.DELIVERED,
        2,
        200,
    )
    assert len(channel.requests) == 2  # the rate-limited attempt, then the one post that arrived
    assert channel.times[1] - channel.times[0] >= 1.5
    assert channel.problems == []
    posted = channel.requests[1].json()
    assert posted["embeds"][0]["title"] == f"Day {delivery.payload['day']} dawns"
    assert posted["embeds"][0]["url"].endswith(f"/campaigns/{world.campaign.slug}/day")


@pytest.mark.django_db(transaction=True)
def test_a_side_channel_gets_its_night_figures_in_words_and_a_held_back_enemy(celery_worker):
    world = build_world()
    with running(Receiver(discord=True)) as axis:
        webhook_subscribe(
            world.campaign.pk,
            ACTOR,
            url=axis.url,
            events=["night.done", "battle.reported"],
            kind=WebhookKind.DISCORD,
            audience=WebhookAudience.SIDE,
            side_id=world.axis.pk,
        )
        battle_report(
            world.campaign.pk,
            ACTOR,
            world.planned.pk,
            {"battalions": [{"code": "A1", "destroyed": ["3"]}, {"code": "L1", "destroyed": []}]},
        )
        operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
        pending = models.WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
        wait_for(lambda: not pending.exists(), what="every post sent")

    assert axis.problems == []
    posts = {r.json()["embeds"][0]["title"]: r.json() for r in axis.requests}
    night = next(post for title, post in posts.items() if title.startswith("Night report"))
    figures = {field["name"] for field in night["embeds"][0]["fields"]}
    assert "Activation points" in figures
    assert night["embeds"][0]["url"].endswith(f"/campaigns/{world.campaign.slug}/night")
    assert any(title.startswith("Battle reported") for title in posts)
    # Nothing of the Allied report reaches the Axis channel.
    allied = models.NightReport.objects.filter(side=world.allied).first()
    assert allied is not None
    assert str(allied.public_id) not in str([r.json() for r in axis.requests])
