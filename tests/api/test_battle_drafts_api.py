"""Drafted battle reports through the API: each player's own draft, the umpire's comparison and
confirmation, who reads what; and the battle webhooks."""

from __future__ import annotations

from typing import Any

import pytest

from campaign import models
from campaign.choices import WEBHOOK_EVENTS, EventVerb, StandStatus
from campaign.services.webhook_subscriptions import webhook_subscribe
from tests.api.world import ACTOR, Role, World, strings

pytestmark = pytest.mark.django_db

# The Allies see A1's stands (the Axis fog shows its strengths); the Axis sees none of L1's.
AXIS_DRAFT = {
    "battalions": [
        {"code": "A1", "destroyed": ["3"], "activation_points_spent": 1},
        {"code": "L1"},
    ],
    "winner": None,
}
ALLIED_DRAFT = {
    "battalions": [
        {"code": "A1", "suppressed": ["3"]},
        {"code": "L1", "destroyed": ["3"]},
    ]
}
CONFLICT = "battalions[A1].stands[3]"


def _file(world: World, role: Role, report: dict[str, object]) -> Any:
    response = world.client(role).put(
        world.url("battle-draft", pk=world.planned.public_id), report, format="json"
    )
    assert response.status_code == 200, response.json()
    return response.json()


def test_players_file_drafts_and_the_umpire_confirms_the_comparison(world):
    hook = webhook_subscribe(
        world.campaign.pk, ACTOR, url="http://127.0.0.1:9/hook", events=list(WEBHOOK_EVENTS)
    )
    before = world.state()
    l1_stands = list(world.battalion("L1").stands.order_by("pk").values_list("status", flat=True))

    filed = _file(world, Role.AXIS_PLAYER, AXIS_DRAFT)
    assert filed["draft"]["report"] == AXIS_DRAFT
    assert (filed["draft"]["status"], filed["opponent_filed"]) == ("filed", False)
    _file(world, Role.ALLIED_PLAYER, ALLIED_DRAFT)

    # Nothing of the campaign changed but the drafts' own events and the notifications: the Allied
    # draft awaited, and the umpire told of each draft (one side's, then both); no webhook announced them.
    version, events, rolls, battles = world.state()
    assert (version, rolls, battles) == (before[0], before[2], before[3])
    assert events == before[1] + 5
    told = models.Notification.objects.filter(recipient=world.users[Role.UMPIRE], kind="draft_filed")
    assert list(told.order_by("pk").values_list("title", flat=True)) == [
        f"Axis filed its draft of the battle at {world.planned.sector}",
        f"Both drafts of the battle at {world.planned.sector} are filed",
    ]
    assert list(world.battalion("L1").stands.order_by("pk").values_list("status", flat=True)) == l1_stands
    assert not hook.deliveries.exists()

    umpire = world.client(Role.UMPIRE)
    compared = umpire.get(world.url("battle-drafts", pk=world.planned.public_id)).json()
    (conflict,) = [item for item in compared["items"] if item["status"] == "conflict"]
    assert conflict["key"] == CONFLICT
    assert conflict["status_label"] == "The sides disagree"
    assert [(v["side_name"], v["text"]) for v in conflict["versions"]] == [
        ("Axis", "Destroyed"),
        ("Allied", "Suppressed"),
    ]
    assert conflict["stand_now"] == StandStatus.OK
    assert compared["conflicts"] == 1
    assert [b.get("destroyed") for b in compared["proposal"]["battalions"]] == [None, ["3"]]
    (winner,) = [item for item in compared["items"] if item["kind"] == "winner"]
    assert (winner["status"], winner["text"]) == ("one_side", "Nobody")

    confirm = world.url("battle-drafts-confirm", pk=world.planned.public_id)
    unchosen = umpire.post(confirm, {"revision": compared["revision"]}, format="json")
    assert unchosen.status_code == 400
    assert list(unchosen.json()["error"]["fields"]) == [f"choices.{CONFLICT}"]
    stale = umpire.post(
        confirm, {"revision": "0" * 16, "choices": {CONFLICT: world.allied.pk}}, format="json"
    )
    assert stale.status_code == 409
    assert world.state()[0] == before[0]

    confirmed = umpire.post(
        confirm, {"revision": compared["revision"], "choices": {CONFLICT: world.allied.pk}}, format="json"
    )

    assert confirmed.status_code == 200, confirmed.json()
    assert confirmed.json()["status"] == "reported"
    assert world.battalion("A1").stands.get(label="3").status == StandStatus.SUPPRESSED
    assert world.battalion("L1").stands.get(label="3").status == StandStatus.DESTROYED
    assert [d.payload["event"] for d in hook.deliveries.order_by("pk")] == [EventVerb.BATTLE_REPORTED]
    refiled = world.client(Role.AXIS_PLAYER).put(
        world.url("battle-draft", pk=world.planned.public_id), AXIS_DRAFT, format="json"
    )
    assert refiled.status_code == 409


