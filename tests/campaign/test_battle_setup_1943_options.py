"""The rest of the 1943 set-up page (000 § 1, § 20, § 21): the attacker decision, and defensive
works and fuel supply when the campaign plays them; fuel state through battle reports and the night."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaign import models
from campaign.access import CampaignAccess, battle_setup_shown
from campaign.choices import EventVerb, FuelState, MemberRole, NotificationKind
from campaign.selectors import rolls as rolls_selector
from campaign.services import night, night_words
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup, battle_setup_questions
from campaign.services.battles import battle_create
from campaign.services.days import day_dawn
from campaign.services.errors import ConflictError, DomainError
from tests.campaign.factories import UserFactory, campaign_with_sides
from tests.campaign.test_night_phase import run_night

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-1943-options")
OPEN = {"n43.setup_proximity": {"terrain": "Open Terrain"}}
WORKS = "n43.defensive_works"
FUEL = "n43.fuel_supply"
ROWS = {
    f"{WORKS}@Axis": {"row": "German: North Africa"},
    f"{WORKS}@Allied": {"row": "Commonwealth: North Africa - In Open"},
}


def _battle(
    campaign: models.Campaign, battle_type: str = "Local Attack", codes=("A1", "L1")
) -> models.Battle:
    axis, allied = campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type=battle_type,
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=list(codes),
    )


@pytest.fixture
def campaign() -> models.Campaign:
    campaign = campaign_with_sides(battalions_per_side=2)
    day_dawn(campaign.pk, ACTOR)
    return campaign


def _play(campaign: models.Campaign, *rules: str, **settings: object) -> None:
    models.Campaign.objects.filter(pk=campaign.pk).update(optional_rules=list(rules), rule_settings=settings)
    campaign.refresh_from_db()


def _decider(battle: models.Battle) -> str:
    """The high roller, from the decision's last throw (a tie throws again)."""
    last = battle.rolls.filter(procedure="n43.attacker_decision").order_by("pk").last()
    assert last is not None
    return str(last.result["outcome"])


# The attacker decision (000 § 1) ------------------------------------------------------------


@pytest.mark.parametrize("seed", ["decide-1", "decide-2", "decide-3", "decide-4"])
def test_the_high_roller_decides_and_attacks(campaign, seed):
    models.Campaign.objects.filter(pk=campaign.pk).update(rng_seed=seed)
    battle = _battle(campaign)

    battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN)

    battle.refresh_from_db()
    decider = _decider(battle)
    assert battle.attacker_decided_by.name == decider
    assert battle.attacker.name == decider  # the high roller takes the attack (N43-28)
    assert battle.defender.name == ({"Axis", "Allied"} - {decider}).pop()
    throws = list(battle.rolls.filter(procedure="n43.attacker_decision").order_by("pk"))
    assert {r.visibility for r in throws} == {"battle"}  # both sides of the battle read them
    assert throws[-1].result["rule"]["section"] == "1) Battle Type"
    axis_face, allied_face = (r.result["rolls"][0]["faces"][0] for r in throws[-2:])
    assert ("Axis" if axis_face > allied_face else "Allied") == decider  # the ordered attacker threw first
    assert battle.setup["n43.attacker_decision"]["outcome_text"].startswith(f"{decider} decides who attacks")
    # Later steps read the decided roles: the attacker's air superiority bonus, each side's role.
    event = models.Event.objects.get(campaign=campaign, verb=EventVerb.BATTLE_SET_UP)
    assert event.after["attacker"] == battle.attacker_id
    assert event.after["attacker_decided_by"] == battle.attacker_decided_by_id


def test_both_readings_of_the_high_roller_are_a_club_setting(campaign):
    _play(campaign, **{"n43.attacker_decision.high_roller_takes": "defender"})
    battle = _battle(campaign)

    battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN)

    battle.refresh_from_db()
    assert battle.defender.name == _decider(battle) == battle.attacker_decided_by.name


def test_each_sides_news_of_the_battle_says_its_role_as_the_decision_left_it(campaign):
    """Issue 30: "Axis attack Allied at Hal Far" stayed in the inbox after the Allies became the
    attacker. The Allies throw the higher die at the table and take the attack."""
    models.Campaign.objects.filter(pk=campaign.pk).update(table_dice={"n43.attacker_decision": "umpire"})
    players = {}
    for side in campaign.sides.all():
        players[side.name] = UserFactory(username=f"{side.name.lower()}-player")
        models.Membership.objects.create(user=players[side.name], campaign=campaign, role="player", side=side)
    battle = _battle(campaign)  # the Axis attack, as ordered

    battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN, faces={"n43.attacker_decision": [1, 6]})

    battle.refresh_from_db()
    assert battle.attacker.name == "Allied"
    for name, user in players.items():
        news = models.Notification.objects.get(recipient=user, kind=NotificationKind.BATTLE_ASSIGNED)
        enemy = ({"Axis", "Allied"} - {name}).pop()
        role = "attack" if name == "Allied" else "defend against"
        own = "A1" if name == "Axis" else "L1"
        assert news.body == f"{name} {role} {enemy} at Hal Far (Local attack). Your battalions: {own}."


