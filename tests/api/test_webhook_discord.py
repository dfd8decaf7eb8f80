"""Discord channels (issue 33): Discord's own message in words, within its documented limits,
linking to the web app; its 429 honoured; the same address rules as any webhook."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from campaign import models
from campaign.choices import WEBHOOK_EVENTS, DeliveryStatus, EventVerb, WebhookAudience, WebhookKind
from campaign.selectors import deadline_text
from campaign.services.audit import event_record
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.discord import discord_message, words_cut
from campaign.services.errors import DomainError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.orders import orders_due_announce
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


@pytest.mark.django_db(transaction=True)
def test_every_kind_of_news_posts_in_words_linking_to_the_web_app(celery_worker):
    """Battle created and reported with its result, the night report with the side's figures,
    orders due, arrivals, control changes and the campaign's end: each a post Discord takes."""
    world = build_world()
    slug = world.campaign.slug
    with running(Receiver(discord=True)) as umpires, running(Receiver(discord=True)) as allied:
        for receiver, audience, side in (
            (umpires, WebhookAudience.UMPIRES, None),
            (allied, WebhookAudience.SIDE, world.allied.pk),
        ):
            webhook_subscribe(
                world.campaign.pk,
                ACTOR,
                url=receiver.url,
                events=list(WEBHOOK_EVENTS),
                kind=WebhookKind.DISCORD,
                audience=audience,
                side_id=side,
            )
        deadline = timezone.now() + datetime.timedelta(hours=3)
        assert orders_due_announce(world.campaign.pk, 3, deadline)
        assert not orders_due_announce(world.campaign.pk, 3, deadline)  # told once a day
        battle_report(
            world.campaign.pk,
            ACTOR,
            world.planned.pk,
            {
                "battalions": [{"code": "A1", "destroyed": ["1", "3"]}, {"code": "L1", "suppressed": ["3"]}],
                "winner": world.axis.pk,
                "sector_owner": world.axis.pk,
            },
        )
        operation_run(night_phase_start(world.campaign.pk, ACTOR).pk)
        with transaction.atomic():
            event_record(world.campaign, EventVerb.ARRIVALS_RESOLVED, world.campaign, "Arrivals", ACTOR)
            event_record(world.campaign, EventVerb.CAMPAIGN_FINISHED, world.campaign, "Over", ACTOR)
        day_dawn(world.campaign.pk, ACTOR)
        battle_create(
            world.campaign.pk,
            ACTOR,
            sector_name="Ta' Qali",
            battle_type="Local Attack",
            attacker_id=world.axis.pk,
            defender_id=world.allied.pk,
            battalion_codes=["A1", "L1"],
        )
        pending = models.WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING)
        wait_for(lambda: not pending.exists(), what="every post sent")

    assert umpires.problems == allied.problems == []
    posts = {r.json()["embeds"][0]["title"]: r.json()["embeds"][0] for r in umpires.requests}
    side_posts = {r.json()["embeds"][0]["title"]: r.json()["embeds"][0] for r in allied.requests}
    titles = " | ".join(posts)
    for title in ("Battle created", "Battle reported", "Night report", "Orders due", "Arrivals"):
        assert title in titles, titles
    assert "Mdina changed hands" in posts
    assert "The campaign is over" in posts
    for embed in posts.values():
        assert embed["url"].startswith(settings.WEB_APP_URL), embed
    assert posts["Orders due"]["description"] == f"Orders for day 3 close on {deadline_text(deadline)}"
    assert posts["Orders due"]["url"].endswith(f"/campaigns/{slug}/orders")
    # The result in words: who won, and each side's losses as its readers may see them.
    [reported] = [embed for title, embed in posts.items() if title.startswith("Battle reported")]
    fields = {field["name"]: field["value"] for field in reported["fields"]}
    assert fields["Result"] == "Axis won"
    assert fields["Axis's losses"] == "2 stands destroyed, 0 suppressed"
    assert fields["Allied's losses"] == "0 stands destroyed, 1 suppressed"
    [side_reported] = [embed for title, embed in side_posts.items() if title.startswith("Battle reported")]
    side_fields = {field["name"]: field["value"] for field in side_reported["fields"]}
    assert side_fields == {"Result": "Axis won", "Allied's losses": "0 stands destroyed, 1 suppressed"}
    assert "Orders due" in side_posts
