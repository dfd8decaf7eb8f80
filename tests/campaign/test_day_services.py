"""Dawn, segments, activation, battles and overrides through the services."""

from __future__ import annotations

import pytest

from campaign import models
from campaign.choices import ActivationState, BattleStatus, DayStatus, EventVerb, StandStatus
from campaign.services.activation import activation_spend
from campaign.services.audit import Actor
from campaign.services.battle_reports import battle_report
from campaign.services.battle_setups import battle_setup
from campaign.services.battles import battle_close, battle_create
from campaign.services.days import DeploymentOrder, day_dawn, segment_advance
from campaign.services.dice import dice_commitment_fields
from campaign.services.errors import ConflictError, DomainError
from campaign.services.overrides import roll_override
from campaign.services.rules import roll_replay
from rules_engine.vocab import SupplySituation
from tests.campaign.factories import campaign_with_sides

pytestmark = pytest.mark.django_db
ACTOR = Actor(request_id="test-request")


@pytest.fixture
def campaign() -> models.Campaign:
    return campaign_with_sides(battalions_per_side=2)


def sides(campaign: models.Campaign) -> tuple[models.Side, models.Side]:
    return campaign.sides.get(name="Axis"), campaign.sides.get(name="Allied")


def test_dawn_rolls_weather_and_the_first_segment_and_records_every_roll(campaign):
    day = day_dawn(campaign.pk, ACTOR)

    day.refresh_from_db()
    assert day.number == 1
    assert day.status == DayStatus.DAY
    assert day.weather in {"C", "D", "O", "F"}
    segment = day.segments.get()
    assert segment.segment == "early morning"
    assert segment.wind_velocity
    assert segment.initiative_side is not None
    procedures = sorted(campaign.rolls.values_list("procedure", flat=True))
    assert "gb.weather" in procedures
    assert {"pk.initiative", "pk.wind"} <= set(procedures)
    weather_roll = campaign.rolls.get(procedure="gb.weather")
    assert weather_roll.changes == {"weather": day.weather}
    assert weather_roll.request_id == "test-request"
    campaign.refresh_from_db()
    assert campaign.current_day == 1
    assert campaign.current_segment == "early morning"
    assert campaign.events.filter(verb=EventVerb.DAY_DAWNED).count() == 1


def test_every_recorded_roll_replays_from_the_campaign_seed(campaign):
    day_dawn(campaign.pk, ACTOR)
    segment_advance(campaign.pk, ACTOR)

    records = list(campaign.rolls.all())
    assert len(records) >= 5
    for record in records:
        replayed = roll_replay(record)
        assert record.result in replayed


def test_the_same_seed_gives_the_same_day(campaign):
    other = campaign_with_sides(battalions_per_side=2)
    models.Campaign.objects.filter(pk=other.pk).update(**dice_commitment_fields(campaign.rng_seed))

    day_dawn(campaign.pk, ACTOR)
    day_dawn(other.pk, ACTOR)

    lines = [list(c.rolls.order_by("id").values_list("line", flat=True)) for c in (campaign, other)]
    assert lines[0] == lines[1]


def test_segments_advance_in_order_until_the_day_is_over(campaign):
    day_dawn(campaign.pk, ACTOR)
    for _ in range(7):
        segment_advance(campaign.pk, ACTOR)

    with pytest.raises(ConflictError, match="last segment") as refused:
        segment_advance(campaign.pk, ACTOR)
    assert refused.value.field == "segment"
    order = list(
        models.DaySegmentRecord.objects.filter(day__campaign=campaign).values_list("segment", flat=True)
    )
    assert order == [
        "early morning",
        "morning",
        "late morning",
        "midday",
        "afternoon",
        "evening",
        "dusk",
        "night",
    ]


def test_a_second_dawn_before_the_night_is_refused(campaign):
    day_dawn(campaign.pk, ACTOR)

    with pytest.raises(ConflictError, match="not over"):
        day_dawn(campaign.pk, ACTOR)
    assert campaign.days.count() == 1


def test_deployment_from_reserve_applies_the_chart_casualties(campaign):
    battalion = campaign.battalions.get(code="A1")
    battalion.in_reserve = True
    battalion.sector = None  # reserves are off the map
    battalion.supply_situation = SupplySituation.RESERVE.value
    battalion.save()
    c_ops = models.Sector.objects.create(campaign=campaign, key="c-ops", name="Qrendi")
    models.Force.objects.filter(pk=battalion.battlegroup.force_id).update(sector=c_ops)

    day_dawn(campaign.pk, ACTOR, deployments=[DeploymentOrder("A1", range_inches=3)])

    battalion.refresh_from_db()
    assert battalion.in_reserve is False
    assert battalion.sector == c_ops  # issue 30: deployed, it stands where its force's C Ops does
    # Issue 29: on the table it no longer read "supply Reserve".
    assert battalion.supply_situation == SupplySituation.OK.value
    statuses = sorted(battalion.stands.values_list("status", flat=True))
    # 004 chart 2, dawn phase at 3": 1 stand destroyed, 1 suppressed, retreat 3".
    assert statuses == ["destroyed", "ok", "ok", "suppressed"]
    assert battalion.stands.get(label="1").status == StandStatus.OK  # the HQ is hit last