def test_a_battle_without_roles_rolls_no_attacker_decision(campaign):
    battle = _battle(campaign, "Meeting Engagement")
    questions = [q["procedure"] for q in battle_setup_questions(campaign, battle)]
    assert "n43.attacker_decision" not in questions

    battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN)

    battle.refresh_from_db()
    assert battle.attacker_decided_by is None
    assert not battle.rolls.filter(procedure="n43.attacker_decision").exists()
    other = _battle(campaign, "Meeting Engagement", codes=("A2", "L2"))
    with pytest.raises(DomainError) as refused:
        battle_setup(campaign.pk, ACTOR, other.pk, inputs={**OPEN, "n43.attacker_decision": {}})
    assert refused.value.field == "inputs.n43.attacker_decision"


# Defensive works (000 § 20) -------------------------------------------------------------------


def test_defensive_works_are_rolled_only_when_the_campaign_plays_them(campaign):
    battle = _battle(campaign)
    assert WORKS not in {q["procedure"] for q in battle_setup_questions(campaign, battle)}
    battle_setup(campaign.pk, ACTOR, battle.pk, inputs=OPEN)
    assert not battle.rolls.filter(procedure=WORKS).exists()

    _play(campaign, WORKS)
    other = _battle(campaign, codes=("A2", "L2"))
    asked = {q["step"]: q for q in battle_setup_questions(campaign, other) if q["procedure"] == WORKS}
    assert set(asked) == {f"{WORKS}@Axis", f"{WORKS}@Allied"}
    for question in asked.values():
        row = next(i for i in question["inputs"] if i["name"] == "row")
        assert row["needed"] is True

    battle_setup(campaign.pk, ACTOR, other.pk, inputs={**OPEN, **ROWS})

    other.refresh_from_db()
    defender, attacker = other.defender.name, other.attacker.name
    works = other.setup[f"{WORKS}@{defender}"]
    assert works["role"] == "defender"
    # 8 stands: one block of 150 bases. German North Africa and Commonwealth North Africa in the
    # open both print trenches, pillboxes and minefields only.
    assert set(works["amounts"]) == {"Trenches", "Pillboxes", "Minefields"}
    assert len(other.setup[f"{WORKS}@{defender}"]["results"]) == 3
    assert set(other.setup[f"{WORKS}@{attacker}"]["amounts"]) == {"Trenches", "Minefields"}
    records = other.rolls.filter(procedure=WORKS)
    assert {r.side.name for r in records} == {"Axis", "Allied"}  # each side's own secret
    assert {r.inputs["total_bases"] for r in records} == {8}
    assert all(r.result["rule"]["section"] == "20) Defensive Works" for r in records)


def test_the_defender_must_name_its_row_of_the_works_table(campaign):
    _play(campaign, WORKS)
    battle = _battle(campaign, "Stalemated Front")  # no roles: both sides dig in as defenders

    with pytest.raises(DomainError) as refused:
        battle_setup(campaign.pk, ACTOR, battle.pk, inputs={**OPEN, f"{WORKS}@Axis": ROWS[f"{WORKS}@Axis"]})
    assert refused.value.field == f"inputs.{WORKS}@Allied.row"
    battle.refresh_from_db()
    assert battle.status == "planned"
    assert not battle.rolls.exists()  # nothing half-written


# Fuel supply (000 § 21) and fuel state --------------------------------------------------------


def test_fuel_is_rolled_for_each_vehicle_battalion_and_kept_from_the_enemy(campaign):
    _play(campaign, FUEL)
    campaign.battalions.filter(code="A1").update(fuel_state=FuelState.FULL)
    campaign.battalions.filter(code="A2").update(fuel_state=FuelState.EMPTY)
    battle = _battle(campaign, codes=("A1", "A2", "L1"))
    asked = {q["step"] for q in battle_setup_questions(campaign, battle) if q["procedure"] == FUEL}
    assert asked == {f"{FUEL}@Axis"}  # the Allied battalion has no vehicle companies

    battle_setup(
        campaign.pk, ACTOR, battle.pk, inputs={**OPEN, f"{FUEL}@Axis": {"row": "German: North Africa"}}
    )

    battle.refresh_from_db()
    fuel = battle.setup[f"{FUEL}@Axis"]
    assert set(fuel) == {"A1", "A2"}
    assert fuel["A1"]["turns_of_fuel"] >= 4
    assert (fuel["A2"]["turns_of_fuel"], fuel["A2"]["outcome_text"][:11]) == (0, "out of fuel")
    rolls = battle.rolls.filter(procedure=FUEL).order_by("pk")
    assert [(r.battalion.code, r.side.name, r.result["title"]) for r in rolls] == [
        ("A1", "Axis", "Turns worth of fuel"),
        ("A1", "Axis", "Turns to start refueling"),
        ("A1", "Axis", "Refueling rate (bases per turn)"),
        ("A2", "Axis", "Turns to start refueling"),  # out of fuel: tables 2 and 3 only
        ("A2", "Axis", "Refueling rate (bases per turn)"),
    ]
    assert rolls[0].result["rule"]["section"] == "21) Fuel Supply: Table 1"
    allied = campaign.sides.get(name="Allied")
    enemy = CampaignAccess(campaign=campaign, role=MemberRole.PLAYER, side_id=allied.pk)
    assert f"{FUEL}@Axis" not in battle_setup_shown(enemy, battle)
    assert not rolls_selector(enemy).filter(procedure=FUEL).exists()
    axis = CampaignAccess(
        campaign=campaign, role=MemberRole.PLAYER, side_id=campaign.sides.get(name="Axis").pk
    )
    assert f"{FUEL}@Axis" in battle_setup_shown(axis, battle)
    assert rolls_selector(axis).filter(procedure=FUEL).count() == 5


