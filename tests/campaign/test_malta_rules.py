"""Malta's house rules and variants through the services (issue 15; its acceptance is
test_malta_days_1_3.py): the pack, every variant on, plays days 1-3 —
division pools from turn 2, a day cut short by the day-end roll, an Axis artillery mode refused on
day 1, a postponed arrival, a C Ops overrun, air support, entrenchments, C Ops action points saved,
reactivation and initiative activation — each roll recorded with its rule reference."""

from __future__ import annotations

import json

import pytest

from campaign import models
from campaign.choices import ActivationState, DayStatus
from campaign.scenarios import MALTA_PACK_PATH, pack_read
from campaign.services.activation import (
    activation_spend,
    battalion_deactivate,
    battalion_reactivate,
    battlegroup_initiative_activate,
)
from campaign.services.battle_reports import battle_report
from campaign.services.battles import battle_create
from campaign.services.campaigns import campaign_start
from campaign.services.day_rules import (
    air_support_request,
    arrival_postpone,
    artillery_order_set,
    day_end_roll,
    force_cops_action_points,
    force_cops_overrun,
    stand_entrench,
    stand_move,
)
from campaign.services.days import day_dawn, segment_advance
from campaign.services.errors import ConflictError, DomainError
from campaign.services.night import night_phase_start
from campaign.services.operations import operation_run
from campaign.services.rules import roll_replay
from campaign.services.scenario import scenario_import
from tests.campaign.night_setup import ACTOR

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("equipment_reference")]

MALTA_RULE = "FAQ 44, Malta Scenario"
HOUSE_RULE = "FAQ 44, House Rules/Clarifications for Malta"


def cites(record: models.RollRecord, section: str) -> bool:
    """The roll's recorded result names the rule it was read under."""
    return section in json.dumps(record.result)


def night(campaign: models.Campaign) -> models.Operation:
    operation = night_phase_start(campaign.pk, ACTOR)
    return operation_run(operation.pk)


def play_to_turn_ten(campaign: models.Campaign, day: models.CampaignDay) -> None:
    """Open segments until the day's turns reach 10 (or its segments run out)."""
    while sum(s.turns or 0 for s in day.segments.all()) < 10:
        try:
            segment_advance(campaign.pk, ACTOR)
        except ConflictError:
            return


def day_end_rolls(campaign: models.Campaign, day: models.CampaignDay) -> list[models.RollRecord]:
    """The day-end roll after Allied turns 7-10, until one ends the day."""
    made = []
    for turn in range(7, 11):
        made.append(day_end_roll(campaign.pk, ACTOR, allied_turn=turn))
        if made[-1].changes.get("ended_after_turn"):
            with pytest.raises(ConflictError) as over:  # the day's later segments are not played
                segment_advance(campaign.pk, ACTOR)
            assert over.value.code == "day_over"
            break
    return made


