"""Dice rolled at the table (issue 31): a battle's set-up steps the club rolls with physical dice,
entered by the umpire or, where the club allows it, by a player of the battle."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from campaign import models
from campaign.services.audit import Actor
from campaign.services.corrections import object_correct
from campaign.services.errors import DomainError
from rules_engine.verify import verify
from tests.e2e.demo import gudja_battle, malta_day_one

pytestmark = pytest.mark.django_db

TABLE_DICE = {
    "n43.setup_proximity": "players",
    "n43.planned_fire": "players",
    "n43.air_superiority": "umpire",
}
TERRAIN = {"n43.setup_proximity": {"terrain": "Constricted Terrain"}}


def _planned() -> tuple[models.Campaign, models.Battle]:
    campaign = malta_day_one(battle=False)
    umpire = Actor(user=get_user_model().objects.get(username="umpire"))
    object_correct(campaign, umpire, changes={"table_dice": ({}, TABLE_DICE)})
    battle = gudja_battle(campaign, umpire)
    campaign.refresh_from_db()
    return campaign, battle


def _as(username: str) -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.get(username=username))
    return client


def _set_up(client: APIClient, campaign: models.Campaign, battle: models.Battle, **body: Any) -> Any:
    return client.post(
        f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/setup/", body, format="json"
    )


def test_a_player_enters_the_faces_of_their_steps_and_the_roll_log_says_so():
    campaign, battle = _planned()
    allied = _as("allied")
    faces = {"n43.setup_proximity": [3], "n43.planned_fire@Allied": [6, 2]}
    answer = _set_up(allied, campaign, battle, inputs=TERRAIN, faces=faces)
    assert answer.status_code == 200, answer.json()

    entered = {roll.changes["setup"]: roll for roll in battle.rolls.filter(at_table=True)}
    assert set(entered) == set(faces)
    assert entered["n43.setup_proximity"].result["rolls"][0]["faces"] == [3]
    assert entered["n43.planned_fire@Allied"].result["rolls"][0]["faces"] == [6, 2]
    assert entered["n43.planned_fire@Allied"].table_roll == "rolled at the table by allied"
    # The other steps, the Axis's secret ones among them, rolled from the seed as ever.
    assert battle.rolls.filter(at_table=False, changes__setup="n43.planned_fire@Axis").exists()

    log = allied.get(f"/api/v1/campaigns/{campaign.slug}/rolls/?page_size=500").json()["results"]
    shown = {roll["procedure"]: roll["table_roll"] for roll in log if roll["battle"] == str(battle.public_id)}
    assert shown["n43.setup_proximity"] == "rolled at the table by allied"
    assert shown["n43.air_superiority"] == ""


@pytest.mark.parametrize(
    ("user", "faces", "inputs", "status", "field"),
    [
        ("allied", {"n43.air_superiority": [5]}, TERRAIN, 403, "faces.n43.air_superiority"),  # umpires'
        ("allied", {"n43.planned_fire@Axis": [5, 5]}, TERRAIN, 403, "faces.n43.planned_fire@Axis"),
        ("allied", {"n43.counterbattery@Allied": [5]}, TERRAIN, 400, "faces.n43.counterbattery@Allied"),
        (
            "allied",
            {"n43.setup_proximity": [3, 4]},
            TERRAIN,
            400,
            "faces.n43.setup_proximity",
        ),  # one too many
        (
            "allied",
            {"n43.planned_fire@Allied": [6]},
            TERRAIN,
            400,
            "faces.n43.planned_fire@Allied",
        ),  # too few
        (
            "allied",
            {"n43.setup_proximity": [3]},
            {**TERRAIN, "n43.planned_fire@Axis": {}},
            403,
            "inputs.n43.planned_fire@Axis",
        ),
        ("allied", {}, TERRAIN, 400, "faces"),
        ("allied", {"n43.setup_proximity": [7]}, TERRAIN, 400, "faces.n43.setup_proximity"),  # no 7 on a d6
    ],
)
def test_what_a_caller_may_not_enter_is_refused_naming_the_field(user, faces, inputs, status, field):
    campaign, battle = _planned()
    answer = _set_up(_as(user), campaign, battle, inputs=inputs, faces=faces)
    assert answer.status_code == status, answer.json()
    assert field in answer.json()["error"]["fields"], answer.json()
    assert not battle.rolls.exists()


def test_the_umpire_enters_any_step_the_club_rolls_at_the_table():
    campaign, battle = _planned()
    answer = _set_up(_as("umpire"), campaign, battle, inputs=TERRAIN, faces={"n43.setup_proximity": [4]})
    assert answer.status_code == 200, answer.json()
    (roll,) = battle.rolls.filter(at_table=True)
    assert roll.table_roll == "rolled at the table by umpire"
    assert (
        _as("allied").get(f"/api/v1/campaigns/{campaign.slug}/battles/{battle.public_id}/").status_code == 200
    )


def test_players_set_nothing_up_unless_the_club_lets_them_roll_a_step():
    campaign, battle = _planned()
    models.Campaign.objects.filter(pk=campaign.pk).update(table_dice={"n43.air_superiority": "umpire"})
    answer = _set_up(_as("axis"), campaign, battle, inputs=TERRAIN, faces={"n43.setup_proximity": [3]})
    assert answer.status_code == 403
    assert "battle" in answer.json()["error"]["fields"]


@pytest.mark.parametrize(
    ("table_dice", "field"),
    [
        ({"gb.barrage_delay": "umpire"}, "table_dice.gb.barrage_delay"),  # not a set-up step
        ({"n43.field_strength": "umpire"}, "table_dice.n43.field_strength"),  # rolls no dice
        ({"n43.fuel_supply": "players"}, "table_dice.n43.fuel_supply"),  # one roll per battalion
        ({"n43.air_superiority": "everybody"}, "table_dice.n43.air_superiority"),
        (["n43.air_superiority"], "table_dice"),
    ],
)
def test_a_setting_the_service_cannot_honour_is_refused_naming_it(table_dice, field):
    campaign = malta_day_one(battle=False)
    with pytest.raises(DomainError) as refused:
        object_correct(campaign, Actor(), changes={"table_dice": ({}, table_dice)})
    assert refused.value.field == field


def test_verify_reports_an_entered_roll_as_entered_and_checks_its_result_against_its_faces():
    campaign, battle = _planned()
    assert (
        _set_up(
            _as("allied"), campaign, battle, inputs=TERRAIN, faces={"n43.setup_proximity": [3]}
        ).status_code
        == 200
    )
    roll = battle.rolls.get(at_table=True)
    document = {
        "day": 1,
        "seed": "x",
        "commitment": "y",
        "rolls": [
            {
                "id": str(roll.public_id),
                "procedure": roll.procedure,
                "stream": roll.stream,
                "inputs": roll.inputs,
                "result": roll.result,
                "faces": [[3]],
                "entered": roll.table_roll,
            }
        ],
    }
    report = verify(document)
    assert report.entered == [
        f"roll {roll.public_id} (n43.setup_proximity, stream {roll.stream}): rolled at the table by allied, "
        "its faces entered, not replayable from a seed"
    ]
    assert not report.mismatches
    document["rolls"][0]["result"] = {**roll.result, "outcome_text": "attacker no nearer than 900 yds"}
    assert "result.outcome_text" in verify(document).mismatches[0]
