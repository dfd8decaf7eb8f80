"""The inbox through the API: a person's own notifications, counted, filtered, marked read."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from campaign import models
from campaign.choices import MemberRole, NotificationKind
from tests.api.world import Role, World, query_count
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db

LIST = "api:notification-list"


def listed(world: World, role: Role, **query: str) -> list[dict[str, Any]]:
    response = world.client(role).get(reverse(LIST), query)
    assert response.status_code == 200, response.json()
    results: list[dict[str, Any]] = response.json()["results"]
    return results


def test_a_player_reads_their_battles_notifications_with_labels_and_links(world):
    notes = listed(world, Role.AXIS_PLAYER)

    assert [n["title"] for n in notes] == ["Battle at Mdina on day 2", "Battle at Ta' Qali on day 1"]
    newest = notes[0]
    assert newest["kind"] == "battle_assigned"
    assert newest["kind_label"] == "Battle assigned to you"
    assert newest["email_label"] == "Not e-mailed: no address"
    assert newest["campaign"] == world.campaign.slug
    assert newest["campaign_name"] == world.campaign.name
    assert newest["link"] == f"/campaigns/{world.campaign.slug}/battles/{world.planned.public_id}"
    assert newest["body"] == "Axis attack Allied at Mdina (Local attack). Your battalions: A1."
    assert newest["read"] is False
    assert newest["read_at"] is None
    # Nobody else's: the umpire created the battles and the observer fights none.
    assert listed(world, Role.UMPIRE) == listed(world, Role.OBSERVER) == []


def test_the_inbox_filters_by_campaign_kind_and_unread(world):
    other = campaign_with_sides()
    player = world.users[Role.AXIS_PLAYER]
    models.Membership.objects.create(user=player, campaign=other, role=MemberRole.OBSERVER)
    models.Notification.objects.create(
        recipient=player, campaign=other, kind=NotificationKind.ORDERS_DUE, title="Elsewhere", link="/"
    )

    assert len(listed(world, Role.AXIS_PLAYER)) == 3  # across campaigns
    assert [n["title"] for n in listed(world, Role.AXIS_PLAYER, campaign=other.slug)] == ["Elsewhere"]
    assert len(listed(world, Role.AXIS_PLAYER, kind="battle_assigned")) == 2
    assert len(listed(world, Role.AXIS_PLAYER, unread="true")) == 3
    assert listed(world, Role.AXIS_PLAYER, unread="false") == []
    refused = world.client(Role.AXIS_PLAYER).get(reverse(LIST), {"kind": "orders_lost"})
    assert refused.status_code == 400
    assert "kind" in refused.json()["error"]["fields"]
    # A member who leaves a campaign no longer reads what it told them.
    models.Membership.objects.filter(user=player, campaign=other).delete()
    assert listed(world, Role.AXIS_PLAYER, campaign=other.slug) == []


def test_marking_read_one_and_all_and_the_unread_count(world):
    client = world.client(Role.AXIS_PLAYER)
    count = reverse("api:notification-unread-count")
    assert client.get(count).json() == {"unread": 2}
    newest = listed(world, Role.AXIS_PLAYER)[0]

    read = client.post(reverse("api:notification-read", kwargs={"pk": newest["id"]}))
    assert read.status_code == 200
    assert read.json()["read"] is True
    assert read["Location"].endswith(reverse("api:notification-detail", kwargs={"pk": newest["id"]}))
    assert client.get(count).json() == {"unread": 1}
    assert client.get(count, {"campaign": "elsewhere"}).json() == {"unread": 0}
    # Another's notification is not found, for them.
    stranger = world.client(Role.ALLIED_PLAYER).post(
        reverse("api:notification-read", kwargs={"pk": newest["id"]})
    )
    assert stranger.status_code == 404

    refused = client.post(reverse("api:notification-read-all"), {"campaign": "elsewhere"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["error"]["fields"]["campaign"] == [
        "You are not a member of a campaign 'elsewhere'."
    ]
    assert client.get(count).json() == {"unread": 1}
    done = client.post(reverse("api:notification-read-all"), {"campaign": world.campaign.slug}, format="json")
    assert done.json() == {"marked": 1}
    assert client.get(count).json() == {"unread": 0}
    assert world.client(Role.ALLIED_PLAYER).get(count).json() == {"unread": 2}  # theirs untouched


def test_a_member_turns_their_notification_emails_off(world):
    url = world.url("campaign-notification-emails")
    client = world.client(Role.ALLIED_PLAYER)
    assert client.get(url).json() == {"notification_emails": True}

    refused = client.put(url, {"notification_emails": "perhaps"}, format="json")
    assert refused.status_code == 400
    assert "notification_emails" in refused.json()["error"]["fields"]
    assert client.put(url, {"notification_emails": False}, format="json").json() == {
        "notification_emails": False
    }
    assert client.get(url).json() == {"notification_emails": False}
    # Their own setting only.
    assert world.client(Role.AXIS_PLAYER).get(url).json() == {"notification_emails": True}
    assert world.client(Role.ALLIED_KEY).get(url).status_code == 403


def test_the_inbox_query_count_does_not_grow_with_notifications_or_campaigns(world):
    player = world.users[Role.AXIS_PLAYER]
    client = world.client(Role.AXIS_PLAYER)
    urls = [reverse(LIST), reverse("api:notification-unread-count")]
    before = [query_count(client, url)[0] for url in urls]
    for _ in range(5):
        other = campaign_with_sides()
        models.Membership.objects.create(user=player, campaign=other, role=MemberRole.OBSERVER)
        models.Notification.objects.bulk_create(
            models.Notification(
                recipient=player,
                campaign=other,
                kind=NotificationKind.ORDERS_DUE,
                title=f"Orders {n}",
                link="/",
            )
            for n in range(20)
        )

    after = [query_count(client, url) for url in urls]
    assert [count for count, _ in after] == before
    assert after[0][1].json()["count"] == 102
    assert after[1][1].json() == {"unread": 102}