def test_the_malta_pack_plays_days_one_to_three_with_every_rule_applied(django_capture_on_commit_callbacks):
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), ACTOR)
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    ramcke = campaign.forces.get(name="Fallschirmjäger-Brigade Ramcke")
    western = campaign.forces.get(name="Western Infantry Command")
    eastern = campaign.forces.get(name="Eastern Infantry Command")
    livorno = campaign.forces.get(name="4a Divisione Fanteria Livorno")

    with django_capture_on_commit_callbacks(execute=False):  # arrival rolls would go to a worker
        campaign_start(campaign.pk, ACTOR)
        day1 = day_dawn(campaign.pk, ACTOR)

        # Day 1, turn 1: the side's starting points (Axis 8, Allied 3) pay, for any of its units.
        first = activation_spend(
            campaign.pk,
            ACTOR,
            side_id=axis.pk,
            column="1 Bg",
            turn=1,
            battalion_codes=["G1", "G2", "G3", "G4"],
        )
        assert (first.force, first.cost) == (None, 4)
        axis.refresh_from_db()
        assert axis.activation_points == 4

        # From turn 2 each division pays from its own pool, empty until it saves points.
        with pytest.raises(DomainError) as overspent:
            activation_spend(
                campaign.pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=2, battalion_codes=["I1"]
            )
        assert overspent.value.code == "pool_overspent"
        assert "185a Divisione Paracadutisti Folgore" in overspent.value.message
        with pytest.raises(DomainError) as two_divisions:
            activation_spend(
                campaign.pk, ACTOR, side_id=allied.pk, column="2 Bgs", turn=3, battalion_codes=["W1", "E1"]
            )
        assert two_divisions.value.code == "several_divisions"

        # Variant 1: Ramcke's C Ops saves its action points as the division's activation points.
        saved = []
        for turn in range(2, 8):
            saved.append(
                force_cops_action_points(campaign.pk, ACTOR, force_id=ramcke.pk, turn=turn, quality="Veteran")
            )
            ramcke.refresh_from_db()
            if ramcke.activation_points >= 2:
                break
        assert ramcke.activation_points >= 2
        assert all(r.procedure == "gb.variant.cops_action_points" and r.force_id == ramcke.pk for r in saved)
        assert all(cites(r, "Action Pts.=Activation Pts.") for r in saved)
        assert saved[-1].changes["activation_points"] == ramcke.activation_points
        with pytest.raises(ConflictError):  # one roll a turn
            force_cops_action_points(campaign.pk, ACTOR, force_id=ramcke.pk, turn=2, quality="Veteran")
        pool, spend_turn = ramcke.activation_points, turn + 1
        spend = activation_spend(
            campaign.pk, ACTOR, side_id=axis.pk, column="1 Bn", turn=spend_turn, battalion_codes=["G1"]
        )
        ramcke.refresh_from_db()
        assert spend.force_id == ramcke.pk
        assert ramcke.activation_points == pool - 2
        for turn in range(spend_turn, 7):  # saving again for the night's carry-over
            force_cops_action_points(campaign.pk, ACTOR, force_id=ramcke.pk, turn=turn, quality="Veteran")
        ramcke.refresh_from_db()
        at_nightfall = ramcke.activation_points
        assert at_nightfall > 0

        # House rule 7: the Axis plans only on-call artillery on day 1; the Allies any mode.
        with pytest.raises(DomainError) as refused:
            artillery_order_set(campaign.pk, ACTOR, side_id=axis.pk, template=1, mode="pre-planned")
        assert (refused.value.field, refused.value.code) == ("mode", "mode_not_allowed")
        assert "Axis may order only on call artillery on day 1" in refused.value.message
        assert HOUSE_RULE in (refused.value.rule or "")
        artillery_order_set(campaign.pk, ACTOR, side_id=axis.pk, template=1, mode="on-call")
        artillery_order_set(campaign.pk, ACTOR, side_id=allied.pk, template=1, mode="pre-planned")

        # Air support: an activation point of the paying pool, a d10 of 3 or less, once a turn.
        air = air_support_request(campaign.pk, ACTOR, force_id=western.pk, turn=1)
        allied.refresh_from_db()
        assert allied.activation_points == 2
        assert air.procedure == "gb.malta.air_support"
        assert cites(air, MALTA_RULE)
        assert air.changes["air_template"] == (air.result["score"] <= 3)
        with pytest.raises(ConflictError) as twice:
            air_support_request(campaign.pk, ACTOR, force_id=eastern.pk, turn=1)
        assert twice.value.code == "air_support_asked"

        # House rule 8: Allied stands start entrenched; infantry digs in with 5 action points.
        stand_entrench(campaign.pk, ACTOR, battalion_code="W1", stand_label="A Coy", at_start=True)
        with pytest.raises(DomainError) as axis_start:
            stand_entrench(campaign.pk, ACTOR, battalion_code="G1", stand_label="1. Kp", at_start=True)
        assert axis_start.value.field == "at_start"
        with pytest.raises(DomainError):  # a heavy weapons stand does not dig in
            stand_entrench(campaign.pk, ACTOR, battalion_code="G1", stand_label="4. Kp (MG)", action_points=5)
        digging = stand_entrench(
            campaign.pk, ACTOR, battalion_code="G1", stand_label="1. Kp", action_points=3
        )
        assert (digging.entrenchment_points, digging.entrenched) == (3, False)
        dug = stand_entrench(campaign.pk, ACTOR, battalion_code="G1", stand_label="1. Kp", action_points=2)
        assert (dug.entrenchment_points, dug.entrenched) == (5, True)

        # House rule 5: a planned arrival postponed 4-10 turns ("average" dice) to a new entry point.
        postponed = arrival_postpone(campaign.pk, ACTOR, force_id=livorno.pk, entry_point="St Paul's Bay")
        livorno.refresh_from_db()
        assert postponed.procedure == "gb.malta.reserve_delay"
        assert cites(postponed, HOUSE_RULE)
        assert 4 <= livorno.arrival_turns_left <= 10
        assert livorno.arrival_turns_left == postponed.result["outcome"]
        assert livorno.arrival_zone == "St Paul's Bay"

        # House rule 2: the day-end roll after Allied turns 7-10.
        play_to_turn_ten(campaign, day1)
        ends = {1: day_end_rolls(campaign, day1)}
    assert all(r.procedure == "gb.malta.day_end" and cites(r, HOUSE_RULE) for r in ends[1])
    assert all(r.visibility == "public" for r in ends[1])

    operation = night(campaign)
    assert operation.status == "done"
    axis.refresh_from_db()
    ramcke.refresh_from_db()
    assert axis.activation_points == 0  # the starting points were day 1's first turns' only
    carried = campaign.rolls.filter(procedure="gb.activation_carry_over", force=ramcke)
    assert carried.count() == at_nightfall  # a d10 per saved point, at or under 8 - day 1
    assert all(r.changes == {"activation_points": ramcke.activation_points} for r in carried)
    assert all(cites(r, "FAQ 44 Malta Scenario") for r in carried)
    report = operation.night_reports.get(side=axis).body
    assert {"name": ramcke.name, "before": at_nightfall, "carried": ramcke.activation_points} in report[
        "divisions"
    ]
    assert report["activation_points_lost"] >= 4

    with django_capture_on_commit_callbacks(execute=False):
        day2 = day_dawn(campaign.pk, ACTOR)
        tally = day2.side_tallies.get(side=axis)
        assert tally.division_activation_points[ramcke.name] == ramcke.activation_points
        # Day 2: every mode for the Axis; the entrenchment is kept until the stand moves.
        artillery_order_set(campaign.pk, ACTOR, side_id=axis.pk, template=1, mode="pre-planned")
        assert models.Stand.objects.get(battalion__code="G1", label="1. Kp").entrenched
        moved = stand_move(campaign.pk, ACTOR, battalion_code="G1", stand_label="1. Kp")
        assert (moved.entrenched, moved.entrenchment_points) == (False, 0)

        # C Ops overrun: the division's pool loses 10, its battalions are isolated.
        models.Force.objects.filter(pk=eastern.pk).update(activation_points=12)
        force_cops_overrun(campaign.pk, ACTOR, force_id=eastern.pk, turn=3)
        eastern.refresh_from_db()
        assert eastern.activation_points == 2
        assert set(
            campaign.battalions.filter(battlegroup__force=eastern).values_list("supply_situation", flat=True)
        ) == {"isolated"}

        # Reactivation of a voluntarily deactivated battalion: 2D10 under its rally number, no cost.
        models.Battalion.objects.filter(code="G3").update(activation=ActivationState.ACTIVATED)
        battalion_deactivate(campaign.pk, ACTOR, battalion_code="G3")
        reactivation = battalion_reactivate(campaign.pk, ACTOR, battalion_code="G3", turn=4)
        assert reactivation.procedure == "gb.reactivation"
        assert reactivation.changes["activation"] == models.Battalion.objects.get(code="G3").activation
        models.Battalion.objects.filter(code="G4").update(activation=ActivationState.GONE_TO_GROUND)
        with pytest.raises(ConflictError) as gone:
            battalion_reactivate(campaign.pk, ACTOR, battalion_code="G4", turn=4)
        assert gone.value.code == "not_deactivated"

        # "Initiative" activation: 1D10 by nation and morale for 1 AP, a second try on the second action.
        models.Force.objects.filter(pk=ramcke.pk).update(activation_points=1)
        tries = battlegroup_initiative_activate(campaign.pk, ACTOR, battalion_code="G2", turn=5)
        ramcke.refresh_from_db()
        assert ramcke.activation_points == 0
        assert all(r.procedure == "gb.initiative_activation" for r in tries)
        assert 1 <= len(tries) <= 2
        assert tries[0].result["rolls"][0]["dice"] == "d10"
        # With no point left: one try on 1D20.
        (on_d20,) = battlegroup_initiative_activate(campaign.pk, ACTOR, battalion_code="G2", turn=6)
        assert on_d20.result["rolls"][0]["dice"] == "d20"

        play_to_turn_ten(campaign, day2)
        ends[2] = day_end_rolls(campaign, day2)
    night(campaign)

    with django_capture_on_commit_callbacks(execute=False):
        day3 = day_dawn(campaign.pk, ACTOR)
        play_to_turn_ten(campaign, day3)
        ends[3] = day_end_rolls(campaign, day3)
    night(campaign)

    # A day cut short: the roll that ended it, the segment's turns cut and no later segment.
    ended = [r for rolls in ends.values() for r in rolls if r.changes.get("ended_after_turn")]
    assert ended, "no day ended early in days 1-3"
    cut_day = ended[0].day
    assert cut_day.ended_after_turn == ended[0].changes["ended_after_turn"]
    assert cut_day.status == DayStatus.DONE
    assert ended[0].result["outcome"] is True
    if "segment_turns" in ended[0].changes:  # the roll fell inside a segment: its last turns are cut
        assert ended[0].segment.turns == ended[0].changes["segment_turns"]

    # Every roll these rules made replays from the campaign seed.
    for procedure in (
        "gb.malta.day_end",
        "gb.malta.air_support",
        "gb.malta.reserve_delay",
        "gb.reactivation",
    ):
        for record in campaign.rolls.filter(procedure=procedure):
            assert roll_replay(record), procedure