def test_a_battle_report_changes_a_vehicle_battalions_fuel_state(campaign):
    campaign.battalions.filter(code="A1").update(fuel_state=FuelState.FULL)
    battle = _battle(campaign)
    report = {"battalions": [{"code": "A1", "fuel_state": "empty"}, {"code": "L1"}]}
    with pytest.raises(ConflictError) as off:
        battle_report(campaign.pk, ACTOR, battle.pk, report)
    assert (off.value.field, off.value.code) == ("battalions[0].fuel_state", "rule_off")

    _play(campaign, FUEL)
    for entry, field, words in (
        ({"code": "L1", "fuel_state": "low"}, "battalions[1].fuel_state", "no vehicle companies"),
        ({"code": "L1", "fuel_state": "n/a"}, "battalions[1].fuel_state", "no vehicle companies"),
    ):
        with pytest.raises(DomainError, match=words) as refused:
            battle_report(campaign.pk, ACTOR, battle.pk, {"battalions": [report["battalions"][0], entry]})
        assert refused.value.field == field
    with pytest.raises(DomainError, match="'n/a' is not a fuel state") as refused:
        battle_report(campaign.pk, ACTOR, battle.pk, {"battalions": [{"code": "A1", "fuel_state": "n/a"}]})
    assert refused.value.field == "battalions[0].fuel_state"
    assert campaign.battalions.get(code="A1").fuel_state == FuelState.FULL  # nothing half-written

    battle_report(campaign.pk, ACTOR, battle.pk, report)

    assert campaign.battalions.get(code="A1").fuel_state == FuelState.EMPTY


def test_the_night_refuels_by_supply_situation(campaign, django_capture_on_commit_callbacks):
    _play(campaign, FUEL)
    states = {
        # code: (supply situation, fuel before, fuel after the night)
        "A1": ("OK", FuelState.EMPTY, FuelState.FULL),
        "A2": ("separated", FuelState.EMPTY, FuelState.LOW),
        "L1": ("separated", FuelState.LOW, FuelState.FULL),
        "L2": ("isolated", FuelState.EMPTY, FuelState.EMPTY),
    }
    for code, (situation, before, _after) in states.items():
        campaign.battalions.filter(code=code).update(supply_situation=situation, fuel_state=before)

    operation = run_night(campaign, django_capture_on_commit_callbacks)

    assert "refuel" in operation.steps
    assert {code: campaign.battalions.get(code=code).fuel_state for code in states} == {
        code: after for code, (_s, _b, after) in states.items()
    }
    reports = {r.side.name: r.body for r in models.NightReport.objects.filter(operation=operation)}
    assert (reports["Axis"]["battalions_refuelled"], reports["Allied"]["battalions_refuelled"]) == (2, 1)
    # Set-based: one statement per move, however many battalions. A second night moves A2 on.
    with CaptureQueriesContext(connection) as queries:
        again = night.night_phase_step(operation, "refuel")
    assert len(queries) == 3
    axis = campaign.sides.get(name="Axis")
    assert again == {"sides": {str(axis.pk): {"battalions_refuelled": 1}}}
    assert campaign.battalions.get(code="A2").fuel_state == FuelState.FULL


def test_a_campaign_without_fuel_supply_plans_no_refuel(campaign, django_capture_on_commit_callbacks):
    campaign.battalions.filter(code="A1").update(fuel_state=FuelState.EMPTY)
    operation = run_night(campaign, django_capture_on_commit_callbacks)
    assert "refuel" not in operation.steps
    assert campaign.battalions.get(code="A1").fuel_state == FuelState.EMPTY
    assert night_words.COUNTER_WORDS["battalions_refuelled"] == "Vehicle battalions refuelled"
