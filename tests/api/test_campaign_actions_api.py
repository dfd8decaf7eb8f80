"""The campaign summary says what the reader may do with the campaign and its day now (``actions``
with ``actions_labels``) and what each activation column costs at each turn of the segment under
way (``activation_costs``): the web app shows its buttons and prices from these, never its own."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.choices import CAMPAIGN_ACTION_CHOICES
from campaign.services.battle_reports import battle_report
from rules_engine.great_battles.activation import ACTIVATION_COST, ActivationColumn, ActivationTiming
from rules_engine.vocab import PLAYED_DAY_SEGMENTS
from tests.api.world import ACTOR, Role, World

pytestmark = pytest.mark.django_db
WORDS = dict(CAMPAIGN_ACTION_CHOICES)


def summary(world: World, role: Role) -> dict[str, Any]:
    response = world.client(role).get(world.url("campaign-detail"))
    assert response.status_code == 200
    answer: dict[str, Any] = response.json()
    return answer


def test_the_umpire_is_offered_the_days_writes_with_their_words_and_players_none(world):
    umpire = summary(world, Role.UMPIRE)

    # Day 2 is under way with its battle at Mdina unreported: no night yet, no dawn.
    assert umpire["actions"] == [
        "open_next_segment",
        "spend_activation_points",
        "create_battle",
        "queue_night_order",
    ]
    assert umpire["actions_labels"] == [WORDS[action] for action in umpire["actions"]]
    assert umpire["actions_labels"][0] == "Open the next segment"
    for role in (Role.AXIS_PLAYER, Role.ALLIED_PLAYER, Role.OBSERVER, Role.ALLIED_KEY):
        assert (summary(world, role)["actions"], summary(world, role)["actions_labels"]) == ([], []), role


def test_the_night_is_offered_once_the_days_battles_are_reported(world):
    battle_report(
        world.campaign.pk, ACTOR, world.planned.pk, {"battalions": [{"code": "A1"}, {"code": "L1"}]}
    )

    assert "run_night" in summary(world, Role.UMPIRE)["actions"]
    assert "Start the night phase" in summary(world, Role.UMPIRE)["actions_labels"]


def test_open_next_segment_is_offered_until_the_days_last_segment_then_refused(world):
    umpire = world.client(Role.UMPIRE)
    url = world.url("day-advance-segment", number=2)

    for _ in PLAYED_DAY_SEGMENTS[1:]:
        assert "open_next_segment" in summary(world, Role.UMPIRE)["actions"]
        assert umpire.post(url).status_code == 200

    assert "open_next_segment" not in summary(world, Role.UMPIRE)["actions"]
    refused = umpire.post(url)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "day_over"


def test_each_column_is_priced_at_each_turn_of_the_segment_under_way(world):
    campaign = summary(world, Role.AXIS_PLAYER)
    turns = campaign["segment_turns"]

    assert turns
    assert campaign["activation_costs"] == [
        {
            "turn": turn,
            "column": column.value,
            "column_label": column.value,
            "cost": ACTIVATION_COST[column][
                ActivationTiming.START_OF_DAY if turn == 0 else ActivationTiming.DURING_DAY
            ],
        }
        for turn in turns
        for column in ActivationColumn
    ]