def test_barrage_templates_a_report_says_were_used_are_in_use_until_the_night_returns_them(
    django_capture_on_commit_callbacks,
):
    campaign = scenario_import(pack_read(MALTA_PACK_PATH), ACTOR)
    axis, allied = campaign.sides.get(is_axis=True), campaign.sides.get(is_axis=False)
    ramcke = campaign.forces.get(name="Fallschirmjäger-Brigade Ramcke")
    with django_capture_on_commit_callbacks(execute=False):
        campaign_start(campaign.pk, ACTOR)
        day_dawn(campaign.pk, ACTOR)
        battle = battle_create(
            campaign.pk,
            ACTOR,
            sector_name="Qrendi",
            battle_type="Local Attack",
            attacker_id=axis.pk,
            defender_id=allied.pk,
            battalion_codes=["G1", "G2", "W1"],
        )
        over = {
            "battalions": [
                {"code": "G1", "barrage_templates_used": 2},
                {"code": "G2", "barrage_templates_used": 1},
            ]
        }
        with pytest.raises(DomainError) as refused:  # the Axis has 2 templates
            battle_report(campaign.pk, ACTOR, battle.pk, over)
        assert refused.value.code == "templates_overused"
        # Points spent after turn 1 are the division's: Ramcke holds none yet.
        late = {"turn": 3, "battalions": [{"code": "G1", "activation_points_spent": 1}]}
        with pytest.raises(DomainError) as overspent:
            battle_report(campaign.pk, ACTOR, battle.pk, late)
        assert "Fallschirmjäger-Brigade Ramcke" in overspent.value.message
        models.Force.objects.filter(pk=ramcke.pk).update(activation_points=3)
        report = {
            "turn": 3,
            "battalions": [
                {"code": "G1", "barrage_templates_used": 2, "activation_points_spent": 1},
                {"code": "W1", "barrage_templates_used": 1},
            ],
        }
        battle_report(campaign.pk, ACTOR, battle.pk, report)
    axis.refresh_from_db()
    ramcke.refresh_from_db()
    assert (axis.barrage_templates_in_use, axis.activation_points, ramcke.activation_points) == (2, 8, 2)
    assert campaign.sides.get(pk=allied.pk).barrage_templates_in_use == 1

    operation = night(campaign)
    assert operation.night_reports.get(side=axis).body["templates_returned"] == 2
    assert set(campaign.sides.values_list("barrage_templates_in_use", flat=True)) == {0}