def test_activation_spends_the_pool_and_one_column_per_turn(campaign):
    axis, _ = sides(campaign)
    day_dawn(campaign.pk, ACTOR)

    activation_spend(campaign.pk, ACTOR, side_id=axis.pk, column="1 Bg", turn=0, battalion_codes=["A1", "A2"])

    axis.refresh_from_db()
    assert axis.activation_points == 6  # 8 - 2 for one battlegroup at dawn
    assert set(campaign.battalions.filter(side=axis).values_list("activation", flat=True)) == {"activated"}
    with pytest.raises(DomainError, match="only 1 column may be chosen per turn") as mixed:
        activation_spend(campaign.pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=0, battalion_codes=["A1"])
    assert mixed.value.field == "turn"
    with pytest.raises(DomainError, match="below zero") as overspent:
        activation_spend(campaign.pk, ACTOR, side_id=axis.pk, column="3 Bgs", turn=4, battalion_codes=["A1"])
    assert overspent.value.field == "column"
    axis.refresh_from_db()
    assert axis.activation_points == 6


def test_a_battalion_gone_to_ground_needs_the_reactivation_variant(campaign):
    axis, _ = sides(campaign)
    day_dawn(campaign.pk, ACTOR)
    campaign.battalions.filter(code="A1").update(activation=ActivationState.GONE_TO_GROUND)

    with pytest.raises(DomainError, match="gone to ground") as refused:
        activation_spend(campaign.pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=2, battalion_codes=["A1"])
    assert refused.value.field == "battalion_codes[0]"
    axis.refresh_from_db()
    assert axis.activation_points == 8

    models.Campaign.objects.filter(pk=campaign.pk).update(optional_rules=["gb.reactivation"])
    activation_spend(campaign.pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=2, battalion_codes=["A1"])
    roll = campaign.rolls.get(procedure="gb.reactivation")
    state = campaign.battalions.get(code="A1").activation
    assert state == ("activated" if roll.result["outcome"] else "gone_to_ground")


def _battle(campaign: models.Campaign) -> models.Battle:
    axis, allied = sides(campaign)
    day_dawn(campaign.pk, ACTOR)
    return battle_create(
        campaign.pk,
        ACTOR,
        sector_name="Hal Far",
        battle_type="Local Attack",
        attacker_id=axis.pk,
        defender_id=allied.pk,
        battalion_codes=["A1", "L1"],
    )


def test_battle_setup_rolls_the_1943_steps_for_each_side(campaign):
    battle = _battle(campaign)

    with pytest.raises(DomainError, match="terrain: required") as incomplete:
        battle_setup(battle.campaign_id, ACTOR, battle.pk)
    assert incomplete.value.field == "inputs.n43.setup_proximity.terrain"

    battle_setup(
        battle.campaign_id, ACTOR, battle.pk, inputs={"n43.setup_proximity": {"terrain": "Open Terrain"}}
    )

    battle.refresh_from_db()
    assert battle.status == BattleStatus.SET_UP
    assert "n43.air_superiority" in battle.setup
    assert "n43.planned_fire@Axis" in battle.setup
    assert "n43.troop_reaction@Allied" in battle.setup
    assert battle.rolls.count() >= 8


def test_a_bad_setup_input_names_the_step_and_field(campaign):
    battle = _battle(campaign)

    with pytest.raises(DomainError) as refused:
        battle_setup(
            battle.campaign_id, ACTOR, battle.pk, inputs={"n43.setup_proximity": {"terrain": "swamp"}}
        )

    assert refused.value.field == "inputs.n43.setup_proximity.terrain"
    battle.refresh_from_db()
    assert battle.status == BattleStatus.PLANNED
    assert battle.rolls.count() == 0