def test_a_player_never_reads_the_other_sides_draft(world):
    _file(world, Role.AXIS_PLAYER, {**AXIS_DRAFT, "sector_owner": world.axis.pk})

    for role in (Role.ALLIED_PLAYER, Role.ALLIED_KEY):
        seen = world.client(role).get(world.url("battle-draft", pk=world.planned.public_id)).json()
        # What the side may draft of each battalion: only the stands of the enemy's.
        drafted = {entry["code"]: entry["draftable"] for entry in seen.pop("battalions")}
        assert seen.pop("draftable") == ["winner", "sector_owner", "turn"]
        assert seen.pop("draftable_labels")[0] == "Winner"
        assert drafted["A1"] == ["destroyed", "suppressed"]
        assert {"activation_points_spent", "supply_situation", "objectives"} <= set(drafted["L1"])
        assert seen == {
            "battle": str(world.planned.public_id),
            "side": world.allied.pk,
            "draft": None,
            "opponent_filed": True,
        }
        # Nor in the timeline: the draft's event is the Axis side's.
        events = world.client(role).get(world.url("event-list"), {"page_size": 100}).json()["results"]
        assert EventVerb.BATTLE_DRAFT_SAVED not in {e["verb"] for e in events}
        assert (
            world.client(role).get(world.url("battle-drafts", pk=world.planned.public_id)).status_code == 403
        )
    axis_events = world.client(Role.AXIS_PLAYER).get(world.url("event-list"), {"page_size": 100}).json()
    assert EventVerb.BATTLE_DRAFT_SAVED in {e["verb"] for e in axis_events["results"]}


def test_a_draft_is_refused_with_the_field_named_and_nothing_written(world):
    before = world.state()
    response = world.client(Role.AXIS_PLAYER).put(
        world.url("battle-draft", pk=world.planned.public_id),
        {"battalions": [{"code": "A1", "destroyed": ["3"]}, {"code": "L2", "destroyed": ["1"]}]},
        format="json",
    )

    assert response.status_code == 400
    assert list(response.json()["error"]["fields"]) == ["battalions[1].code"]
    assert world.state() == before
    assert not models.BattleDraft.objects.filter(battle=world.planned).exists()

    # What only the enemy's side knows of its battalion is not the Axis player's to draft.
    enemy = world.client(Role.AXIS_PLAYER).put(
        world.url("battle-draft", pk=world.planned.public_id),
        {"battalions": [{"code": "A1"}, {"code": "L1", "supply_situation": "OK"}]},
        format="json",
    )
    assert enemy.status_code == 400
    assert list(enemy.json()["error"]["fields"]) == ["battalions[1].supply_situation"]
    assert not models.BattleDraft.objects.filter(battle=world.planned).exists()


def test_battle_created_is_announced_with_only_what_subscribers_may_see(world):
    hook = webhook_subscribe(
        world.campaign.pk, ACTOR, url="http://127.0.0.1:9/hook", events=[EventVerb.BATTLE_CREATED]
    )
    response = world.client(Role.UMPIRE).post(
        world.url("battle-list"),
        {
            "sector": world.sector("village").pk,
            "battle_type": "Local Attack",
            "attacker_id": world.axis.pk,
            "defender_id": world.allied.pk,
            "battalion_codes": ["A2", "L2"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()

    (delivery,) = hook.deliveries.all()
    payload = delivery.payload
    assert payload["event"] == EventVerb.BATTLE_CREATED
    assert payload["message"] == "Battle created: Village (day 2)"
    assert payload["links"]["object"].endswith(f"/battles/{response.json()['id']}/")
    # Never the battalions (the event's own message names them), nor any side's strengths.
    assert not {"A2", "L2"} & set(strings(payload))