def test_battle_report_applies_losses_pools_and_supply_together(campaign):
    battle = _battle(campaign)
    axis, allied = sides(campaign)

    battle_report(
        battle.campaign_id,
        ACTOR,
        battle.pk,
        {
            "battalions": [
                {
                    "code": "A1",
                    "destroyed": ["2"],
                    "suppressed": ["3"],
                    "activation_points_spent": 2,
                    "barrage_rounds_spent": 4,
                    "objectives": [{"name": "Hal Far airfield", "activation_points": 2}],
                },
                {"code": "L1", "destroyed": ["2", "3"], "supply_situation": "isolated"},
            ]
        },
    )

    battle.refresh_from_db()
    assert battle.status == BattleStatus.REPORTED
    a1 = campaign.battalions.get(code="A1")
    assert dict(a1.stands.values_list("label", "status")) == {
        "1": "ok",
        "2": "destroyed",
        "3": "suppressed",
        "4": "ok",
    }
    assert campaign.battalions.get(code="L1").supply_situation == "isolated"
    axis.refresh_from_db()
    allied.refresh_from_db()
    assert (axis.activation_points, axis.barrage_rounds) == (8, 6)  # 8 - 2 + 2 awarded; 10 - 4
    assert (allied.activation_points, allied.barrage_rounds) == (8, 10)
    reported = campaign.events.filter(verb=EventVerb.BATTLE_REPORTED)
    assert reported.count() == 3
    assert reported.get(object_type="Side", object_id=axis.pk).before == {
        "activation_points": 8,
        "barrage_rounds": 10,
        "barrage_templates_in_use": 0,
    }

    battle_close(battle.campaign_id, ACTOR, battle.pk)
    with pytest.raises(ConflictError):
        battle_report(battle.campaign_id, ACTOR, battle.pk, {"battalions": [{"code": "A1"}]})


def _snapshot(campaign: models.Campaign) -> tuple[object, ...]:
    return (
        sorted(models.Stand.objects.filter(campaign=campaign).values_list("pk", "status")),
        sorted(campaign.sides.values_list("pk", "activation_points", "barrage_rounds")),
        sorted(campaign.battalions.values_list("pk", "supply_situation")),
        campaign.events.count(),
        campaign.rolls.count(),
        list(campaign.battles.values_list("status", "report")),
    )


@pytest.mark.parametrize(
    ("report", "field", "message"),
    [
        ({"battalions": [{"code": "A2", "destroyed": ["2"]}]}, "battalions[0].code", "not in the battle at"),
        (
            {"battalions": [{"code": "A1", "destroyed": ["2"], "suppressed": ["2"]}]},
            "battalions[0].suppressed[0]",
            "named twice",
        ),
        (
            {"battalions": [{"code": "A1", "destroyed": ["2", "2"]}]},
            "battalions[0].destroyed[1]",
            "named twice",
        ),
        (
            {"battalions": [{"code": "A1", "destroyed": ["2"], "activation_points_spent": 9}]},
            "battalions",
            "Activation pool would go below zero",
        ),
        (
            {"battalions": [{"code": "A1", "destroyed": ["9"]}]},
            "battalions[0].destroyed[0]",
            "not in battalion",
        ),
        (
            {"battalions": [{"code": "L1", "supply_situation": "lost"}]},
            "battalions[0].supply_situation",
            "lost",
        ),
        ({"battalions": []}, "battalions", "List the battalions"),
    ],
)
def test_a_bad_report_is_refused_with_the_field_and_changes_nothing(campaign, report, field, message):
    battle = _battle(campaign)
    before = _snapshot(campaign)

    with pytest.raises(DomainError, match=message) as refused:
        battle_report(battle.campaign_id, ACTOR, battle.pk, report)

    assert refused.value.field == field
    assert _snapshot(campaign) == before


def test_battle_create_refuses_a_battalion_of_another_campaign(campaign):
    axis, allied = sides(campaign)
    campaign_with_sides()
    day_dawn(campaign.pk, ACTOR)

    with pytest.raises(DomainError) as refused:
        battle_create(
            campaign.pk,
            ACTOR,
            sector_name="X",
            battle_type="Local Attack",
            attacker_id=axis.pk,
            defender_id=allied.pk,
            battalion_codes=["A1", "B999"],
        )
    assert refused.value.field == "battalion_codes[1]"


def test_an_override_changes_the_value_and_is_recorded_not_silent(campaign):
    day_dawn(campaign.pk, ACTOR)
    morning = segment_advance(campaign.pk, ACTOR)
    turns_roll = morning.rolls.get(procedure="pk.segment_turns")
    segment = turns_roll.segment
    before = segment.turns

    override = roll_override(
        turns_roll.campaign_id,
        ACTOR,
        turns_roll.pk,
        changes={"turns": 6},
        reason="club agreed a longer morning",
    )

    segment.refresh_from_db()
    assert segment.turns == 6
    assert override.override_of == turns_roll
    assert f"turns {before} → 6" in override.line
    event = campaign.events.get(verb=EventVerb.ROLL_OVERRIDDEN)
    assert (event.before, event.after) == ({"turns": before}, {"turns": 6})
    with pytest.raises(DomainError) as refused:
        roll_override(turns_roll.campaign_id, ACTOR, turns_roll.pk, changes={"weather": "F"}, reason="no")
    assert refused.value.field == "changes.weather"
